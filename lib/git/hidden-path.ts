// Whether a folder is outside every working tree of a repository (task.hidden_tests must be: the agent reads those).
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { git } from './git.js';

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** The working tree of `repo`'s repository (its main one or a linked worktree) that holds or sits inside `path`; null when none. */
export async function workingTreeHolding(repo: string, path: string): Promise<string | null> {
  const out = await git(repo, ['worktree', 'list', '--porcelain', '-z']);
  const trees = out
    .split('\0')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => real(l.slice('worktree '.length)));
  const p = real(path);
  return [...trees, real(repo)].find((t) => inside(p, t) || inside(t, p)) ?? null;
}
