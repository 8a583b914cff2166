// The check sandbox: bubblewrap from an empty root, deny by default (docs/design/threat-model.md), and the
// environment a check may see.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UserError } from '../base/errors.js';
import { projectRoot } from '../base/paths.js';
import { privatePaths } from '../base/private-paths.js';
import { scrubEnv } from './env-scrub.js';
import { keepProbeOk, probeKnownOk } from './probe-cache.js';
import { spawnGroup } from './process.js';
import type { Config } from '../schema/types.generated.js';

type SandboxMode = 'auto' | 'required' | 'off';

/** How a check ran: recorded in the feedback record next to the check. */
export interface Isolation {
  sandbox: 'bubblewrap' | 'none';
  network: boolean;
  note?: string;
}

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
  /** $HOME inside: an empty writable tmpfs (the real one never bound); null without a HOME. */
  home: string | null;
  /** Read-only binds besides the system folders: PATH entries and their toolchain roots (a private path wins). */
  expose: string[];
  /** collector.sandbox_expose: read-only, bound over a private path that holds them (the user named them). */
  named: string[];
  /** Paths made invisible even where a bind would show them (state, judgeloop, the config's folder, the runtime dir). */
  hide: string[];
  /** Files masked with /dev/null inside a bound folder (credentials, /etc's secrets). */
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

type Probe = { ok: true; path: string } | { ok: false; why: string };
let probe: Probe | undefined;
let probing: Promise<void> | undefined;

const PROBE_ARGS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net'];

function probed(path: string, status: number | null, err: string): Probe {
  if (status === 0) return { ok: true, path };
  return { ok: false, why: `bubblewrap cannot create its namespaces here: ${err || `exit ${status}`}` };
}

/** Whether bubblewrap is installed and can create the namespaces it needs here (probed once per process). */
export function bubblewrap(): Probe {
  if (probe) return probe;
  const path = findOnPath('bwrap');
  if (!path) {
    probe = { ok: false, why: 'bubblewrap (bwrap) is not installed' };
    return probe;
  }
  const r = spawnSync(path, [...PROBE_ARGS, '--die-with-parent', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
  });
  probe = probed(path, r.status, r.stderr?.toString().trim().split('\n').pop() ?? r.error?.message ?? '');
  return probe;
}

/**
 * The same probe started without waiting (a collect starts it with its first git call, so it overlaps git's work);
 * `sandboxReady()` waits for it. With `cacheFile`, a success is kept there and read back instead of probing.
 */
export function startSandboxProbe(policy: SandboxPolicy, cacheFile?: string): void {
  if (policy.mode === 'off' || probe || probing) return;
  const path = findOnPath('bwrap');
  if (!path) return;
  // A success kept by an earlier process for the same binary, boot, kernel and settings (probe-cache.ts).
  if (cacheFile && probeKnownOk(cacheFile, path)) {
    probe = { ok: true, path };
    return;
  }
  let err = '';
  probing = spawnGroup(path, [...PROBE_ARGS, '--die-with-parent', 'true'], {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs: 10_000,
    onStdout: () => {},
    onStderr: (c) => {
      err += c.toString();
    },
  }).then(
    (r) => {
      probe ??= probed(path, r.exitCode, r.spawnError ?? err.trim().split('\n').pop() ?? '');
      if (cacheFile && probe.ok && probe.path === path) keepProbeOk(cacheFile, path);
    },
    () => undefined,
  );
}

/** Waits for a probe `startSandboxProbe` started (if any). */
export async function sandboxReady(): Promise<void> {
  if (probing) await probing;
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

/** The system folders bound read-only into the empty root (a symlink such as /bin -> usr/bin stays a symlink). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/** /etc's secrets: masked (a file by /dev/null, a folder by an empty tmpfs); ssh host keys are added by name. */
const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssl/private',
  '/etc/security/opasswd',
  '/etc/krb5.keytab',
  '/etc/NetworkManager/system-connections',
  '/etc/wireguard',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  '/etc/docker/key.json',
];

/** Credential files masked in every exposed folder. */
const CREDENTIAL_FILES = ['credentials', 'credentials.toml', '.npmrc', '.netrc', '.pypirc', '.git-credentials'];

/** Toolchain managers whose whole folder a PATH entry inside it brings along (their shims need the rest). */
const HOME_TOOLCHAINS = ['cargo', 'rustup', 'pyenv', 'nvm', 'rbenv', 'goenv', 'volta', 'asdf'];
/** The same roots when the environment moves them. */
const ENV_TOOLCHAINS: Record<string, string> = {
  CARGO_HOME: 'cargo',
  RUSTUP_HOME: 'rustup',
  PYENV_ROOT: 'pyenv',
  NVM_DIR: 'nvm',
  RBENV_ROOT: 'rbenv',
  VOLTA_HOME: 'volta',
  ASDF_DIR: 'asdf',
};

export interface ToolchainRoot {
  dir: string;
  tool: string;
}

export interface PolicyInputs {
  mode: SandboxMode;
  network: boolean;
  /** The environment judgeloop was given (HOME, PATH, XDG_RUNTIME_DIR and toolchain roots are read from it). */
  env: NodeJS.ProcessEnv;
  /** judgeloop's state directory, checkout and the config file's folder: never visible to a check. */
  private: string[];
  /** Extra read-only paths from config (`~/` means $HOME). */
  expose: string[];
  /** Extra writable folders from config (`~/` means $HOME). */
  writable?: string[];
}

/** ssh's private host keys in /etc/ssh (their names vary with the key types). */
function sshHostKeys(): string[] {
  try {
    return readdirSync('/etc/ssh')
      .filter((f) => f.endsWith('_key'))
      .map((f) => join('/etc/ssh', f));
  } catch {
    return [];
  }
}

/** The toolchain roots a PATH entry may bring along: ~/.cargo, ~/.pyenv, … and their environment overrides. */
export function toolchainRoots(env: NodeJS.ProcessEnv, home: string | null): ToolchainRoot[] {
  const roots = home ? HOME_TOOLCHAINS.map((tool) => ({ dir: join(home, `.${tool}`), tool })) : [];
  for (const [k, tool] of Object.entries(ENV_TOOLCHAINS))
    if (env[k] && isAbsolute(env[k]!)) roots.push({ dir: resolve(env[k]!), tool });
  return roots;
}

/**
 * What one PATH entry exposes: the toolchain root it lies in (rustup's with cargo's), else /opt/<tool> for
 * /opt/<tool>/bin, else the entry itself; never / or a folder holding $HOME or a private path; nothing for a
 * system folder (bound already).
 */
export function pathExposure(dir: string, roots: ToolchainRoot[], home: string | null, privates: string[]): string[] {
  if (!isAbsolute(dir)) return [];
  const d = resolve(dir);
  const rd = real(d);
  if (SYSTEM_DIRS.some((s) => under(d, s) || under(rd, s))) return [];
  const forbidden = (p: string) => p === '/' || (home !== null && under(home, p)) || privates.some((q) => under(q, p));
  const root = roots.find((r) => under(d, r.dir) || under(rd, r.dir));
  const found = root
    ? [root.dir, ...(root.tool === 'cargo' ? roots.filter((r) => r.tool === 'rustup').map((r) => r.dir) : [])]
    : [/^\/opt\/[^/]+(?=\/bin$)/.exec(d)?.[0] ?? d];
  return found.filter((p) => !forbidden(p));
}

/** The config file's folder (its judgeloop.env beside it); a system folder, $HOME or / only the judgeloop files in it. */
export function configHides(file: string, home: string | null): string[] {
  const dir = dirname(resolve(file));
  const wide = dir === '/' || dir === home || SYSTEM_DIRS.some((s) => under(s, dir) || s === dir);
  if (!wide) return [dir];
  let beside: string[] = [];
  try {
    beside = readdirSync(dir).filter((f) => /^\.?judgeloop|\.env$/.test(f));
  } catch {
    /* the folder went away: the file alone */
  }
  return [...new Set([resolve(file), ...beside.map((f) => join(dir, f))])];
}

/**
 * Deny by default: the check sees the system folders, /etc without its secrets, the PATH entries (with the toolchain
 * roots they belong to) and collector.sandbox_expose, each read-only; $HOME is an empty tmpfs; judgeloop's private
 * paths and $XDG_RUNTIME_DIR are hidden wherever a bind would show them.
 */
export function sandboxPolicy(i: PolicyInputs): SandboxPolicy {
  const home = i.env.HOME && i.env.HOME !== '/' ? real(i.env.HOME) : null;
  const tilde = (e: string) => (e.startsWith('~/') && home ? join(home, e.slice(2)) : resolve(e));
  const runtime = i.env.XDG_RUNTIME_DIR && isAbsolute(i.env.XDG_RUNTIME_DIR) ? [real(i.env.XDG_RUNTIME_DIR)] : [];
  const hide = [...new Set([...i.private.filter(Boolean).map(real), ...runtime])];
  const roots = toolchainRoots(i.env, home).filter((r) => existsSync(r.dir));
  const expose = new Set<string>();
  for (const dir of (i.env.PATH ?? '').split(delimiter))
    for (const e of pathExposure(dir, roots, home, hide)) if (existsSync(e)) expose.add(e);
  const named = i.expose.map(tilde);
  const mask = [...ETC_SECRETS, ...sshHostKeys()];
  for (const e of [...expose, ...named]) for (const f of CREDENTIAL_FILES) mask.push(join(e, f));
  return {
    mode: i.mode,
    network: i.network,
    home,
    expose: [...expose].sort(),
    named,
    hide,
    mask,
    writable: (i.writable ?? []).map(tilde),
  };
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
function checkEnv(env: NodeJS.ProcessEnv, passThrough: string[] = []): NodeJS.ProcessEnv {
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
  const args = bwrapArgs(policy, { ...req, network });
  const env = { ...req.env, TMPDIR: '/tmp' };
  return { ...dieWithUs(b.path, args), env, isolation: { sandbox: 'bubblewrap', network } };
}

/** A folder hidden by an empty tmpfs, a file by /dev/null. */
const hidden = (p: string): string[] => (lstatSync(p).isDirectory() ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]);

/** A system folder as it is on the host: bound read-only, or the same symlink (/bin -> usr/bin). */
function systemBind(d: string): string[] {
  try {
    const st = lstatSync(d);
    if (st.isSymbolicLink()) return ['--symlink', readlinkSync(d), d];
    return st.isDirectory() ? ['--ro-bind', d, d] : [];
  } catch {
    return [];
  }
}

/** /etc/resolv.conf may be a symlink into /run (systemd-resolved): that one file, never its folder. */
function resolvConf(): string[] {
  try {
    const target = realpathSync('/etc/resolv.conf');
    if (!lstatSync(target).isFile() || SYSTEM_DIRS.some((s) => under(target, s))) return [];
    return ['--ro-bind', target, target];
  } catch {
    return [];
  }
}

/**
 * The bubblewrap arguments for one command (without the program): an empty root, the policy's read-only binds,
 * `req.writable` (the worktree, or a sealed checkout) read-write with its `.git` read-only, private paths hidden.
 */
export function bwrapArgs(
  policy: SandboxPolicy,
  req: { command: string; cwd: string; writable: string[]; network: boolean },
): string[] {
  const { args, hide } = policyArgs(policy, req.network);
  const writable = [...req.writable, ...policy.writable].filter((w) => existsSync(w)).map(real);
  const inner: string[] = [];
  for (const w of writable) {
    args.push('--bind', w, w);
    // The repository's own metadata stays read-only: a check must not plant config, hooks or refs for later git calls.
    const dotGit = join(w, '.git');
    if (existsSync(dotGit)) args.push('--ro-bind', dotGit, dotGit);
    // A linked worktree's admin folder and common dir live elsewhere (perhaps under the scratch /tmp): visible, read-only.
    const linked = linkedGitDirs(dotGit);
    for (const g of linked) args.push('--ro-bind', g, g);
    inner.push(w, ...linked);
  }
  // A private path inside a writable folder (state kept in the project being measured) is hidden again on top.
  for (const h of hide) if (inner.some((w) => h !== w && under(h, w))) args.push(...hidden(h));
  args.push('--remount-ro', '/', '--chdir', real(req.cwd), '--', 'sh', '-c', req.command);
  return args;
}

/**
 * The policy's part of the arguments, worked out once per policy, network and set of private paths that exist (a
 * collect's checks share it; the masked credential files are the user's, which no check can create).
 */
const policyParts = new WeakMap<SandboxPolicy, Map<string, { args: string[]; hide: string[] }>>();

function policyArgs(policy: SandboxPolicy, network: boolean): { args: string[]; hide: string[] } {
  const byKey = policyParts.get(policy) ?? new Map<string, { args: string[]; hide: string[] }>();
  policyParts.set(policy, byKey);
  const key = `${network}:${policy.hide.map((h) => (existsSync(h) ? 1 : 0)).join('')}`;
  const part = byKey.get(key) ?? policyArgsNow(policy, network);
  byKey.set(key, part);
  return { args: [...part.args], hide: part.hide };
}

function policyArgsNow(policy: SandboxPolicy, network: boolean): { args: string[]; hide: string[] } {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  args.push('--new-session', ...(network ? [] : ['--unshare-net']));
  for (const d of SYSTEM_DIRS) args.push(...systemBind(d));
  args.push(...resolvConf(), '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  const tmp = real(tmpdir());
  if (tmp !== '/tmp' && tmp !== '/var/tmp') args.push('--tmpfs', tmp);
  if (policy.home) args.push('--tmpfs', policy.home);
  // Parents before children, so a toolchain root never covers a folder bound inside it.
  const byDepth = (xs: string[]) => xs.filter((e) => existsSync(e)).sort((x, y) => x.length - y.length);
  const expose = byDepth(policy.expose);
  for (const e of expose) args.push('--ro-bind', e, e);
  const bound = [...SYSTEM_DIRS, ...expose];
  const hide = policy.hide.filter((h) => existsSync(h) && !SYSTEM_DIRS.some((s) => under(s, h)));
  // A private path a bind shows (or that holds an exposed folder) is hidden; the worktree may be bound back inside it.
  for (const h of hide) if (bound.some((b) => under(h, b) || under(b, h))) args.push(...hidden(h));
  // Folders the user named come back even inside a private path (the demo's lint borrows judgeloop's node_modules);
  // a private path inside one of them is hidden again.
  const named = byDepth(policy.named);
  for (const e of named) args.push('--ro-bind', e, e);
  for (const h of hide) if (named.some((e) => h !== e && under(h, e))) args.push(...hidden(h));
  for (const m of policy.mask) if (existsSync(m)) args.push(...hidden(m));
  return { args, hide };
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
    private: [
      stateRoot,
      projectRoot(),
      ...privatePaths().flatMap((f) => configHides(f, env.HOME ? real(env.HOME) : null)),
    ],
    expose: collector.sandbox_expose ?? [],
    writable: collector.sandbox_writable ?? [],
  });
}

/** The environment a check gets: the allow-list plus collector.check_env, then secret-looking names dropped. */
export function collectorCheckEnv(collector: Config['collector'], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return scrubEnv(checkEnv(env, collector.check_env ?? []), collector.secret_env_patterns);
}
