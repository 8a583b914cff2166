import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const ACCEPT = defineCommand({
  name: 'accept',
  summary: "records the user's choice of a race's solution in state/race-choices/<race>.json and optionally merges it",
  usage: [
    '<race> (--solution ID | --reject-all | --manual-edit [--solution ID]) [--notes TEXT] [--merge [--into BRANCH] [--force] [--dry-run]] [--json]',
    '--show-learning [--json]',
  ],
  flags: {
    solution: { type: 'string', placeholder: 'ID', help: 'the chosen solution' },
    'reject-all': { type: 'boolean', help: 'none of them' },
    'manual-edit': { type: 'boolean', help: 'the user edited one by hand (--solution names it)' },
    notes: { type: 'string', placeholder: 'TEXT', help: 'recorded with the choice' },
    merge: {
      type: 'boolean',
      help: "merge the chosen solution as measured: the agent's commits, or its uncommitted work committed in its name",
    },
    into: {
      type: 'string',
      placeholder: 'BRANCH',
      help: "with --merge: the branch to merge into (default: the run's base_ref)",
    },
    force: {
      type: 'boolean',
      help: 'with --merge: merge a solution that fails the mergeable gate, or its branch as it is after it moved',
    },
    'dry-run': { type: 'boolean', help: 'with --merge: try the merge, record nothing' },
    json: { type: 'boolean', help: 'the recorded choice as JSON on stdout' },
    config: CONFIG,
    'show-learning': { type: 'boolean', help: 'the weight adjustments learned from earlier choices' },
  },
  positionals: [{ name: '<race>', help: 'the race id' }],
  env: [...STATE_ENV],
  exit: {
    0: 'recorded (and merged, or already merged)',
    1: 'merge refused or conflicted (the choice is still recorded)',
    2: 'usage',
  },
  examples: ['accept r-42 --solution bd-2 --merge', 'accept r-42 --reject-all --notes "all wrong"'],
});
