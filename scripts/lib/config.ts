import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { markPrivate } from './private-paths.js';
import { join, resolve } from 'node:path';
import type { EnvSettings } from './env.js';
import { UserError } from './errors.js';
import { configDir } from './paths.js';
import { validate, validatedDefaultsSha256 } from './schema.js';
import type { Config } from './types.generated.js';

export type { Config };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

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
export function envOverlay(env: EnvSettings): DeepPartial<Config> {
  const judge: DeepPartial<Config['judge']> = {};
  if (env.JUDGE_ENABLED !== undefined) judge.enabled = parseBool('JUDGE_ENABLED', env.JUDGE_ENABLED);
  if (env.JUDGE_MODEL !== undefined) judge.model = env.JUDGE_MODEL;
  if (env.JUDGE_PHASE !== undefined) judge.phase = parseInteger('JUDGE_PHASE', env.JUDGE_PHASE);
  if (env.JUDGE_BACKEND !== undefined) judge.backend = env.JUDGE_BACKEND as Config['judge']['backend'];
  if (env.JUDGE_MAX_PER_HOUR !== undefined) judge.max_per_hour = parseInteger('JUDGE_MAX_PER_HOUR', env.JUDGE_MAX_PER_HOUR);
  return Object.keys(judge).length ? { judge } : {};
}

export interface LoadConfigOptions {
  env: EnvSettings;
  /** A config file from a flag; wins over JUDGELOOP_CONFIG. */
  configFile?: string;
  /** Overrides from flags, applied last. */
  overrides?: DeepPartial<Config>;
  cwd?: string;
}

/** defaults < config file < JUDGE_* env < flags, validated as a whole. */
export function loadConfig(opts: LoadConfigOptions): Config {
  let defaultsText = '';
  let cfg = readJsonFile(join(configDir(), 'defaults.json'), 'config defaults', (t) => (defaultsText = t)) as Config;
  const file = opts.configFile ?? opts.env.JUDGELOOP_CONFIG;
  if (file) {
    const path = resolve(opts.cwd ?? process.cwd(), file);
    // A config file may hold endpoints and settings a check has no business reading: hidden in the sandbox.
    markPrivate(path);
    cfg = deepMerge(cfg, readJsonFile(path, 'config file'));
  }
  const env = envOverlay(opts.env);
  cfg = deepMerge(cfg, env);
  if (opts.overrides) cfg = deepMerge(cfg, opts.overrides);
  // Nothing merged over the defaults, and they are the very bytes the build validated against these schemas:
  // known valid without loading the (large) config validator. Anything else is validated as a whole.
  const untouched = !file && Object.keys(env).length === 0 && (!opts.overrides || Object.keys(opts.overrides).length === 0);
  if (untouched) {
    const sha = validatedDefaultsSha256();
    if (sha !== null && createHash('sha256').update(defaultsText, 'utf8').digest('hex') === sha) return cfg;
  }
  const v = validate<Config>('config', cfg);
  if (!v.ok) throw new UserError(`configuration${file ? ` (${file})` : ''}: ${v.errors.join('; ')}`);
  return v.value;
}
