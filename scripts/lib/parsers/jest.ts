// Jest: `Tests: 2 failed, 1 skipped, 1 todo, 7 passed, 11 total` (words in any order), suites that failed to run.
import { get, lastIndex, makeCounts, wordCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

// Unindented: console output that Jest echoes from tests is indented, so a test printing "Tests: 99 passed" never matches.
const TESTS = /^Tests:\s+(.*\d+ total)\s*$/;

export const jest: TestParser = {
  name: 'jest',
  detect: (lines) => lastIndex(lines, /^(Tests|Test Suites):\s+\d|^No tests found, exiting with code/) >= 0,
  parse(lines) {
    let suiteErrors = 0;
    for (const line of lines) if (/^\s*● Test suite failed to run\s*$/.test(line)) suiteErrors++;
    const i = lastIndex(lines, TESTS);
    if (i < 0) {
      if (lastIndex(lines, /^No tests found, exiting with code/) >= 0) {
        return makeCounts('jest', { passed: 0, errors: suiteErrors, notes: ['jest found no tests'] });
      }
      // Every suite failed to load: Jest prints `Test Suites: N failed` and `Tests: 0 total` or nothing.
      if (suiteErrors > 0) return makeCounts('jest', { passed: 0, errors: suiteErrors });
      return null;
    }
    const w = wordCounts(TESTS.exec(lines[i] as string)?.[1] ?? '');
    return makeCounts('jest', {
      passed: get(w, 'passed'),
      failed: get(w, 'failed'),
      skipped: get(w, 'skipped', 'todo', 'pending'),
      errors: suiteErrors,
    });
  },
};
