// shellcheck (tty and gcc formats): error → error, warning → warning; info and style (gcc: note) are advice, in notes only.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';
import { plural } from '../../base/plural.js';

const TTY = /^\s*\^-*\^? SC\d+ \((error|warning|info|style)\): /;
const GCC = /^\S.*?:\d+:\d+: (error|warning|note): .* \[SC\d+\]\s*$/;

export const shellcheck: LintParser = {
  name: 'shellcheck',
  detect: (lines) => lines.some((l) => TTY.test(l) || GCC.test(l)),
  parse(lines, forced) {
    let errors = 0,
      warnings = 0,
      advice = 0;
    for (const line of lines) {
      const level = TTY.exec(line)?.[1] ?? GCC.exec(line)?.[1];
      if (level === 'error') errors++;
      else if (level === 'warning') warnings++;
      else if (level) advice++;
    }
    if (errors + warnings + advice === 0) return cleanIfForced('shellcheck', forced);
    return lintCounts(
      'shellcheck',
      errors,
      warnings,
      advice > 0 ? [`${plural(advice, 'info/style message')} not counted`] : [],
    );
  },
};
