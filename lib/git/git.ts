import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onAbort } from '../cli/cleanup.js';
import { HeadTailBuffer, spawnGroup } from '../process/process.js';

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(readonly args: string[], readonly stderr: string, readonly code: number | null) {
    super(`git ${args.join(' ')} failed${code === null ? '' : ` (exit ${code})`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
}

export interface GitOptions {
  /** Extra variables (GIT_INDEX_FILE); the rest of the environment is the safe recipe's, never the caller's. */
  env?: NodeJS.ProcessEnv;
  /** Bytes of stdout kept; more is an error (default 256 MiB). */
  maxBuffer?: number;
  /** Default 120 s (setGitTimeout). */
  timeoutMs?: number;
  input?: string;
}

let defaultTimeoutMs = 120_000;

/** The timeout of every git call that does not name its own (collector.git_timeout_seconds). */
export function setGitTimeout(ms: number): void {
  defaultTimeoutMs = ms;
}

/**
 * The environment of every git call: nothing inherited (no API key, no GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE
 * from a calling hook), no system or global config, no transport at all (so no lazy fetch from a promisor
 * remote), no replace refs, no prompts.
 */
export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LC_ALL: 'C',
    HOME: '/nonexistent',
    XDG_CONFIG_HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_ALLOW_PROTOCOL: '',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    // Grafts rewrite parents: a graft could move the merge base and hide committed changes from the diff.
    GIT_GRAFT_FILE: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    ...extra,
  };
}

/** Config that turns off every program the repository's own configuration could make git run, and output quirks. */
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.editor=false',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'core.excludesFile=/dev/null',
  'core.attributesFile=/dev/null',
  'core.splitIndex=false',
  'core.untrackedCache=false',
  'core.commitGraph=false',
  'core.quotePath=false',
  'credential.helper=',
  'diff.external=',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'color.ui=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'merge.verifySignatures=false',
  'log.showSignature=false',
  'protocol.allow=never',
  'uploadpack.packObjectsHook=',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  'index.sparse=false',
  'feature.manyFiles=false',
  'advice.detachedHead=false',
];

/** Driver programs (filters, diff and merge drivers) the repository's config names, each turned off. */
export function driverOverrides(configList: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const entry of configList.split('\0')) {
    const key = entry.split('\n', 1)[0]!.toLowerCase();
    const m = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|required|textconv|command|driver|xfuncname|funcname)$/s.exec(key);
    if (!m) continue;
    const [, section, name] = m;
    const id = `${section}.${name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (section === 'filter') out.push(`${id}.clean=`, `${id}.smudge=`, `${id}.process=`, `${id}.required=false`);
    // A hunk-header regex is no program, but a catastrophic one hangs git: empty, like the rest.
    else if (section === 'diff') out.push(`${id}.textconv=`, `${id}.command=`, `${id}.xfuncname=`, `${id}.funcname=`);
    else out.push(`${id}.driver=false %A`);
  }
  return out.flatMap((c) => ['-c', c]);
}

interface RepoConfig {
  overrides: string[];
  /** core.sparseCheckout is on. */
  sparse: boolean;
}

const driverCache = new Map<string, Promise<RepoConfig>>();

/** What judgeloop needs of a `git config -z --list`: the driver overrides and whether the checkout is sparse. */
export function repoConfigFacts(configList: string): RepoConfig {
  let sparse = false;
  for (const entry of configList.split('\0')) {
    const [key, value] = entry.split('\n', 2);
    if (key?.toLowerCase() === 'core.sparsecheckout') sparse = ['true', 'yes', 'on', '1'].includes((value ?? 'true').trim().toLowerCase());
  }
  return { overrides: driverOverrides(configList), sparse };
}

/** The repository's config at `cwd`, read once per process (as data, never run). */
function repoConfig(cwd: string, timeoutMs: number): Promise<RepoConfig> {
  let p = driverCache.get(cwd);
  if (!p) {
    // Fails closed: a config git cannot list (or that hangs, e.g. an include of a FIFO) means no git call here.
    p = rawGit(cwd, ['config', '-z', '--list'], { timeoutMs }).then(repoConfigFacts);
    driverCache.set(cwd, p);
  }
  return p;
}

/**
 * Removes a temporary worktree judgeloop added (its folder and its registration), synchronously, for abort
 * handlers; the same recipe without the per-repository driver list (removing runs no filter). Never a global
 * `git worktree prune`: that would drop the agent's own worktrees whose folders are missing.
 */
export function removeWorktreeSync(repoDir: string, tree: string): void {
  spawnSync('git', [...SAFE_CONFIG.flatMap((c) => ['-c', c]), 'worktree', 'remove', '-f', '-f', tree], { cwd: repoDir, env: gitEnv(), stdio: 'ignore', timeout: 10_000 });
}

/** Removes a temporary worktree judgeloop added; a failure is left to the next run's sweep (sweep.ts). */
export async function removeWorktree(repoDir: string, tree: string): Promise<void> {
  await git(repoDir, ['worktree', 'remove', '-f', '-f', tree]).catch(() => undefined);
}

/** Forgets what was read of a repository's config (a test that changes it, a long-running process). */
export function forgetRepoConfig(): void {
  driverCache.clear();
}

async function rawGit(cwd: string, args: string[], opts: GitOptions & { prefix?: string[] }): Promise<string> {
  const full = [...SAFE_CONFIG.flatMap((c) => ['-c', c]), ...(opts.prefix ?? []), ...args];
  const cap = opts.maxBuffer ?? 256 * 1024 * 1024;
  const out: Buffer[] = [];
  let outLen = 0;
  let overflow = false;
  const err = new HeadTailBuffer(4096, 4096);
  const r = await spawnGroup('git', full, {
    cwd,
    env: gitEnv(opts.env),
    timeoutMs: opts.timeoutMs ?? defaultTimeoutMs,
    killGraceMs: 500,
    drainMs: 200,
    input: opts.input,
    onStdout: (c) => {
      if (overflow) return;
      if (outLen + c.length > cap) {
        overflow = true;
        return;
      }
      out.push(c);
      outLen += c.length;
    },
    onStderr: (c) => err.push(c),
  });
  const stderr = err.result().text;
  if (r.spawnError) throw new GitError(args, r.spawnError, null);
  if (r.timedOut) throw new GitError(args, `timed out after ${Math.round((opts.timeoutMs ?? defaultTimeoutMs) / 1000)} s and was killed`, null);
  if (overflow) throw new GitError(args, `printed more than ${cap} bytes`, null);
  if (r.exitCode !== 0) throw new GitError(args, stderr || `signal ${r.signal}`, r.exitCode);
  return Buffer.concat(out).toString('utf8');
}

/**
 * Runs git on a repository judgeloop does not trust (the one recipe for every caller): the safe environment,
 * no system/global config, every config-driven program off (fsmonitor, hooks, filters, textconv, external
 * diff and merge drivers, pager, transports, lazy fetch), a timeout that kills its process group, capped output.
 */
export async function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const prefix = (await repoConfig(cwd, opts.timeoutMs ?? defaultTimeoutMs)).overrides;
  // Commands that render content never run a textconv or external diff program, whatever the caller passed.
  const safeArgs = ['diff', 'log', 'show'].includes(args[0] ?? '') ? [args[0]!, '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args;
  return rawGit(cwd, safeArgs, { ...opts, prefix });
}

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

/**
 * Why `dir` cannot be measured as the top of a git worktree, from the filesystem alone, or null: its `.git` must
 * be a folder, or the file of a linked worktree whose gitdir points back at it (`git worktree add`); a `.git`
 * file naming some other repository's gitdir, a `.git` symlink, or no `.git` at all (a plain folder inside
 * another repository) is refused.
 */
export function dotGitProblem(dir: string): string | null {
  const top = realOrSelf(dir);
  const dotGit = join(top, '.git');
  let st;
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

/** dotGitProblem, then git's own view: the top level git reports must be `dir` itself (core.worktree cannot move it). */
export async function worktreeProblem(dir: string): Promise<string | null> {
  if (!existsSync(dir)) return `worktree ${dir} does not exist`;
  const fsProblem = dotGitProblem(dir);
  if (fsProblem) return fsProblem;
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch (e) {
    return `${dir} is not a git worktree (${(e as Error).message})`;
  }
  if (realOrSelf(top) !== realOrSelf(dir)) return `${dir} is not the top level of its git worktree (git says ${top})`;
  try {
    await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    return `worktree ${dir} has no commit (HEAD)`;
  }
  return null;
}

/** Resolves when `dir` can be measured; throws a GitError-free Error naming the problem otherwise. */
export async function assertWorktree(dir: string): Promise<void> {
  const p = await worktreeProblem(dir);
  if (p) throw new WorktreeError(p);
}

export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
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
    const [top, indexPath, excludePath, head, headTree] = (await git(dir, ['rev-parse', '--show-toplevel', '--git-path', 'index', '--git-path', 'info/exclude', 'HEAD', 'HEAD^{tree}'])).trim().split('\n');
    if (!isTop(dir, top) || !indexPath || !excludePath || !head || !OID.test(head) || !headTree || !OID.test(headTree)) return null;
    return { headCommit: head, headTree, indexFile: resolve(dir, indexPath), excludeFile: resolve(dir, excludePath) };
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
    const all = (await git(dir, ['rev-parse', '--show-toplevel', '--git-path', 'info/exclude', '--git-path', 'index', 'HEAD', 'HEAD^{tree}', `${ref}^{commit}`, ...(withMb ? [`${ref}...HEAD`] : []), '--'])).trim().split('\n');
    if (!isTop(dir, all[0]) || !all[1]) return null;
    const excludeFile = resolve(dir, all[1]);
    const lines = all.slice(2);
    const [indexPath, head, headTree, refCommit] = lines;
    const rest = lines.slice(4);
    if (rest[rest.length - 1] !== '--' || !indexPath || !head || !headTree || !refCommit || ![head, headTree, refCommit].every((x) => OID.test(x))) return null;
    const sym = rest.slice(0, -1);
    if (!withMb && sym.length !== 0) return null;
    if (withMb && (sym.length < 2 || !sym.slice(0, 2).every((x) => OID.test(x)) || !sym.slice(2).every((x) => x.startsWith('^') && OID.test(x.slice(1))))) return null;
    const bases = sym.slice(2).map((x) => x.slice(1));
    return { headCommit: head, headTree, indexFile: resolve(dir, indexPath), excludeFile, refCommit, ...(bases.length === 1 ? { mergeBase: bases[0] } : {}) };
  } catch {
    return null;
  }
}

/**
 * The tree of the worktree as it is on disk — committed, uncommitted and untracked files — built in a fresh
 * throwaway index so the agent's own index is never touched and none of its bits or stat cache count: an edit
 * hidden with skip-worktree or assume-unchanged, or behind a forged stat cache, is hashed like any other; an
 * untracked file is left out only by the tree's own .gitignore files (never by .git/info/exclude or
 * core.excludesFile, which the diff would not show). Sparse checkouts (core.sparseCheckout): entries the
 * agent's index marks skip-worktree and that are absent on disk are kept as they are in HEAD.
 */
export async function snapshotTree(worktree: string, indexFile?: string, excludeFile?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-index-'));
  // Interrupted (SIGINT/TERM/HUP) mid-snapshot: the throwaway index goes too.
  const offAbort = onAbort(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await git(worktree, ['read-tree', 'HEAD'], { env });
    if (indexFile && existsSync(indexFile) && (await repoConfig(worktree, defaultTimeoutMs)).sparse) {
      const listed = await git(worktree, ['ls-files', '-t', '-z'], { env: { GIT_INDEX_FILE: indexFile } });
      const absent = listed.split('\0').filter((e) => e.startsWith('S ') && !existsSync(join(worktree, e.slice(2)))).map((e) => e.slice(2));
      if (absent.length) await git(worktree, ['update-index', '--skip-worktree', '-z', '--stdin'], { env, input: absent.join('\0') + '\0' });
    }
    await addAll(worktree, env);
    // Untracked files hidden by .git/info/exclude (core.excludesFile is off): asked only when it has a pattern.
    const hidden = !mayExclude(excludeFile) ? [] : (await git(worktree, ['ls-files', '-z', '--others', '--exclude-per-directory=.gitignore'], { env })).split('\0').filter((p) => p && !p.endsWith('/') && indexable(join(worktree, p)));
    if (hidden.length) await git(worktree, ['update-index', '--add', '-z', '--stdin'], { env, input: hidden.join('\0') + '\0' });
    return (await git(worktree, ['write-tree'], { env })).trim();
  } finally {
    offAbort();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `git add -A` into the temporary index. A tracked path the agent replaced with something git cannot index (a
 * FIFO, socket or device) fails the whole add: it is dropped from the index (measured as deleted) and the add
 * runs again without it.
 */
async function addAll(worktree: string, env: NodeJS.ProcessEnv): Promise<void> {
  const skipped: string[] = [];
  for (;;) {
    try {
      await git(worktree, ['add', '-A', '--', '.', ...skipped.map((p) => `:(exclude,literal)${p}`)], { env });
      return;
    } catch (e) {
      const m = e instanceof GitError ? /error: (.+): can only add regular files/.exec(e.stderr) : null;
      if (!m || skipped.includes(m[1]!) || skipped.length >= 1000) throw e;
      skipped.push(m[1]!);
      await git(worktree, ['update-index', '--force-remove', '--', m[1]!], { env });
    }
  }
}

/** A regular file or symlink (git cannot index a FIFO, socket or device; asking it would fail the whole snapshot). */
function indexable(file: string): boolean {
  try {
    const st = lstatSync(file);
    return st.isFile() || st.isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether .git/info/exclude may exclude anything: unknown (no path), not a small regular file, or a pattern in it. */
function mayExclude(file: string | undefined): boolean {
  if (!file) return true;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > 1 << 20) return true;
    return readFileSync(file, 'utf8').split('\n').some((l) => l.trim() !== '' && !l.startsWith('#'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
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
  const [mb, tree] = await Promise.all([mbP, snapshotTree(worktree, info?.indexFile, info?.excludeFile)]);
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

/**
 * The tree and merge base the collector measured (feedback.head.tree / diff.merge_base) when the record is for
 * this base and the tree object still exists; else a fresh snapshot by the same function the collector uses.
 */
export async function measuredOrFreshDiff(worktree: string, baseCommit: string, measured: { base?: { commit: string }; head?: { tree?: string }; diff?: { merge_base: string } | null } | null): Promise<{ mergeBase: string; tree: string }> {
  const tree = measured?.head?.tree;
  const mb = measured?.diff?.merge_base;
  if (tree && mb && measured?.base?.commit === baseCommit) {
    try {
      await git(worktree, ['cat-file', '-e', `${tree}^{tree}`]);
      return { mergeBase: mb, tree };
    } catch {
      // Pruned since: snapshot again.
    }
  }
  const wd = await snapshotWorking(worktree, baseCommit);
  return { mergeBase: wd.mergeBase, tree: wd.tree };
}

let identity: NodeJS.ProcessEnv | undefined;

/**
 * Who judgeloop commits as (bin/accept --merge): the user's GIT_AUTHOR_* / GIT_COMMITTER_* variables, else their
 * global user.name / user.email (read outside any repository, so no repository config is involved).
 */
export function commitIdentityEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (identity) return identity;
  const global = (key: string): string | null => {
    const r = spawnSync('git', ['config', '--global', '--get', key], { cwd: tmpdir(), env: { PATH: env.PATH, HOME: env.HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8', timeout: 5000 });
    return r.status === 0 ? r.stdout.trim() || null : null;
  };
  const name = env.GIT_AUTHOR_NAME ?? global('user.name') ?? 'judgeloop';
  const email = env.GIT_AUTHOR_EMAIL ?? global('user.email') ?? 'judgeloop@localhost';
  identity = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: env.GIT_COMMITTER_NAME ?? name,
    GIT_COMMITTER_EMAIL: env.GIT_COMMITTER_EMAIL ?? email,
  };
  return identity;
}
