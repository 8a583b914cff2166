// What collectRun is given besides the run record.
import type { Config } from '../config/config.js';
import type { StateStore } from '../store/store.js';

export interface CollectContext {
  store: StateStore;
  config: Config;
  /** The full environment for checks (scrubbed of secrets before any check runs). */
  processEnv: NodeJS.ProcessEnv;
  now: () => Date;
  log?: (msg: string) => void;
  version?: string;
  /** Other runs of the same races given in this call, so a batch is scored against its own fastest run. */
  racePeers?: RacePeer[];
  /**
   * Says what kind of nothing the change from `from` to `to` is (comments, ignore files, metadata…), or null when it
   * changes code; asked only when the base's tests behave as before. bin/collect passes the race's classifier.
   */
  classifyNoOp?: (worktree: string, from: string, to: string) => Promise<string | null>;
  /**
   * Code in the change from `from` to `to` that games the graded tests (a special-cased test literal, the runner
   * reached from code), one line each. bin/collect and bin/judge pass the race's rules.
   */
  findGaming?: (worktree: string, from: string, to: string, collector: Config['collector']) => Promise<string[]>;
}

/** A run of the same race known before its feedback exists (e.g. given to the same bin/collect call). */
export interface RacePeer {
  raceId: string;
  bead: string;
  seconds: number;
}
