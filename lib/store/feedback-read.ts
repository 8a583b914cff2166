// The one reader of feedback records, state/feedback/<bead>.json, beside the store's generic read: the record with
// its file's identity (size, mtime), or why there is none — missing, or corrupt (not JSON, fails the schema, or its
// /bead is not its file name). Callers choose what each case means for them. Also the streamed list of the beads.
import { closeSync, type Dir, fstatSync, openSync, opendirSync, readFileSync } from 'node:fs';
import { KINDS } from './kinds.js';
import { CorruptStateError, parseValidated, type StateStore } from './store.js';
import type { Feedback } from '../schema/types.generated.js';

export interface FileIdentity {
  size: number;
  mtime_ms: number;
}

export type FeedbackRead =
  | { status: 'ok'; file: string; feedback: Feedback; identity: FileIdentity }
  | { status: 'missing'; file: string }
  | { status: 'corrupt'; file: string; error: CorruptStateError };

/** Reads and validates one feedback record; other IO errors (EACCES, EIO) throw. */
export function readFeedback(store: StateStore, bead: string): FeedbackRead {
  const file = store.path('feedback', bead);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing', file };
    throw e;
  }
  let text: string;
  let identity: FileIdentity;
  try {
    const st = fstatSync(fd);
    identity = { size: st.size, mtime_ms: st.mtimeMs };
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  try {
    const feedback = parseValidated<Feedback>(file, text, KINDS.feedback.schema);
    if (feedback.bead !== bead)
      return {
        status: 'corrupt',
        file,
        error: new CorruptStateError(file, [
          `/bead: is ${JSON.stringify(feedback.bead)}, expected ${JSON.stringify(bead)} (the file name)`,
        ]),
      };
    return { status: 'ok', file, feedback, identity };
  } catch (e) {
    if (e instanceof CorruptStateError) return { status: 'corrupt', file, error: e };
    throw e;
  }
}

/** Names of state/feedback/*.json without the extension, streamed from the directory (no array of all names). */
export function* feedbackNames(store: StateStore): Generator<string> {
  let dir: Dir;
  try {
    dir = opendirSync(store.dir('feedback'), { bufferSize: 1024 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    for (let d = dir.readSync(); d !== null; d = dir.readSync()) {
      const n = d.name;
      if (n.endsWith('.json') && !n.startsWith('.')) yield n.slice(0, -5);
    }
  } finally {
    dir.closeSync();
  }
}
