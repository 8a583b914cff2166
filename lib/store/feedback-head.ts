// A feedback record's head alone (the summary keys before `collected_at`) when our writer wrote it
// (lib/collector/record-order.ts, JSON.stringify(record, null, 2)); else null and the caller reads it whole, validated.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { KINDS } from './kinds.js';
import { validate } from '../schema/schema.js';
import type { Feedback, FeedbackIndexRow } from '../schema/types.generated.js';

/** Bytes read first: a record's head (everything up to `run`) is 1–3 KB; a longer head is read whole. */
export const HEAD_BYTES = 8 << 10;
/** One buffer for every head (reads are synchronous): no garbage per file. */
const headBuf = Buffer.allocUnsafe(HEAD_BYTES);

const OUR_START = /^\{\n {2}"schema_version": "[^"\\]*",\n {2}"bead": "/;
/** The first key after the head; a string never holds a raw newline, so this is a top-level key. */
const AFTER_HEAD = Buffer.from(',\n  "collected_at": ');

export interface FeedbackHead {
  /** The record's head alone (the keys before collected_at), typed as the record: read only those keys. */
  feedback: Feedback;
  size: number;
  mtime_ms: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields summarizeFeedback reads have the types it needs (their values are checked by the row's schema). */
function headShape(v: unknown): v is Feedback {
  if (!isObj(v) || typeof v.bead !== 'string' || typeof v.outcome !== 'string' || !isObj(v.run)) return false;
  if (!('composite' in v) || !('judgment' in v)) return false;
  const j = v.judgment;
  if (j === null) return true;
  return (
    isObj(j) &&
    Array.isArray(j.issues) &&
    j.issues.every(
      (i) =>
        isObj(i) && typeof i.description === 'string' && (i.category === undefined || typeof i.category === 'string'),
    )
  );
}

/** The head of a feedback file in our writer's layout (the caller checks its row with `rowProblems`), else null. */
export function readFeedbackHead(file: string): FeedbackHead | null {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const n = st.size ? readSync(fd, headBuf, 0, Math.min(st.size, HEAD_BYTES), 0) : 0;
    const cut = headBuf.subarray(0, n).indexOf(AFTER_HEAD);
    if (cut <= 0 || !endsLikeOurs(fd, st.size, n)) return null;
    const start = headBuf.toString('utf8', 0, cut);
    if (!OUR_START.test(start)) return null;
    let head: unknown;
    try {
      head = JSON.parse(`${start}\n}`);
    } catch {
      return null;
    }
    return headShape(head) ? { feedback: head, size: st.size, mtime_ms: st.mtimeMs } : null;
  } finally {
    closeSync(fd);
  }
}

/** The writer ends a file with "}\n": a file cut short (or appended to) is read whole, and reported. */
function endsLikeOurs(fd: number, size: number, inHead: number): boolean {
  if (size < 2) return false;
  if (inHead === size) return headBuf[size - 2] === 0x7d && headBuf[size - 1] === 0x0a; // a small file: read already
  return readSync(fd, tailBuf, 0, 2, size - 2) === 2 && tailBuf[0] === 0x7d && tailBuf[1] === 0x0a;
}
const tailBuf = Buffer.alloc(2);

/** The index row's schema problems (empty when valid): checked for rows made from a head alone. */
export function rowProblems(row: FeedbackIndexRow): string[] {
  const v = validate(KINDS['feedback-index'].schema, row);
  return v.ok ? [] : v.errors;
}

const OUTCOMES = new Set(['full_pass', 'partial_pass', 'agent_failure', 'infra_failure', 'timeout', 'unmeasured']);
const numOrNull = (v: unknown) => v === null || typeof v === 'number';
const strOrNull = (v: unknown) => v === null || typeof v === 'string';

/** A parsed index line has a row's shape (what the aggregation reads, with the types it needs). */
export function isIndexRow(v: unknown): v is FeedbackIndexRow {
  if (!isObj(v)) return false;
  if (
    typeof v.bead !== 'string' ||
    typeof v.template !== 'string' ||
    typeof v.completed_at !== 'string' ||
    !OUTCOMES.has(v.outcome as string)
  )
    return false;
  if (
    !strOrNull(v.task_type) ||
    !numOrNull(v.retries) ||
    !numOrNull(v.composite) ||
    !isObj(v.file) ||
    typeof v.indexed_at !== 'string'
  )
    return false;
  const j = v.judge;
  if (j === null) return true;
  return (
    isObj(j) &&
    typeof j.score === 'number' &&
    typeof j.verdict === 'string' &&
    Array.isArray(j.issues) &&
    j.issues.every((i) => isObj(i) && typeof i.key === 'string' && typeof i.text === 'string')
  );
}
