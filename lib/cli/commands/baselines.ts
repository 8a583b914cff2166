import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const BASELINES = defineCommand({
  name: 'baselines',
  summary: "lists the cached baselines (the base commit's checks) and clears them",
  description: [
    'A baseline is computed once per base commit and every setting that changes its run (commands, setup, test report,',
    'timeouts, sandbox) and kept in state/baselines/<key>.json; one whose setup failed is never kept.',
  ],
  flags: {
    clear: { type: 'boolean', help: 'delete them (the KEYs given, else all): the next collect runs the base again' },
    json: { type: 'boolean', help: 'the baselines as JSON on stdout' },
    config: CONFIG,
  },
  positionals: [{ name: '[key]', help: 'only these baselines', variadic: true }],
  env: [...STATE_ENV],
  exit: { 0: 'listed or cleared', 2: 'usage, or a KEY that is not there' },
  examples: ['baselines', 'baselines --clear', 'baselines --clear 3f2a9c0e1b7d4a5c6e8f9a0b1c2d3e4f'],
});
