// Jest: `Tests: 2 failed, 1 skipped, 1 todo, 7 passed, 11 total` (words in any order), suites that failed to run.
import { favour, flag, get, lastIndex, makeCounts, pickSummary, wordCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

// Unindented: console output that Jest echoes from tests is indented, so a test printing "Tests: 99 passed" never matches.
const TESTS = /^Tests:\s+(.*\d+ total)\s*$/;

export const jest: TestParser = {
  name: 'jest',
  explain: { summary: /^Tests:\s+|^No tests found/, marks: /^ {2}● \S|^FAIL / },
  detect: (lines) => lastIndex(lines, /^(Tests|Test Suites):\s+\d|^No tests found, exiting with code/) >= 0,
  parse(lines) {
    let suiteErrors = 0,
      headers = 0;
    const candidates: number[] = [];
    for (let j = 0; j < lines.length; j++) {
      const line = lines[j] as string;
      if (/^\s*● Test suite failed to run\s*$/.test(line)) suiteErrors++;
      else if (/^ {2}● \S/.test(line)) headers++;
      if (TESTS.test(line)) candidates.push(j);
    }
    if (candidates.length === 0) {
      if (lastIndex(lines, /^No tests found, exiting with code/) >= 0) {
        return flag(makeCounts('jest', { passed: 0, errors: suiteErrors, notes: ['jest found no tests'] }), {
          noTests: 'jest found no tests',
        });
      }
      // Every suite failed to load: Jest prints `Test Suites: N failed` and `Tests: 0 total` or nothing.
      if (suiteErrors > 0) return makeCounts('jest', { passed: 0, errors: suiteErrors });
      return null;
    }
    // Each failed test gets a "  ● name" header: the real Tests line counts at least that many failures.
    const words = (j: number) => wordCounts(TESTS.exec(lines[j] as string)?.[1] ?? '');
    const { chosen, disputed } = pickSummary(
      candidates,
      (j) => get(words(j), 'failed') >= headers,
      'jest Tests line',
      (j) => favour(get(words(j), 'passed'), get(words(j), 'failed')),
    );
    const w = words(chosen as number);
    const counts = makeCounts('jest', {
      passed: get(w, 'passed'),
      failed: get(w, 'failed'),
      skipped: get(w, 'skipped', 'todo', 'pending'),
      errors: suiteErrors,
    });
    return flag(counts, { disputed, noTests: counts.total === 0 && suiteErrors === 0 ? 'jest ran no tests' : null });
  },
};
