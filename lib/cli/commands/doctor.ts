import { defineCommand } from '../command.js';
import { API_ENV, CONFIG, JUDGE_ENV, STATE_ENV } from './common.js';

export const DOCTOR = defineCommand({
  name: 'doctor',
  summary:
    'checks what a set-up needs (config, state folder, sandbox, checks, judge key, queue, locks) and says what to fix',
  flags: {
    online: { type: 'boolean', help: 'also send the judge one cheap request (max_tokens 1) to test the API key' },
    json: { type: 'boolean', help: 'the findings as JSON on stdout' },
    config: CONFIG,
  },
  env: [...STATE_ENV, 'JUDGELOOP_REQUIRE_CONFIG', ...JUDGE_ENV, ...API_ENV],
  exit: { 0: 'nothing to fix (warnings maybe)', 1: 'something to fix (each FAIL line says what)', 2: 'usage' },
  examples: ['judgeloop doctor', 'judgeloop doctor --online'],
});
