// The check sandbox: bubblewrap with the worktree (and a scratch /tmp) writable, the rest of the filesystem
// read-only, $HOME, the state directory and judgeloop's own files invisible, a fresh PID namespace (nothing
// outlives the check), and the network per config. Also the environment a check may see.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../base/errors.js';
import { projectRoot } from '../base/paths.js';
import { privatePaths } from '../base/private-paths.js';
import { scrubEnv } from './env-scrub.js';
import type { Config } from '../schema/types.generated.js';

export type SandboxMode = 'auto' | 'required' | 'off';

/** How a check ran: recorded in the feedback record next to the check. */
export interface Isolation {
  sandbox: 'bubblewrap' | 'none';
  network: boolean;
  note?: string;
}

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
  /** Paths made invisible (an empty tmpfs over a folder, /dev/null over a file). */
  hide: string[];
  /** Paths under a hidden one made visible again, read-only (toolchains under $HOME). */
  expose: string[];
  /** Files masked with /dev/null even inside an exposed folder (credentials). */
  mask: string[];
  /** Folders writable besides each command's own (collector.sandbox_writable). */
  writable: string[];
}

export interface SandboxedCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  isolation: Isolation;
}

let probe: { ok: true; path: string } | { ok: false; why: string } | undefined;

/** Whether bubblewrap is installed and can create the namespaces it needs here (probed once per process). */
export function bubblewrap(): { ok: true; path: string } | { ok: false; why: string } {
  if (probe) return probe;
  const path = findOnPath('bwrap');
  if (!path) {
    probe = { ok: false, why: 'bubblewrap (bwrap) is not installed' };
    return probe;
  }
  const r = spawnSync(
    path,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-pid',
      '--unshare-net',
      '--die-with-parent',
      'true',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
  );
  if (r.status !== 0) {
    const err = r.stderr?.toString().trim().split('\n').pop() ?? r.error?.message ?? `exit ${r.status}`;
    probe = { ok: false, why: `bubblewrap cannot create its namespaces here: ${err}` };
    return probe;
  }
  probe = { ok: true, path };
  return probe;
}

/** The first `name` in a folder of PATH, or null. */
export function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return null;
}

/** Throws a UserError when the policy requires a sandbox this machine cannot give. */
export function assertSandboxAvailable(policy: SandboxPolicy): void {
  if (policy.mode !== 'required') return;
  const b = bubblewrap();
  if (!b.ok)
    throw new UserError(`collector.sandbox is "required" but ${b.why} (install it: apt-get install bubblewrap)`);
}

function under(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

export interface PolicyInputs {
  mode: SandboxMode;
  network: boolean;
  /** The environment judgeloop was given (HOME and PATH are read from it). */
  env: NodeJS.ProcessEnv;
  /** judgeloop's state directory, checkout and config file: never visible to a check. */
  private: string[];
  /** Extra read-only paths from config (`~/` means $HOME). */
  expose: string[];
  /** Extra writable folders from config (`~/` means $HOME). */
  writable?: string[];
}

/**
 * The default policy: $HOME hidden except the folders directly under it that hold a PATH entry (toolchains
 * such as ~/.cargo, ~/.pyenv; ~/.rustup goes with ~/.cargo), credentials inside those masked.
 */
export function sandboxPolicy(i: PolicyInputs): SandboxPolicy {
  const home = i.env.HOME ? real(i.env.HOME) : null;
  const hide = [...(home && home !== '/' ? [home] : []), ...i.private.filter(Boolean).map(real)];
  const expose = new Set<string>();
  if (home && home !== '/') {
    for (const dir of (i.env.PATH ?? '').split(delimiter)) {
      if (!dir || !isAbsolute(dir)) continue;
      const rd = real(dir);
      if (!under(rd, home) || rd === home) continue;
      const top = join(home, relative(home, rd).split(sep)[0]!);
      expose.add(top);
    }
    if (expose.has(join(home, '.cargo')) && existsSync(join(home, '.rustup'))) expose.add(join(home, '.rustup'));
    for (const e of i.expose) expose.add(e.startsWith('~/') ? join(home, e.slice(2)) : resolve(e));
  }
  const mask: string[] = [];
  for (const e of expose)
    for (const f of ['credentials', 'credentials.toml', '.npmrc', '.netrc', '.pypirc']) mask.push(join(e, f));
  const tilde = (e: string) => (e.startsWith('~/') && home ? join(home, e.slice(2)) : resolve(e));
  return { mode: i.mode, network: i.network, hide, expose: [...expose], mask, writable: (i.writable ?? []).map(tilde) };
}

let setpriv: string | null | undefined;

/**
 * `file args` started through `setpriv --pdeathsig KILL` (util-linux) when it is there: the child is killed when
 * judgeloop dies, even by SIGKILL. bubblewrap's own --die-with-parent covers only the sandboxed command (relative
 * to bwrap), not bwrap itself (0.8.0: a SIGKILLed collector left bwrap and its check running).
 */
function dieWithUs(file: string, args: string[]): { file: string; args: string[] } {
  if (setpriv === undefined) setpriv = findOnPath('setpriv');
  return setpriv ? { file: setpriv, args: ['--pdeathsig', 'KILL', '--', file, ...args] } : { file, args };
}

/** For a linked worktree's `.git` file: its admin folder and the repository's common dir (empty otherwise). */
function linkedGitDirs(dotGit: string): string[] {
  try {
    if (!lstatSync(dotGit).isFile()) return [];
    const m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return [];
    const admin = resolve(dirname(dotGit), m[1]!);
    const common = resolve(admin, readFileSync(join(admin, 'commondir'), 'utf8').trim());
    return [admin, common].filter((d) => existsSync(d)).map(real);
  } catch {
    return [];
  }
}

/** Env names a check sees (the rest of judgeloop's environment never reaches it), plus config's pass-through. */
const CHECK_ENV_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'TMPDIR',
  'CI',
  'NO_COLOR',
  'FORCE_COLOR',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'GOFLAGS',
  'GOPROXY',
  'JAVA_HOME',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'NVM_DIR',
  'PNPM_HOME',
  'DEBIAN_FRONTEND',
];

/** The allow-listed environment for a check: known names, LC_*, and `passThrough`; never GIT_* (they name another repo). */
export function checkEnv(env: NodeJS.ProcessEnv, passThrough: string[] = []): NodeJS.ProcessEnv {
  const allowed = new Set([...CHECK_ENV_NAMES, ...passThrough]);
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || k.startsWith('GIT_')) continue;
    if (allowed.has(k) || k.startsWith('LC_')) out[k] = v;
  }
  return out;
}

export interface SandboxRequest {
  command: string;
  cwd: string;
  /** Folders the check may write (its worktree, a report folder). */
  writable: string[];
  env: NodeJS.ProcessEnv;
  /** Network for this command (overrides the policy's, e.g. a baseline setup that installs packages). */
  network?: boolean;
}

/** `sh -c command`, wrapped in bubblewrap when the policy and the machine allow it. */
export function sandboxed(req: SandboxRequest, policy: SandboxPolicy | undefined): SandboxedCommand {
  const plain = (note?: string): SandboxedCommand => ({
    ...dieWithUs('sh', ['-c', req.command]),
    env: req.env,
    isolation: { sandbox: 'none', network: true, ...(note ? { note } : {}) },
  });
  if (!policy || policy.mode === 'off') return plain(policy ? 'collector.sandbox is "off"' : undefined);
  const b = bubblewrap();
  if (!b.ok) {
    if (policy.mode === 'required') throw new UserError(`collector.sandbox is "required" but ${b.why}`);
    return plain(`${b.why}: ran without a sandbox`);
  }
  const network = req.network ?? policy.network;
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--new-session',
  ];
  if (!network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  const tmp = real(tmpdir());
  if (tmp !== '/tmp' && tmp !== '/var/tmp') args.push('--tmpfs', tmp);
  const writable = [...req.writable, ...policy.writable].filter((w) => existsSync(w)).map(real);
  for (const h of policy.hide) {
    if (!existsSync(h)) continue;
    // A hidden folder that holds the worktree (a repository under $HOME) stays hidden; the worktree is bound back below.
    args.push(...(lstatSync(h).isDirectory() ? ['--tmpfs', h] : ['--ro-bind', '/dev/null', h]));
  }
  for (const e of policy.expose) if (existsSync(e)) args.push('--ro-bind', e, e);
  for (const m of policy.mask) if (existsSync(m)) args.push('--ro-bind', '/dev/null', m);
  for (const w of writable) {
    args.push('--bind', w, w);
    // The repository's own metadata stays read-only: a check must not plant config, hooks or refs for later git calls.
    const dotGit = join(w, '.git');
    if (existsSync(dotGit)) args.push('--ro-bind', dotGit, dotGit);
    // A linked worktree's admin folder and common dir live elsewhere (perhaps under the scratch /tmp): visible, read-only.
    for (const g of linkedGitDirs(dotGit)) args.push('--ro-bind', g, g);
  }
  // A hidden path inside a writable folder (state kept in the project being measured) is hidden again on top.
  for (const h of policy.hide) {
    if (existsSync(h) && writable.some((w) => h !== w && under(h, w)))
      args.push(...(lstatSync(h).isDirectory() ? ['--tmpfs', h] : ['--ro-bind', '/dev/null', h]));
  }
  args.push('--chdir', real(req.cwd), '--', 'sh', '-c', req.command);
  const env = { ...req.env, TMPDIR: '/tmp' };
  return { ...dieWithUs(b.path, args), env, isolation: { sandbox: 'bubblewrap', network } };
}

/** The policy for the collector's checks: judgeloop's state directory and checkout are among the hidden paths. */
export function collectorSandbox(
  collector: Config['collector'],
  env: NodeJS.ProcessEnv,
  stateRoot: string,
): SandboxPolicy {
  return sandboxPolicy({
    mode: collector.sandbox ?? 'auto',
    network: collector.sandbox_network ?? false,
    env,
    private: [stateRoot, projectRoot(), ...privatePaths()],
    expose: collector.sandbox_expose ?? [],
    writable: collector.sandbox_writable ?? [],
  });
}

/** The environment a check gets: the allow-list plus collector.check_env, then secret-looking names dropped. */
export function collectorCheckEnv(collector: Config['collector'], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return scrubEnv(checkEnv(env, collector.check_env ?? []), collector.secret_env_patterns);
}
