import { defineCommand } from '../command.js';
import { CONFIG, JUDGE_ENV } from './common.js';

export const CONFIG_COMMAND = defineCommand({
  name: 'config',
  summary: 'the configuration every command would use, and where each value came from',
  usage: [
    '--show [--json] [--config FILE]   every value and where it came from',
    '--state-dir [--config FILE]       the state folder only (for scripts and hooks)',
    '--file [--config FILE]            the config file in use (nothing printed when none)',
    '--completion bash|zsh             a completion script for every command',
  ],
  description: [
    'Config files: --config, JUDGELOOP_CONFIG, else the first judgeloop.json or .judgeloop.json from the current folder upwards.',
  ],
  flags: {
    show: { type: 'boolean', help: 'every value and where it came from' },
    'print-config': { type: 'boolean', help: 'the same as --show' },
    'state-dir': { type: 'boolean', help: 'the state folder only' },
    file: { type: 'boolean', help: 'the config file in use' },
    json: { type: 'boolean', help: 'with --show: JSON on stdout' },
    config: CONFIG,
    completion: {
      type: 'string',
      choices: ['bash', 'zsh'],
      help: 'print a completion script for every command (source it from your shell)',
    },
  },
  env: ['JUDGELOOP_STATE_DIR', 'JUDGELOOP_CONFIG', ...JUDGE_ENV],
  exit: { 0: 'shown', 2: 'bad config or usage' },
  examples: ['config --show', 'source <(config --completion bash)'],
});
