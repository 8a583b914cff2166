// Small helpers shared by command entries (bin/rate, bin/ratings, bin/route, bin/agents): number flags, opening
// the state with the command's --config, and rating formats.
import type { Io } from './cli.js';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, stateChoice, type Config } from '../config/config.js';
import { UserError } from '../base/errors.js';
import type { EnvSettings } from '../base/env.js';
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

export function openState(
  io: Io,
  configFile: string | undefined,
  writes?: { quiet?: boolean | undefined },
): { store: StateStore; config: Config } {
  const config = loadConfig({ env: io.env, configFile, cwd: io.cwd });
  const store = storeFromEnv(io.env, io.cwd, configFile);
  if (writes) announceState(io, store, writes.quiet);
  return { store, config };
}

const STATE_WHY = {
  file: 'state_dir of the config file',
  'beside-file': 'beside the config file',
  user: 'per-user: no judgeloop.json found',
} as const;

/** The store the environment and config file name (`configFile`: a --config flag, which wins over the search). */
export function storeFromEnv(env: EnvSettings, cwd?: string, configFile?: string): StateStore {
  const choice = stateChoice(env, cwd, configFile);
  return new StateStore(choice.dir, choice.via);
}

/** A --json object of a command that writes state, carrying the state folder it used (absolute). */
export const withStateDir = <T extends object>(store: StateStore, value: T): T & { state_dir: string } => ({
  ...value,
  state_dir: store.root,
});

/**
 * Before a command writes: the folder must take a file (one line, not a stack after every check ran), and the user
 * is told where it is, once, on stderr; not with --quiet, nor when JUDGELOOP_STATE_DIR named it.
 */
export function announceState(io: Io, store: StateStore, quiet?: boolean): void {
  const probe = join(store.root, `.writable-${process.pid}`);
  try {
    mkdirSync(store.root, { recursive: true });
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new UserError(
      `state folder ${store.root}: not writable (${why}); set JUDGELOOP_STATE_DIR or "state_dir" in judgeloop.json`,
    );
  }
  if (quiet || store.via === undefined || store.via === 'env') return;
  io.stderr(`judgeloop: state folder ${store.root} (${STATE_WHY[store.via]})\n`);
}

export const fmtRating = (r: number | null | undefined): string => (r === null || r === undefined ? '—' : r.toFixed(2));
export const fmtDelta = (d: number | null): string => (d === null ? '—' : `${d >= 0 ? '+' : ''}${d.toFixed(2)}`);
