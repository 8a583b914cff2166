// The readers of state/feedback/<bead>.json: the whole record validated (missing and corrupt told apart), the
// head alone of a record our writer wrote, and the folder's names.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, type Stats } from 'node:fs';
import { KINDS } from './kinds.js';
import { CorruptStateError, ifExists, parseValidated, type StateStore } from './store.js';
import type { Feedback, FeedbackIndexRow } from '../schema/types.generated.js';

/** Size and mtime of a feedback file, as its index row keeps them. */
export type FileIdentity = FeedbackIndexRow['file'];

type FeedbackRead =
  | { status: 'ok'; file: string; feedback: Feedback; identity: FileIdentity }
  | { status: 'missing'; file: string }
  | { status: 'corrupt'; file: string; error: CorruptStateError };

/** Reads and validates one feedback record; other IO errors (EACCES, EIO) throw. */
export function readFeedback(store: StateStore, bead: string): FeedbackRead {
  const file = store.path('feedback', bead);
  const fd = ifExists(() => openSync(file, 'r'));
  if (fd === null) return { status: 'missing', file };
  let st: Stats;
  let text: string;
  try {
    st = fstatSync(fd);
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  try {
    const feedback = parseValidated<Feedback>(file, text, KINDS.feedback.schema);
    const why = `/bead: is ${JSON.stringify(feedback.bead)}, expected ${JSON.stringify(bead)} (the file name)`;
    if (feedback.bead !== bead) throw new CorruptStateError(file, [why]);
    return { status: 'ok', file, feedback, identity: { size: st.size, mtime_ms: st.mtimeMs } };
  } catch (e) {
    if (e instanceof CorruptStateError) return { status: 'corrupt', file, error: e };
    throw e;
  }
}

/** Names of state/feedback/*.json without the extension (hidden and temporary files aside). */
export function feedbackNames(store: StateStore): string[] {
  const names = ifExists(() => readdirSync(store.dir('feedback'))) ?? [];
  return names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -5));
}

/** A head (the keys before collected_at) is 1–3 KB; one buffer serves every read. */
const HEAD_BYTES = 8 << 10;
const headBuf = Buffer.allocUnsafe(HEAD_BYTES);
/** How our writer (lib/collector/record-order.ts, JSON.stringify(record, null, 2)) starts a record and ends its head. */
const OUR_START = /^\{\n {2}"schema_version": "[^"\\]*",\n {2}"bead": "/;
const AFTER_HEAD = Buffer.from(',\n  "collected_at": ');

/**
 * The head of a record in our writer's layout that ends as our writer ends a file ("}\n": not cut short), typed as
 * the record but holding only the head's keys; else null (read it whole). Its index row is validated by the caller.
 */
export function readFeedbackHead(file: string): { feedback: Feedback; size: number; mtime_ms: number } | null {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const n = readSync(fd, headBuf, 0, Math.min(st.size, HEAD_BYTES), 0);
    const cut = headBuf.subarray(0, n).indexOf(AFTER_HEAD);
    const end = n === st.size ? headBuf.subarray(n - 2, n) : Buffer.alloc(2);
    if (n < st.size) readSync(fd, end, 0, 2, st.size - 2);
    if (cut <= 0 || end[0] !== 0x7d || end[1] !== 0x0a) return null;
    const start = headBuf.toString('utf8', 0, cut);
    if (!OUR_START.test(start)) return null;
    const head = JSON.parse(`${start}\n}`) as Feedback;
    return 'composite' in head && 'judgment' in head ? { feedback: head, size: st.size, mtime_ms: st.mtimeMs } : null;
  } catch (e) {
    if (e instanceof SyntaxError) return null;
    throw e;
  } finally {
    closeSync(fd);
  }
}
