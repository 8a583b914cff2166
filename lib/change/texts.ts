// IO: the texts a change is read from: both sides of each changed file and a revision's test files, from git's
// committed trees (never the worktree's files); and the files whose change is whitespace only.
import { git, isAnswered, knowAnswer, viewGit } from '../git/git.js';
import { parseCatFileBatch } from '../git/cat-file-batch.js';
import { parseUnifiedDiff, wholeText, type FilePatch } from '../git/diff-parse.js';
import type { IsTest } from './test-findings.js';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_TEST_FILES = 500;
/** Bytes one `cat-file --batch` may print; more: each blob is read alone, capped as before. */
const MAX_BATCH_BYTES = 64 * 1024 * 1024;

/** One changed file's text on both sides. */
export interface FileText {
  path: string;
  /** Text in the solution (null when deleted or binary). */
  head: string | null;
  /** Text at the merge base (null when created or binary). */
  base: string | null;
}

/**
 * The test files of a revision, path and text, in one `git grep` over the committed tree (never the worktree's
 * files): the graded tests whose literals special-casing is checked against.
 */
export async function testFileTexts(
  cwd: string,
  rev: string,
  isTest: IsTest,
): Promise<{ path: string; text: string }[]> {
  // The tree's full listing, as the graded tree was built from (a question git() has usually answered already).
  const tree = (await git(cwd, ['rev-parse', '--verify', `${rev}^{tree}`])).trim();
  const paths = (await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', tree]))
    .split('\0')
    .map((rec) => rec.slice(rec.indexOf('\t') + 1))
    .filter(Boolean);
  const tests = paths.filter(isTest).slice(0, MAX_TEST_FILES);
  if (!tests.length) return [];
  let out: string;
  // Read in judgeloop's own repository: a `-diff` or `binary` attribute of the agent's hides no test from `-I`.
  try {
    out = await viewGit(cwd, ['grep', '-z', '-n', '-I', '-e', '', tree, '--', ...tests], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return []; // exit 1: no text line at all
  }
  const byPath = new Map<string, string[]>();
  const prefix = `${tree}:`;
  for (const row of out.split('\n')) {
    const [where, n, ...text] = row.split('\0');
    if (!where || n === undefined) continue;
    const path = where.startsWith(prefix) ? where.slice(prefix.length) : where;
    const lines = byPath.get(path) ?? [];
    lines[Number(n) - 1] = text.join('\0');
    byPath.set(path, lines);
  }
  return [...byPath].map(([path, lines]) => ({ path, text: Array.from(lines, (l) => l ?? '').join('\n') }));
}

/** A blob's text in one git call: null when it is over MAX_FILE_BYTES (the output cap stops it), binary or absent. */
async function blob(cwd: string, name: string): Promise<string | null> {
  try {
    const text = await git(cwd, ['cat-file', 'blob', name], { maxBuffer: MAX_FILE_BYTES });
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/**
 * Blobs' texts by `<rev>:<path>` name, as `blob` reads each: two or more not answered yet are read by one
 * `cat-file --batch` (a name with a newline, or any when the batch fails, by its own call).
 */
async function blobTexts(cwd: string, names: string[]): Promise<Map<string, string | null>> {
  const ask = (n: string) => ['cat-file', 'blob', n];
  const batch = [...new Set(names)].filter((n) => !n.includes('\n') && !isAnswered(cwd, ask(n)));
  const got = new Map<string, string | null>();
  if (batch.length >= 2) {
    const input = batch.map((n) => `${n}\n`).join('');
    const out = await git(cwd, ['cat-file', '--batch'], {
      input,
      encoding: 'latin1',
      maxBuffer: MAX_BATCH_BYTES,
    }).catch(() => null);
    const objects = out === null ? null : parseCatFileBatch(out, batch.length);
    batch.forEach((n, i) => {
      const o = objects?.[i];
      if (o === undefined) return; // no answer: read alone below
      const text =
        o?.type === 'blob' && o.body.length <= MAX_FILE_BYTES ? Buffer.from(o.body, 'latin1').toString('utf8') : null;
      if (text !== null) knowAnswer(cwd, ask(n), text);
      got.set(n, text === null || text.includes('\u0000') ? null : text);
    });
  }
  await Promise.all(names.filter((n) => !got.has(n)).map(async (n) => got.set(n, await blob(cwd, n))));
  return got;
}

/** Both versions of every changed text file, `from` to `to` (one `cat-file --batch` for all, see blobTexts). */
export async function changedTexts(
  worktree: string,
  from: string,
  to: string,
  patch: FilePatch[],
): Promise<FileText[]> {
  const files = patch.filter((p) => !p.binary);
  const names = (p: FilePatch) => ({
    head: p.deleted ? null : `${to}:${p.path}`,
    base: p.created ? null : `${from}:${p.oldPath ?? p.path}`,
  });
  // A new or deleted file's text is whole in its patch: no blob read for it (what `blob` would give: capped, no NUL).
  const whole = new Map(files.map((p) => [p, wholeText(p)]));
  const asText = (t: string) => (Buffer.byteLength(t) > MAX_FILE_BYTES || t.includes('\u0000') ? null : t);
  const texts = await blobTexts(
    worktree,
    files
      .filter((p) => whole.get(p) === undefined)
      .flatMap((p) => Object.values(names(p)).filter((n): n is string => n !== null)),
  );
  return files.map((p) => {
    const n = names(p);
    const w = whole.get(p);
    const side = (name: string | null) => (name === null ? null : w !== undefined ? asText(w) : texts.get(name)!);
    return { path: p.path, head: side(n.head), base: side(n.base) };
  });
}

/** Files whose change disappears when whitespace (and blank lines) are ignored. */
export async function formattingOnly(cwd: string, from: string, to: string, changed: string[]): Promise<string[]> {
  const out = await git(cwd, [
    'diff',
    '-w',
    '--ignore-blank-lines',
    '-U0',
    '--no-renames',
    '--no-ext-diff',
    from,
    to,
    '--',
    ...changed,
  ]);
  const substantive = new Set(
    parseUnifiedDiff(out)
      .filter((f) => f.added.length || f.removed.length)
      .map((f) => f.path),
  );
  return changed.filter((p) => !substantive.has(p));
}
