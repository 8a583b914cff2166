// Vitest: a `Test Files` line, then `Tests  2 failed | 7 passed | 1 skipped | 1 todo (11)`; files that fail to load are "Failed Suites".
import { get, lastIndex, makeCounts, wordCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

const TESTS = /^\s*Tests\s+((?:\d+ [a-z ]+?(?: \| )?)+)\s*\((\d+)\)\s*$/;
const NO_TESTS = /^\s*Tests\s+no tests\s*$/;

export const vitest: TestParser = {
  name: 'vitest',
  detect: (lines) => lastIndex(lines, /^\s*Test Files\s+(\d|no )|^\s*RUN\s+v\d+\.\d+\.\d+ |^No test files found, exiting with code/) >= 0,
  parse(lines) {
    let errors = 0;
    for (const line of lines) {
      const suites = /⎯ Failed Suites (\d+) ⎯/.exec(line);
      if (suites) errors += Number(suites[1]);
    }
    // Unhandled errors outside any test (e.g. a worker that died) are printed as `Errors  N error(s)` in the summary.
    const unhandled = lastIndex(lines, /^\s*Errors\s+\d+ errors?\b/);
    if (unhandled >= 0) errors += Number(/(\d+)/.exec(lines[unhandled] as string)?.[1] ?? 0);
    const i = lastIndex(lines, TESTS);
    if (i < 0) {
      if (lastIndex(lines, NO_TESTS) >= 0 || lastIndex(lines, /^No test files found, exiting with code/) >= 0) {
        return makeCounts('vitest', { passed: 0, errors, notes: ['vitest ran no tests'] });
      }
      return null;
    }
    const w = wordCounts((TESTS.exec(lines[i] as string)?.[1] ?? '').replace(/ \| /g, ', '));
    return makeCounts('vitest', {
      passed: get(w, 'passed'),
      failed: get(w, 'failed'),
      skipped: get(w, 'skipped', 'todo'),
      errors,
    });
  },
};
