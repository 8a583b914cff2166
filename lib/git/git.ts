// The one recipe for git on an untrusted repository (docs/design/threat-model.md): built environment, no system or
// global config, every config-driven program off, the repository's driver names neutralised, timeout + group kill.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { WorkError } from '../base/errors.js';
import { HeadTailBuffer, spawnGroup } from '../process/process.js';
import { splitNumstatPatch } from './numstat-patch.js';
import { readTreeFile } from './tree-read.js';
import { tempView } from './view.js';

/** A git call that failed: one line naming the repository, the call and git's own last words (never a stack). */
export class GitError extends WorkError {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    readonly code: number | null,
    readonly repo = '',
  ) {
    super(
      `git ${args.join(' ')}${repo ? ` in ${repo}` : ''} failed${code === null ? '' : ` (exit ${code})`}: ${gitWords(stderr)}`,
    );
  }
}

/** git's stderr in one line: hints dropped (they name config to silence them), repeats once, the last three kept. */
export const gitWords = (stderr: string): string =>
  [
    ...new Set(
      stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('hint:')),
    ),
  ]
    .slice(-3)
    .join(' | ');

export interface GitOptions {
  /** Extra variables (GIT_INDEX_FILE); the rest of the environment is the safe recipe's, never the caller's. */
  env?: NodeJS.ProcessEnv;
  /** Bytes of stdout kept; more is an error (default 256 MiB). */
  maxBuffer?: number;
  /** Default 120 s (setGitTimeout). */
  timeoutMs?: number;
  input?: string;
  /** How stdout is decoded (default utf8; latin1 keeps one char per byte, for output that counts bytes). */
  encoding?: 'utf8' | 'latin1';
  /**
   * The call asks `--is-shallow-repository` itself and its caller drops the answer when that says true: a walk of
   * history runs without the shallow check first (historyEnv's answer for a repository with no shallow list is `{}`).
   */
  shallowAsked?: boolean;
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
function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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
function driverOverrides(configList: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const entry of configList.split('\0')) {
    const key = entry.split('\n', 1)[0]!.toLowerCase();
    const m =
      /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|required|textconv|command|driver|xfuncname|funcname)$/s.exec(
        key,
      );
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

export interface RepoConfig {
  overrides: string[];
  /** core.sparseCheckout is on. */
  sparse: boolean;
}

const driverCache = new Map<string, Promise<RepoConfig>>();

/** What judgeloop needs of a `git config -z --list`: the driver overrides and whether the checkout is sparse. */
function repoConfigFacts(configList: string): RepoConfig {
  let sparse = false;
  for (const entry of configList.split('\0')) {
    const [key, value] = entry.split('\n', 2);
    if (key?.toLowerCase() === 'core.sparsecheckout')
      sparse = ['true', 'yes', 'on', '1'].includes((value ?? 'true').trim().toLowerCase());
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

/** Commands that never walk history (a shallow list cannot change their answer); rev-parse unless a name walks. */
const NO_HISTORY = new Set(
  'cat-file ls-tree config status add read-tree write-tree commit-tree update-ref update-index ls-files hash-object worktree var grep check-ignore check-attr diff-files diff-index symbolic-ref mktree show-ref'.split(
    ' ',
  ),
);

function walksHistory(args: readonly string[]): boolean {
  const [cmd, ...rest] = args;
  if (cmd === 'rev-parse') return rest.some((a) => /~|\^(?!\{)|\.\./.test(a));
  return !NO_HISTORY.has(cmd ?? '');
}

const shallowCache = new Map<string, Promise<NodeJS.ProcessEnv>>();

/**
 * `<common dir>/shallow` is written by fetch, and by any worktree: a commit listed there reads as parentless, which
 * moves another solution's merge base. Only entries whose parents are really absent count: the GIT_SHALLOW_FILE
 * for a walk of history in `cwd` (the repository's own list when every entry is genuine; `{}` when not shallow).
 */
export function historyEnv(cwd: string): Promise<NodeJS.ProcessEnv> {
  let p = shallowCache.get(cwd);
  if (!p) {
    p = shallowEnv(cwd, defaultTimeoutMs);
    shallowCache.set(cwd, p);
  }
  return p;
}

async function shallowEnv(cwd: string, timeoutMs: number): Promise<NodeJS.ProcessEnv> {
  const { objects, shallow } = await repoObjects(cwd);
  if (!shallow) return {};
  const own = join(objects, '..', 'shallow');
  const unshallow = { timeoutMs, env: { GIT_SHALLOW_FILE: '/dev/null' } };
  // Read as data, only when a regular file (a FIFO would block).
  const file = readTreeFile(join(objects, '..'), 'shallow', 64 * 1024 * 1024);
  const listed = (file.ok ? file.text : '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => OID.test(l));
  const kept: string[] = [];
  for (const oid of listed) {
    const raw = await rawGit(cwd, ['cat-file', 'commit', oid], unshallow).catch(() => null);
    const parents = [...(raw?.split('\n\n', 1)[0] ?? '').matchAll(/^parent ([0-9a-f]+)$/gm)].map((m) => m[1]!);
    if (!parents.length) continue;
    const present = await rawGit(cwd, ['cat-file', '--batch-check=%(objecttype)'], {
      ...unshallow,
      input: `${parents.join('\n')}\n`,
    });
    if (present.split('\n').some((l) => l.endsWith('missing'))) kept.push(oid);
  }
  if (kept.length === listed.length) return { GIT_SHALLOW_FILE: own };
  if (!kept.length) return { GIT_SHALLOW_FILE: '/dev/null' };
  // A shallow clone with forged entries too: our list, in a file kept until the process ends.
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-shallow-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'shallow'), kept.map((o) => `${o}\n`).join(''));
  return { GIT_SHALLOW_FILE: join(dir, 'shallow') };
}

/** The repository's config facts at `cwd` (cached per process), with the default git timeout. */
export function repoConfigAt(cwd: string): Promise<RepoConfig> {
  return repoConfig(cwd, defaultTimeoutMs);
}

/** Forgets what was read of a repository's config (a test that changes it, a long-running process). */
export function forgetRepoConfig(): void {
  driverCache.clear();
}

async function rawGit(
  cwd: string,
  args: string[],
  opts: GitOptions & { prefix?: string[]; fullEnv?: NodeJS.ProcessEnv },
): Promise<string> {
  const full = [...SAFE_CONFIG.flatMap((c) => ['-c', c]), ...(opts.prefix ?? []), ...args];
  const cap = opts.maxBuffer ?? 256 * 1024 * 1024;
  const out: Buffer[] = [];
  let outLen = 0;
  let overflow = false;
  const err = new HeadTailBuffer(4096, 4096);
  const r = await spawnGroup('git', full, {
    cwd,
    env: opts.fullEnv ?? gitEnv(opts.env),
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
  if (r.spawnError) throw new GitError(args, r.spawnError, null, cwd);
  if (r.timedOut)
    throw new GitError(
      args,
      `timed out after ${Math.round((opts.timeoutMs ?? defaultTimeoutMs) / 1000)} s and was killed`,
      null,
      cwd,
    );
  if (overflow) throw new GitError(args, `printed more than ${cap} bytes`, null, cwd);
  if (r.exitCode !== 0) throw new GitError(args, stderr || `signal ${r.signal}`, r.exitCode, cwd);
  return Buffer.concat(out).toString(opts.encoding ?? 'utf8');
}

/**
 * Runs git on a repository judgeloop does not trust (the one recipe for every caller): the safe environment,
 * no system/global config, every config-driven program off (fsmonitor, hooks, filters, textconv, external
 * diff and merge drivers, pager, transports, lazy fetch), a timeout that kills its process group, capped output.
 */
export function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const key = opts.input === undefined ? answerKey(storeOf(cwd), args) : null;
  if (key === null) {
    const p = gitOnce(cwd, args, opts);
    if (args[0] === 'commit-tree' || args[0] === 'write-tree')
      void p.then(
        (out) => learnCommit(cwd, args, out),
        () => undefined,
      );
    return p;
  }
  return kept(key, () => gitOnce(cwd, args, opts));
}

/** The answer kept under `key`, else `ask()`'s, kept (a failure is not: asked again). */
function kept(key: string, ask: () => Promise<string>): Promise<string> {
  const known = answers.get(key);
  if (known) return known;
  const p = ask();
  answers.set(key, p);
  p.catch(() => answers.delete(key));
  // A long-lived process (a race, the judge's drain) keeps the latest answers only.
  if (answers.size > 512) answers.delete(answers.keys().next().value!);
  return p;
}

/** Answers that cannot change: questions about objects named by their full id (one git process per question). */
const answers = new Map<string, Promise<string>>();
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Object stores (`<common dir>/objects`) of the folders git was asked in, once known (repoObjects). */
const stores = new Map<string, string>();

/**
 * Where an answer fixed by object ids holds: `cwd`'s object store once known, so the worktrees of one repository
 * (a race's solutions) share their answers; `cwd` itself before.
 */
const storeOf = (cwd: string): string => {
  const objects = stores.get(cwd);
  return objects === undefined ? cwd : `objects:${objects}`;
};

/**
 * The memo key of a question whose answer is fixed by the objects it names, or null: `rev-parse [--verify]
 * <oid>^{tree|commit}`, `ls-tree <flags> <oid>`, `cat-file blob <oid>:<path>`, a diff of two full ids. `repo`: the
 * object store the ids are read from (a folder when not known yet).
 */
export function answerKey(repo: string, args: readonly string[]): string | null {
  const [cmd, ...rest] = args;
  const flags = (xs: readonly string[]) => xs.every((a) => a.startsWith('-'));
  const fixed =
    (cmd === 'rev-parse' &&
      rest.slice(0, -1).every((a) => a === '--verify' || a === '-q' || a === '--quiet') &&
      /^[0-9a-f]{40}(?:[0-9a-f]{24})?\^\{(tree|commit)\}$/.test(rest.at(-1) ?? '')) ||
    (cmd === 'ls-tree' && flags(rest.slice(0, -1)) && OID.test(rest.at(-1) ?? '')) ||
    (cmd === 'cat-file' && rest.length === 2 && rest[0] === 'blob' && OID.test(rest[1]!.split(':')[0]!)) ||
    (cmd === 'diff' &&
      !rest.includes('--') &&
      rest.filter((a) => !a.startsWith('-')).length === 2 &&
      rest.filter((a) => !a.startsWith('-')).every((a) => OID.test(a)));
  if (!fixed) return null;
  // `rev-parse --verify X^{tree}` and `rev-parse X^{tree}` print the same for an object that exists.
  const asked = cmd === 'rev-parse' ? ['rev-parse', rest.at(-1)!] : args;
  return `${repo}\0${asked.join('\0')}`;
}

/** A commit's tree as a caller's own rev-parse printed it: `rev-parse <commit>^{tree}` in `cwd` is not asked again. */
export function knowTree(cwd: string, commit: string, tree: string): void {
  if (OID.test(commit) && OID.test(tree)) knowAnswer(cwd, ['rev-parse', `${commit}^{tree}`], `${tree}\n`);
}

/** Whether `args` in `cwd` has a kept answer (asking it starts no process). */
export function isAnswered(cwd: string, args: readonly string[]): boolean {
  const key = answerKey(storeOf(cwd), args);
  return key !== null && answers.has(key);
}

/** An answer read otherwise (a `cat-file --batch`): `args` in `cwd` is not asked when its answer can be kept. */
export function knowAnswer(cwd: string, args: readonly string[], text: string): void {
  const key = answerKey(storeOf(cwd), args);
  if (key !== null) answers.set(key, Promise.resolve(text));
}

/** A tree-ish's listing read otherwise (tree-listings.ts): `ls-tree -r -z --full-tree <treeish>` in `cwd` is not asked. */
export function knowListing(cwd: string, treeish: string, text: string): void {
  knowAnswer(cwd, ['ls-tree', '-r', '-z', '--full-tree', treeish], text);
}

/** What `commit-tree <tree> …` printed answers two later questions: the new commit's id and its tree (write-tree's one). */
function learnCommit(cwd: string, args: readonly string[], out: string): void {
  const commit = out.trim();
  if (args[0] === 'write-tree') {
    if (OID.test(commit)) knowAnswer(cwd, ['rev-parse', `${commit}^{tree}`], `${commit}\n`);
    return;
  }
  const tree = args[1] ?? '';
  if (!OID.test(commit) || !OID.test(tree)) return;
  knowAnswer(cwd, ['rev-parse', `${commit}^{commit}`], `${commit}\n`);
  knowAnswer(cwd, ['rev-parse', `${commit}^{tree}`], `${tree}\n`);
}

async function gitOnce(cwd: string, args: string[], opts: GitOptions): Promise<string> {
  const prefix = (await repoConfig(cwd, opts.timeoutMs ?? defaultTimeoutMs)).overrides;
  if (walksHistory(args) && !opts.shallowAsked) opts = { ...opts, env: { ...(await historyEnv(cwd)), ...opts.env } };
  // Commands that render content never run a textconv or external diff program. In our view (two revisions) text is
  // told by content alone (view.ts); elsewhere the agent's attributes apply, so every file is shown as text.
  const renders = ['diff', 'log', 'show'].includes(args[0] ?? '');
  const safeArgs = renders ? [args[0]!, '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args;
  const revs = args[0] === 'diff' ? twoRevs(args) : null;
  if (revs) return viewDiff(cwd, safeArgs, revs, opts);
  const text = renders ? [safeArgs[0]!, '--text', ...safeArgs.slice(1)] : safeArgs;
  return rawGit(cwd, text, { ...opts, prefix });
}

/** The two revisions of a diff between two tree-ish (their indices in `args`), else null (a diff with the worktree). */
function twoRevs(args: string[]): [number, number] | null {
  const end = args.indexOf('--');
  const upTo = end === -1 ? args.length : end;
  if (args.some((a, i) => i < upTo && /^--(cached|staged|no-index)$/.test(a))) return null;
  const pos: number[] = [];
  for (let i = 1; i < upTo; i++) if (!args[i]!.startsWith('-')) pos.push(i);
  return pos.length === 2 && !pos.some((i) => args[i]!.includes('..')) ? [pos[0]!, pos[1]!] : null;
}

export interface RepoObjects {
  /** `<common dir>/objects`, absolute. */
  objects: string;
  objectFormat: string;
  /** The repository has a shallow list (historyEnv reads it). */
  shallow: boolean;
}

const objectsCache = new Map<string, Promise<RepoObjects>>();

/** What a caller's own rev-parse learned of `cwd` (`--path-format=absolute --git-common-dir --show-object-format --is-shallow-repository`). */
export function knowRepoObjects(cwd: string, commonDir: string, objectFormat: string, shallow: boolean): void {
  if (objectsCache.has(cwd)) return;
  objectsCache.set(cwd, Promise.resolve({ objects: join(commonDir, 'objects'), objectFormat, shallow }));
  stores.set(cwd, join(commonDir, 'objects'));
}

/**
 * A repository judgeloop has just written (a view: lib/git/view.ts, no driver and no sparse checkout in its config):
 * its config is known without asking until the returned function is called (before anything of the agent's runs).
 */
export function knowOwnConfig(cwd: string): () => void {
  const known = Promise.resolve(repoConfigFacts(''));
  driverCache.set(cwd, known);
  return () => {
    if (driverCache.get(cwd) === known) driverCache.delete(cwd);
  };
}

/** Where the repository at `cwd` keeps its objects, and their format (read once per process). */
export function repoObjects(cwd: string): Promise<RepoObjects> {
  let p = objectsCache.get(cwd);
  if (!p) {
    const ask = ['rev-parse', '--path-format=absolute', '--git-common-dir', '--show-object-format'];
    p = git(cwd, [...ask, '--is-shallow-repository']).then((out) => {
      const [common, format, shallow] = out.trim().split('\n');
      stores.set(cwd, join(common!.trim(), 'objects'));
      return {
        objects: join(common!.trim(), 'objects'),
        objectFormat: (format ?? 'sha1').trim(),
        shallow: shallow?.trim() === 'true',
      };
    });
    objectsCache.set(cwd, p);
  }
  return p;
}

/**
 * A diff of two tree-ish, resolved in the agent's repository and rendered in a judgeloop-owned one (view.ts): no
 * attribute, `info/` or config of the agent's can make a file binary, convert it or name a driver.
 */
async function viewDiff(cwd: string, args: string[], revs: [number, number], opts: GitOptions): Promise<string> {
  const out = [...args];
  // args carries the two inserted flags: a revision's index moved by two.
  await Promise.all(
    revs.map(async (i) => {
      out[i + 2] = (await git(cwd, ['rev-parse', '--verify', `${args[i + 2]}^{tree}`], opts)).trim();
    }),
  );
  const key = treeDiffKey(cwd, out);
  const asked = key ? `${key.trees}\0${key.flags}` : '';
  const learned = learnedPatches.get(asked);
  if (learned !== undefined) return learned;
  if (key?.flags !== NUMSTAT_FLAGS) return viewGit(cwd, out, opts);
  // The collector asks the same two trees' patch next (no-op and gaming checks): one git process, one view for both.
  const both = splitNumstatPatch(await viewGit(cwd, ['diff', '-p', ...out.slice(1)], opts));
  if (!both) return viewGit(cwd, out, opts);
  learnPatch(`${key.trees}\0${PATCH_FLAGS}`, both.patch);
  return both.numstat;
}

const NUMSTAT_FLAGS = ['--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv'].sort().join(' ');
const PATCH_FLAGS = ['-M', '--no-ext-diff', '--no-textconv'].sort().join(' ');
/**
 * Patches a `--numstat -p` diff printed beside the numstat asked, for the no-op and gaming checks and the judge's
 * context of the same run: the latest 8, 32 MiB in all (the two trees fix the patch: given out as often as asked).
 */
const learnedPatches = new Map<string, string>();
const PATCHES_KEPT_CHARS = 32 * 1024 * 1024;

function learnPatch(key: string, patch: string): void {
  learnedPatches.set(key, patch);
  let chars = 0;
  for (const p of learnedPatches.values()) chars += p.length;
  for (const [k, p] of learnedPatches) {
    if (learnedPatches.size <= 8 && chars <= PATCHES_KEPT_CHARS) break;
    learnedPatches.delete(k);
    chars -= p.length;
  }
}

/** A diff of two trees with flags only (no paths): the repository and trees, and the set of flags. */
function treeDiffKey(cwd: string, args: string[]): { trees: string; flags: string } | null {
  if (args.includes('--')) return null;
  const revs = args.slice(1).filter((a) => !a.startsWith('-'));
  if (revs.length !== 2) return null;
  const trees = [cwd, ...revs].join('\0');
  const flags = [...new Set(args.slice(1).filter((a) => a.startsWith('-')))].sort().join(' ');
  return { trees, flags };
}

/**
 * Runs a read of objects (named by id: resolve names in `cwd` first) in a temporary judgeloop-owned repository that
 * shares `cwd`'s objects (lib/git/view.ts): what it reads is the blobs' bytes, whatever the agent's attributes say.
 */
export async function viewGit(cwd: string, args: string[], opts: GitOptions = {}): Promise<string> {
  const { objects, objectFormat } = await repoObjects(cwd);
  const key = viewAnswerKey(objects, args);
  if (key === null || opts.input !== undefined) return inView(cwd, objects, objectFormat, args, opts);
  return kept(key, () => inView(cwd, objects, objectFormat, args, opts));
}

/**
 * The memo key of a read in a view that only full ids decide, or null: `grep <flags> [-e <pattern>] <oid>… --
 * <paths>` (the view has no refs, no attributes, no config of the agent's: the objects and the words fix it).
 */
export function viewAnswerKey(objects: string, args: readonly string[]): string | null {
  const end = args.indexOf('--');
  const before = end === -1 ? args.slice(1) : args.slice(1, end);
  if (args[0] !== 'grep') return null;
  let oids = 0;
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!;
    if (a === '-e') i++;
    else if (OID.test(a)) oids++;
    else if (!/^-[a-zA-Z]+$/.test(a)) return null;
  }
  return oids ? `objects:${objects}\0view\0${args.join('\0')}` : null;
}

async function inView(
  cwd: string,
  objects: string,
  objectFormat: string,
  args: string[],
  opts: GitOptions,
): Promise<string> {
  const view = tempView(objects, objectFormat);
  const offAbort = onAbort(view.done);
  try {
    return await rawGit(view.dir, args, { ...opts, env: { ...opts.env, GIT_DIR: view.dir } });
  } catch (e) {
    // The repository named is the agent's: the view is ours and gone.
    throw e instanceof GitError ? new GitError(e.args, e.stderr, e.code, cwd) : e;
  } finally {
    offAbort();
    view.done();
  }
}

export interface Identity {
  name: string;
  email: string;
}

/** The user's variables git reads to say who commits: their global and system config, and GIT_AUTHOR_* etc. */
const IDENTITY_VARS = [
  'HOME',
  'XDG_CONFIG_HOME',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'EMAIL',
] as const;

/**
 * Who commits when judgeloop commits for the user (bin/accept --merge): git's own answer (`git var`), asked in
 * `dir` with the user's identity variables and global config, so the repository's config comes first as in `git
 * commit`. Config is read as data (nothing runs); null when git cannot tell (no user.email anywhere).
 */
export async function commitIdentity(
  dir: string,
  userEnv: NodeJS.ProcessEnv,
): Promise<{ author: Identity; committer: Identity } | null> {
  const env = gitEnv();
  for (const k of ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM']) delete env[k];
  for (const k of IDENTITY_VARS) if (userEnv[k] !== undefined) env[k] = userEnv[k];
  env.HOME ??= '/nonexistent';
  await repoConfig(dir, defaultTimeoutMs); // fails closed, as every call here
  const ask = async (v: string): Promise<Identity | null> => {
    try {
      const out = await rawGit(dir, ['var', v], { fullEnv: env });
      const m = /^(.*) <(.*)> \d+ [+-]\d{4}\n?$/.exec(out);
      return m?.[2] ? { name: m[1]!, email: m[2] } : null;
    } catch (e) {
      if (e instanceof GitError && e.code !== null) return null;
      throw e;
    }
  };
  const [author, committer] = await Promise.all([ask('GIT_AUTHOR_IDENT'), ask('GIT_COMMITTER_IDENT')]);
  return author && committer ? { author, committer } : null;
}

/** An identity as the GIT_<role>_NAME / _EMAIL (and _DATE) variables of one commit. */
export function identityEnv(role: 'AUTHOR' | 'COMMITTER', who: Identity, date?: string): NodeJS.ProcessEnv {
  return {
    [`GIT_${role}_NAME`]: who.name,
    [`GIT_${role}_EMAIL`]: who.email,
    ...(date ? { [`GIT_${role}_DATE`]: date } : {}),
  };
}
