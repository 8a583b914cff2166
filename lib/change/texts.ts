// IO: the texts a change is read from: both sides of each changed file and a revision's test files, from git's
// committed trees (never the worktree's files); and the files whose change is whitespace only.
import { git, viewGit } from '../git/git.js';
import { parseUnifiedDiff, type FilePatch } from '../git/diff-parse.js';
import type { IsTest } from './test-findings.js';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_TEST_FILES = 500;

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
async function blob(cwd: string, rev: string, path: string): Promise<string | null> {
  try {
    const text = await git(cwd, ['cat-file', 'blob', `${rev}:${path}`], { maxBuffer: MAX_FILE_BYTES });
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/**
 * `git cat-file --batch` output split by its byte counts, as `blob` would read each name; null (read them one by one)
 * for an answer not understood or bytes that are not UTF-8 (decoded, they no longer match the counts).
 */
export function splitBatch(out: string, names: readonly string[]): (string | null)[] | null {
  if (out.includes('\uFFFD')) return null;
  const texts: (string | null)[] = [];
  let at = 0;
  for (const name of names) {
    const nl = out.indexOf('\n', at);
    if (nl === -1) return null;
    const head = out.slice(at, nl);
    at = nl + 1;
    if (head === `${name} missing`) {
      texts.push(null);
      continue;
    }
    const m = /^[0-9a-f]{40}(?:[0-9a-f]{24})? (\w+) (\d+)$/.exec(head);
    if (!m) return null;
    let bytes = 0;
    let end = at;
    for (const size = Number(m[2]); bytes < size && end < out.length; ) {
      const cp = out.codePointAt(end)!;
      bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      end += cp > 0xffff ? 2 : 1;
    }
    if (bytes !== Number(m[2]) || out[end] !== '\n') return null;
    const text = out.slice(at, end);
    texts.push(m[1] !== 'blob' || bytes > MAX_FILE_BYTES || text.includes('\u0000') ? null : text);
    at = end + 1;
  }
  return at === out.length ? texts : null;
}

/** The blobs `rev:path` in one git process, each as `blob` reads it; one process per blob when that fails. */
async function blobs(cwd: string, names: string[]): Promise<(string | null)[]> {
  const one = () => Promise.all(names.map((n) => blob(cwd, n.slice(0, n.indexOf(':')), n.slice(n.indexOf(':') + 1))));
  if (names.length < 2 || names.some((n) => n.includes('\n'))) return one();
  const out = await git(cwd, ['cat-file', '--batch'], {
    input: `${names.join('\n')}\n`,
    maxBuffer: names.length * (MAX_FILE_BYTES + 256),
  }).catch(() => null);
  return (out === null ? null : splitBatch(out, names)) ?? one();
}

/** Both versions of every changed text file, `from` to `to`, in one git process (`cat-file --batch`). */
export async function changedTexts(
  worktree: string,
  from: string,
  to: string,
  patch: FilePatch[],
): Promise<FileText[]> {
  const files = patch.filter((p) => !p.binary);
  const names: string[] = [];
  const want = files.map((p) => ({
    head: p.deleted ? -1 : names.push(`${to}:${p.path}`) - 1,
    base: p.created ? -1 : names.push(`${from}:${p.oldPath ?? p.path}`) - 1,
  }));
  const texts = await blobs(worktree, names);
  return files.map((p, i) => ({
    path: p.path,
    head: texts[want[i]!.head] ?? null,
    base: texts[want[i]!.base] ?? null,
  }));
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
