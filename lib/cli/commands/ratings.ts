import { defineCommand } from '../command.js';
import { CONFIG, OTHER_STATE_DIRS, STATE_ENV } from './common.js';

export const RATINGS = defineCommand({
  name: 'ratings',
  summary: 'agent profiles and their recent rated runs, oldest first, with samples and movement',
  flags: {
    agent: { type: 'string', placeholder: 'SLUG', help: 'only this agent' },
    last: { type: 'string', placeholder: 'N', default: '50', help: 'how many rated runs to show' },
    json: { type: 'boolean', help: 'profiles and runs as JSON on stdout' },
    'state-dir': OTHER_STATE_DIRS,
    config: CONFIG,
  },
  env: [...STATE_ENV],
  exit: { 0: 'shown', 2: 'usage' },
  examples: [
    'ratings',
    'ratings --agent claude-code --last 10',
    'ratings --state-dir /mnt/ci-1/state --state-dir /mnt/ci-2/state',
  ],
});
