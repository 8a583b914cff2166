// Every current feedback record's row for score-templates, select-template and the report: from the index where
// its beads are exactly the names in state/feedback, else from a rewrite joined with the folder.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { feedbackNames } from './feedback-read.js';
import {
  beadOf,
  compactIndex,
  COMPACTED_ID,
  identityOf,
  linesOfFd,
  LOCK,
  parseRow,
  reconcile,
  rowFromFile,
  sizeOf,
  TAIL_ID,
  TAIL_MAX_BYTES,
  tailRows,
  type IndexLimits,
  type Skipped,
} from './feedback-index.js';
import type { StateStore } from './store.js';
import type { FeedbackIndexRow } from '../schema/types.generated.js';

export interface ScanResult {
  feedbackFiles: number;
  fromIndex: number;
  readNow: number;
  skipped: Skipped[];
  /** Index lines that are not valid rows (e.g. half written); their beads were re-read. */
  badIndexLines: number;
  /** The index disagreed with state/feedback (files added outside the collector, deleted, corrupt): rewritten. */
  reconciled: boolean;
}

export interface ScanOptions {
  /** Re-read every feedback file and write a fresh index. */
  rebuild?: boolean;
  /** stat every indexed file and re-read those whose size or mtime changed since their row. */
  verify?: boolean;
  now?: string;
  limits?: IndexLimits;
  /** Called after each feedback file read for want of a row: progress of a first read. */
  onFileRead?: () => void;
}

type Opened = { fd: number; size: number } | null;
type OnRow = (row: FeedbackIndexRow) => void;

function openIfExists(file: string): Opened {
  try {
    const fd = openSync(file, 'r');
    return { fd, size: fstatSync(fd).size };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

const linesOf = (f: Opened): Iterable<string> => (f ? linesOfFd(f.fd, f.size) : []);

/**
 * An order-independent fingerprint of a set of bead ids: their count and two sums (mod 2^32) of independent 32-bit
 * hashes; equal fingerprints of different sets: ~2^-64. A set of 100,000 names would cost 11 MB (store.md).
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

/** Hands every current record's row to `onRow`. Memory: the tail, not the rows. */
export async function scanFeedback(store: StateStore, onRow: OnRow, opts: ScanOptions = {}): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const res: ScanResult = {
    feedbackFiles: 0,
    fromIndex: 0,
    readNow: 0,
    skipped: [],
    badIndexLines: 0,
    reconciled: false,
  };
  if (opts.rebuild) return rewrite(store, onRow, true, now, opts.onFileRead, res);
  if (sizeOf(store.path('feedback-index', TAIL_ID)) > (opts.limits?.tailMaxBytes ?? TAIL_MAX_BYTES))
    await compactIndex(store);
  // Opened under the lock: a compaction renaming new files in afterwards does not change what is read.
  const snap = await store.withLock(LOCK, () => ({
    tail: openIfExists(store.path('feedback-index', TAIL_ID)),
    compacted: openIfExists(store.path('feedback-index', COMPACTED_ID)),
  }));
  try {
    const tail = tailRows(linesOf(snap.tail));
    const index = new BeadFingerprint(); // pass 1: the index's beads against the folder's names
    for (const line of linesOf(snap.compacted)) {
      const bead = beadOf(line);
      if (bead !== undefined && !tail.has(bead)) index.add(bead);
    }
    for (const bead of tail.keys()) index.add(bead);
    const files = new BeadFingerprint();
    for (const name of feedbackNames(store)) files.add(name);
    res.feedbackFiles = files.n;
    if (files.equals(index)) return await fromIndex(store, snap.compacted, tail, onRow, opts, now, res);
  } finally {
    for (const f of [snap.tail, snap.compacted]) if (f) closeSync(f.fd);
  }
  return rewrite(store, onRow, false, now, opts.onFileRead, res);
}

/** Pass 2: each row, re-read from its file when its line is bad or (`verify`) its file changed since. */
async function fromIndex(
  store: StateStore,
  compacted: Opened,
  tail: Map<string, string>,
  onRow: OnRow,
  opts: ScanOptions,
  now: string,
  res: ScanResult,
): Promise<ScanResult> {
  let fresh: FeedbackIndexRow[] = []; // rows read now, appended so that the next run reads them instead
  const flush = async () => {
    const rows = fresh;
    fresh = [];
    if (rows.length) await store.withLock(LOCK, () => store.appendLines('feedback-index', TAIL_ID, rows));
  };
  const reread = (bead: string) => {
    const r = rowFromFile(store, bead, now);
    if ('skipped' in r) return void res.skipped.push(r.skipped);
    res.readNow++;
    onRow(r.row);
    fresh.push(r.row);
  };
  const changed = (bead: string, row: FeedbackIndexRow) => {
    try {
      const id = identityOf(store.path('feedback', bead));
      return id.size !== row.file.size || id.mtime_ms !== row.file.mtime_ms;
    } catch {
      return true;
    }
  };
  const use = (bead: string, line: string): void => {
    const row = parseRow(line);
    if (!row) res.badIndexLines++;
    if (!row || (opts.verify && changed(bead, row))) reread(bead);
    else {
      res.fromIndex++;
      onRow(row);
    }
  };
  for (const line of linesOf(compacted)) {
    const bead = beadOf(line);
    if (bead === undefined) res.badIndexLines += line.trim() === '' ? 0 : 1;
    else if (!tail.has(bead)) use(bead, line);
    if (fresh.length >= 512) await flush();
  }
  for (const [bead, line] of tail) use(bead, line);
  await flush();
  return res;
}

/** The index rewritten under its lock, joined with state/feedback (`fresh`: from the files alone), rows handed on. */
async function rewrite(
  store: StateStore,
  onRow: OnRow,
  fresh: boolean,
  now: string,
  onFileRead: (() => void) | undefined,
  res: ScanResult,
): Promise<ScanResult> {
  const names = () => {
    const s = new Set(feedbackNames(store));
    res.feedbackFiles = s.size;
    return s;
  };
  const r = await reconcile(store, names, now, fresh, onFileRead, (bead, line, made) => {
    const row = made ?? parseRow(line);
    if (row) {
      if (!made) res.fromIndex++;
      return onRow(row);
    }
    res.badIndexLines++; // a copied line that does not parse: its file is read now
    const again = rowFromFile(store, bead, now);
    if ('skipped' in again) return void res.skipped.push(again.skipped);
    res.readNow++;
    onRow(again.row);
  });
  return Object.assign(res, {
    readNow: res.readNow + r.readNow,
    skipped: [...r.skipped, ...res.skipped],
    reconciled: true,
  });
}
