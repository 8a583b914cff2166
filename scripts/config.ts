// bin/config: the configuration every command in this folder would use, and where each value came from.
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { CONFIG_COMMAND } from '../lib/cli/commands/config.js';
import { chooseConfigFile, chooseStateDir, loadConfig, readConfigLayers } from '../lib/config/config.js';
import { configSources } from '../lib/config/config-sources.js';
import { UserError } from '../lib/base/errors.js';

const USAGE = usage(CONFIG_COMMAND);

const VIA = {
  flag: 'named by --config',
  env: 'named by JUDGELOOP_CONFIG',
  found: 'found from the current folder upwards',
  none: 'none found',
} as const;
const STATE_VIA = {
  env: 'JUDGELOOP_STATE_DIR',
  file: 'state_dir of the config file',
  'beside-file': 'beside the config file',
  user: 'the per-user folder: no config file gives one',
} as const;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values: v } = parse(CONFIG_COMMAND, argv);
  const show = v.show || v['print-config'];
  if ([show, v['state-dir'], v.file, v.completion !== undefined].filter(Boolean).length !== 1)
    throw new UserError(`give one of --show, --state-dir, --file, --completion\n${USAGE}`);
  if (v.completion !== undefined) {
    const { completionScript } = await import('../lib/cli/completion.js');
    io.stdout(completionScript(v.completion));
    return 0;
  }
  const opts = { env: io.env, configFile: v.config, cwd: io.cwd };
  const choice = chooseConfigFile(opts);
  const state = chooseStateDir(io.env, io.cwd, choice);
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
    io.stdout(
      `${JSON.stringify({ config_file: choice.file, config_file_via: choice.via, state_dir: state.dir, state_dir_via: state.via, values })}\n`,
    );
    return 0;
  }
  const lines = [
    `# config file: ${choice.file ?? '-'} (${VIA[choice.via]})`,
    `# state dir:   ${state.dir} (${STATE_VIA[state.via]})`,
  ];
  for (const { key, value, source } of values) lines.push(`${key} = ${JSON.stringify(value)}  # ${source}`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

main(import.meta.url, run);
