import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const SELECT_TEMPLATE = defineCommand({
  name: 'select-template',
  summary: 'prints the prompt template for the next run and logs why (state/selections/log.jsonl)',
  description: [
    "The incumbent (last choice by score for the task type) unless a challenger's score clears it by templates.selection",
    "(default: its 95% interval wholly above the incumbent's); scores blended from phase 4 with the judge enabled, else",
    'mechanical; with probability X another candidate (logged as explore). Same seed and scores, same choice.',
  ],
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    'task-type': { type: 'string', placeholder: 'T', help: 'the task type to choose for' },
    candidates: {
      type: 'string',
      placeholder: 'a,b,...',
      help: 'the templates to choose from (new ones allowed; default: every template with runs of type T)',
    },
    seed: { type: 'string', placeholder: 'S', help: 'the seed of the draw (default: random, logged)' },
    'exploration-share': {
      type: 'string',
      placeholder: 'X',
      help: 'the chance of exploring, 0 to 1 (default: templates.exploration_share)',
    },
    json: { type: 'boolean', help: 'the logged decision as JSON on stdout' },
    'dry-run': { type: 'boolean', help: 'choose, log nothing' },
    config: CONFIG,
  },
  env: [...STATE_ENV, 'JUDGE_ENABLED', 'JUDGE_PHASE'],
  exit: { 0: 'chosen', 1: 'state could not be read or written', 2: 'usage, config, or no candidate' },
  examples: ['select-template --task-type bugfix', 'select-template --candidates v1,v2 --seed 7 --dry-run'],
});
