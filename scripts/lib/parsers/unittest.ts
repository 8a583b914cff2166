// Python unittest: `Ran 12 tests in 0.001s`, then `OK` or `FAILED (failures=1, errors=1, skipped=1, ...)`.
import { lastIndex, makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

const RAN = /^Ran (\d+) tests? in \d+(?:\.\d+)?s\s*$/;
// unittest's "errors" mix crashed tests with modules that failed to import and class/module fixtures that failed.
const SETUP_ERROR = /^ERROR: (?:\S+ \(unittest\.loader\._FailedTest|setUpClass|tearDownClass|setUpModule|tearDownModule)/;

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
    let setupErrors = 0;
    for (const line of lines) if (SETUP_ERROR.test(line)) setupErrors++;
    const n = (k: string): number => w.get(k) ?? 0;
    const crashed = Math.max(0, n('errors') - setupErrors);
    const notes = n('unexpected successes') > 0 ? ['unexpected successes fail a unittest run: counted as failed'] : [];
    // Setup errors are also in "Ran N" (as synthetic tests), so they leave passed = ran minus every outcome.
    const passed = ran - n('failures') - n('errors') - n('skipped') - n('expected failures') - n('unexpected successes');
    return makeCounts('unittest', {
      passed: Math.max(0, passed),
      failed: n('failures') + crashed + n('unexpected successes'),
      skipped: n('skipped'),
      errors: setupErrors,
      xfailed: n('expected failures'),
      notes,
    });
  },
};
