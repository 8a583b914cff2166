// Reading the feedback index for score-templates, select-template and the report: every current record's row,
// from the index where it agrees with state/feedback, else from a rewrite joined with the folder.
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
  /** The index disagreed with state/feedback (files added outside the collector, deleted, corrupt) and was rewritten. */
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
const names = (store: StateStore) => new Set(feedbackNames(store));

/**
 * Hands every current feedback record's row to `onRow`. Memory: the tail, the folder's names and the caller's
 * aggregates. Pass 1 checks that the index beads are exactly the files' names; pass 2 hands the rows on. When they
 * differ (or on --rebuild), the index is rewritten under its lock and each row handed on as it is written.
 */
export async function scanFeedback(
  store: StateStore,
  onRow: (row: FeedbackIndexRow) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const result: ScanResult = {
    feedbackFiles: 0,
    fromIndex: 0,
    readNow: 0,
    skipped: [],
    badIndexLines: 0,
    reconciled: false,
  };
  if (!opts.rebuild && sizeOf(store.path('feedback-index', TAIL_ID)) > (opts.limits?.tailMaxBytes ?? TAIL_MAX_BYTES))
    await compactIndex(store);
  const left = opts.rebuild ? null : names(store);
  const feedbackFiles = left?.size ?? 0;
  // Both files opened under the lock: a compaction renaming new ones in afterwards does not change what is read.
  const snap = opts.rebuild
    ? null
    : await store.withLock(LOCK, () => ({
        tail: openIfExists(store.path('feedback-index', TAIL_ID)),
        compacted: openIfExists(store.path('feedback-index', COMPACTED_ID)),
      }));
  try {
    if (snap && left) {
      const tail = tailRows(linesOf(snap.tail));
      let agrees = true;
      for (const line of linesOf(snap.compacted)) {
        const bead = beadOf(line);
        if (bead !== undefined && !tail.has(bead) && !left.delete(bead)) agrees = false;
      }
      for (const bead of tail.keys()) if (!left.delete(bead)) agrees = false;
      if (agrees && left.size === 0)
        return await fromIndex(store, snap, tail, onRow, { ...opts, now }, result, feedbackFiles);
    }
  } finally {
    if (snap?.tail) closeSync(snap.tail.fd);
    if (snap?.compacted) closeSync(snap.compacted.fd);
  }
  return rewrite(store, onRow, !!opts.rebuild, now, opts.onFileRead, result);
}

/** Pass 2: each row, re-read from its file when its line is bad or (`verify`) its file changed since. */
async function fromIndex(
  store: StateStore,
  snap: { compacted: Opened },
  tail: Map<string, string>,
  onRow: (row: FeedbackIndexRow) => void,
  opts: ScanOptions & { now: string },
  result: ScanResult,
  feedbackFiles: number,
): Promise<ScanResult> {
  result.feedbackFiles = feedbackFiles;
  let fresh: FeedbackIndexRow[] = [];
  const flush = async () => {
    const rows = fresh;
    fresh = [];
    if (rows.length) await store.withLock(LOCK, () => store.appendLines('feedback-index', TAIL_ID, rows));
  };
  const reread = (bead: string) => {
    const r = rowFromFile(store, bead, opts.now);
    if ('skipped' in r) return void result.skipped.push(r.skipped);
    result.readNow++;
    onRow(r.row);
    fresh.push(r.row); // the next run reads the row instead
  };
  const use = (bead: string, line: string): void => {
    const row = parseRow(line);
    if (!row) {
      result.badIndexLines++;
      return reread(bead);
    }
    if (opts.verify) {
      let id = null;
      try {
        id = identityOf(store.path('feedback', bead));
      } catch {}
      if (!id || id.size !== row.file.size || id.mtime_ms !== row.file.mtime_ms) return reread(bead);
    }
    result.fromIndex++;
    onRow(row);
  };
  for (const line of linesOf(snap.compacted)) {
    const bead = beadOf(line);
    if (bead === undefined) {
      if (line.trim() !== '') result.badIndexLines++;
    } else if (!tail.has(bead)) use(bead, line);
    if (fresh.length >= 512) await flush();
  }
  for (const [bead, line] of tail) use(bead, line);
  await flush();
  return result;
}

/** The index rewritten joined with state/feedback (from the files alone on --rebuild), each row handed on. */
async function rewrite(
  store: StateStore,
  onRow: (row: FeedbackIndexRow) => void,
  fresh: boolean,
  now: string,
  onFileRead: (() => void) | undefined,
  result: ScanResult,
): Promise<ScanResult> {
  let listed = 0;
  const r = await reconcile(
    store,
    () => {
      const s = names(store);
      listed = s.size;
      return s;
    },
    now,
    fresh,
    onFileRead,
    (bead, line, made) => {
      const row = made ?? parseRow(line);
      if (row) {
        if (!made) result.fromIndex++;
        return onRow(row);
      }
      result.badIndexLines++; // a copied line that does not parse: its file is read now
      const again = rowFromFile(store, bead, now);
      if ('skipped' in again) return void result.skipped.push(again.skipped);
      result.readNow++;
      onRow(again.row);
    },
  );
  return Object.assign(result, {
    feedbackFiles: listed,
    readNow: result.readNow + r.readNow,
    skipped: [...r.skipped, ...result.skipped],
    reconciled: true,
  });
}
