// Reading the feedback index for score-templates and select-template: every current record's row, from the index
// where it is up to date, from the file where not (and reconciled with state/feedback when they disagree).
import { closeSync, fstatSync, openSync } from 'node:fs';
import { feedbackNames } from './feedback-read.js';
import {
  beadOf,
  compactIndex,
  COMPACTED_ID,
  identityOf,
  limitsOf,
  LOCK,
  parseRow,
  reconcile,
  rowFromFile,
  sizeOf,
  TAIL_ID,
  type FileIdentity,
  type IndexLimits,
  type Skipped,
} from './feedback-index.js';
import { linesOfFd } from './jsonl-sort.js';
import type { StateStore } from './store.js';
import type { FeedbackIndexRow } from '../schema/types.generated.js';

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
export async function scanFeedback(
  store: StateStore,
  onRow: (row: FeedbackIndexRow) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const lim = limitsOf(opts.limits);
  const result: ScanResult = {
    feedbackFiles: 0,
    fromIndex: 0,
    readNow: 0,
    skipped: [],
    badIndexLines: 0,
    reconciled: false,
  };
  let reconciledReads = 0;
  // A rebuild, or a first read (no index yet): the rows are handed on as the reconcile writes them, rather than read
  // back from the new index (a copied row that does not parse: its file is read now, as pass 2 would).
  const handOn = async (fresh: boolean): Promise<ScanResult> => {
    let fromIndex = 0;
    let reread = 0;
    const skipped: Skipped[] = [];
    result.badIndexLines = 0;
    const r = await reconcile(store, lim, now, fresh, opts.onFileRead, (bead, line, made) => {
      const row = made ?? parseRow(line);
      if (row) {
        if (!made) fromIndex++;
        onRow(row);
        return;
      }
      result.badIndexLines++;
      const again = rowFromFile(store, bead, now);
      if ('row' in again) {
        reread++;
        onRow(again.row);
      } else skipped.push(again.skipped);
    });
    return Object.assign(result, {
      feedbackFiles: r.files,
      fromIndex,
      readNow: r.readNow + reread,
      skipped: [...r.skipped, ...skipped],
      reconciled: true,
    });
  };
  if (opts.rebuild) return handOn(true);
  if (sizeOf(store.path('feedback-index', TAIL_ID)) > lim.tailMaxBytes) {
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
        if (idx.n === 0) {
          // No index yet (a first read): one file is enough to know that all are read, listed once, by the reconcile.
          const names = feedbackNames(store);
          const any = !names.next().done;
          names.return(undefined);
          if (any) return await handOn(false);
        }
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
        const r = rowFromFile(store, bead, now);
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
          reread(bead);
          return;
        }
        if (opts.verify) {
          let id: FileIdentity | null = null;
          try {
            id = identityOf(store.path('feedback', bead));
          } catch {
            id = null;
          }
          if (!id || id.size !== row.file.size || id.mtime_ms !== row.file.mtime_ms) {
            reread(bead);
            return;
          }
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
