// A report's counts reconciled with the console text of the same run (pure): the report wins, a disagreement is a
// dispute, and the console's crash, empty-run and dispute flags carry over.
import { flag } from './_counts.js';
import type { TestCounts } from './types.js';

/**
 * The counts to record from a report and the console text of the same run. The report wins (per-test, and out of
 * reach of what tests print), but a disagreement on what passed or failed is a dispute, and the console's crash,
 * empty-run and dispute flags carry over: a report written by a crashed or tampered run is not proof.
 */
export function reconcile(
  consoleCounts: TestCounts | null,
  report: TestCounts | null,
  reportNote: string | null = null,
): TestCounts | null {
  if (!report) {
    if (consoleCounts && reportNote) consoleCounts.notes = [...(consoleCounts.notes ?? []), reportNote];
    if (consoleCounts) consoleCounts.source = 'console';
    return consoleCounts;
  }
  // The console names the runner when the report's format alone cannot (JUnit is written by many).
  const out: TestCounts = {
    ...report,
    runner: report.runner === 'junit' && consoleCounts ? consoleCounts.runner : report.runner,
    notes: [...(report.notes ?? [])],
    source: 'report',
  };
  if (!consoleCounts) {
    out.notes?.push('the console output was not recognised: counts from the report alone');
    return out;
  }
  const bad = (c: TestCounts): number => c.failed + c.errors;
  const disagreements: string[] = [];
  if ((bad(consoleCounts) === 0) !== (bad(report) === 0))
    disagreements.push(`the console counts ${bad(consoleCounts)} failure(s)/error(s), the report ${bad(report)}`);
  if (
    consoleCounts.passed !== null &&
    consoleCounts.passed + (consoleCounts.xpassed ?? 0) !== (report.passed ?? 0) + (report.xpassed ?? 0)
  ) {
    disagreements.push(`the console counts ${consoleCounts.passed} passed, the report ${report.passed}`);
  }
  if (consoleCounts.counts_disputed)
    disagreements.push('the console text holds more than one summary or contradicts its per-test lines');
  // A test can add failures to what the runner prints, never remove real ones: of two disagreeing sources the one
  // with more failures and errors is kept (a report overwritten after the run cannot hide a failure the console saw).
  let base = out;
  if (disagreements.length && bad(consoleCounts) > bad(report)) {
    base = {
      ...consoleCounts,
      notes: [
        ...(consoleCounts.notes ?? []),
        'the report shows fewer failures than the console: the console counts are kept',
      ],
      source: 'console',
    };
    if (report.cases) base.cases = report.cases;
  }
  // Kept for a reader, flagged cases_disputed: the trust rule never lets a disputed list decide (lib/evidence/trust.ts).
  return finish(base, consoleCounts, disagreements);
}

function finish(out: TestCounts, consoleCounts: TestCounts, disagreements: string[]): TestCounts {
  flag(out, {
    disputed: disagreements.length ? disagreements.join('; ') : null,
    crashed: consoleCounts.runner_crashed && !out.runner_crashed ? 'the console shows a crash' : null,
    noTests:
      consoleCounts.no_tests_collected && !out.no_tests_collected ? 'the console says no tests were collected' : null,
    casesDisputed: out.cases ? casesDoubt(out, consoleCounts, disagreements) : null,
  });
  if (!out.notes?.length) delete out.notes;
  return out;
}

/** Why the report's per-test list cannot be taken as proof, or null: it is only as good as the report it came from. */
function casesDoubt(report: TestCounts, consoleCounts: TestCounts, disagreements: string[]): string | null {
  if (disagreements.length) return 'the report it comes from disagrees with the console';
  // A crashed worker's tests can be written as passed (vitest's JUnit): a list that shows no crash is not the run's.
  if (consoleCounts.runner_crashed && !report.runner_crashed && !report.cases?.some((c) => c.status === 'error'))
    return 'the console shows a crash that the report does not';
  return null;
}
