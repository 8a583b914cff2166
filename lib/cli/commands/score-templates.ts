import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const SCORE_TEMPLATES = defineCommand({
  name: 'score-templates',
  summary: 'scores every prompt template from state/feedback and writes state/scores/templates.json (A/B, triggers)',
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    json: { type: 'boolean', help: 'the scores as JSON on stdout (else a table)' },
    'task-type': {
      type: 'string',
      placeholder: 'T',
      help: 'only runs of that type: printed, not written; no triggers',
    },
    phase: {
      type: 'string',
      placeholder: 'N',
      choices: ['1', '2', '3', '4'],
      help: 'the rollout phase (overrides JUDGE_PHASE and the config)',
    },
    rebuild: { type: 'boolean', help: 're-read every feedback file and rewrite state/index/feedback.jsonl' },
    verify: { type: 'boolean', help: 're-read feedback files changed since they were indexed' },
    'state-dir': {
      type: 'string',
      multiple: true,
      placeholder: 'DIR',
      help: "another machine's state folder read as one with this one (replaces the config's state_dirs)",
    },
    config: CONFIG,
  },
  env: [...STATE_ENV, 'JUDGE_ENABLED', 'JUDGE_PHASE'],
  exit: {
    0: 'scored',
    1: 'a feedback file was skipped (corrupt, or stale: named on stderr with the collect to run) or state could not be written',
    2: 'usage or config',
  },
  examples: [
    'score-templates',
    'score-templates --task-type bugfix --json',
    'score-templates --state-dir /mnt/ci-1/state --state-dir /mnt/ci-2/state',
  ],
});
