// IO: merging the chosen solution's branch into the base branch with real git.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitIdentityEnv, git, GitError, removeWorktree } from '../git/git.js';
import { resolveCommit } from '../git/worktree.js';
import type { RaceChoice } from '../schema/types.generated.js';

export type MergeOutcome = NonNullable<RaceChoice['merge']>;

/** The worktree that has `branch` checked out, or null. */
async function worktreeOf(repoDir: string, branch: string): Promise<string | null> {
  const out = await git(repoDir, ['worktree', 'list', '--porcelain']);
  let path: string | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice(9);
    else if (line === `branch refs/heads/${branch}`) return path;
  }
  return null;
}

export interface MergeOptions {
  /** Any directory in the repository (the solution's worktree). */
  repoDir: string;
  branch: string;
  into: string;
  dryRun: boolean;
  forced: boolean;
}

/**
 * Merges `branch` into `into`. Dry run: `git merge-tree --write-tree` says whether it merges cleanly, touching
 * nothing. Otherwise the merge runs in the worktree that has `into` checked out (refused when it has
 * uncommitted changes) or in a temporary worktree; a conflict is aborted and reported.
 */
export async function mergeBranch(o: MergeOptions): Promise<MergeOutcome> {
  const base = { branch: o.branch, into: o.into, forced: o.forced };
  if (!(await resolveCommit(o.repoDir, `refs/heads/${o.into}`)))
    return { ...base, status: 'refused', detail: `${o.into} is not a local branch` };
  if (!(await resolveCommit(o.repoDir, o.branch)))
    return { ...base, status: 'refused', detail: `${o.branch} does not name a commit` };
  if (o.dryRun) {
    try {
      await git(o.repoDir, ['merge-tree', '--write-tree', '--no-messages', `refs/heads/${o.into}`, o.branch]);
      return { ...base, status: 'dry_run', detail: `${o.branch} merges cleanly into ${o.into}; nothing changed` };
    } catch (e) {
      if (e instanceof GitError && e.code === 1)
        return { ...base, status: 'conflict', detail: `${o.branch} conflicts with ${o.into}` };
      throw e;
    }
  }
  let dir = await worktreeOf(o.repoDir, o.into);
  let temp: string | null = null;
  if (dir) {
    const dirty = (await git(dir, ['status', '--porcelain', '--untracked-files=no'])).trim();
    if (dirty)
      return { ...base, status: 'refused', detail: `${dir} (where ${o.into} is checked out) has uncommitted changes` };
  } else {
    temp = mkdtempSync(join(tmpdir(), 'judgeloop-merge-'));
    dir = join(temp, 'tree');
    await git(o.repoDir, ['worktree', 'add', '--quiet', dir, o.into]).catch((e: unknown) => {
      rmSync(temp!, { recursive: true, force: true });
      throw e;
    });
  }
  try {
    try {
      await git(
        dir,
        ['merge', '--no-ff', '--no-edit', '-m', `Merge ${o.branch} (race winner chosen with bin/accept)`, o.branch],
        { env: commitIdentityEnv() },
      );
    } catch (e) {
      await git(dir, ['merge', '--abort']).catch(() => undefined);
      return { ...base, status: 'conflict', detail: `git merge failed and was aborted: ${(e as Error).message}` };
    }
    const commit = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    return { ...base, status: 'merged', commit, detail: `${o.branch} merged into ${o.into} at ${commit.slice(0, 12)}` };
  } finally {
    if (temp) {
      await removeWorktree(o.repoDir, dir);
      rmSync(temp, { recursive: true, force: true });
    }
  }
}
