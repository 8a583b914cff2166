// bin/config: the configuration every command in this folder would use, and where each value came from.
import { main, parseFlags, type Io } from '../lib/cli/cli.js';
import { chooseConfigFile, chooseStateDir, loadConfig, readConfigLayers } from '../lib/config/config.js';
import { configSources } from '../lib/config/config-sources.js';
import { UserError } from '../lib/base/errors.js';
import { projectRoot } from '../lib/base/paths.js';
import { join } from 'node:path';

const USAGE = `usage: config --show [--json] [--config FILE]   every value and where it came from
       config --state-dir [--config FILE]       the state folder only (for scripts and hooks)
       config --file [--config FILE]            the config file in use (nothing printed when none)
Config files: --config, JUDGELOOP_CONFIG, else the first judgeloop.json or .judgeloop.json from the current folder upwards.`;

const VIA = { flag: 'named by --config', env: 'named by JUDGELOOP_CONFIG', found: 'found from the current folder upwards', none: 'none found' } as const;
const STATE_VIA = { env: 'JUDGELOOP_STATE_DIR', file: 'state_dir of the config file', 'beside-file': 'beside the config file', checkout: "judgeloop's checkout (no config file)" } as const;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values: v, positionals } = parseFlags(argv, { show: { type: 'boolean' }, 'print-config': { type: 'boolean' }, 'state-dir': { type: 'boolean' }, file: { type: 'boolean' }, json: { type: 'boolean' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, USAGE);
  if (v.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UserError(`unexpected argument ${JSON.stringify(positionals[0])}\n${USAGE}`);
  const show = v.show || v['print-config'];
  if ([show, v['state-dir'], v.file].filter(Boolean).length !== 1) throw new UserError(`give one of --show, --state-dir, --file\n${USAGE}`);
  const opts = { env: io.env, configFile: v.config, cwd: io.cwd };
  const choice = chooseConfigFile(opts);
  const state = chooseStateDir(io.env, io.cwd, choice, join(projectRoot(), 'state'));
  if (v.file) {
    if (choice.file) io.stdout(`${choice.file}\n`);
    return 0;
  }
  if (v['state-dir']) {
    io.stdout(`${state.dir}\n`);
    return 0;
  }
  // Validates as every command would: a bad file is the same one-line error here.
  loadConfig(opts);
  const values = configSources(readConfigLayers(opts));
  if (v.json) {
    io.stdout(`${JSON.stringify({ config_file: choice.file, config_file_via: choice.via, state_dir: state.dir, state_dir_via: state.via, values })}\n`);
    return 0;
  }
  const lines = [`# config file: ${choice.file ?? '-'} (${VIA[choice.via]})`, `# state dir:   ${state.dir} (${STATE_VIA[state.via]})`];
  for (const { key, value, source } of values) lines.push(`${key} = ${JSON.stringify(value)}  # ${source}`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

main(import.meta.url, run);
