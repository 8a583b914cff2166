// flake8: `path:1:1: F401 message`; W codes are warnings, every other code (E, F, C and plugins' codes) an error.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const LINE = /^\S.*?:\d+:\d+: ([A-Z]+)\d+ /;

export const flake8: LintParser = {
  name: 'flake8',
  detect: (lines) => lines.some((l) => LINE.test(l) && !/ \[SC\d+\]$/.test(l)),
  parse(lines, forced) {
    let errors = 0,
      warnings = 0;
    for (const line of lines) {
      const m = LINE.exec(line);
      if (!m) continue;
      if (m[1] === 'W') warnings++;
      else errors++;
    }
    return errors + warnings > 0 ? lintCounts('flake8', errors, warnings) : cleanIfForced('flake8', forced);
  },
};
