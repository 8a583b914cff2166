// mypy: every `error:` is an error (notes are not); `Found N errors in M files` when present, else one per line.
import { lastIndex } from './_counts.js';
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const FOUND = /^Found (\d+) errors? in \d+ files?\b/;
const ERROR = /^\S.*?:\d+(?::\d+)?: error: /;

export const mypy: LintParser = {
  name: 'mypy',
  detect: (lines) => lines.some((l) => FOUND.test(l) || /^Success: no issues found in \d+ source files?/.test(l)),
  parse(lines, forced) {
    const i = lastIndex(lines, FOUND);
    if (i >= 0) return lintCounts('mypy', Number(FOUND.exec(lines[i] as string)?.[1]), 0);
    let errors = 0;
    for (const line of lines) if (ERROR.test(line)) errors++;
    if (errors > 0) return lintCounts('mypy', errors, 0);
    return lines.some((l) => /^Success: no issues found/.test(l))
      ? lintCounts('mypy', 0, 0)
      : cleanIfForced('mypy', forced);
  },
};
