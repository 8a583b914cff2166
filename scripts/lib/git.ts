import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(readonly args: string[], readonly stderr: string, readonly code: number | null) {
    super(`git ${args.join(' ')} failed${code === null ? '' : ` (exit ${code})`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
}

export interface GitOptions {
  env?: NodeJS.ProcessEnv;
  maxBuffer?: number;
}

/** Runs git with output as a string; user config that changes output (colour, quoting, pagers) is neutralised. */
export function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const full = ['-c', 'core.quotePath=false', '-c', 'color.ui=false', '-c', 'diff.noprefix=false', ...args];
  return new Promise((resolve, reject) => {
    execFile('git', full, { cwd, env: { ...process.env, ...opts.env, GIT_PAGER: 'cat', LC_ALL: 'C' }, maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new GitError(args, stderr || err.message, typeof err.code === 'number' ? err.code : null));
      else resolve(stdout);
    });
  });
}

export async function isWorkTree(dir: string): Promise<boolean> {
  try {
    return (await git(dir, ['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
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
}

const OID = /^[0-9a-f]{40,64}$/;

/** HEAD and the index file of a git worktree in one git call; null when `dir` is not a worktree with a commit. */
export async function worktreeInfo(dir: string): Promise<WorktreeInfo | null> {
  try {
    const [indexPath, head, headTree] = (await git(dir, ['rev-parse', '--git-path', 'index', 'HEAD', 'HEAD^{tree}'])).trim().split('\n');
    if (!indexPath || !head || !OID.test(head) || !headTree || !OID.test(headTree)) return null;
    return { headCommit: head, headTree, indexFile: resolve(dir, indexPath) };
  } catch {
    return null;
  }
}

/**
 * worktreeInfo and the commit `ref` names, in one git call when all goes well (start-up cost matters);
 * null when that fast path does not apply — callers then ask worktreeInfo and resolveCommit one by one.
 */
export async function worktreeInfoWithRef(dir: string, ref: string): Promise<(WorktreeInfo & { refCommit: string; mergeBase?: string }) | null> {
  // An option-like ref goes through resolveCommit's --end-of-options instead.
  if (ref.startsWith('-')) return null;
  // `<ref>...HEAD` makes rev-parse print the merge base(s) as `^<oid>` lines: one git call fewer when there is
  // exactly one (otherwise snapshotWorking asks `git merge-base`, which picks among several).
  const withMb = !ref.includes('..');
  try {
    const lines = (await git(dir, ['rev-parse', '--git-path', 'index', 'HEAD', 'HEAD^{tree}', `${ref}^{commit}`, ...(withMb ? [`${ref}...HEAD`] : []), '--'])).trim().split('\n');
    const [indexPath, head, headTree, refCommit] = lines;
    const rest = lines.slice(4);
    if (rest[rest.length - 1] !== '--' || !indexPath || !head || !headTree || !refCommit || ![head, headTree, refCommit].every((x) => OID.test(x))) return null;
    const sym = rest.slice(0, -1);
    if (!withMb && sym.length !== 0) return null;
    if (withMb && (sym.length < 2 || !sym.slice(0, 2).every((x) => OID.test(x)) || !sym.slice(2).every((x) => x.startsWith('^') && OID.test(x.slice(1))))) return null;
    const bases = sym.slice(2).map((x) => x.slice(1));
    return { headCommit: head, headTree, indexFile: resolve(dir, indexPath), refCommit, ...(bases.length === 1 ? { mergeBase: bases[0] } : {}) };
  } catch {
    return null;
  }
}

/**
 * The tree of the worktree as it is on disk — committed, uncommitted and untracked (not ignored) files —
 * built in a throwaway index so the agent's own index is never touched. Starting from a copy of the
 * worktree's index reuses its stat cache (no re-hashing of unchanged files) and keeps skip-worktree entries
 * of sparse checkouts; without one (or if it cannot be used) the index starts from HEAD.
 */
export async function snapshotTree(worktree: string, indexFile?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    let copied = false;
    if (indexFile && existsSync(indexFile)) {
      try {
        copyFileSync(indexFile, env.GIT_INDEX_FILE);
        // Same mtime as the original, so git's racy-entry check (file mtime >= index mtime) still applies.
        const st = statSync(indexFile);
        utimesSync(env.GIT_INDEX_FILE, st.atime, st.mtime);
        await git(worktree, ['-c', 'core.splitIndex=false', 'add', '-A', '--', '.'], { env });
        copied = true;
      } catch {
        rmSync(env.GIT_INDEX_FILE, { force: true });
      }
    }
    if (!copied) {
      await git(worktree, ['read-tree', 'HEAD'], { env });
      await git(worktree, ['add', '-A', '--', '.'], { env });
    }
    return (await git(worktree, ['write-tree'], { env })).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface NumstatEntry {
  path: string;
  oldPath?: string;
  added: number;
  removed: number;
  binary: boolean;
}

/** Parses `git diff --numstat -z` (rename entries carry old and new paths as separate fields). */
export function parseNumstatZ(out: string): NumstatEntry[] {
  const parts = out.split('\0');
  const entries: NumstatEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i];
    if (!head) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (!m) continue;
    const binary = m[1] === '-';
    const base = { added: binary ? 0 : Number(m[1]), removed: binary ? 0 : Number(m[2]), binary };
    if (m[3] === '') {
      const oldPath = parts[++i] ?? '';
      const path = parts[++i] ?? '';
      entries.push({ path, oldPath, ...base });
    } else {
      entries.push({ path: m[3]!, ...base });
    }
  }
  return entries;
}

export async function diffNumstat(cwd: string, from: string, to: string): Promise<NumstatEntry[]> {
  return parseNumstatZ(await git(cwd, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', from, to]));
}

/** Paths that differ between two trees-ish (names only). */
export async function changedPaths(cwd: string, from: string, to: string): Promise<Set<string>> {
  const out = await git(cwd, ['diff', '--name-only', '-z', '--no-renames', from, to]);
  return new Set(out.split('\0').filter(Boolean));
}

/** Unified diff text between two tree-ish, optionally limited to paths. */
export async function diffPatch(cwd: string, from: string, to: string, paths: string[] = []): Promise<string> {
  return git(cwd, ['diff', '-M', '--no-ext-diff', '--no-textconv', from, to, ...(paths.length ? ['--', ...paths] : [])]);
}

export interface WorkingDiff {
  baseCommit: string;
  headCommit: string;
  mergeBase: string;
  /** Tree of the worktree on disk. */
  tree: string;
  files: (NumstatEntry & { untracked: boolean })[];
}

export interface WorkingSnapshot {
  baseCommit: string;
  headCommit: string;
  mergeBase: string;
  /** Tree of the worktree on disk at the time of the snapshot. */
  tree: string;
}

/** Phase 1 of workingDiff: fixes the on-disk state as a tree (after this, the worktree may change freely). */
export async function snapshotWorking(worktree: string, baseCommit: string, info?: WorktreeInfo & { mergeBase?: string }, onMergeBase?: (mergeBase: string) => void): Promise<WorkingSnapshot> {
  const headCommit = info?.headCommit ?? (await git(worktree, ['rev-parse', 'HEAD'])).trim();
  // The merge base is known before the tree is written: `onMergeBase` lets the caller start on it. It comes
  // from worktreeInfoWithRef when that call found exactly one (for this base commit), else from git merge-base.
  const known = info?.mergeBase !== undefined && (info as { refCommit?: string }).refCommit === baseCommit ? info.mergeBase : undefined;
  const mbP = (known !== undefined ? Promise.resolve(known) : mergeBase(worktree, baseCommit, headCommit)).then((mb) => {
    const m = mb ?? baseCommit;
    onMergeBase?.(m);
    return m;
  });
  const [mb, tree] = await Promise.all([mbP, snapshotTree(worktree, info?.indexFile)]);
  return { baseCommit, headCommit, mergeBase: mb, tree };
}

/** Phase 2: the per-file numbers, from objects only (no worktree reads). */
export async function diffSnapshot(worktree: string, snap: WorkingSnapshot, info?: WorktreeInfo): Promise<WorkingDiff> {
  // Nothing uncommitted (the snapshot is HEAD's own tree): no need to ask git which paths differ from HEAD.
  const clean = info?.headTree !== undefined && info.headTree === snap.tree;
  // Nothing committed since the merge base: both diffs would compare the same two trees, so every changed
  // path (a rename's new path included) is uncommitted; no second git call.
  const allUncommitted = !clean && snap.headCommit === snap.mergeBase;
  const [files, uncommitted] = await Promise.all([
    diffNumstat(worktree, snap.mergeBase, snap.tree),
    clean || allUncommitted ? new Set<string>() : changedPaths(worktree, snap.headCommit, snap.tree),
  ]);
  return { ...snap, files: files.map((f) => ({ ...f, untracked: allUncommitted || uncommitted.has(f.path) })) };
}

/**
 * Everything the agent changed since it left `baseCommit`: merge base of base and HEAD to the on-disk tree.
 * `untracked` marks files whose change is not (or not fully) committed.
 */
export async function workingDiff(worktree: string, baseCommit: string, info?: WorktreeInfo): Promise<WorkingDiff> {
  return diffSnapshot(worktree, await snapshotWorking(worktree, baseCommit, info), info);
}
