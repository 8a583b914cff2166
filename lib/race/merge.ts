// IO: merging the chosen solution into the base branch, computed in judgeloop's own view of the repository: the
// agent's commits when they hold what was measured, else the measured work in the agent's name; by the user's identity.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { git, GitError, gitWords, historyEnv, identityEnv, type Identity, repoObjects, viewGit } from '../git/git.js';
import { tempView } from '../git/view.js';
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
 * The merge of `ours` and `theirs` computed in judgeloop's own view (lib/git/view.ts: no merge driver, attribute,
 * `info/` or hook of the shared .git applies; `git merge-tree --write-tree` needs no worktree): its tree, or null
 * on a conflict. `write`: its objects go into the repository's store (a merge to commit), else into the view's.
 */
async function mergedTree(repoDir: string, ours: string, theirs: string, write: boolean): Promise<string | null> {
  // The merge base is found by a walk of history: the repository's genuine shallow list only (historyEnv).
  const env = {
    ...(await historyEnv(repoDir)),
    ...(write ? { GIT_OBJECT_DIRECTORY: (await repoObjects(repoDir)).objects } : {}),
  };
  try {
    const out = await viewGit(repoDir, ['merge-tree', '--write-tree', '--no-messages', ours, theirs], { env });
    return out.split('\n', 1)[0]!.trim();
  } catch (e) {
    if (e instanceof GitError && e.code === 1) return null;
    throw e;
  }
}

/**
 * Runs `fn` with the variables that make git read `dir` (the user's checkout) and its index through a view of ours:
 * its status and its update after the merge see bytes, never the shared .git's attributes, filters or hooks.
 */
async function inUserView<T>(
  repoDir: string,
  dir: string,
  head: string,
  fn: (env: NodeJS.ProcessEnv) => Promise<T>,
): Promise<T> {
  const { objects, objectFormat } = await repoObjects(repoDir);
  const index = (await git(dir, ['rev-parse', '--path-format=absolute', '--git-path', 'index'])).trim();
  const view = tempView(objects, objectFormat);
  const offAbort = onAbort(view.done);
  // The view's HEAD is the branch's commit (detached), so its status compares the checkout with that commit.
  writeFileSync(join(view.dir, 'HEAD'), `${head}\n`);
  try {
    return await fn({ GIT_DIR: view.dir, GIT_WORK_TREE: dir, GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: objects });
  } finally {
    offAbort();
    view.done();
  }
}

/**
 * Merges `source` into `into`. The merge is computed in judgeloop's view (mergedTree) and committed by the user's
 * identity; `into` then moves by one ref update (hooks off; refused if it moved meanwhile). When `into` is checked
 * out, that worktree must be clean and is updated to the merge first (files written as their committed bytes).
 * Dry run: the same merge, nothing written. A conflict changes nothing. Already in `into`: nothing changes.
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
  const old = await resolveCommit(o.repoDir, `refs/heads/${o.into}`);
  if (!old) return { ...base, status: 'refused', detail: `${o.into} is not a local branch` };
  const theirs = await resolveCommit(o.repoDir, rev);
  if (!theirs) return { ...base, status: 'refused', detail: `${rev} does not name a commit` };
  const inside = await mergedIn(o.repoDir, rev, o.into);
  if (inside)
    return {
      ...base,
      status: 'already_merged',
      commit: inside,
      detail: `${what} is already merged into ${o.into} (${short(inside)}); nothing changed`,
    };
  const conflict = {
    ...base,
    status: 'conflict' as const,
    detail: `${what} conflicts with ${o.into}; nothing changed`,
  };
  if (o.dryRun) {
    if (!(await mergedTree(o.repoDir, old, theirs, false))) return conflict;
    return { ...base, status: 'dry_run', detail: `${what} merges cleanly into ${o.into}; nothing changed` };
  }
  if (!o.who) return { ...base, status: 'refused', detail: NO_IDENTITY };
  const dir = await worktreeOf(o.repoDir, o.into);
  const tree = await mergedTree(o.repoDir, old, theirs, true);
  if (!tree) return conflict;
  const message = `Merge ${o.branch} (chosen with judgeloop accept)`;
  const env = { ...identityEnv('AUTHOR', o.who.author), ...identityEnv('COMMITTER', o.who.committer) };
  const commit = (await git(o.repoDir, ['commit-tree', tree, '-p', old, '-p', theirs, '-m', message], { env })).trim();
  const moveRef = () =>
    git(o.repoDir, ['update-ref', '-m', `judgeloop accept: ${message}`, `refs/heads/${o.into}`, commit, old]).then(
      () => true,
      () => false,
    );
  const moved = { ...base, status: 'refused' as const, detail: `${o.into} moved while merging; nothing changed` };
  if (!dir) {
    if (!(await moveRef())) return moved;
  } else {
    const refusal = await inUserView(o.repoDir, dir, old, async (userEnv) => {
      const dirty = (await git(dir, ['status', '--porcelain', '--untracked-files=no'], { env: userEnv })).trim();
      if (dirty) return `${dir} (where ${o.into} is checked out) has uncommitted changes`;
      try {
        // Two-tree read-tree: the checkout's index and files go from `old` to the merge; an untracked file in the
        // way refuses it (git's own words), and nothing has moved yet.
        await git(dir, ['read-tree', '-m', '-u', old, commit], { env: userEnv });
      } catch (e) {
        return `${dir} (where ${o.into} is checked out) cannot be updated: ${e instanceof GitError ? gitWords(e.stderr) : (e as Error).message}`;
      }
      if (await moveRef()) return null;
      await git(dir, ['read-tree', '-m', '-u', commit, old], { env: userEnv }).catch(() => undefined);
      return moved.detail;
    });
    if (refusal) return { ...base, status: 'refused', detail: refusal };
  }
  return { ...base, status: 'merged', commit, detail: `${what} merged into ${o.into} at ${short(commit)}` };
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
