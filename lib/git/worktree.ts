// Which folder is a worktree judgeloop may measure, and what git says of it (HEAD, index, refs, merge base).
import { existsSync, lstatSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { git, GitError, gitWords, knowRepoObjects, knowTree } from './git.js';
export async function isWorkTree(dir: string): Promise<boolean> {
  try {
    return (await git(dir, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** git asked about `dir` as the work tree its `.git` makes it (dotGitProblem checked that), whatever core.worktree says. */
const ATTACHED = (dir: string) => ({ env: { GIT_WORK_TREE: realOrSelf(dir) } });

/**
 * Why `dir` cannot be measured as the top of a git worktree, from the filesystem alone, or null: its `.git` must
 * be a folder, or the file of a linked worktree whose gitdir points back at it (`git worktree add`); a `.git`
 * file naming some other repository's gitdir, a `.git` symlink, or no `.git` at all (a plain folder inside
 * another repository) is refused.
 */
function dotGitProblem(dir: string): string | null {
  const top = realOrSelf(dir);
  const dotGit = join(top, '.git');
  let st: Stats;
  try {
    st = lstatSync(dotGit);
  } catch {
    return `${dir} is not the top level of a git worktree (it has no .git)`;
  }
  if (st.isDirectory()) return null;
  if (!st.isFile()) return `${dir}/.git is neither a folder nor a file (a symlink or special file is not followed)`;
  if (st.size > 4096) return `${dir}/.git is a file of ${st.size} bytes, not a gitdir pointer`;
  const text = readFileSync(dotGit, 'utf8');
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text);
  if (!m) return `${dir}/.git is a file but not a "gitdir:" pointer`;
  const gitdir = resolve(top, m[1]!);
  let back: string;
  try {
    // A linked worktree's admin folder names the worktree's .git file it belongs to, and its common dir.
    if (!lstatSync(join(gitdir, 'commondir')).isFile()) throw new Error('no commondir');
    back = readFileSync(join(gitdir, 'gitdir'), 'utf8').trim();
  } catch {
    return `${dir}/.git points at ${gitdir}, which is not a linked worktree of a repository (a .git file may only name its own worktree's admin folder)`;
  }
  if (realOrSelf(resolve(gitdir, back)) !== realOrSelf(dotGit)) {
    return `${dir}/.git points at ${gitdir}, which belongs to another worktree (${back})`;
  }
  return null;
}

/**
 * dotGitProblem, then git's own view of `dir` as the work tree (ATTACHED: a `core.worktree` in the shared config or a
 * worktree's `config.worktree`, which any solution can write, neither moves nor refuses another solution's worktree).
 */
export async function worktreeProblem(dir: string): Promise<string | null> {
  if (!existsSync(dir)) return `worktree ${dir} does not exist`;
  const fsProblem = dotGitProblem(dir);
  if (fsProblem) return fsProblem;
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'], ATTACHED(dir))).trim();
  } catch (e) {
    return `${dir} is not a git worktree (${(e as Error).message})`;
  }
  if (realOrSelf(top) !== realOrSelf(dir)) return `${dir} is not the top level of its git worktree (git says ${top})`;
  try {
    await git(dir, ['rev-parse', '--verify', 'HEAD^{commit}']);
  } catch (e) {
    // git's words tell an empty repository from a corrupt one (a pack that does not inflate).
    const words = e instanceof GitError ? gitWords(e.stderr.replace(/^fatal: Needed a single revision$/m, '')) : '';
    return `worktree ${dir} has no commit (HEAD)${words ? `: ${words}` : ''}`;
  }
  return null;
}

/**
 * worktreeProblem's null and resolveCommit's answer in one git call, with where the objects are and the trees of
 * `commits` (kept: asked again, they start no process); null when any part fails: ask them one by one then.
 */
export async function measurableWithRef(dir: string, ref: string, commits: string[] = []): Promise<string | null> {
  if (ref.startsWith('-') || !existsSync(dir) || dotGitProblem(dir) !== null) return null;
  const ids = commits.filter((c) => OID.test(c));
  try {
    const out = (
      await git(
        dir,
        [
          'rev-parse',
          '--show-toplevel',
          '--path-format=absolute',
          '--git-common-dir',
          '--show-object-format',
          '--is-shallow-repository',
          'HEAD^{commit}',
          `${ref}^{commit}`,
          ...ids.map((c) => `${c}^{tree}`),
          '--',
        ],
        ATTACHED(dir),
      )
    )
      .trim()
      .split('\n');
    const [top, commonDir, objectFormat, shallow, head, commit, ...rest] = out;
    const trees = rest.slice(0, -1);
    if (realOrSelf(top ?? '') !== realOrSelf(dir) || rest.at(-1) !== '--' || trees.length !== ids.length) return null;
    if (![head, commit, ...trees].every((x) => x !== undefined && OID.test(x))) return null;
    if (
      commonDir &&
      isAbsolute(commonDir) &&
      /^sha(1|256)$/.test(objectFormat ?? '') &&
      /^(true|false)$/.test(shallow ?? '')
    )
      knowRepoObjects(dir, commonDir, objectFormat!, shallow === 'true');
    for (const [i, c] of ids.entries()) knowTree(dir, c, trees[i]!);
    return commit!;
  } catch {
    return null;
  }
}

/** The commit a ref names, or null when it names none. */
export async function resolveCommit(cwd: string, ref: string): Promise<string | null> {
  try {
    return (await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim() || null;
  } catch {
    return null;
  }
}

export async function mergeBase(cwd: string, a: string, b: string): Promise<string | null> {
  try {
    return (await git(cwd, ['merge-base', a, b])).trim() || null;
  } catch {
    return null;
  }
}

export interface WorktreeInfo {
  headCommit: string;
  /** Tree of the HEAD commit (equal to the snapshot tree when nothing is uncommitted). */
  headTree?: string;
  /** Absolute path of the worktree's own index file. */
  indexFile: string;
  /** Absolute path of the repository's info/exclude. */
  excludeFile?: string;
}

const OID = /^[0-9a-f]{40,64}$/;

/** The top level git reports is `dir` itself (and `.git` passes dotGitProblem). */
function isTop(dir: string, top: string | undefined): boolean {
  return top !== undefined && realOrSelf(top) === realOrSelf(dir) && dotGitProblem(dir) === null;
}

/** HEAD and the index file of a git worktree in one git call; null when `dir` is not the top of a worktree with a commit. */
export async function worktreeInfo(dir: string): Promise<WorktreeInfo | null> {
  try {
    const [top, indexPath, excludePath, head, headTree] = (
      await git(
        dir,
        ['rev-parse', '--show-toplevel', '--git-path', 'index', '--git-path', 'info/exclude', 'HEAD', 'HEAD^{tree}'],
        ATTACHED(dir),
      )
    )
      .trim()
      .split('\n');
    if (!isTop(dir, top) || !indexPath || !excludePath || !head || !OID.test(head) || !headTree || !OID.test(headTree))
      return null;
    return { headCommit: head, headTree, indexFile: resolve(dir, indexPath), excludeFile: resolve(dir, excludePath) };
  } catch {
    return null;
  }
}

/**
 * worktreeInfo and the commit `ref` names, in one git call when all goes well (start-up cost matters);
 * null when that fast path does not apply — callers then ask worktreeInfo and resolveCommit one by one.
 */
export async function worktreeInfoWithRef(
  dir: string,
  ref: string,
): Promise<(WorktreeInfo & { refCommit: string; mergeBase?: string }) | null> {
  // An option-like ref goes through resolveCommit's --end-of-options instead.
  if (ref.startsWith('-')) return null;
  // `<ref>...HEAD` makes rev-parse print the merge base(s) as `^<oid>` lines: one git call fewer when there is
  // exactly one (otherwise snapshotWorking asks `git merge-base`, which picks among several).
  const withMb = !ref.includes('..');
  // Asked first without the shallow check (one git process fewer); a shallow repository asks again with it.
  const first = await withRef(dir, ref, withMb, true);
  if (first !== 'shallow') return first;
  const again = await withRef(dir, ref, withMb, false);
  return again === 'shallow' ? null : again;
}

async function withRef(
  dir: string,
  ref: string,
  withMb: boolean,
  optimistic: boolean,
): Promise<(WorktreeInfo & { refCommit: string; mergeBase?: string }) | null | 'shallow'> {
  try {
    const all = (
      await git(
        dir,
        [
          'rev-parse',
          '--show-toplevel',
          '--git-path',
          'info/exclude',
          '--git-path',
          'index',
          // Where the objects are, their format and whether a shallow list exists (repoObjects' question, answered
          // here: one git process fewer).
          '--path-format=absolute',
          '--git-common-dir',
          '--show-object-format',
          '--is-shallow-repository',
          'HEAD',
          'HEAD^{tree}',
          `${ref}^{commit}`,
          `${ref}^{tree}`,
          ...(withMb ? [`${ref}...HEAD`] : []),
          '--',
        ],
        { ...ATTACHED(dir), shallowAsked: optimistic },
      )
    )
      .trim()
      .split('\n');
    if (!isTop(dir, all[0]) || !all[1]) return null;
    const excludeFile = resolve(dir, all[1]);
    const [indexPath, commonDir, objectFormat, shallow] = all.slice(2, 6);
    const lines = all.slice(6);
    const [head, headTree, refCommit, refTree] = lines;
    const rest = lines.slice(4);
    if (
      rest[rest.length - 1] !== '--' ||
      !indexPath ||
      !head ||
      !headTree ||
      !refCommit ||
      !refTree ||
      ![head, headTree, refCommit, refTree].every((x) => OID.test(x))
    )
      return null;
    const sym = rest.slice(0, -1);
    if (!withMb && sym.length !== 0) return null;
    if (
      withMb &&
      (sym.length < 2 ||
        !sym.slice(0, 2).every((x) => OID.test(x)) ||
        !sym.slice(2).every((x) => x.startsWith('^') && OID.test(x.slice(1))))
    )
      return null;
    const bases = sym.slice(2).map((x) => x.slice(1));
    if (optimistic && shallow !== 'false') return shallow === 'true' ? 'shallow' : null;
    if (
      commonDir &&
      isAbsolute(commonDir) &&
      objectFormat &&
      /^sha(1|256)$/.test(objectFormat) &&
      (shallow === 'true' || shallow === 'false')
    )
      knowRepoObjects(dir, commonDir, objectFormat, shallow === 'true');
    knowTree(dir, head, headTree);
    knowTree(dir, refCommit, refTree);
    return {
      headCommit: head,
      headTree,
      indexFile: resolve(dir, indexPath),
      excludeFile,
      refCommit,
      ...(bases.length === 1 ? { mergeBase: bases[0] } : {}),
    };
  } catch {
    return null;
  }
}
