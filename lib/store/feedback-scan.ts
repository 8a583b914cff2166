// Every current feedback record's row for score-templates, select-template and the report: the index joined with the
// names in state/feedback; files without a row are read now and indexed.
import { closeSync, rmSync, statSync } from 'node:fs';
import { feedbackNames } from './feedback-read.js';
import {
  beadOf,
  compactIndex,
  COMPACTED_ID,
  linesOfFd,
  LOCK,
  openIfExists,
  parseRow,
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
  /** The index disagreed with state/feedback (files added outside the collector, deleted, corrupt). */
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

/** Hands every current record's row to `onRow`. Memory: the tail and the folder's names, not the rows. */
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
    await store.withLock(LOCK, () => [TAIL_ID, COMPACTED_ID].forEach((id) => rmSync(indexFile(id), { force: true })));
  else if (sizeOf(indexFile(TAIL_ID)) > (opts.limits?.tailMaxBytes ?? TAIL_MAX_BYTES)) await compactIndex(store, now);
  // Opened under the lock: a compaction renaming new files in afterwards does not change what is read.
  const [compacted, tailFile] = await store.withLock(LOCK, () => [
    openIfExists(indexFile(COMPACTED_ID)),
    openIfExists(indexFile(TAIL_ID)),
  ]);
  const names = new Set(feedbackNames(store));
  res.feedbackFiles = names.size;
  let stale = false; // rows of deleted files, repeats or bad lines: a compaction drops them
  // Rows read now, appended in batches: a re-read row overrides its old one (tail), a new bead's goes to the
  // compacted file (no older row to override, and the tail stays bounded on a first read).
  const fresh = { [TAIL_ID]: [] as FeedbackIndexRow[], [COMPACTED_ID]: [] as FeedbackIndexRow[] };
  const flush = async () => {
    for (const [id, rows] of Object.entries(fresh))
      if (rows.length > 0) await store.withLock(LOCK, () => store.appendLines('feedback-index', id, rows.splice(0)));
  };
  const full = () => fresh[TAIL_ID].length + fresh[COMPACTED_ID].length >= 512;
  const readNow = (bead: string, to: keyof typeof fresh) => {
    const r = rowFromFile(store, bead, now);
    if ('skipped' in r) return void res.skipped.push(r.skipped);
    res.readNow++;
    onRow(r.row);
    fresh[to].push(r.row);
  };
  const changed = (bead: string, row: FeedbackIndexRow) => {
    const st = statSync(store.path('feedback', bead), { throwIfNoEntry: false });
    return !st || st.size !== row.file.size || st.mtimeMs !== row.file.mtime_ms;
  };
  const use = (bead: string, line: string): void => {
    if (!names.delete(bead)) return void (stale = res.reconciled = true); // its file is gone, or a repeat
    const row = parseRow(line);
    if (!row) [stale, res.badIndexLines] = [true, res.badIndexLines + 1];
    if (!row || (opts.verify && changed(bead, row))) return readNow(bead, TAIL_ID);
    res.fromIndex++;
    onRow(row);
  };
  try {
    const tail = tailRows(tailFile ? linesOfFd(tailFile.fd, tailFile.size) : []);
    for (const line of compacted ? linesOfFd(compacted.fd, compacted.size) : []) {
      const bead = beadOf(line);
      if (bead === undefined && line.trim() !== '') [stale, res.badIndexLines] = [true, res.badIndexLines + 1];
      else if (bead !== undefined && !tail.has(bead)) use(bead, line);
      if (full()) await flush();
    }
    for (const [bead, line] of tail) use(bead, line);
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
