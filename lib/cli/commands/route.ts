import { defineCommand } from '../command.js';
import { CONFIG, OTHER_STATE_DIRS, STATE_ENV } from './common.js';

export const ROUTE = defineCommand({
  name: 'route',
  summary: 'picks an agent for a task (max_complexity filter, N-1 fallback, epsilon-greedy) and logs the decision',
  usage: [
    '--command C --complexity 1-10 [--discipline D] [--task-id ID] [--seed S] [--json] [--state-dir DIR]... [--config FILE]',
  ],
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    command: { type: 'string', placeholder: 'C', help: 'the command the agent will run (required)' },
    complexity: { type: 'string', placeholder: '1-10', help: "the task's complexity (required)" },
    discipline: {
      type: 'string',
      placeholder: 'D',
      help: 'the discipline (reasoning disciplines use the reasoning rating)',
    },
    'task-id': { type: 'string', placeholder: 'ID', help: 'logged with the decision' },
    seed: { type: 'string', placeholder: 'S', help: 'the seed of the draw (default: random, logged)' },
    json: { type: 'boolean', help: 'the logged decision as JSON on stdout (else the agent)' },
    'state-dir': {
      ...OTHER_STATE_DIRS,
      help: "another machine's state folder whose agents and ratings are read with this one's (the decision is logged in this one; replaces the config's state_dirs)",
    },
    config: CONFIG,
  },
  env: [...STATE_ENV],
  exit: { 0: 'chosen', 1: 'no agent can take it (logged)', 2: 'usage' },
  examples: ['route --command work-on-tasks --complexity 3'],
});
