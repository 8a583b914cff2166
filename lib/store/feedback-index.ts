// The feedback index, state/index/: feedback.compacted.jsonl (one row per bead) and feedback.jsonl, the tail
// appended since (the last row per bead wins), folded into the first past TAIL_MAX_BYTES. Design: docs/design/store.md.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { readFeedback, readFeedbackHead, type FileIdentity } from './feedback-read.js';
import { KINDS } from './kinds.js';
import { validate } from '../schema/schema.js';
import { AtomicFile, writeFileAtomic } from './state-write.js';
import type { StateStore } from './store.js';
import { issueKey } from './issue-key.js';
import type { Feedback, FeedbackIndexRow } from '../schema/types.generated.js';

export type { FileIdentity } from './feedback-read.js';

export const TAIL_ID = 'feedback';
export const COMPACTED_ID = 'feedback.compacted';
export const LOCK = 'feedback-index';
/** Past this the tail is compacted: a reader holds the tail alone in memory (~4,000 rows). */
export const TAIL_MAX_BYTES = 2 << 20;
/** Read and write chunks: a string over ~128 KB lives in V8's large-object space, and the peak grew with the index. */
const CHUNK = 1 << 15;

export interface IndexLimits {
  tailMaxBytes?: number;
}

/** The index row for one feedback record. Pure. */
export function summarizeFeedback(fb: Feedback, file: FileIdentity, indexedAt: string): FeedbackIndexRow {
  const j = fb.judgment;
  const issues: { key: string; severity: 'major' | 'minor'; text: string }[] = [];
  for (const i of j?.issues ?? []) {
    const key = issueKey(i);
    if (!issues.some((x) => x.key === key))
      issues.push({ key, severity: i.severity, text: i.description.slice(0, 200) });
  }
  // bead first: beadOf finds it without parsing the line.
  return {
    bead: fb.bead,
    template: fb.run.template,
    task_type: fb.run.task_type ?? null,
    completed_at: fb.run.completed_at,
    outcome: fb.outcome,
    retries: fb.run.iterations ?? null,
    composite: fb.composite,
    judge: j ? { score: j.score, verdict: j.verdict, issues } : null,
    file: { size: file.size, mtime_ms: file.mtime_ms },
    ...(fb.run.record_hash && fb.run.record_path
      ? { record: { path: fb.run.record_path, hash: fb.run.record_hash } }
      : {}),
    indexed_at: indexedAt,
  };
}

export function identityOf(file: string): FileIdentity {
  const st = statSync(file);
  return { size: st.size, mtime_ms: st.mtimeMs };
}

export function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
}

const BEAD_PREFIX = /^\{"bead":"([^"\\]+)"/;
export const beadOf = (line: string): string | undefined => BEAD_PREFIX.exec(line)?.[1];

/** Lines of an open file up to byte `end`, read in chunks. */
export function* linesOfFd(fd: number, end: number): Generator<string> {
  const buf = Buffer.allocUnsafe(CHUNK);
  const dec = new StringDecoder('utf8');
  let pos = 0;
  let rest = '';
  while (pos < end) {
    const n = readSync(fd, buf, 0, Math.min(CHUNK, end - pos), pos);
    if (n <= 0) break;
    pos += n;
    const parts = (rest + dec.write(buf.subarray(0, n))).split('\n');
    rest = parts.pop()!;
    yield* parts;
  }
  rest += dec.end();
  if (rest) yield rest;
}

function* linesOfFile(file: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    yield* linesOfFd(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/** Appends the row of a feedback record just written; compacts the tail when it has passed its bound. */
export async function indexFeedback(
  store: StateStore,
  feedback: Feedback,
  now = new Date().toISOString(),
  limits?: IndexLimits,
): Promise<FeedbackIndexRow> {
  const row = summarizeFeedback(feedback, identityOf(store.path('feedback', feedback.bead)), now);
  await store.withLock(LOCK, () => {
    store.appendLine('feedback-index', TAIL_ID, row);
    if (sizeOf(store.path('feedback-index', TAIL_ID)) > (limits?.tailMaxBytes ?? TAIL_MAX_BYTES))
      rewriteIndexLocked(store, { now });
  });
  return row;
}

/** Folds the tail into the compacted file. */
export async function compactIndex(store: StateStore): Promise<void> {
  await store.withLock(LOCK, () => void rewriteIndexLocked(store, { now: new Date().toISOString() }));
}

export interface Skipped {
  file: string;
  problem: string;
}

const OUTCOMES = new Set(['full_pass', 'partial_pass', 'agent_failure', 'infra_failure', 'timeout', 'unmeasured']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIssue = (i: unknown) => isObj(i) && typeof i.key === 'string' && typeof i.text === 'string';
const orNull = (v: unknown, type: string) => v === null || typeof v === type;

/** An index line, parsed and shape-checked: rows were validated when appended, and the schema here doubles it (store.md). */
export function parseRow(line: string): FeedbackIndexRow | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObj(v) || typeof v.bead !== 'string' || typeof v.template !== 'string' || !OUTCOMES.has(v.outcome as string))
    return null;
  if (typeof v.completed_at !== 'string' || typeof v.indexed_at !== 'string' || !isObj(v.file)) return null;
  if (!orNull(v.task_type, 'string') || !orNull(v.retries, 'number') || !orNull(v.composite, 'number')) return null;
  const j = v.judge;
  const judgeOk =
    j === null || (isObj(j) && typeof j.score === 'number' && Array.isArray(j.issues) && j.issues.every(isIssue));
  return judgeOk ? (v as unknown as FeedbackIndexRow) : null;
}

/** A feedback file's row read now (from its head when our writer wrote it, else validated whole), or why not. */
export function rowFromFile(
  store: StateStore,
  bead: string,
  now: string,
): { row: FeedbackIndexRow } | { skipped: Skipped } {
  try {
    const head = readFeedbackHead(store.path('feedback', bead));
    const row = head && head.feedback.bead === bead ? summarizeFeedback(head.feedback, head, now) : null;
    if (row && validate(KINDS['feedback-index'].schema, row).ok) return { row };
  } catch (e) {
    if (!(e instanceof TypeError) && (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // else: read whole
  }
  const r = readFeedback(store, bead);
  if (r.status === 'ok') return { row: summarizeFeedback(r.feedback, r.identity, now) };
  if (r.status === 'missing') return { skipped: { file: r.file, problem: 'vanished while scoring' } };
  return { skipped: { file: r.file, problem: r.error.problems.join('; ') } };
}

/** The tail's last line per bead; a line that is not a row is replaced by its file read now, or dropped. */
export function tailRows(lines: Iterable<string>, reread?: (bead: string) => string | null): Map<string, string> {
  const tail = new Map<string, string>();
  for (const line of lines) {
    const bead = beadOf(line);
    if (bead === undefined) continue;
    const ok = !reread || parseRow(line) ? line : reread(bead);
    if (ok !== null) tail.set(bead, ok);
  }
  return tail;
}

/** Each row a rewrite writes (`row`: made from its file just now). */
type Emit = (bead: string, line: string, row: FeedbackIndexRow | null) => void;

interface RewriteResult {
  readNow: number;
  skipped: Skipped[];
}

/**
 * Writes a new compacted file from the old one (unless `fresh`) and the tail, then empties the tail; the caller
 * holds the lock. With `names` (the beads in state/feedback; consumed) rows of deleted files and repeats are
 * dropped and files without a row are read now.
 */
function rewriteIndexLocked(
  store: StateStore,
  opts: { now: string; names?: Set<string>; fresh?: boolean; onFileRead?: () => void; emit?: Emit },
): RewriteResult {
  mkdirSync(store.dir('feedback-index'), { recursive: true });
  const tailFile = store.path('feedback-index', TAIL_ID);
  const compactedFile = store.path('feedback-index', COMPACTED_ID);
  const res: RewriteResult = { readNow: 0, skipped: [] };
  const fromFile = (bead: string) => {
    const r = rowFromFile(store, bead, opts.now);
    if ('row' in r) return r.row;
    res.skipped.push(r.skipped);
    return null;
  };
  const tail = opts.fresh
    ? new Map<string, string>()
    : tailRows(linesOfFile(tailFile), (b) => {
        const r = rowFromFile(store, b, opts.now);
        return 'row' in r ? JSON.stringify(r.row) : null;
      });
  const file = new AtomicFile(compactedFile, store.atomic());
  try {
    let chunk = '';
    const out = (bead: string, line: string, row: FeedbackIndexRow | null = null) => {
      if (opts.names && !opts.names.delete(bead)) return; // its file is gone, or a repeat
      opts.emit?.(bead, line, row);
      chunk += line + '\n';
      if (chunk.length > CHUNK) {
        file.write(chunk);
        chunk = '';
      }
    };
    if (!opts.fresh)
      for (const line of linesOfFile(compactedFile)) {
        const bead = beadOf(line);
        if (bead !== undefined && !tail.has(bead)) out(bead, line);
      }
    for (const [bead, line] of tail) out(bead, line);
    for (const bead of opts.names ?? []) {
      const row = fromFile(bead);
      opts.onFileRead?.();
      if (row) {
        res.readNow++;
        out(bead, JSON.stringify(row), row);
      }
    }
    file.write(chunk);
    // Compacted file first, then the empty tail: killed in between, the tail's rows are folded in again.
    file.commit();
    writeFileAtomic(tailFile, '', store.atomic());
  } finally {
    file.abort();
  }
  return res;
}

/** Under the lock: a rewrite joined with state/feedback (`fresh`: from the files alone), each row handed to `emit`. */
export async function reconcile(
  store: StateStore,
  names: () => Set<string>,
  now: string,
  fresh: boolean,
  onFileRead?: () => void,
  emit?: Emit,
): Promise<RewriteResult> {
  return store.withLock(LOCK, () => rewriteIndexLocked(store, { now, names: names(), fresh, onFileRead, emit }));
}
