import { defineCommand } from '../command.js';
import { API_ENV, CONFIG, JUDGE_ENV, STATE_ENV } from './common.js';

export const DOCTOR = defineCommand({
  name: 'doctor',
  summary:
    'checks what a set-up needs (config, state folder, sandbox, checks run on the base, judge key, queue, locks) and says what to fix',
  description: [
    'It runs the setup and the checks once on the base (record.base_ref, else HEAD) of the repository in --project (default:',
    'here) in a clean checkout, as the collector does, or reads the cached baseline, and names what fails with its fix.',
  ],
  flags: {
    online: { type: 'boolean', help: 'also send the judge one cheap request (max_tokens 1) to test the API key' },
    json: { type: 'boolean', help: 'the findings as JSON on stdout' },
    project: {
      type: 'string',
      placeholder: 'DIR',
      help: 'the repository whose base is checked (default: the current folder)',
    },
    'skip-base': { type: 'boolean', help: 'do not run the setup and the checks on the base' },
    config: CONFIG,
  },
  env: [...STATE_ENV, 'JUDGELOOP_REQUIRE_CONFIG', ...JUDGE_ENV, ...API_ENV],
  exit: { 0: 'nothing to fix (warnings maybe)', 1: 'something to fix (each FAIL line says what)', 2: 'usage' },
  examples: ['judgeloop doctor', 'judgeloop doctor --project ../repo', 'judgeloop doctor --online --skip-base'],
});
