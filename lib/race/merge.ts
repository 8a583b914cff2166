// IO: merging the chosen solution into the base branch with real git: the agent's own commits when they hold what
// was measured, else the measured work committed in the agent's name; the merge by the user's git identity.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, GitError, identityEnv, removeWorktree, type Identity } from '../git/git.js';
import { commitTree } from '../git/seal.js';
import { resolveCommit } from '../git/worktree.js';
import type { Race, RaceChoice, RunRecord } from '../schema/types.generated.js';
import type { RaceMerged } from './present.js';

export type MergeOutcome = NonNullable<RaceChoice['merge']>;
type Who = { author: Identity; committer: Identity };

/** Said when `git var` cannot name who commits, as `git commit` would refuse. */
const NO_IDENTITY =
  'git cannot tell who commits here: set user.name and user.email (git config, in the repository or --global)';

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

/** Where the user's identity is asked: the checkout of `into`, else the repository's main worktree. */
export async function identityDir(repoDir: string, into: string): Promise<string> {
  const main = /^worktree (.+)$/m.exec(await git(repoDir, ['worktree', 'list', '--porcelain']))?.[1];
  return (await worktreeOf(repoDir, into)) ?? main ?? repoDir;
}

export interface MergeSource {
  rev: string;
  kind: 'commits' | 'committed' | 'branch';
  sealed: string;
}

export interface MergeOptions {
  /** Any directory in the repository (the solution's worktree). */
  repoDir: string;
  /** The solution's branch (or its sealed ref when the run names none), as recorded and shown. */
  branch: string;
  source: MergeSource;
  into: string;
  dryRun: boolean;
  forced: boolean;
  /** Who commits the merge (git's own answer in the repository); null: refused, as git would. */
  who: Who | null;
}

const short = (c: string) => c.slice(0, 12);

function describe(s: MergeSource, branch: string): string {
  if (s.kind === 'commits') return `${branch} at ${short(s.rev)} (the agent's commits, as measured)`;
  if (s.kind === 'committed') return `the measured work of ${branch} (committed as ${short(s.rev)})`;
  return `${branch} as it is now (${short(s.rev)})`;
}

/**
 * Merges `source` into `into`. Dry run: `git merge-tree --write-tree` says whether it merges cleanly, touching
 * nothing. Otherwise the merge runs in the worktree that has `into` checked out (refused when it has uncommitted
 * changes) or in a temporary worktree; a conflict is aborted and reported. Already in `into`: nothing changes.
 */
export async function mergeBranch(o: MergeOptions): Promise<MergeOutcome> {
  const rev = o.source.rev;
  const base: Omit<MergeOutcome, 'status' | 'detail'> = {
    branch: o.branch,
    into: o.into,
    forced: o.forced,
    sealed: o.source.sealed,
    merged: o.source.kind,
    source: rev,
  };
  const what = describe(o.source, o.branch);
  if (!(await resolveCommit(o.repoDir, `refs/heads/${o.into}`)))
    return { ...base, status: 'refused', detail: `${o.into} is not a local branch` };
  if (!(await resolveCommit(o.repoDir, rev)))
    return { ...base, status: 'refused', detail: `${rev} does not name a commit` };
  const inside = await mergedIn(o.repoDir, rev, o.into);
  if (inside)
    return {
      ...base,
      status: 'already_merged',
      commit: inside,
      detail: `${what} is already merged into ${o.into} (${short(inside)}); nothing changed`,
    };
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
  if (!o.who) return { ...base, status: 'refused', detail: NO_IDENTITY };
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
    const env = { ...identityEnv('AUTHOR', o.who.author), ...identityEnv('COMMITTER', o.who.committer) };
    try {
      await git(dir, ['merge', '--no-ff', '--no-edit', '-m', `Merge ${o.branch} (chosen with judgeloop accept)`, rev], {
        env,
      });
    } catch (e) {
      await git(dir, ['merge', '--abort']).catch(() => undefined);
      return { ...base, status: 'conflict', detail: `git merge failed and was aborted: ${(e as Error).message}` };
    }
    const commit = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    return { ...base, status: 'merged', commit, detail: `${what} merged into ${o.into} at ${short(commit)}` };
  } finally {
    if (temp) {
      await removeWorktree(o.repoDir, dir);
      rmSync(temp, { recursive: true, force: true });
    }
  }
}

/**
 * The commit of `into` that brought `rev` in (on its first-parent line), or null when `rev` is not in `into`.
 */
async function mergedIn(repoDir: string, rev: string, into: string): Promise<string | null> {
  try {
    await git(repoDir, ['merge-base', '--is-ancestor', rev, `refs/heads/${into}`]);
  } catch (e) {
    if (e instanceof GitError && e.code === 1) return null;
    throw e;
  }
  const path = await git(repoDir, ['rev-list', '--first-parent', '--ancestry-path', `${rev}..refs/heads/${into}`]);
  return path.trim().split('\n').filter(Boolean).at(-1) ?? (await git(repoDir, ['rev-parse', rev])).trim();
}

/** The work as measured: the sealed candidate, the head commit it was measured on, and the run that made it. */
export interface MeasuredWork {
  candidate: { commit: string; tree: string; parent: string };
  /** The worktree's HEAD when it was measured (feedback head.commit); null in records that lack it. */
  head: string | null;
  record: Pick<RunRecord, 'bead' | 'agent' | 'task' | 'completed_at'>;
}

/** The author and message of the commit accept makes of uncommitted work: the agent, the task's first line. */
function agentCommit(r: MeasuredWork['record']): { author: Identity; message: string } {
  const first =
    r.task.prompt
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? r.task.id;
  const subject = first.length > 200 ? `${first.slice(0, 199)}…` : first;
  const agent = r.agent.model ? `${r.agent.slug} (${r.agent.model})` : r.agent.slug;
  return {
    author: { name: r.agent.slug, email: `${r.agent.slug}@judgeloop.invalid` },
    message: `${subject}\n\nJudgeloop-Run: ${r.bead}\nJudgeloop-Agent: ${agent}\n`,
  };
}

const commitOf = (repo: string, rev: string) =>
  git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).then(
    (o) => o.trim() || null,
    () => null,
  );
const treeOf = async (repo: string, commit: string) => (await git(repo, ['rev-parse', `${commit}^{tree}`])).trim();

/**
 * What `accept --merge` merges. The agent's head commit when its tree is what was measured (its commits, authors and
 * messages reach the base); when the measured work was uncommitted on a head that has not moved, that work
 * committed on it in the agent's name. A branch that moved since it was measured: a refusal naming the changed
 * paths, or the branch itself with --force.
 */
export async function mergeSource(
  repoDir: string,
  branch: string | null,
  work: MeasuredWork,
  committer: Identity | null,
  force: boolean,
): Promise<MergeSource | { refused: string }> {
  const { candidate } = work;
  const sealed = candidate.commit;
  let head: string;
  if (branch) {
    const now = await commitOf(repoDir, branch);
    if (now === null) return { refused: `${branch} names no commit` };
    const tree = await treeOf(repoDir, now);
    if (tree === candidate.tree) return { rev: now, kind: 'commits', sealed };
    if (now !== work.head) {
      if (force) return { rev: now, kind: 'branch', sealed };
      const diff = await git(repoDir, ['diff', '--name-only', '-z', '--no-renames', candidate.tree, tree]);
      const paths = diff.split('\0').filter(Boolean);
      const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, … (${paths.length} in all)` : '');
      return {
        refused: `${branch} no longer holds what was measured (sealed candidate ${short(sealed)}): ${shown} differ; re-run the race, or --force merges the branch as it is`,
      };
    }
    head = now;
  } else {
    head = (work.head && (await commitOf(repoDir, work.head))) || candidate.parent;
    if ((await treeOf(repoDir, head)) === candidate.tree) return { rev: head, kind: 'commits', sealed };
  }
  if (!committer) return { refused: NO_IDENTITY };
  const c = agentCommit(work.record);
  const rev = await commitTree(repoDir, candidate.tree, head, c.message, new Date(work.record.completed_at), {
    author: c.author,
    committer,
  });
  return { rev, kind: 'committed', sealed };
}

/**
 * A recorded merge that still holds: the commit of its base branch that brought it in, or null (never merged, or
 * the branch was reset since). A repository that cannot be read answers null.
 */
export async function recordedMerge(repoDir: string, m: MergeOutcome | undefined): Promise<string | null> {
  if (!m || (m.status !== 'merged' && m.status !== 'already_merged')) return null;
  const rev = m.source ?? m.commit;
  if (!rev) return null;
  return mergedIn(repoDir, rev, m.into).catch(() => null);
}

/** The race's solution that the recorded choice merged, when it is still in its base branch. */
export async function raceMerged(race: Race, choice: RaceChoice | null): Promise<RaceMerged | null> {
  const s = race.solutions.find((x) => x.id === choice?.chosen_solution_id);
  if (!s || !choice?.merge) return null;
  const commit = await recordedMerge(s.worktree, choice.merge);
  return commit ? { solution: s.id, into: choice.merge.into, commit } : null;
}
