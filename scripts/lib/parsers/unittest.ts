// Python unittest: `Ran 12 tests in 0.001s`, then `OK` or `FAILED (failures=1, errors=1, skipped=1, ...)`.
import { lastIndex, makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

const RAN = /^Ran (\d+) tests? in \d+(?:\.\d+)?s\s*$/;
// unittest's "errors" mix crashed tests with modules that failed to import (counted in "Ran N" as synthetic
// tests) and class/module fixtures that failed (not in "Ran N"); only crashed tests are failed tests.
const LOAD_ERROR = /^ERROR: \S+ \(unittest\.loader\._FailedTest/;
const FIXTURE_ERROR = /^ERROR: (?:setUpClass|tearDownClass|setUpModule|tearDownModule) \(/;

export const unittest: TestParser = {
  name: 'unittest',
  detect: (lines) => lastIndex(lines, RAN) >= 0,
  parse(lines) {
    const i = lastIndex(lines, RAN);
    if (i < 0) return null;
    const ran = Number(RAN.exec(lines[i] as string)?.[1]);
    const w = new Map<string, number>();
    for (let j = i + 1; j < lines.length && j <= i + 3; j++) {
      const m = /^(?:OK|FAILED)(?: \((.*)\))?\s*$/.exec(lines[j] as string);
      if (!m) continue;
      for (const p of (m[1] ?? '').matchAll(/([a-z ]+)=(\d+)/g)) w.set((p[1] as string).trim(), Number(p[2]));
      break;
    }
    let loadErrors = 0, fixtureErrors = 0;
    for (const line of lines) {
      if (LOAD_ERROR.test(line)) loadErrors++;
      else if (FIXTURE_ERROR.test(line)) fixtureErrors++;
    }
    const n = (k: string): number => w.get(k) ?? 0;
    const crashed = Math.max(0, n('errors') - loadErrors - fixtureErrors);
    const notes = n('unexpected successes') > 0 ? ['unexpected successes fail a unittest run: counted as failed'] : [];
    const passed = ran - n('failures') - crashed - loadErrors - n('skipped') - n('expected failures') - n('unexpected successes');
    return makeCounts('unittest', {
      passed: Math.max(0, passed),
      failed: n('failures') + crashed + n('unexpected successes'),
      skipped: n('skipped'),
      errors: loadErrors + fixtureErrors,
      xfailed: n('expected failures'),
      notes,
    });
  },
};
