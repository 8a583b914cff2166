// tsc: every diagnostic is an error, in plain `f.ts(2,7): error TS2322:` or pretty `f.ts:2:7 - error TS2322:` form.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const DIAG = /^(?:\S.*\(\d+,\d+\): |\S.*:\d+:\d+ - )?error TS\d+: /;

export const tsc: LintParser = {
  name: 'tsc',
  detect: (lines) => lines.some((l) => DIAG.test(l)),
  parse(lines, forced) {
    let errors = 0;
    for (const line of lines) if (DIAG.test(line)) errors++;
    return errors > 0 ? lintCounts('tsc', errors, 0) : cleanIfForced('tsc', forced);
  },
};
