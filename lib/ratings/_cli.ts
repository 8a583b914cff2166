// Small helpers shared by bin/rate, bin/ratings, bin/route and bin/agents.
import type { ParseArgsConfig } from 'node:util';
import { parseFlags, type Io } from '../cli/cli.js';
import { loadConfig, type Config } from '../config/config.js';
import { UserError } from '../base/errors.js';
import { StateStore } from '../store/store.js';

/**
 * node:util parseArgs refuses `--quality -1` as "ambiguous" (the value looks like an option). Where the option takes a
 * value and the next word is a negative number, join them (`--quality=-1`), so the range check can answer in one line.
 */
export function joinNegativeValues(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : null;
    if (name !== null && options[name]?.type === 'string' && next !== undefined && /^-(?:\d|\.\d|Infinity)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** parseFlags with negative numbers accepted as option values (range checks then say what is wrong). */
export function parseFlagsSigned<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  return parseFlags(joinNegativeValues(argv, options as Record<string, { type: 'string' | 'boolean' }>), options, usage);
}

export function parseNumber(flag: string, v: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UserError(`--${flag} ${JSON.stringify(v)}: expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
  }
  return n;
}

export function openState(io: Io, configFile: string | undefined): { store: StateStore; config: Config } {
  const config = loadConfig({ env: io.env, configFile, cwd: io.cwd });
  return { store: StateStore.fromEnv(io.env, io.cwd, configFile), config };
}

export const fmtRating = (r: number | null | undefined): string => (r === null || r === undefined ? '—' : r.toFixed(2));
export const fmtDelta = (d: number | null): string => (d === null ? '—' : `${d >= 0 ? '+' : ''}${d.toFixed(2)}`);

