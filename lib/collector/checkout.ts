// A fresh detached checkout of one commit (never the agent's worktree), with the configured setup run in it.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { git, knowOwnConfig, repoObjects } from '../git/git.js';
import { writeView } from '../git/view.js';
import { runCommand } from '../process/runner.js';
import { collectorCheckEnv, type SandboxPolicy } from '../process/sandbox.js';
import { pathMatcher } from '../git/test-paths.js';
import { baselineTempPrefix } from './checkout-sweep.js';
import type { Baseline, Config } from '../schema/types.generated.js';
import type { StateStore } from '../store/store.js';
import { fromRun } from './checks.js';
import { planSetup, setupFiles } from './setup-plan.js';

/** Runs `fn` in a temporary checkout of `commit`, always removed afterwards (also on SIGINT/TERM/HUP). */
export async function withCheckout<T>(
  repoDir: string,
  commit: string,
  fn: (dir: string) => Promise<T>,
  kind: 'base' | 'sealed' = 'base',
): Promise<T> {
  // One prefix for both (the sweep removes an abandoned one either way); the kind tells them apart in a listing.
  const tmp = mkdtempSync(kind === 'sealed' ? `${baselineTempPrefix()}sealed-` : baselineTempPrefix());
  const tree = join(tmp, 'tree');
  // The checkout belongs to a repository of ours (lib/git/view.ts) that reads the agent's objects: no attribute,
  // info/ or hook of the agent's (nor another solution's write to the shared .git) shapes what is checked out.
  const view = join(tmp, 'view.git');
  const offAbort = onAbort(() => rmSync(tmp, { recursive: true, force: true }));
  try {
    const oid = (await git(repoDir, ['rev-parse', '--verify', `${commit}^{commit}`])).trim();
    const { objects, objectFormat } = await repoObjects(repoDir);
    writeView(view, objects, objectFormat);
    linkWorktree(view, tree, oid);
    // Our config, as written: not asked of git while nothing of the agent's has run; read as usual afterwards.
    const forget = knowOwnConfig(tree);
    try {
      await git(tree, ['read-tree', '--reset', '-u', oid]);
    } finally {
      forget();
    }
    return await fn(tree);
  } finally {
    offAbort();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * What `git worktree add --detach <tree> <oid>` writes, in one git process instead of three (worktree add, its
 * update-ref and reset --hard): the admin folder `<view>/worktrees/tree` (HEAD detached at `oid`) and `<tree>/.git`;
 * the caller's `read-tree --reset -u` fills the index and the files, through the view's attributes as a reset would.
 */
function linkWorktree(view: string, tree: string, oid: string): void {
  const admin = join(view, 'worktrees', 'tree');
  mkdirSync(admin, { recursive: true });
  mkdirSync(tree);
  writeFileSync(join(admin, 'commondir'), '../..\n');
  writeFileSync(join(admin, 'gitdir'), `${join(tree, '.git')}\n`);
  writeFileSync(join(admin, 'HEAD'), `${oid}\n`);
  writeFileSync(join(tree, '.git'), `gitdir: ${admin}\n`);
}

/** The fetch and setup commands as one string (a baseline key's part, a progress line); null when neither is set. */
export function setupCommand(collector: Config['collector']): string | null {
  const steps = [collector.fetch_command ?? null, collector.setup_command ?? null];
  if (steps.every((s) => s === null)) return null;
  return steps.map((s) => s ?? '').join(' \u2192 ');
}

/** Package managers told to run no code of the project while the network is up (a candidate's .npmrc cannot undo it). */
const FETCH_ENV: NodeJS.ProcessEnv = { npm_config_ignore_scripts: 'true', PIP_ONLY_BINARY: ':all:' };

/** Where fetched trees are kept (dep-cache.ts) and how one key is built once across processes (a state lock). */
export interface DepCache {
  root: string;
  lock: <R>(name: string, fn: () => Promise<R>) => Promise<R>;
}

/** The dependency cache in the state folder (hidden from every check), its builds under the store's locks. */
export function depCacheOf(store: StateStore, collector: Config['collector']): DepCache {
  const waitSeconds = (collector.setup_timeout_seconds ?? 600) + 60;
  return {
    root: join(store.root, 'cache', 'deps'),
    lock: (name, fn) => store.withLock(name, fn, { waitSeconds }),
  };
}

/** The kept Go build caches (go-cache.ts); `keep`: this run is the base's (the trusted revision) and writes back. */
export function goCacheOf(store: StateStore, keep: boolean): import('./go-cache.js').GoCacheSpec {
  return { root: join(store.root, 'cache', 'go-build'), keep };
}

export interface SetupOptions {
  collector: Config['collector'];
  env: NodeJS.ProcessEnv;
  sandbox: SandboxPolicy;
  log?: ((msg: string) => void) | undefined;
  label: string;
  depCache?: DepCache | undefined;
}

type SetupRun = NonNullable<Baseline['setup']>;

/**
 * collector.fetch_command with network (no project code runs: FETCH_ENV), then collector.setup_command without
 * (the project's scripts run here; collector.setup_network lets them out); undefined when neither is configured.
 */
export async function runSetup(dir: string, o: SetupOptions): Promise<Baseline['setup']> {
  const fetch = o.collector.fetch_command ?? null;
  const setup = o.collector.setup_command ?? null;
  if (fetch === null && setup === null) return undefined;
  const step = async (command: string, network: boolean, extra: NodeJS.ProcessEnv) => {
    const r = await runCommand(command, {
      cwd: dir,
      env: { ...collectorCheckEnv(o.collector, o.env), ...extra },
      sandbox: o.sandbox,
      network,
      timeoutMs: (o.collector.setup_timeout_seconds ?? 600) * 1000,
      killGraceMs: o.collector.kill_grace_seconds * 1000,
      capBytes: o.collector.output_cap_bytes,
    });
    const result = fromRun(r);
    if (r.spawnError) result.skipped_reason = `could not start: ${r.spawnError}`;
    return { command, result };
  };
  let fetched: SetupRun['fetch'];
  if (fetch !== null) {
    const run = async () => {
      o.log?.(`${o.label}: fetch (network): ${fetch}`);
      return step(fetch, true, FETCH_ENV);
    };
    fetched = o.depCache ? await cachedFetch(dir, fetch, o, o.depCache, run) : await run();
    if (fetched.result.status !== 'passed' || setup === null)
      return { command: fetched.command, result: fetched.result, fetch: fetched };
  }
  const network = o.collector.setup_network ?? false;
  const started = performance.now();
  const plan = planSetup(setup!, setupFiles(dir));
  const idle = plan.skipped.map((s) => `not run: ${s.part}: ${s.why}\n`).join('');
  if (plan.skipped.length) o.log?.(`${o.label}: setup: ${idle.trim().replaceAll('\n', '; ')}`);
  let done: SetupRun;
  if (plan.run === null) done = { command: setup!, result: idleResult(Math.round(performance.now() - started), idle) };
  else {
    o.log?.(`${o.label}: setup (${network ? 'network' : 'no network'}): ${plan.run}`);
    const ran = await step(plan.run, network, {});
    done = { ...ran, command: setup! };
    if (idle && ran.result.output) done.result.output = withNote(ran.result.output, idle);
  }
  return fetched ? { ...done, fetch: fetched } : done;
}

/**
 * The fetch through the dependency cache: a checkout whose lock files, fetch command, toolchain and platform match a
 * kept entry gets a private copy of it and fetches nothing; else it fetches and, when that passed, the folders the
 * fetch created are kept. Only a fetch fills the cache (it runs no code of the project); the setup and the checks
 * run after it, on the checkout's own copy. One fetch per key at a time (a lock): a race's candidates wait for it.
 */
async function cachedFetch(
  dir: string,
  fetch: string,
  o: SetupOptions,
  cache: DepCache,
  run: () => Promise<NonNullable<SetupRun['fetch']>>,
): Promise<NonNullable<SetupRun['fetch']>> {
  const dc = await import('./dep-cache.js');
  const material = dc.keyMaterial(dir, fetch, collectorCheckEnv(o.collector, o.env));
  if (!material) return run();
  const key = dc.depCacheKey(material);
  const restore = async (dirs: string[]) => {
    const started = performance.now();
    await dc.restoreEntry(cache.root, key, dir, dirs);
    o.log?.(`${o.label}: fetch: from the dependency cache (${key.slice(0, 12)}: ${dirs.join(', ')})`);
    const result = cachedResult(Math.round(performance.now() - started), key, dirs);
    return { command: fetch, result, cache: { key, hit: true, dirs } };
  };
  // A checkout that already holds a folder the entry would bring (committed) is not the one the entry came from:
  // it fetches as without the cache (a copy beside the committed folder would keep what the fetch replaces).
  const kept = dc.entryDirs(cache.root, key);
  if (kept?.some((d) => existsSync(join(dir, d)))) return run();
  if (kept) return restore(kept);
  return cache.lock(`deps-${key}`, async () => {
    const again = dc.entryDirs(cache.root, key);
    if (again) return restore(again);
    const before = dc.topLevel(dir);
    const done = await run();
    if (done.result.status !== 'passed') return done;
    const dirs = dc.fetchedDirs(dir, before);
    try {
      await dc.storeEntry(cache.root, key, dir, dirs);
    } catch (e) {
      o.log?.(`${o.label}: could not keep the fetch in the dependency cache: ${(e as Error).message}`);
      return done;
    }
    return { ...done, cache: { key, hit: false, dirs } };
  });
}

/** A setup whose every part would have done nothing (setup-plan.ts): passed, nothing started. */
function idleResult(ms: number, text: string): SetupRun['result'] {
  return {
    status: 'passed',
    exit_code: 0,
    signal: null,
    duration_ms: ms,
    source: 'collector',
    output: { text, bytes: Buffer.byteLength(text), truncated: false },
  };
}

/** The setup's output with the note of the parts not started in front. */
function withNote(out: NonNullable<SetupRun['result']['output']>, note: string): typeof out {
  return { ...out, text: note + out.text, bytes: out.bytes + Buffer.byteLength(note) };
}

/** A fetch answered by the cache: passed, in the time the copy took. */
function cachedResult(ms: number, key: string, dirs: string[]): SetupRun['result'] {
  const text = `from the dependency cache ${key}: ${dirs.join(', ')}\n`;
  return {
    status: 'passed',
    exit_code: 0,
    signal: null,
    duration_ms: ms,
    source: 'collector',
    output: { text, bytes: Buffer.byteLength(text), truncated: false },
  };
}

/** Files a runner loads by their name alone: one the setup, the build or the tests create is obeyed like a trusted one. */
const RUNNER_FILES = [
  'conftest.py',
  'pytest.ini',
  '.pytest.ini',
  'tox.ini',
  'setup.cfg',
  'sitecustomize.py',
  'usercustomize.py',
  'pytest.py',
  'unittest.py',
  'vitest.config.*',
  'vitest.setup.*',
  'vitest.workspace.*',
  'jest.config.*',
  'jest.setup.*',
  '.mocharc*',
];

/** What the graded run takes from the trusted revision, and the test parts of package.json and pyproject.toml. */
function trustedMatcher(collector: Config['collector']): (path: string) => boolean {
  const m = pathMatcher([
    ...(collector.test_paths ?? []),
    ...(collector.test_infra_paths ?? []),
    '**/package.json',
    '**/pyproject.toml',
  ]);
  return (p) => m(p) && !p.split('/').includes('node_modules');
}

/** What a write to a file changes whatever its content: its inode (a file replaced) or its ctime (no call sets it back). */
function stampOf(file: string): string | null {
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.ctimeMs}` : null;
}

export type Stamps = Map<string, string | null>;

/** Files a package manager rewrites as it installs (the setup's honest output), never code the checks read. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'go.sum',
  'composer.lock',
  'Gemfile.lock',
]);
const isLockfile = (p: string) => LOCKFILES.has(p.slice(p.lastIndexOf('/') + 1));

/**
 * The stamps of a fresh graded checkout's tracked files (code too), taken before anything of the candidate runs there.
 * Its tracked files are its commit's tree, listed in the repository it came from: the listing the graded tree was
 * built from (`gradedTree`), an answer git() usually has already (no process).
 */
export async function trustedStamps(dir: string, from: { repo: string; commit: string }): Promise<Stamps> {
  const tree = (await git(from.repo, ['rev-parse', '--verify', `${from.commit}^{tree}`])).trim();
  const listed = await git(from.repo, ['ls-tree', '-r', '-z', '--full-tree', tree]);
  const tracked = listed
    .split('\0')
    .map((rec) => rec.slice(rec.indexOf('\t') + 1))
    .filter((p) => p && !isLockfile(p));
  return new Map(tracked.map((p) => [p, stampOf(join(dir, p))]));
}

/** What changed in a graded checkout since `before`: the tests and their infrastructure apart from the code. */
interface CheckoutChanges {
  /** Test and test-infrastructure files (and package.json, pyproject.toml), and files a runner loads by name created. */
  tests: string[];
  /** Any other tracked file: the code the static checks read is not the code that ran. */
  code: string[];
}

/**
 * What changed in a graded checkout since `before`: tracked files modified, deleted, or written and put back as they
 * were, and files a runner loads by name created. Asked after the tests ran: the setup, the build and the code under
 * test all ran there. A package manager's lockfile is left out.
 */
export async function trustedChanges(
  dir: string,
  collector: Config['collector'],
  before: Stamps,
): Promise<CheckoutChanges> {
  const trusted = trustedMatcher(collector);
  // core.fileMode=false from the environment: `status` stays the command git() sees (no history walk asked of it).
  const status = await git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames'], {
    env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fileMode', GIT_CONFIG_VALUE_0: 'false' },
  });
  const out: CheckoutChanges = { tests: [], code: [] };
  const add = (path: string, what: string) => (trusted(path) ? out.tests : out.code).push(`${path} (${what})`);
  const named = new Set<string>();
  for (const e of status.split('\0').filter((x) => x.length > 3)) {
    const path = e.slice(3);
    if (isLockfile(path)) continue;
    named.add(path);
    add(path, e.slice(0, 2).includes('D') ? 'deleted' : 'modified');
  }
  for (const [path, stamp] of before) if (!named.has(path) && stampOf(join(dir, path)) !== stamp) add(path, 'written');
  // Untracked files, ignored ones too (the candidate writes its own .gitignore), one by one.
  const created = await git(dir, [
    'ls-files',
    '--others',
    '-z',
    '--',
    ...RUNNER_FILES.map((n) => `:(glob)**/${n}`),
    ':(exclude,glob)**/node_modules/**',
    ':(exclude,glob)**/site-packages/**',
  ]);
  for (const path of created.split('\0').filter(Boolean)) out.tests.push(`${path} (created)`);
  return out;
}
