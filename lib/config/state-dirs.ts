// The other state folders read as one with the state folder (issue 37, item 9): --state-dir flags, else state_dirs.
import { dirname, resolve } from 'node:path';
import type { EnvSettings } from '../base/env.js';
import { chooseConfigFile, type Config } from './config.js';

/**
 * The --state-dir flags (relative to cwd) when any is given, else the config's `state_dirs` (relative to the config
 * file's folder); [] when neither.
 */
export function otherStateDirs(
  flags: readonly string[] | undefined,
  config: Config,
  opts: { env: EnvSettings; cwd: string; configFile?: string | undefined },
): string[] {
  if (flags?.length) return flags.map((d) => resolve(opts.cwd, d));
  const list = config.state_dirs ?? [];
  if (!list.length) return [];
  const file = chooseConfigFile(opts).file;
  return list.map((d) => resolve(file ? dirname(file) : opts.cwd, d));
}
