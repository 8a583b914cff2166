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
}

/** A run of the same race known before its feedback exists (e.g. given to the same bin/collect call). */
export interface RacePeer {
  raceId: string;
  bead: string;
  seconds: number;
}
