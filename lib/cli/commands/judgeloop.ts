import { defineCommand } from '../command.js';

export const JUDGELOOP = defineCommand({
  name: 'judgeloop',
  summary: 'every judgeloop command behind one name (alias: jl)',
  usage: ['<command> [options] [args]', 'help [command]'],
  description: [
    "judgeloop <command> --help shows a command's own help. The bin/<command> files of a checkout run the same",
    'commands directly (for hooks and cron).',
  ],
  flags: {},
  exit: { 0: 'the command succeeded', 1: 'the command failed', 2: 'usage: unknown command, or the command said so' },
  examples: ['judgeloop doctor', 'judgeloop record --from-commit --collect', 'judgeloop help race'],
});
