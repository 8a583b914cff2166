// The feedback index: one compact summary row per feedback file, in two files under state/index/:
//   feedback.compacted.jsonl  one row per bead, sorted by bead (rewritten atomically by compaction);
//   feedback.jsonl            the tail: rows appended since (a bead may repeat; the last row wins).
// Writers append to the tail under the `feedback-index` lock and compact it into the sorted file once it passes
// TAIL_MAX_BYTES, so a reader needs memory only for the tail, not for every bead. Re-scoring reads these instead
// of every feedback file; feedback files stay as they are for `jq`. Design: docs/design/templates.md.
// This file: the rows and the writers (append, compaction, reconcile with state/feedback); the reader is
// feedback-scan.ts, the sorted-stream machinery jsonl-sort.ts, the one feedback-file reader feedback-read.ts.
import { mkdirSync, statSync } from 'node:fs';
import { feedbackNames, readFeedback, type FileIdentity } from './feedback-read.js';
import { isIndexRow, readFeedbackHead, rowProblems, type FeedbackHead } from './feedback-head.js';
import { linesOfFile, mergeSorted, SortedRuns, CHUNK } from './jsonl-sort.js';
import { AtomicFile, writeFileAtomic } from './state-write.js';
import type { StateStore } from './store.js';
import { issueKey } from './issue-key.js';
import type { Feedback, FeedbackIndexRow } from '../schema/types.generated.js';

export type { FileIdentity } from './feedback-read.js';

export const TAIL_ID = 'feedback';
export const COMPACTED_ID = 'feedback.compacted';
export const LOCK = 'feedback-index';

/** The tail is compacted once it is larger than this (about 4,000 rows of ~500 bytes: a few MB to dedupe). */
export const TAIL_MAX_BYTES = 2 << 20;
/** Rows per sorted run when a tail (or a directory listing) larger than that must be sorted: an external sort. */
export const RUN_ROWS = 8192;
/**
 * Names per sorted run when the bead ids of state/feedback are sorted (a reconcile, a first read): a name is ~20
 * bytes against ~500 for a row, so 8× as many in a few MB; 20,000 files sort without a run file.
 */
export const NAME_RUN_ROWS = 8 * RUN_ROWS;

/** Bounds of the index's working memory; tests make them small to exercise compaction and the external sort. */
export interface IndexLimits {
  tailMaxBytes?: number;
  runRows?: number;
  /** Names per sorted run; default NAME_RUN_ROWS, or `runRows` when only that is given. */
  nameRunRows?: number;
}
export interface Limits {
  tailMaxBytes: number;
  runRows: number;
  nameRunRows: number;
}
export const limitsOf = (l?: IndexLimits): Limits => ({
  tailMaxBytes: l?.tailMaxBytes ?? TAIL_MAX_BYTES,
  runRows: l?.runRows ?? RUN_ROWS,
  nameRunRows: l?.nameRunRows ?? l?.runRows ?? NAME_RUN_ROWS,
});

/** The index row for one feedback record. Pure. */
export function summarizeFeedback(fb: Feedback, file: FileIdentity, indexedAt: string): FeedbackIndexRow {
  const j = fb.judgment;
  const issues: { key: string; severity: 'major' | 'minor'; text: string }[] = [];
  for (const i of j?.issues ?? []) {
    const key = issueKey(i);
    if (!issues.some((x) => x.key === key))
      issues.push({ key, severity: i.severity, text: i.description.slice(0, 200) });
  }
  // bead first: the reader finds a row's bead without parsing the whole line.
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

/**
 * Appends the row for a feedback record just written through the store. The collector calls it right after
 * writing state/feedback/<bead>.json (and again whenever it rewrites the file, e.g. when a judgment is merged).
 * When the tail has grown past its bound, the same call compacts it (still under the lock).
 */
export async function indexFeedback(
  store: StateStore,
  feedback: Feedback,
  now = new Date().toISOString(),
  limits?: IndexLimits,
): Promise<FeedbackIndexRow> {
  const row = summarizeFeedback(feedback, identityOf(store.path('feedback', feedback.bead)), now);
  const lim = limitsOf(limits);
  await store.withLock(LOCK, () => {
    store.appendLine('feedback-index', TAIL_ID, row);
    if (sizeOf(store.path('feedback-index', TAIL_ID)) > lim.tailMaxBytes) rewriteIndexLocked(store, lim, { now });
  });
  return row;
}

/** Merges the tail into the sorted compacted file (under the lock). Writers and score-templates call it themselves. */
export async function compactIndex(store: StateStore, limits?: IndexLimits): Promise<void> {
  await store.withLock(LOCK, () => void rewriteIndexLocked(store, limitsOf(limits), { now: new Date().toISOString() }));
}

const BEAD_PREFIX = /^\{"bead":"([^"\\]+)"/;
export const beadOf = (line: string): string | undefined => BEAD_PREFIX.exec(line)?.[1];

function* keyed(lines: Iterable<string>): Generator<[string, string]> {
  for (const line of lines) {
    const b = beadOf(line);
    if (b !== undefined) yield [b, line];
  }
}

export interface Skipped {
  file: string;
  problem: string;
}

/** A row as appended (validated then): parsed and shape-checked, not validated again (lib/store/feedback-head.ts). */
export function parseRow(line: string): FeedbackIndexRow | null {
  try {
    const v: unknown = JSON.parse(line);
    return isIndexRow(v) ? v : null;
  } catch {
    return null;
  }
}

/** A feedback file's index row read now, or why it is skipped (through the one feedback reader). */
export function rowFromFile(
  store: StateStore,
  bead: string,
  now: string,
): { row: FeedbackIndexRow } | { skipped: Skipped } {
  // The head alone when the file is in our writer's layout (validated when written) and gives a valid row; else
  // the whole file through the one reader, validated, which names any problem by its path in the file.
  let head: FeedbackHead | null;
  try {
    head = readFeedbackHead(store.path('feedback', bead));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    head = null; // the reader below says it vanished
  }
  if (head && head.feedback.bead === bead) {
    const row = summarizeFeedback(head.feedback, head, now);
    if (!rowProblems(row).length) return { row };
  }
  const r = readFeedback(store, bead);
  if (r.status === 'ok') return { row: summarizeFeedback(r.feedback, r.identity, now) };
  if (r.status === 'missing') return { skipped: { file: r.file, problem: 'vanished while scoring' } };
  return { skipped: { file: r.file, problem: r.error.problems.join('; ') } };
}

export interface RewriteResult {
  files: number;
  readNow: number;
  skipped: Skipped[];
  rows: number;
}

/**
 * Writes a new compacted index (sorted by bead, one row each) and empties the tail; the caller holds the lock, so
 * no append can fall between the read and the renames. Sources, later winning: the old compacted file (unless
 * `fresh`), then the tail (a tail line that is not a valid row is replaced by its file read now, or dropped).
 * With `names` (the sorted bead ids of state/feedback), the result is joined with the directory: rows of deleted
 * files are dropped and files without a row are read now (corrupt ones reported in `skipped`). Memory: RUN_ROWS.
 */
function rewriteIndexLocked(
  store: StateStore,
  lim: Limits,
  opts: { now: string; names?: Iterator<string>; fresh?: boolean; onFileRead?: () => void; emit?: Emit },
): RewriteResult {
  const dir = store.dir('feedback-index');
  mkdirSync(dir, { recursive: true });
  const tailFile = store.path('feedback-index', TAIL_ID);
  const compactedFile = store.path('feedback-index', COMPACTED_ID);
  const res: RewriteResult = { files: 0, readNow: 0, skipped: [], rows: 0 };
  const runs = new SortedRuns(store.tmpDir(), lim.runRows);
  let pending: AtomicFile | null = null;
  try {
    const sources: Iterator<[string, string]>[] = [];
    if (!opts.fresh) {
      sources.push(keyed(linesOfFile(compactedFile)));
      for (const line of linesOfFile(tailFile)) {
        const bead = beadOf(line);
        if (bead === undefined) continue;
        if (parseRow(line)) runs.add(bead, line);
        else {
          const r = rowFromFile(store, bead, opts.now); // a half-written row: its file says what it was
          if ('row' in r) runs.add(bead, JSON.stringify(r.row));
        }
      }
      sources.push(...runs.sources(beadOf));
    }
    const file = new AtomicFile(compactedFile, store.atomic());
    pending = file;
    let chunk = '';
    let last = '';
    const out = (bead: string, line: string, row: FeedbackIndexRow | null = null) => {
      if (bead <= last && res.rows > 0) throw new Error(`feedback index: rows out of order at ${bead} (after ${last})`);
      last = bead;
      res.rows++;
      opts.emit?.(bead, line, row);
      chunk += line + '\n';
      if (chunk.length > CHUNK) {
        file.write(chunk);
        chunk = '';
      }
    };
    const readNew = (bead: string) => {
      const r = rowFromFile(store, bead, opts.now);
      opts.onFileRead?.();
      if ('skipped' in r) res.skipped.push(r.skipped);
      else {
        res.readNow++;
        out(bead, JSON.stringify(r.row), r.row);
      }
    };
    const merged = mergeSorted(sources);
    if (!opts.names) for (const [bead, line] of merged) out(bead, line);
    else {
      const names = opts.names;
      let n = names.next();
      for (const [bead, line] of merged) {
        for (; !n.done && n.value < bead; n = names.next(), res.files++) readNew(n.value);
        if (!n.done && n.value === bead) {
          out(bead, line);
          n = names.next();
          res.files++;
        } // else: the file is gone, its row is dropped
      }
      for (; !n.done; n = names.next(), res.files++) readNew(n.value);
    }
    file.write(chunk);
    // The compacted file first, then the empty tail: a reader that holds the lock sees one or the other state
    // (killed in between: the tail's rows are merged again, the last row per bead winning as before).
    file.commit();
    pending = null;
    writeFileAtomic(tailFile, '', store.atomic());
  } finally {
    pending?.abort();
    runs.cleanup();
  }
  return res;
}

/** The sorted, deduplicated bead ids of state/feedback, by an external sort; `cleanup` removes its run files. */
function sortedNames(store: StateStore, lim: Limits): { names: Iterator<string>; cleanup: () => void } {
  const runs = new SortedRuns(store.tmpDir(), lim.nameRunRows);
  for (const n of feedbackNames(store)) runs.add(n, n);
  const merged = mergeSorted(runs.sources((l) => l));
  const names = (function* () {
    for (const [k] of merged) yield k;
  })();
  return { names, cleanup: () => runs.cleanup() };
}

/** Each row a rewrite writes, as it is written (`row`: when it was made from its file just now). */
export type Emit = (bead: string, line: string, row: FeedbackIndexRow | null) => void;

/**
 * Under the lock: rewrite the index joined with the directory (`fresh`: from the files alone). With `emit`, each
 * row written is handed on too (a caller that wants every row need not read the new index back).
 */
export async function reconcile(
  store: StateStore,
  lim: Limits,
  now: string,
  fresh: boolean,
  onFileRead?: () => void,
  emit?: Emit,
): Promise<RewriteResult> {
  return store.withLock(LOCK, () => {
    const s = sortedNames(store, lim);
    try {
      return rewriteIndexLocked(store, lim, { now, names: s.names, fresh, onFileRead, emit });
    } finally {
      s.cleanup();
    }
  });
}
