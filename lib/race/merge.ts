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
  /** The solution's branch (recorded; merged only when `source` is absent). */
  branch: string;
  /** What to merge: the sealed candidate commit (default: the branch). */
  source?: { rev: string; kind: 'sealed' | 'branch'; sealed?: string };
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
  const rev = o.source?.rev ?? o.branch;
  const base: Omit<MergeOutcome, 'status' | 'detail'> = {
    branch: o.branch,
    into: o.into,
    forced: o.forced,
    ...(o.source?.sealed ? { sealed: o.source.sealed } : {}),
    ...(o.source ? { merged: o.source.kind } : {}),
  };
  const what = o.source?.kind === 'sealed' ? `the sealed candidate ${rev.slice(0, 12)} of ${o.branch}` : o.branch;
  if (!(await resolveCommit(o.repoDir, `refs/heads/${o.into}`)))
    return { ...base, status: 'refused', detail: `${o.into} is not a local branch` };
  if (!(await resolveCommit(o.repoDir, rev)))
    return { ...base, status: 'refused', detail: `${rev} does not name a commit` };
  if (o.dryRun) {
    try {
      await git(o.repoDir, ['merge-tree', '--write-tree', '--no-messages', `refs/heads/${o.into}`, rev]);
      return { ...base, status: 'dry_run', detail: `${what} merges cleanly into ${o.into}; nothing changed` };
    } catch (e) {
      if (e instanceof GitError && e.code === 1)
        return { ...base, status: 'conflict', detail: `${what} conflicts with ${o.into}` };
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
        ['merge', '--no-ff', '--no-edit', '-m', `Merge ${what} (race winner chosen with bin/accept)`, rev],
        { env: commitIdentityEnv() },
      );
    } catch (e) {
      await git(dir, ['merge', '--abort']).catch(() => undefined);
      return { ...base, status: 'conflict', detail: `git merge failed and was aborted: ${(e as Error).message}` };
    }
    const commit = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    return { ...base, status: 'merged', commit, detail: `${what} merged into ${o.into} at ${commit.slice(0, 12)}` };
  } finally {
    if (temp) {
      await removeWorktree(o.repoDir, dir);
      rmSync(temp, { recursive: true, force: true });
    }
  }
}

/**
 * What `accept --merge` merges: the sealed candidate (what was measured) while the branch still holds exactly that
 * tree; when the branch changed since, a refusal naming the changed paths, or the branch itself with --force.
 */
export async function mergeSource(
  repoDir: string,
  branch: string | null,
  candidate: { commit: string; tree: string },
  force: boolean,
): Promise<NonNullable<MergeOptions['source']> | { refused: string }> {
  const sealed = { rev: candidate.commit, kind: 'sealed' as const, sealed: candidate.commit };
  if (!branch) return sealed;
  const head = await git(repoDir, ['rev-parse', '--verify', '--quiet', `${branch}^{tree}`]).then(
    (o) => o.trim(),
    () => null,
  );
  if (head === null) return { refused: `${branch} names no commit` };
  if (head === candidate.tree) return sealed;
  if (force) return { rev: branch, kind: 'branch', sealed: candidate.commit };
  const diff = await git(repoDir, ['diff', '--name-only', '-z', '--no-renames', candidate.tree, head]);
  const paths = diff.split('\0').filter(Boolean);
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, … (${paths.length} in all)` : '');
  return {
    refused: `${branch} no longer holds what was measured (sealed candidate ${candidate.commit.slice(0, 12)}): ${shown} differ; re-run the race, or --force merges the branch as it is`,
  };
}
