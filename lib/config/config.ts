import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { markPrivate } from '../base/private-paths.js';
import type { EnvKey, EnvSettings } from '../base/env.js';
import { UserError } from '../base/errors.js';
import { configDir, projectRoot } from '../base/paths.js';
import { validate, validatedDefaultsSha256 } from '../schema/schema.js';
import type { Config } from '../schema/types.generated.js';

export type { Config };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

function isPlainObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; arrays and scalars replace. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out as T;
}

function readJsonFile(file: string, what: string, onText?: (text: string) => void): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    onText?.(text);
  } catch (e) {
    throw new UserError(`${what} ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UserError(`${what} ${file}: not valid JSON (${(e as Error).message})`);
  }
}

function parseBool(name: string, v: string): boolean {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new UserError(`${name}=${JSON.stringify(v)}: expected true or false`);
}

function parseInteger(name: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new UserError(`${name}=${JSON.stringify(v)}: expected a whole number`);
  return Number(v);
}

/** The JUDGE_* toggles as a config overlay. */
function envOverlay(env: EnvSettings): DeepPartial<Config> {
  const judge: DeepPartial<Config['judge']> = {};
  if (env.JUDGE_ENABLED !== undefined) judge.enabled = parseBool('JUDGE_ENABLED', env.JUDGE_ENABLED);
  if (env.JUDGE_MODEL !== undefined) judge.model = env.JUDGE_MODEL;
  if (env.JUDGE_PHASE !== undefined) judge.phase = parseInteger('JUDGE_PHASE', env.JUDGE_PHASE);
  if (env.JUDGE_BACKEND !== undefined) judge.backend = env.JUDGE_BACKEND as Config['judge']['backend'];
  if (env.JUDGE_MAX_PER_HOUR !== undefined)
    judge.max_per_hour = parseInteger('JUDGE_MAX_PER_HOUR', env.JUDGE_MAX_PER_HOUR);
  if (env.JUDGE_SAMPLES !== undefined) judge.samples = parseInteger('JUDGE_SAMPLES', env.JUDGE_SAMPLES);
  return Object.keys(judge).length ? { judge } : {};
}

/** The names a project config file may have, looked up from the current directory upwards (first folder wins). */
const CONFIG_NAMES = ['judgeloop.json', '.judgeloop.json'] as const;

/** Where the config file in use came from: a flag, JUDGELOOP_CONFIG, found by the upward search, or none. */
export interface ConfigFileChoice {
  file: string | null;
  via: 'flag' | 'env' | 'found' | 'none';
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The first judgeloop.json or .judgeloop.json in `cwd` or a folder above it; both in one folder is ambiguous. */
export function findConfigFile(cwd: string): string | null {
  let dir = resolve(cwd);
  for (;;) {
    const here = CONFIG_NAMES.map((n) => join(dir, n)).filter(isFile);
    if (here.length > 1) throw new UserError(`${here.join(' and ')}: two config files in one folder; keep one`);
    if (here.length === 1) return here[0]!;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The config file in use: --config, else JUDGELOOP_CONFIG, else the upward search from cwd. */
export function chooseConfigFile(opts: {
  env: EnvSettings;
  configFile?: string | undefined;
  cwd?: string;
}): ConfigFileChoice {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.configFile) return { file: resolve(cwd, opts.configFile), via: 'flag' };
  if (opts.env.JUDGELOOP_CONFIG) return { file: resolve(cwd, opts.env.JUDGELOOP_CONFIG), via: 'env' };
  const found = findConfigFile(cwd);
  return found ? { file: found, via: 'found' } : { file: null, via: 'none' };
}

/**
 * Where state/ is and why, first that applies: JUDGELOOP_STATE_DIR; the file's state_dir; state/ beside a file found
 * upwards or named by --config; for a file named by JUDGELOOP_CONFIG without state_dir (a variant: another model, a
 * dry run), the state the upward search gives, so a variant never starts a second store; else the per-user folder.
 */
export interface StateDirChoice {
  dir: string;
  via: 'env' | 'file' | 'beside-file' | 'user';
  file: string | null;
}

/** The per-user state folder: $XDG_STATE_HOME/judgeloop (an absolute XDG_STATE_HOME only), else ~/.local/state/judgeloop. */
function userStateDir(env: EnvSettings): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.local', 'state'), 'judgeloop');
}

function stateDirKey(file: string): string | undefined {
  const data = readJsonFile(file, 'config file') as { state_dir?: unknown } | null;
  const sd = data && typeof data === 'object' ? data.state_dir : undefined;
  if (sd !== undefined && (typeof sd !== 'string' || sd === ''))
    throw new UserError(`config file ${file}: /state_dir: must be a non-empty string`);
  return sd;
}

/** The state folder for a config file choice (pure but for reading that file and the upward search). */
export function chooseStateDir(env: EnvSettings, cwd: string, choice: ConfigFileChoice): StateDirChoice {
  if (env.JUDGELOOP_STATE_DIR) return { dir: resolve(cwd, env.JUDGELOOP_STATE_DIR), via: 'env', file: choice.file };
  if (choice.file) {
    const sd = stateDirKey(choice.file);
    if (sd !== undefined) return { dir: resolve(dirname(choice.file), sd), via: 'file', file: choice.file };
    if (choice.via !== 'env')
      return { dir: join(dirname(choice.file), 'state'), via: 'beside-file', file: choice.file };
    const found = findConfigFile(cwd);
    if (found) return { ...chooseStateDir(env, cwd, { file: found, via: 'found' }), file: choice.file };
  }
  if (env.JUDGELOOP_REQUIRE_CONFIG && /^(1|true|yes|on)$/i.test(env.JUDGELOOP_REQUIRE_CONFIG))
    throw new UserError(
      `no judgeloop.json in ${resolve(cwd)} or above it, and JUDGELOOP_REQUIRE_CONFIG asks for one: run \`judgeloop init\` there`,
    );
  return { dir: userStateDir(env), via: 'user', file: choice.file };
}

/** The state folder and why; never inside an installed package (refused: an upgrade removes it). */
export function stateChoice(env: EnvSettings, cwd = process.cwd(), configFile?: string): StateDirChoice {
  const choice = chooseStateDir(env, cwd, chooseConfigFile({ env, configFile, cwd }));
  const pkg = projectRoot();
  if (/[\\/]node_modules[\\/]/.test(pkg) && (choice.dir === pkg || choice.dir.startsWith(pkg + sep)))
    throw new UserError(`state folder ${choice.dir}: inside the installed judgeloop package; choose another`);
  return choice;
}

export interface LoadConfigOptions {
  env: EnvSettings;
  /** A config file from a flag; wins over JUDGELOOP_CONFIG and the upward search. */
  configFile?: string | undefined;
  /** Overrides from flags, applied last. */
  overrides?: DeepPartial<Config> | undefined;
  /** The flag that set each overridden path (`/judge/phase` → `--phase`), for errors. */
  flagNames?: Record<string, string> | undefined;
  cwd?: string;
  /** Where a deprecation warning goes (default: stderr, once per process and name). */
  warn?: ((message: string) => void) | undefined;
}

// Which file each loaded configuration came from, so the collector can refuse one that lies in the tree it measures.
const origins = new WeakMap<object, string>();

/** The config file a configuration from loadConfig was read from, or null (defaults and env only). */
function configFileOf(config: Config): string | null {
  return origins.get(config) ?? null;
}

/** The configuration as layers, for loadConfig and for `bin/config --show` (which names the layer of every value). */
export interface ConfigLayers {
  defaults: Config;
  file: { path: string; via: ConfigFileChoice['via']; data: unknown } | null;
  env: DeepPartial<Config>;
  flags: DeepPartial<Config>;
  defaultsText: string;
}

export function readConfigLayers(opts: LoadConfigOptions): ConfigLayers {
  let defaultsText = '';
  const defaults = readJsonFile(
    join(configDir(), 'defaults.json'),
    'config defaults',
    (t) => (defaultsText = t),
  ) as Config;
  const choice = chooseConfigFile(opts);
  // A config file may hold endpoints and settings a check has no business reading: hidden in the sandbox.
  if (choice.file) markPrivate(choice.file);
  const file = choice.file
    ? { path: choice.file, via: choice.via, data: readJsonFile(choice.file, 'config file') }
    : null;
  return { defaults, file, env: envOverlay(opts.env), flags: opts.overrides ?? {}, defaultsText };
}

/** The config path each JUDGE_* variable sets. */
const ENV_OF_PATH: Record<string, EnvKey> = {
  '/judge/enabled': 'JUDGE_ENABLED',
  '/judge/model': 'JUDGE_MODEL',
  '/judge/phase': 'JUDGE_PHASE',
  '/judge/backend': 'JUDGE_BACKEND',
  '/judge/max_per_hour': 'JUDGE_MAX_PER_HOUR',
  '/judge/samples': 'JUDGE_SAMPLES',
};

/**
 * The layer a bad value came from, named: the file (and its JSON path) when the file alone over the defaults
 * fails; else each error's variable (`JUDGE_PHASE="5"`) or flag (`--phase`) when one set that path.
 */
function blame(layers: ConfigLayers, errors: string[], opts: LoadConfigOptions): string {
  if (layers.file) {
    const alone = validate<Config>('config', deepMerge(layers.defaults, layers.file.data));
    if (!alone.ok) return `config file ${layers.file.path}: ${alone.errors.join('; ')}`;
  }
  return errors
    .map((err) => {
      const path = err.slice(0, err.indexOf(':'));
      const name = ENV_OF_PATH[path];
      const flag = opts.flagNames?.[path];
      if (flag) return `${flag}: ${err.slice(path.length + 2)}`;
      if (name && opts.env[name] !== undefined)
        return `${name}=${JSON.stringify(opts.env[name])} (environment): ${err.slice(path.length + 2)}`;
      return `configuration: ${err}`;
    })
    .join('; ');
}

/** defaults < config file (flag, JUDGELOOP_CONFIG or found upwards) < JUDGE_* env < flags, validated as a whole. */
export function loadConfig(opts: LoadConfigOptions): Config {
  const layers = readConfigLayers(opts);
  let cfg = layers.defaults;
  if (layers.file) cfg = deepMerge(cfg, layers.file.data);
  cfg = deepMerge(cfg, layers.env);
  cfg = deepMerge(cfg, layers.flags);
  // Nothing merged over the defaults, and they are the very bytes the build validated against these schemas:
  // known valid without loading the (large) config validator. Anything else is validated as a whole.
  const untouched = !layers.file && Object.keys(layers.env).length === 0 && Object.keys(layers.flags).length === 0;
  if (untouched) {
    const sha = validatedDefaultsSha256();
    if (sha !== null && createHash('sha256').update(layers.defaultsText, 'utf8').digest('hex') === sha) return cfg;
  }
  const v = validate<Config>('config', cfg);
  const file = layers.file?.path;
  if (!v.ok) throw new UserError(blame(layers, v.errors, opts));
  renameDeprecated(v.value.collector, layers.defaults.collector, file ?? 'configuration', opts.warn ?? warnOnce);
  if (file) origins.set(v.value, file);
  return v.value;
}

/** Old setting names, read into the new ones (which win when both are set). */
const DEPRECATED = [
  ['baseline_setup', 'setup_command'],
  ['baseline_setup_timeout_seconds', 'setup_timeout_seconds'],
  ['baseline_setup_network', 'setup_network'],
] as const;

const warned = new Set<string>();
const warnOnce = (m: string) => {
  if (warned.has(m)) return;
  warned.add(m);
  process.stderr.write(`${m}\n`);
};

/** Moves each deprecated collector setting to its new name, with a warning naming both. */
function renameDeprecated(
  c: Config['collector'],
  defaults: Config['collector'],
  where: string,
  warn: (m: string) => void,
): void {
  const loose = c as unknown as Record<string, unknown>;
  for (const [old, now] of DEPRECATED) {
    if (loose[old] === undefined || loose[old] === null) continue;
    const fromDefault = loose[now] === (defaults as unknown as Record<string, unknown>)[now];
    warn(
      `warning: ${where}: collector.${old} is deprecated; ${fromDefault ? `read as collector.${now}` : `ignored, collector.${now} is set`} (rename it)`,
    );
    if (fromDefault) loose[now] = loose[old];
    delete loose[old];
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // A path that does not exist yet (a state folder): its nearest existing parent decides.
    const up = dirname(p);
    return up === p ? p : join(realOrResolved(up), relative(up, p));
  }
}

/** True when `inner` is `outer` or lies below it, after resolving symlinks. */
export function isInside(inner: string, outer: string): boolean {
  const rel = relative(realOrResolved(outer), realOrResolved(inner));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The agent writes everything in the worktree it is judged on: a config file there could switch the sandbox off or
 * name the checks, and a state folder there is writable by the checks. Either is refused (exit 2) before anything runs.
 */
export function assertConfigOutside(config: Config, worktree: string, stateDir: string): void {
  if (!existsSync(worktree)) return;
  const file = configFileOf(config);
  if (file && isInside(file, worktree)) {
    throw new UserError(
      `config file ${file} lies inside the worktree being measured (${worktree}), which the agent controls; keep judgeloop.json outside it (e.g. the folder above) or name one with --config / JUDGELOOP_CONFIG`,
    );
  }
  if (isInside(stateDir, worktree)) {
    throw new UserError(
      `state folder ${stateDir} lies inside the worktree being measured (${worktree}), where the checks may write; set state_dir or JUDGELOOP_STATE_DIR outside it`,
    );
  }
}
