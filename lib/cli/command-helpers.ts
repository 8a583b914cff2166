// Small helpers shared by command entries (bin/rate, bin/ratings, bin/route, bin/agents): number flags, opening
// the state with the command's --config, and rating formats.
import type { Io } from './cli.js';
import { loadConfig, type Config } from '../config/config.js';
import { UserError } from '../base/errors.js';
import { StateStore } from '../store/store.js';

export function parseNumber(
  flag: string,
  v: string | undefined,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UserError(
      `--${flag} ${JSON.stringify(v)}: expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  }
  return n;
}

export function openState(io: Io, configFile: string | undefined): { store: StateStore; config: Config } {
  const config = loadConfig({ env: io.env, configFile, cwd: io.cwd });
  return { store: StateStore.fromEnv(io.env, io.cwd, configFile), config };
}

export const fmtRating = (r: number | null | undefined): string => (r === null || r === undefined ? '—' : r.toFixed(2));
export const fmtDelta = (d: number | null): string => (d === null ? '—' : `${d >= 0 ? '+' : ''}${d.toFixed(2)}`);
