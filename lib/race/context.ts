// What runRace is given besides the runs.
import type { Config } from '../config/config.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { StateStore } from '../store/store.js';
import type { Asker } from '../judge/compare.js';

export interface RaceContext {
  store: StateStore;
  config: Config;
  processEnv: NodeJS.ProcessEnv;
  now: () => Date;
  log?: (msg: string) => void;
  /**
   * Progress of one solution (its bead) or of `baseline`: a phase begins (`collect`, `judge`, `evaluate`), a step of
   * it (the collector's messages), or it ends (`end`: `done` or `failed`). bin/race shows it (lib/report/progress.ts).
   */
  progress?: (id: string, phase: string, end?: 'done' | 'failed') => void;
  /** Overrides race.concurrency. */
  concurrency?: number;
  /** The race id; default: the runs' shared race_id, else derived from the task and beads. */
  raceId?: string;
  /** Judges a collected run (bin/race passes the judge when it is enabled), before its judge criteria are read. */
  judge?: (run: LoadedRunRecord) => Promise<void>;
  /** The judge's race questions (contrastive reward hack, swapped pairwise); bin/race passes it with the judge. */
  ask?: Asker;
  /** Run every solution's checks again even when its stored feedback is current (bin/race --recollect). */
  recollect?: boolean;
  /** Target test ids named for the race (bin/race --target); else derived from the per-test results. */
  targets?: string[];
}
