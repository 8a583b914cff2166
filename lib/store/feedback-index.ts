// The feedback index (state/index/: a compacted file and the tail appended since, last row per bead winning) and its
// reader, scanFeedback: every current record's row, the index joined with state/feedback. Design: docs/design/store.md.
import { closeSync, fstatSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { feedbackNames, readFeedback, readFeedbackHead, type FileIdentity } from './feedback-read.js';
import { KINDS } from './kinds.js';
import { isSafeId } from './bead.js';
import { rowStaleness } from '../evidence/currency.js';
import { join } from 'node:path';
import { conforms, validate } from '../schema/schema.js';
import { writeFileAtomic } from './state-write.js';
import { ifExists, type StateStore } from './store.js';
import type { Feedback, FeedbackIndexRow } from '../schema/types.generated.js';

const TAIL_ID = 'feedback';
const COMPACTED_ID = 'feedback.compacted';
const LOCK = 'feedback-index';
/** Past this the tail is compacted: a reader holds the tail alone in memory (~4,000 rows). */
const TAIL_MAX_BYTES = 2 << 20;
/** A string over ~128 KB lives in V8's large-object space: reads and writes go in chunks. */
const CHUNK = 1 << 15;

export interface Skipped {
  file: string;
  problem: string;
}

/** The category when the judge gave one, else the description folded (case, digits, punctuation), so repeats compare equal. */
export function issueKey(issue: { description: string; category?: string }): string {
  const cat = issue.category?.trim().toLowerCase();
  if (cat) return cat;
  const folded = issue.description
    .toLowerCase()
    .replace(/[0-9]+/g, '#')
    .replace(/[^a-z#]+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return folded || 'unspecified';
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
    // The resolved verdict (null for feedback collected before it): templates count only resolved runs as passes.
    resolved: fb.resolution?.resolved ?? null,
    targets_fixed: fb.resolution?.fixed ?? null,
    judge: j
      ? {
          score: j.score,
          ...(j.samples !== undefined && j.score_variance !== undefined
            ? { samples: j.samples, variance: j.score_variance }
            : {}),
          verdict: j.verdict,
          issues,
        }
      : null,
    file: { size: file.size, mtime_ms: file.mtime_ms },
    ...(fb.run.record_hash && fb.run.record_path
      ? { record: { path: fb.run.record_path, hash: fb.run.record_hash } }
      : {}),
    indexed_at: indexedAt,
  };
}

const sizeOf = (file: string): number => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

const BEAD_PREFIX = /^\{"bead":"([^"\\]+)"/;
const beadOf = (line: string): string | undefined => BEAD_PREFIX.exec(line)?.[1];

type OpenFile = { fd: number; size: number };

/** An open file's lines up to its size when opened, read in chunks. */
function* linesOf(file: OpenFile | null): Generator<string> {
  if (!file) return;
  const buf = Buffer.allocUnsafe(CHUNK);
  const dec = new StringDecoder('utf8');
  let rest = '';
  for (let pos = 0, n = 0; pos < file.size; pos += n) {
    n = readSync(file.fd, buf, 0, Math.min(CHUNK, file.size - pos), pos);
    if (n <= 0) break;
    const parts = (rest + dec.write(buf.subarray(0, n))).split('\n');
    rest = parts.pop()!;
    yield* parts;
  }
  rest += dec.end();
  if (rest) yield rest;
}

/** A file opened for reading with its size now, or null when it does not exist. */
function openIfExists(file: string): OpenFile | null {
  const fd = ifExists(() => openSync(file, 'r'));
  return fd === null ? null : { fd, size: fstatSync(fd).size };
}

/**
 * Each current bead's index line (the tail's last line winning over the compacted file's), joined with the folder's
 * names: `names` loses each bead yielded; `drop` hears of a line a compaction removes (no file, a repeat, no bead).
 */
function* currentLines(
  compacted: OpenFile | null,
  tail: OpenFile | null,
  names: Set<string>,
  drop: (why: 'gone' | 'bad') => void,
): Generator<[bead: string, line: string]> {
  const fresh = new Map<string, string>();
  for (const line of linesOf(tail)) {
    const bead = beadOf(line);
    if (bead !== undefined) fresh.set(bead, line);
  }
  const current = (bead: string) => {
    if (names.delete(bead)) return true;
    drop('gone');
    return false;
  };
  for (const line of linesOf(compacted)) {
    const bead = beadOf(line);
    if (bead === undefined) {
      if (line.trim() !== '') drop('bad');
    } else if (!fresh.has(bead) && current(bead)) yield [bead, line];
  }
  for (const [bead, line] of fresh) if (current(bead)) yield [bead, line];
}

/** `v` when it passes the row schema's checks but its date formats (a row was validated when appended). */
const asRow = (v: unknown): FeedbackIndexRow | null =>
  conforms<FeedbackIndexRow>(KINDS['feedback-index'].schema, v) ? v : null;

/** An index line parsed and shape-checked. */
export function parseRow(line: string): FeedbackIndexRow | null {
  try {
    return asRow(JSON.parse(line));
  } catch {
    return null; // not JSON
  }
}

/** A feedback file's row read now (from its head when our writer wrote it, else validated whole); or why not. */
export function rowFromFile(
  store: StateStore,
  bead: string,
  now: string,
): { row: FeedbackIndexRow } | { skipped: Skipped } {
  if (!isSafeId(bead))
    return { skipped: { file: join(store.dir('feedback'), `${bead}.json`), problem: 'its name is not a bead id' } };
  try {
    // A record our writer wrote (and validated): its row shape-checked.
    const head = readFeedbackHead(store.path('feedback', bead));
    const row = head && head.feedback.bead === bead ? asRow(summarizeFeedback(head.feedback, head, now)) : null;
    if (row) return { row };
  } catch (e) {
    if (!(e instanceof TypeError) && (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // else: read whole
  }
  const r = readFeedback(store, bead);
  if (r.status === 'ok') {
    const row = summarizeFeedback(r.feedback, r.identity, now);
    const v = validate(KINDS['feedback-index'].schema, row);
    return v.ok ? { row } : { skipped: { file: r.file, problem: `its index row: ${v.errors.join('; ')}` } };
  }
  if (r.status === 'missing') return { skipped: { file: r.file, problem: 'vanished while scoring' } };
  return { skipped: { file: r.file, problem: r.error.problems.join('; ') } };
}

/** Appends the row of a feedback record just written; compacts the tail when it has passed its bound. */
export async function indexFeedback(
  store: StateStore,
  feedback: Feedback,
  now = new Date().toISOString(),
  tailMaxBytes = TAIL_MAX_BYTES,
): Promise<FeedbackIndexRow> {
  const st = statSync(store.path('feedback', feedback.bead));
  const row = summarizeFeedback(feedback, { size: st.size, mtime_ms: st.mtimeMs }, now);
  await store.withLock(LOCK, () => {
    store.appendLine('feedback-index', TAIL_ID, row);
    if (sizeOf(store.path('feedback-index', TAIL_ID)) > tailMaxBytes) compactLocked(store, now);
  });
  return row;
}

/** Folds the tail into the compacted file, joined with state/feedback: rows of deleted files and repeats go. */
export async function compactIndex(store: StateStore, now = new Date().toISOString()): Promise<void> {
  await store.withLock(LOCK, () => compactLocked(store, now));
}

/** The caller holds the lock. A line that is not a row is replaced by its file read now, or dropped. */
function compactLocked(store: StateStore, now: string): void {
  const tailFile = store.path('feedback-index', TAIL_ID);
  const names = new Set(feedbackNames(store));
  const [old, tail] = [openIfExists(store.path('feedback-index', COMPACTED_ID)), openIfExists(tailFile)];
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const [bead, line] of currentLines(old, tail, names, () => undefined)) {
      const r = parseRow(line) ? null : rowFromFile(store, bead, now);
      if (r && !('row' in r)) continue;
      chunk += `${r ? JSON.stringify(r.row) : line}\n`;
      if (chunk.length > CHUNK) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  try {
    writeFileAtomic(store.path('feedback-index', COMPACTED_ID), chunks(), store.atomic());
    // Compacted file first, then the empty tail: killed in between, the tail's rows are folded in again.
    writeFileAtomic(tailFile, '', store.atomic());
  } finally {
    for (const f of [old, tail]) if (f) closeSync(f.fd);
  }
}

export interface ScanResult {
  feedbackFiles: number;
  fromIndex: number;
  readNow: number;
  skipped: Skipped[];
  /** Index lines that are not valid rows (e.g. half written); their beads were re-read. */
  badIndexLines: number;
  /** The index disagreed with state/feedback (files added outside the collector, deleted, corrupt). */
  reconciled: boolean;
}

export interface ScanOptions {
  /** Re-read every feedback file and write a fresh index. */
  rebuild?: boolean;
  /** stat every indexed file and re-read those whose size or mtime changed since their row. */
  verify?: boolean;
  now?: string;
  /** The tail's bound (tests set a small one). */
  tailMaxBytes?: number;
  /** Called after each feedback file read for want of a row: progress of a first read. */
  onFileRead?: () => void;
}

/**
 * Hands every current record's row to `onRow`; a row whose run record changed since it was measured is `skipped`
 * with the line naming the collect to run (every reader leaves stale feedback out). Memory: the tail and the names.
 */
export async function scanFeedback(
  store: StateStore,
  onRow: (row: FeedbackIndexRow) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const res: ScanResult = {
    feedbackFiles: 0,
    fromIndex: 0,
    readNow: 0,
    skipped: [],
    badIndexLines: 0,
    reconciled: false,
  };
  const indexFile = (id: string) => store.path('feedback-index', id);
  if (opts.rebuild)
    await store.withLock(LOCK, () => {
      for (const id of [TAIL_ID, COMPACTED_ID]) rmSync(indexFile(id), { force: true });
    });
  else if (sizeOf(indexFile(TAIL_ID)) > (opts.tailMaxBytes ?? TAIL_MAX_BYTES)) await compactIndex(store, now);
  // Opened under the lock: a compaction renaming new files in afterwards does not change what is read.
  const [compacted, tailFile] = await store.withLock(LOCK, () => [
    openIfExists(indexFile(COMPACTED_ID)),
    openIfExists(indexFile(TAIL_ID)),
  ]);
  const names = new Set(feedbackNames(store));
  res.feedbackFiles = names.size;
  let stale = false; // rows of deleted files, repeats or bad lines: a compaction drops them
  const drop = (why: 'gone' | 'bad') => {
    stale = true;
    if (why === 'bad') res.badIndexLines++;
    else res.reconciled = true; // its file is gone, or a repeat
  };
  // Rows read now, appended in batches: a re-read row overrides its old one (tail), a new bead's goes to the
  // compacted file (no older row to override, and the tail stays bounded on a first read), unsynced: a row a crash
  // loses is read again.
  const fresh = { [TAIL_ID]: [] as FeedbackIndexRow[], [COMPACTED_ID]: [] as FeedbackIndexRow[] };
  const flush = async () => {
    for (const [id, rows] of Object.entries(fresh))
      if (rows.length > 0)
        await store.withLock(LOCK, () =>
          store.appendLines('feedback-index', id, rows.splice(0), { validated: true, sync: id === TAIL_ID }),
        );
  };
  // Batches of 1,024 (~0.5 MB): 20 appends at 20,000 instead of 40.
  const full = () => fresh[TAIL_ID].length + fresh[COMPACTED_ID].length >= 1024;
  const hand = (row: FeedbackIndexRow): void => {
    const why = rowStaleness(row);
    if (why) res.skipped.push({ file: store.path('feedback', row.bead), problem: why });
    else onRow(row);
  };
  const readNow = (bead: string, to: keyof typeof fresh): void => {
    const r = rowFromFile(store, bead, now);
    if ('skipped' in r) {
      res.skipped.push(r.skipped);
      return;
    }
    res.readNow++;
    hand(r.row);
    fresh[to].push(r.row);
  };
  const changed = (bead: string, row: FeedbackIndexRow) => {
    const st = statSync(store.path('feedback', bead), { throwIfNoEntry: false });
    return !st || st.size !== row.file.size || st.mtimeMs !== row.file.mtime_ms;
  };
  try {
    for (const [bead, line] of currentLines(compacted, tailFile, names, drop)) {
      const row = parseRow(line);
      if (!row) drop('bad');
      if (!row || (opts.verify && changed(bead, row))) readNow(bead, TAIL_ID);
      else {
        res.fromIndex++;
        hand(row);
      }
      if (full()) await flush();
    }
  } finally {
    for (const f of [compacted, tailFile]) if (f) closeSync(f.fd);
  }
  for (const bead of names) {
    res.reconciled = true;
    readNow(bead, COMPACTED_ID);
    opts.onFileRead?.();
    if (full()) await flush();
  }
  await flush();
  if (stale) await compactIndex(store, now);
  return res;
}
