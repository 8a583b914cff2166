// What a worktree tells about a run, through the one safe git recipe (the repository is the agent's).
import { UserError } from '../base/errors.js';
import { git } from '../git/git.js';
import { mergeBase, resolveCommit } from '../git/worktree.js';

export interface WorktreeFacts {
  /** The worktree's top level, as git reports it. */
  top: string;
  head: string;
  /** The branch HEAD is on, or null when detached. */
  branch: string | null;
}

/** The top level, HEAD commit and branch of the worktree holding `dir`; a folder outside any is one clear error. */
export async function worktreeFacts(dir: string): Promise<WorktreeFacts> {
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new UserError(`${dir}: not inside a git worktree (give --worktree DIR)`);
  }
  const head = await resolveCommit(top, 'HEAD');
  if (!head) throw new UserError(`${top}: the worktree has no commit yet (HEAD)`);
  let branch: string | null = null;
  try {
    branch = (await git(top, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim() || null;
  } catch {
    branch = null;
  }
  return { top, head, branch };
}

/** The base commit: the merge base of `ref` and HEAD (where the agent's history left it). */
export async function baseCommit(top: string, ref: string): Promise<string> {
  const commit = await resolveCommit(top, ref);
  if (!commit) throw new UserError(`base ${ref}: names no commit in ${top}`);
  return (await mergeBase(top, commit, 'HEAD')) ?? commit;
}

export interface CommitFacts {
  /** The commit message, verbatim. */
  message: string;
  /** Committer time of the commit (ISO). */
  committed_at: string;
  /** The first parent, or null for a root commit. */
  parent: string | null;
  /** Committer time of the first parent (ISO), when there is one. */
  parent_committed_at: string | null;
}

/** The head commit as a run: its message is the prompt, its parent the base, the parent's time the start. */
export async function commitFacts(top: string, commit: string): Promise<CommitFacts> {
  const out = await git(top, ['show', '-s', '--format=%cI%n%P%n%B', commit]);
  const [date = '', parents = '', ...msg] = out.split('\n');
  const parent = parents.split(' ').filter(Boolean)[0] ?? null;
  let parentDate: string | null = null;
  if (parent) parentDate = (await git(top, ['show', '-s', '--format=%cI', parent])).trim() || null;
  return {
    message: msg.join('\n').trim(),
    committed_at: new Date(date.trim()).toISOString(),
    parent,
    parent_committed_at: parentDate ? new Date(parentDate).toISOString() : null,
  };
}
