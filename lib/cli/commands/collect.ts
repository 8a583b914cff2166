import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const COLLECT = defineCommand({
  name: 'collect',
  summary:
    'measures each agent run (checks in its worktree, the baseline, the diff) and writes state/feedback/<bead>.json',
  flags: {
    json: { type: 'boolean', help: 'one feedback record per run as JSON on stdout (else one line per run)' },
    config: CONFIG,
    quiet: { type: 'boolean', help: 'no progress on stderr' },
  },
  positionals: [{ name: '<run.json|->', help: 'run records to measure; - reads one from stdin', variadic: true }],
  env: [...STATE_ENV],
  exit: {
    0: 'collected (a missing worktree is a recorded infra_failure)',
    1: 'failure (e.g. state that cannot be written)',
    2: 'a bad run record or usage (the other records are still collected)',
  },
  examples: ['collect state/runs/bd-1.json', 'record --json | collect --json -'],
});
