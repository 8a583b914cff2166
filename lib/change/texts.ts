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

/** Both versions of every changed text file, `from` to `to` (two git calls each, all at once). */
export function changedTexts(worktree: string, from: string, to: string, patch: FilePatch[]): Promise<FileText[]> {
  return Promise.all(
    patch
      .filter((p) => !p.binary)
      .map(async (p) => {
        const [head, base] = await Promise.all([
          p.deleted ? null : blob(worktree, to, p.path),
          p.created ? null : blob(worktree, from, p.oldPath ?? p.path),
        ]);
        return { path: p.path, head, base };
      }),
  );
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
