import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const CALIBRATE = defineCommand({
  name: 'calibrate',
  summary: "the judge's verdicts and the races' winners against the user's recorded choices",
  description: [
    "Compares each judged run's verdict (partial counts as fail) with the user's verdict recorded by --record, and",
    "each race's winner with the solution accept chose: agreement with its interval, Cohen's kappa with its interval",
    'and the confusion table; per dimension when the verdict names the one that mattered (its score at 0.7).',
    'Warns on stderr when an agreement falls below judge.calibration_floor.',
    '--record BEAD --verdict pass|fail [--dimension D] records the user verdict on one run (the latest stands).',
  ],
  flags: {
    record: { type: 'string', placeholder: 'BEAD', help: 'record your verdict on this run' },
    verdict: { type: 'string', choices: ['pass', 'fail'], help: 'with --record: would you accept the run as it is' },
    dimension: {
      type: 'string',
      choices: ['correctness', 'scope_adherence', 'code_quality', 'completeness'],
      help: 'with --record: the judge dimension that decided your verdict',
    },
    reviewer: { type: 'string', placeholder: 'NAME', help: 'with --record: who gives the verdict' },
    note: { type: 'string', placeholder: 'TEXT', help: 'with --record: why' },
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    json: { type: 'boolean', help: 'the calibration (or the recorded verdict) as JSON on stdout' },
    config: CONFIG,
  },
  env: [...STATE_ENV],
  exit: { 0: 'shown or recorded (a warning under the floor is still 0)', 2: 'bad input' },
  examples: [
    'calibrate',
    'calibrate --record bd-12 --verdict fail --dimension correctness --reviewer alice',
    'calibrate --json',
  ],
});
