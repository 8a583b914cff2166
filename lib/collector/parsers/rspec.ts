// RSpec: `7 examples, 2 failures, 2 pending` (and `, 1 error occurred outside of examples`), any formatter.
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';

const SUMMARY =
  /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?\s*$/;
const FAILED = /^rspec \.?\/?\S+:\d+(?:\[[\d:]+\])? # /;

export const rspec: TestParser = {
  name: 'rspec',
  detect: (lines) => lines.some((l) => SUMMARY.test(l)) && lines.some((l) => /^Finished in [\d.]+ seconds?/.test(l)),
  explain: { summary: SUMMARY, marks: FAILED },
  parse(lines) {
    const candidates: RegExpExecArray[] = [];
    let failedShown = 0;
    for (const l of lines) {
      const m = SUMMARY.exec(l);
      if (m) candidates.push(m);
      if (FAILED.test(l)) failedShown++;
    }
    // "Failed examples:" lists one `rspec ./file:line # name` per failure: the real summary counts at least as many.
    const { chosen, disputed } = pickSummary(
      candidates,
      (m) => Number(m[2]) >= failedShown,
      'rspec summary',
      (m) => favour(Number(m[1]) - Number(m[2]) - Number(m[3] ?? 0), Number(m[2]) + Number(m[4] ?? 0)),
    );
    if (!chosen) return null;
    const examples = Number(chosen[1]),
      failures = Number(chosen[2]),
      pending = Number(chosen[3] ?? 0),
      outside = Number(chosen[4] ?? 0);
    const counts = makeCounts('rspec', {
      passed: examples - failures - pending,
      failed: failures,
      skipped: pending,
      errors: outside,
    });
    return flag(counts, { disputed, noTests: examples === 0 && outside === 0 ? 'rspec ran no example' : null });
  },
};
