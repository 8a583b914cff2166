// The feedback index: state/index/feedback.jsonl, one compact row per feedback write (the last row per bead wins).
// Re-scoring reads this one file instead of every feedback file; feedback files stay as they are for `jq`.
import { closeSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync, fstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KINDS } from './kinds.js';
import { validate } from './schema.js';
import { CorruptStateError, parseValidated, type StateStore } from './store.js';
import { issueKey } from './templates/issues.js';
import type { Feedback, FeedbackIndexRow } from './types.generated.js';

const INDEX_ID = 'feedback';
const LOCK = 'feedback-index';

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

/**
 * Appends the row for a feedback record just written through the store. The collector calls it right after
 * writing state/feedback/<bead>.json (and again whenever it rewrites the file, e.g. when a judgment is merged).
 */
export async function indexFeedback(store: StateStore, feedback: Feedback, now = new Date().toISOString()): Promise<FeedbackIndexRow> {
  const row = summarizeFeedback(feedback, identityOf(store.path('feedback', feedback.bead)), now);
  await store.withLock(LOCK, () => store.appendLine('feedback-index', INDEX_ID, row));
  return row;
}

/** Lines of a file read in chunks up to `limit` bytes, so memory does not grow with the file. */
function* linesOf(file: string, limit?: number): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    const end = limit ?? fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(1 << 20);
    let pos = 0;
    let rest = '';
    while (pos < end) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
      if (n <= 0) break;
      pos += n;
      const text = rest + buf.toString('utf8', 0, n);
      const parts = text.split('\n');
      rest = parts.pop()!;
      for (const p of parts) yield p;
    }
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

const BEAD_PREFIX = /^\{"bead":"([^"\\]+)"/;

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
}

export interface ScanOptions {
  /** Re-read every feedback file and write a fresh index (also compacts superseded rows). */
  rebuild?: boolean;
  /** stat every indexed file and re-read those whose size or mtime changed since their row. */
  verify?: boolean;
  now?: string;
}

function feedbackBeads(store: StateStore): string[] {
  let names: string[];
  try {
    names = readdirSync(store.dir('feedback'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -5));
}

function readFeedback(store: StateStore, bead: string, now: string): { row: FeedbackIndexRow } | { skipped: Skipped } {
  const file = store.path('feedback', bead);
  try {
    const text = readFileSync(file);
    const st = statSync(file);
    const fb = parseValidated<Feedback>(file, text.toString('utf8'), KINDS.feedback.schema);
    if (fb.bead !== bead) return { skipped: { file, problem: `/bead: is ${JSON.stringify(fb.bead)}, expected ${JSON.stringify(bead)} (the file name)` } };
    return { row: summarizeFeedback(fb, { size: st.size, mtime_ms: st.mtimeMs }, now) };
  } catch (e) {
    if (e instanceof CorruptStateError) return { skipped: { file, problem: e.problems.join('; ') } };
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: { file, problem: 'vanished while scoring' } };
    throw e;
  }
}

/**
 * Hands every current feedback record's row to `onRow`: rows from the index for files it knows, and rows read now
 * (and appended to the index) for files it does not. Files no longer in state/feedback are left out.
 */
export async function scanFeedback(store: StateStore, onRow: (row: FeedbackIndexRow) => void, opts: ScanOptions = {}): Promise<ScanResult> {
  const now = opts.now ?? new Date().toISOString();
  const beads = feedbackBeads(store);
  const result: ScanResult = { feedbackFiles: beads.length, fromIndex: 0, readNow: 0, skipped: [], badIndexLines: 0 };
  if (opts.rebuild) return rebuildIndex(store, beads, onRow, result, now);

  const indexFile = store.path('feedback-index', INDEX_ID);
  let size = 0;
  try {
    size = statSync(indexFile).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // Pass 1: the last line of each present bead (rows appended later supersede earlier ones). Keys stay the
  // readdir strings: Map.set on an existing key keeps it, so no slice of an index chunk is retained.
  const last = new Map<string, number>();
  for (const b of beads) last.set(b, -1);
  let lineNo = 0;
  for (const line of linesOf(indexFile, size)) {
    const bead = BEAD_PREFIX.exec(line)?.[1];
    if (bead !== undefined && last.has(bead)) last.set(bead, lineNo);
    lineNo++;
  }
  const pending = new Set<string>();
  for (const [b, n] of last) if (n < 0) pending.add(b);
  // Pass 2: validate and hand on the winning rows of beads still present.
  lineNo = 0;
  const schema = KINDS['feedback-index'].schema;
  for (const line of linesOf(indexFile, size)) {
    const n = lineNo++;
    const bead = BEAD_PREFIX.exec(line)?.[1];
    if (bead === undefined) {
      if (line.trim() !== '') result.badIndexLines++;
      continue;
    }
    if (last.get(bead) !== n) continue;
    let row: FeedbackIndexRow;
    try {
      const data: unknown = JSON.parse(line);
      const v = validate<FeedbackIndexRow>(schema, data);
      if (!v.ok) throw new Error(v.errors.join('; '));
      row = v.value;
    } catch {
      result.badIndexLines++;
      pending.add(bead);
      continue;
    }
    if (opts.verify) {
      let id: FileIdentity | null = null;
      try {
        id = identityOf(store.path('feedback', bead));
      } catch {
        id = null;
      }
      if (!id || id.size !== row.file.size || id.mtime_ms !== row.file.mtime_ms) {
        pending.add(bead);
        continue;
      }
    }
    result.fromIndex++;
    onRow(row);
  }
  if (pending.size > 0) {
    const fresh: FeedbackIndexRow[] = [];
    for (const bead of [...pending].sort()) {
      const r = readFeedback(store, bead, now);
      if ('skipped' in r) result.skipped.push(r.skipped);
      else {
        fresh.push(r.row);
        result.readNow++;
        onRow(r.row);
      }
    }
    if (fresh.length) await store.withLock(LOCK, () => fresh.forEach((row) => store.appendLine('feedback-index', INDEX_ID, row)));
  }
  return result;
}

async function rebuildIndex(
  store: StateStore,
  beads: string[],
  onRow: (row: FeedbackIndexRow) => void,
  result: ScanResult,
  now: string,
): Promise<ScanResult> {
  const indexFile = store.path('feedback-index', INDEX_ID);
  mkdirSync(store.dir('feedback-index'), { recursive: true });
  // Held for the whole rebuild so a collector's append cannot fall between the read and the rename.
  await store.withLock(LOCK, () => {
    const tmp = join(store.dir('feedback-index'), `.feedback.jsonl.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const fd = openSync(tmp, 'w');
    try {
      for (const bead of beads.sort()) {
        const r = readFeedback(store, bead, now);
        if ('skipped' in r) {
          result.skipped.push(r.skipped);
          continue;
        }
        const v = validate('feedback-index', r.row);
        if (!v.ok) throw new Error(`refusing to write an invalid feedback-index row for ${bead}: ${v.errors.join('; ')}`);
        writeSync(fd, JSON.stringify(r.row) + '\n');
        result.readNow++;
        onRow(r.row);
      }
    } catch (e) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    closeSync(fd);
    renameSync(tmp, indexFile);
  });
  return result;
}
