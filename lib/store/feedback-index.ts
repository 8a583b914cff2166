// The feedback index: one compact summary row per feedback file, in two files under state/index/:
//   feedback.compacted.jsonl  one row per bead, sorted by bead (rewritten atomically by compaction);
//   feedback.jsonl            the tail: rows appended since (a bead may repeat; the last row wins).
// Writers append to the tail under the `feedback-index` lock and compact it into the sorted file once it passes
// TAIL_MAX_BYTES, so a reader needs memory only for the tail, not for every bead. Re-scoring reads these instead
// of every feedback file; feedback files stay as they are for `jq`. Design: docs/design/templates.md.
import { closeSync, constants, fstatSync, mkdirSync, openSync, opendirSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { isIndexRow, readFeedbackFile, rowProblems } from './feedback-head.js';
import { AtomicFile, causeOf, StateWriteError, tempName, writeAll, writeFileAtomic } from './state-write.js';
import { CorruptStateError, type StateStore } from './store.js';
import { issueKey } from '../templates/issues.js';
import type { Feedback, FeedbackIndexRow } from './types.generated.js';

const TAIL_ID = 'feedback';
const COMPACTED_ID = 'feedback.compacted';
const LOCK = 'feedback-index';

/** The tail is compacted once it is larger than this (about 4,000 rows of ~500 bytes: a few MB to dedupe). */
export const TAIL_MAX_BYTES = 2 << 20;
/** Rows per sorted run when a tail (or a directory listing) larger than that must be sorted: an external sort. */
export const RUN_ROWS = 8192;

/** Bounds of the index's working memory; tests make them small to exercise compaction and the external sort. */
export interface IndexLimits {
  tailMaxBytes?: number;
  runRows?: number;
}
interface Limits {
  tailMaxBytes: number;
  runRows: number;
}
const limitsOf = (l?: IndexLimits): Limits => ({ tailMaxBytes: l?.tailMaxBytes ?? TAIL_MAX_BYTES, runRows: l?.runRows ?? RUN_ROWS });

export interface FileIdentity {
  size: number;
  mtime_ms: number;
}

/** The index row for one feedback record. Pure. */
export function summarizeFeedback(fb: Feedback, file: FileIdentity, indexedAt: string): FeedbackIndexRow {
  const j = fb.judgment;
  const issues: { key: string; severity: 'major' | 'minor'; text: string }[] = [];
  for (const i of j?.issues ?? []) {
    const key = issueKey(i);
    if (!issues.some((x) => x.key === key)) issues.push({ key, severity: i.severity, text: i.description.slice(0, 200) });
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
    indexed_at: indexedAt,
  };
}

function identityOf(file: string): FileIdentity {
  const st = statSync(file);
  return { size: st.size, mtime_ms: st.mtimeMs };
}

function sizeOf(file: string): number {
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
export async function indexFeedback(store: StateStore, feedback: Feedback, now = new Date().toISOString(), limits?: IndexLimits): Promise<FeedbackIndexRow> {
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


/**
 * Chunk size for reading and writing the index. Small on purpose: a string over ~128 KB is allocated in V8's
 * large-object space, freed only by a full GC, so 1 MB chunks made the peak grow with the index's size.
 */
const CHUNK = 1 << 15;

/** Lines of an open file up to byte `end`, read in chunks of `bufSize`, so memory does not grow with the file. */
function* linesOfFd(fd: number, end: number, bufSize = CHUNK): Generator<string> {
  const buf = Buffer.allocUnsafe(bufSize);
  const dec = new StringDecoder('utf8'); // a character split between two chunks stays whole
  let pos = 0;
  let rest = '';
  while (pos < end) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (n <= 0) break;
    pos += n;
    const parts = (rest + dec.write(buf.subarray(0, n))).split('\n');
    rest = parts.pop()!;
    for (const p of parts) yield p;
  }
  rest += dec.end();
  if (rest) yield rest;
}

function* linesOfFile(file: string, bufSize?: number): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    yield* linesOfFd(fd, fstatSync(fd).size, bufSize);
  } finally {
    closeSync(fd);
  }
}

const BEAD_PREFIX = /^\{"bead":"([^"\\]+)"/;
const beadOf = (line: string): string | undefined => BEAD_PREFIX.exec(line)?.[1];

function* keyed(lines: Iterable<string>): Generator<[string, string]> {
  for (const line of lines) {
    const b = beadOf(line);
    if (b !== undefined) yield [b, line];
  }
}

/**
 * k-way merge of streams sorted by key; for equal keys the later stream (and, within one stream, the later line)
 * wins. Memory: one head per stream.
 */
function* mergeSorted(sources: Iterator<[string, string]>[]): Generator<[string, string]> {
  const heads = sources.map((s) => s.next());
  for (;;) {
    let min: string | undefined;
    for (const h of heads) if (!h.done && (min === undefined || h.value[0] < min)) min = h.value[0];
    if (min === undefined) return;
    let win = '';
    for (let i = 0; i < heads.length; i++) {
      while (!heads[i]!.done && heads[i]!.value![0] === min) {
        win = heads[i]!.value![1];
        heads[i] = sources[i]!.next();
      }
    }
    yield [min, win];
  }
}

/**
 * An external sort with dedupe (the last line per key wins): up to `max` keys in memory, then a sorted run file in
 * a temporary folder. `sources()` gives the runs oldest first, for mergeSorted.
 */
class SortedRuns {
  private mem = new Map<string, string>();
  private files: string[] = [];
  private tmp: string | null = null;
  constructor(private readonly parent: string, private readonly max: number) {}

  add(key: string, line: string): void {
    this.mem.set(key, line);
    if (this.mem.size >= this.max) this.spill();
  }

  private spill(): void {
    const file = join(this.tmp ?? join(this.parent, tempName('sort')), `run-${this.files.length}`);
    const keys = [...this.mem.keys()].sort();
    try {
      if (!this.tmp) {
        this.tmp = join(file, '..');
        mkdirSync(this.tmp, { recursive: true });
      }
      // A run file is read back by this process only: every byte written (a short write would drop rows), no fsync.
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
      try {
        let chunk = '';
        for (const k of keys) {
          chunk += this.mem.get(k)! + '\n';
          if (chunk.length > CHUNK) {
            writeAll(fd, Buffer.from(chunk));
            chunk = '';
          }
        }
        writeAll(fd, Buffer.from(chunk));
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if (e instanceof StateWriteError) throw e;
      throw new StateWriteError(file, (e as NodeJS.ErrnoException).code, `cannot write ${file}: ${causeOf(e)}; the index is unchanged (a run of its external sort)`);
    }
    this.files.push(file);
    this.mem.clear();
  }

  sources(key: (line: string) => string | undefined): Iterator<[string, string]>[] {
    const fromFile = function* (file: string): Generator<[string, string]> {
      for (const line of linesOfFile(file)) {
        const k = key(line);
        if (k !== undefined) yield [k, line];
      }
    };
    const mem = [...this.mem.keys()].sort().map((k): [string, string] => [k, this.mem.get(k)!]);
    this.mem = new Map();
    return [...this.files.map((f) => fromFile(f)), mem[Symbol.iterator]()];
  }

  cleanup(): void {
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
  }
}

export interface Skipped {
  file: string;
  problem: string;
}

export interface ScanResult {
  feedbackFiles: number;
  fromIndex: number;
  readNow: number;
  skipped: Skipped[];
  /** Index lines that are not valid rows (e.g. half written); their beads were re-read. */
  badIndexLines: number;
  /** Whether the index had to be reconciled with state/feedback (files added outside the collector, or deleted). */
  reconciled: boolean;
}

export interface ScanOptions {
  /** Re-read every feedback file and write a fresh index. */
  rebuild?: boolean;
  /** stat every indexed file and re-read those whose size or mtime changed since their row. */
  verify?: boolean;
  now?: string;
  limits?: IndexLimits;
  /** Called after each feedback file read and parsed (files without a row, --rebuild): progress of a first read. */
  onFileRead?: () => void;
}

/** Names of state/feedback/*.json without the extension, streamed from the directory (no array of all names). */
function* feedbackNames(store: StateStore): Generator<string> {
  let dir;
  try {
    dir = opendirSync(store.dir('feedback'), { bufferSize: 128 });
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

/**
 * An order-independent fingerprint of a set of bead ids: their count and two sums (mod 2^32) of independent 32-bit
 * hashes. Two sets with equal fingerprints are equal but with probability ~2^-64 per comparison.
 */
export class BeadFingerprint {
  n = 0;
  private a = 0;
  private b = 0;
  add(s: string): void {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    this.a = (this.a + (h1 >>> 0)) % 0x100000000;
    this.b = (this.b + (h2 >>> 0)) % 0x100000000;
    this.n++;
  }
  equals(o: BeadFingerprint): boolean {
    return this.n === o.n && this.a === o.a && this.b === o.b;
  }
}

function readFeedback(store: StateStore, bead: string, now: string): { row: FeedbackIndexRow } | { skipped: Skipped } {
  const file = store.path('feedback', bead);
  try {
    // The head alone when the file is in our writer's layout (validated when written); else all of it, validated.
    let r = readFeedbackFile(file);
    let row = summarizeFeedback(r.feedback, r, now);
    if (r.head && rowProblems(row).length) {
      r = readFeedbackFile(file, true); // the full schema names the problem by its path in the file
      row = summarizeFeedback(r.feedback, r, now);
    }
    const fb = r.feedback;
    if (fb.bead !== bead) return { skipped: { file, problem: `/bead: is ${JSON.stringify(fb.bead)}, expected ${JSON.stringify(bead)} (the file name)` } };
    return { row };
  } catch (e) {
    if (e instanceof CorruptStateError) return { skipped: { file, problem: e.problems.join('; ') } };
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: { file, problem: 'vanished while scoring' } };
    throw e;
  }
}

/** A row as appended (validated then): parsed and shape-checked, not validated again (lib/store/feedback-head.ts). */
function parseRow(line: string): FeedbackIndexRow | null {
  try {
    const v: unknown = JSON.parse(line);
    return isIndexRow(v) ? v : null;
  } catch {
    return null;
  }
}

interface RewriteResult {
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
function rewriteIndexLocked(store: StateStore, lim: Limits, opts: { now: string; names?: Iterator<string>; fresh?: boolean; onFileRead?: () => void }): RewriteResult {
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
          const r = readFeedback(store, bead, opts.now); // a half-written row: its file says what it was
          if ('row' in r) runs.add(bead, JSON.stringify(r.row));
        }
      }
      sources.push(...runs.sources(beadOf));
    }
    const file = new AtomicFile(compactedFile, store.atomic());
    pending = file;
    let chunk = '';
    let last = '';
    const out = (bead: string, line: string) => {
      if (bead <= last && res.rows > 0) throw new Error(`feedback index: rows out of order at ${bead} (after ${last})`);
      last = bead;
      res.rows++;
      chunk += line + '\n';
      if (chunk.length > CHUNK) {
        file.write(chunk);
        chunk = '';
      }
    };
    const readNew = (bead: string) => {
      const r = readFeedback(store, bead, opts.now);
      opts.onFileRead?.();
      if ('skipped' in r) res.skipped.push(r.skipped);
      else {
        res.readNow++;
        out(bead, JSON.stringify(r.row));
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
  const runs = new SortedRuns(store.tmpDir(), lim.runRows);
  for (const n of feedbackNames(store)) runs.add(n, n);
  const merged = mergeSorted(runs.sources((l) => l));
  const names = (function* () {
    for (const [k] of merged) yield k;
  })();
  return { names, cleanup: () => runs.cleanup() };
}

/** Under the lock: rewrite the index joined with the directory (`fresh`: from the files alone). */
async function reconcile(store: StateStore, lim: Limits, now: string, fresh: boolean, onFileRead?: () => void): Promise<RewriteResult> {
  return store.withLock(LOCK, () => {
    const s = sortedNames(store, lim);
    try {
      return rewriteIndexLocked(store, lim, { now, names: s.names, fresh, onFileRead });
    } finally {
      s.cleanup();
    }
  });
}

interface Snapshot {
  tail: { fd: number; size: number } | null;
  compacted: { fd: number; size: number } | null;
}

function openIfExists(file: string): { fd: number; size: number } | null {
  try {
    const fd = openSync(file, 'r');
    return { fd, size: fstatSync(fd).size };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Both index files opened under the lock: a compaction renaming new files in afterwards does not change what we read. */
async function openSnapshot(store: StateStore): Promise<Snapshot> {
  return store.withLock(LOCK, () => ({
    tail: openIfExists(store.path('feedback-index', TAIL_ID)),
    compacted: openIfExists(store.path('feedback-index', COMPACTED_ID)),
  }));
}

function closeSnapshot(s: Snapshot): void {
  if (s.tail) closeSync(s.tail.fd);
  if (s.compacted) closeSync(s.compacted.fd);
}

const snapshotLines = (f: { fd: number; size: number } | null): Iterable<string> => (f ? linesOfFd(f.fd, f.size) : []);

/**
 * Hands every current feedback record's row to `onRow`. Memory: the tail (bounded by compaction) and the
 * caller's aggregates; never a list of every bead.
 *  1. The tail is compacted first when it is over its bound.
 *  2. Pass 1 (bead prefixes only): the fingerprint of the beads in the index (compacted ∪ tail) against that of
 *     the names in state/feedback, both streamed. Equal → the index covers exactly the files there. Different
 *     (a file written by something that did not index it, a deleted file, a corrupt file) → reconcile: under the
 *     lock, an external sort of the names joined with the sorted index drops deleted beads and reads, scores and
 *     indexes files without a row.
 *  3. Pass 2: validate and hand on each compacted row whose bead is not in the tail, then the tail's last rows.
 */
export async function scanFeedback(store: StateStore, onRow: (row: FeedbackIndexRow) => void, opts: ScanOptions = {}): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const lim = limitsOf(opts.limits);
  const result: ScanResult = { feedbackFiles: 0, fromIndex: 0, readNow: 0, skipped: [], badIndexLines: 0, reconciled: false };
  let reconciledReads = 0;
  if (opts.rebuild) {
    const r = await reconcile(store, lim, now, true, opts.onFileRead);
    Object.assign(result, { feedbackFiles: r.files, skipped: r.skipped, reconciled: true });
    reconciledReads = r.readNow;
  } else if (sizeOf(store.path('feedback-index', TAIL_ID)) > lim.tailMaxBytes) {
    await compactIndex(store, opts.limits);
  }

  for (;;) {
    const snap = await openSnapshot(store);
    try {
      // The tail's last line per bead; `inCompacted` is set in pass 1.
      const tail = new Map<string, { line: string; inCompacted: boolean }>();
      for (const line of snapshotLines(snap.tail)) {
        const bead = beadOf(line);
        if (bead !== undefined) tail.set(bead, { line, inCompacted: false });
        else if (line.trim() !== '') result.badIndexLines++;
      }
      if (!result.reconciled) {
        const idx = new BeadFingerprint();
        for (const line of snapshotLines(snap.compacted)) {
          const bead = beadOf(line);
          if (bead === undefined) continue;
          const t = tail.get(bead);
          if (t) t.inCompacted = true;
          idx.add(bead);
        }
        for (const [bead, t] of tail) if (!t.inCompacted) idx.add(bead);
        const files = new BeadFingerprint();
        for (const name of feedbackNames(store)) files.add(name);
        if (!files.equals(idx)) {
          const r = await reconcile(store, lim, now, false, opts.onFileRead);
          Object.assign(result, { feedbackFiles: r.files, skipped: r.skipped, reconciled: true, badIndexLines: 0 });
          reconciledReads = r.readNow;
          continue; // read the reconciled index
        }
        result.feedbackFiles = files.n;
      }

      let fromIndex = 0;
      let fresh: FeedbackIndexRow[] = [];
      const flush = async () => {
        const rows = fresh;
        fresh = [];
        if (rows.length) await store.withLock(LOCK, () => store.appendLines('feedback-index', TAIL_ID, rows));
      };
      const reread = (bead: string) => {
        const r = readFeedback(store, bead, now);
        if ('skipped' in r) result.skipped.push(r.skipped);
        else {
          result.readNow++;
          onRow(r.row);
          fresh.push(r.row); // appended to the tail in batches, so the next run reads the row instead
        }
      };
      const use = (bead: string, line: string): void => {
        const row = parseRow(line);
        if (!row) {
          result.badIndexLines++;
          return reread(bead);
        }
        if (opts.verify) {
          let id: FileIdentity | null = null;
          try {
            id = identityOf(store.path('feedback', bead));
          } catch {
            id = null;
          }
          if (!id || id.size !== row.file.size || id.mtime_ms !== row.file.mtime_ms) return reread(bead);
        }
        fromIndex++;
        onRow(row);
      };
      for (const line of snapshotLines(snap.compacted)) {
        const bead = beadOf(line);
        if (bead === undefined) {
          if (line.trim() !== '') result.badIndexLines++;
          continue;
        }
        if (!tail.has(bead)) use(bead, line);
        if (fresh.length >= 512) await flush();
      }
      for (const [bead, t] of tail) use(bead, t.line);
      await flush();
      // Rows the reconcile read from their files came back through the index: count them as read now.
      result.fromIndex = fromIndex - reconciledReads;
      result.readNow += reconciledReads;
      return result;
    } finally {
      closeSnapshot(snap);
    }
  }
}
