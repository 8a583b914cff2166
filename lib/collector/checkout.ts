// A fresh detached checkout of one commit (never the agent's worktree), with the configured setup run in it.
import { lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { git, repoObjects } from '../git/git.js';
import { writeView } from '../git/view.js';
import { runCommand } from '../process/runner.js';
import { collectorCheckEnv, type SandboxPolicy } from '../process/sandbox.js';
import { pathMatcher } from '../git/test-paths.js';
import { baselineTempPrefix } from './checkout-sweep.js';
import type { Baseline, Config } from '../schema/types.generated.js';
import { fromRun } from './checks.js';

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
    await git(view, ['worktree', 'add', '--detach', '--quiet', tree, oid]);
    return await fn(tree);
  } finally {
    offAbort();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The fetch and setup commands as one string (a baseline key's part, a progress line); null when neither is set. */
export function setupCommand(collector: Config['collector']): string | null {
  const steps = [collector.fetch_command ?? null, collector.setup_command ?? null];
  if (steps.every((s) => s === null)) return null;
  return steps.map((s) => s ?? '').join(' \u2192 ');
}

/** Package managers told to run no code of the project while the network is up (a candidate's .npmrc cannot undo it). */
const FETCH_ENV: NodeJS.ProcessEnv = { npm_config_ignore_scripts: 'true', PIP_ONLY_BINARY: ':all:' };

export interface SetupOptions {
  collector: Config['collector'];
  env: NodeJS.ProcessEnv;
  sandbox: SandboxPolicy;
  log?: ((msg: string) => void) | undefined;
  label: string;
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
    o.log?.(`${o.label}: fetch (network): ${fetch}`);
    fetched = await step(fetch, true, FETCH_ENV);
    if (fetched.result.status !== 'passed' || setup === null) return { ...fetched, fetch: fetched };
  }
  const network = o.collector.setup_network ?? false;
  o.log?.(`${o.label}: setup (${network ? 'network' : 'no network'}): ${setup}`);
  const done = await step(setup!, network, {});
  return fetched ? { ...done, fetch: fetched } : done;
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

/** The stamps of a fresh graded checkout's tracked files (code too), taken before anything of the candidate runs there. */
export async function trustedStamps(dir: string): Promise<Stamps> {
  const tracked = (await git(dir, ['ls-files', '-z'])).split('\0').filter((p) => p && !isLockfile(p));
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
  const status = await git(dir, [
    '-c',
    'core.fileMode=false',
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=no',
    '--no-renames',
  ]);
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
