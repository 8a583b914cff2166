// The one trust rule: can a run's test evidence be believed, and if not, why (pure). The outcome, the tests
// score, the rating cap and the race gate all ask it; untrusted evidence is never a pass.
import type { Check, Feedback, TestCounts } from '../schema/types.generated.js';

export type TrustReason =
  | 'not_run'
  | 'none_collected'
  | 'crashed'
  | 'disputed'
  | 'exit_contradicts_counts'
  | 'report_missing'
  | 'console_silent'
  | 'no_counts'
  | 'unobserved';

export interface TestEvidence {
  /** null: no test command configured (nothing to trust or distrust). */
  trusted: boolean | null;
  reasons: TrustReason[];
}

export const TRUST_TEXT: Record<TrustReason, string> = {
  not_run: 'the tests did not run (not started, timed out or killed)',
  none_collected: 'the runner collected no test',
  crashed: 'the test runner or a test process crashed',
  disputed: 'the counts are disputed (report and console, or two summaries, disagree)',
  exit_contradicts_counts: 'the exit code contradicts the counts',
  report_missing: 'the structured report was asked for and not written (or not readable)',
  console_silent: 'the console shows no result: the report alone cannot be believed',
  no_counts: 'no test result could be parsed',
  unobserved: "judgeloop's observer was planned in the runner and never reported (fail closed)",
};

/** Tests that ran to a verdict (not skipped); null when the counts cannot tell. */
function ran(c: TestCounts): number | null {
  if (c.passed === null) return c.total === null ? null : Math.max(0, c.total - c.skipped);
  return c.passed + c.failed + c.errors + (c.xfailed ?? 0) + (c.xpassed ?? 0);
}

/** Whether `test` (the graded run's test check) can be believed. A skipped check (the build failed) is not run. */
export function testEvidence(test: Check | null | undefined): TestEvidence {
  if (!test) return { trusted: null, reasons: [] };
  const reasons: TrustReason[] = [];
  const c = test.tests ?? null;
  const code = test.exit_code;
  if (test.status === 'skipped' || test.status === 'error' || test.status === 'timeout' || test.signal)
    reasons.push('not_run');
  if (c === null) reasons.push('no_counts');
  else {
    if (c.no_tests_collected || ran(c) === 0) reasons.push('none_collected');
    if (c.runner_crashed || (code !== null && code > 128 && code < 160)) reasons.push('crashed');
    if (c.counts_disputed || c.cases_disputed) reasons.push('disputed');
    if (c.report === 'missing' || c.report === 'unreadable') reasons.push('report_missing');
    if (c.observer === 'missing') reasons.push('unobserved');
    if (c.source === 'report' && c.notes?.some((n) => /console output was not recognised/.test(n)))
      reasons.push('console_silent');
    const failures = c.failed + c.errors;
    if (code !== null && test.status !== 'timeout' && (code === 0) !== (failures === 0))
      reasons.push('exit_contradicts_counts');
  }
  return { trusted: reasons.length === 0, reasons: [...new Set(reasons)] };
}

/** One line for people: "not trusted: a; b". */
export function describeEvidence(e: TestEvidence): string {
  if (e.trusted === null) return 'no test command configured';
  return e.trusted ? 'trusted' : `not trusted: ${e.reasons.map((r) => TRUST_TEXT[r]).join('; ')}`;
}

/** A stored record's verdict: the one it was collected with, else the rule applied to its test check. */
export function feedbackEvidence(fb: Pick<Feedback, 'checks' | 'integrity'>): TestEvidence {
  const stored = fb.integrity.test_evidence as TestEvidence | undefined;
  if (stored) return stored;
  // An older record: the rule over its test check, and the integrity flags it was collected with.
  const e = testEvidence(fb.checks.test);
  const i = fb.integrity;
  const flagged: [boolean | undefined, TrustReason][] = [
    [i.runner_crashed, 'crashed'],
    [i.no_tests_collected, 'none_collected'],
    [i.counts_disputed, 'disputed'],
    [i.exit_code_contradicts_counts, 'exit_contradicts_counts'],
    [i.tests_not_run, 'not_run'],
  ];
  const reasons = [...new Set([...e.reasons, ...flagged.filter(([f]) => f).map(([, r]) => r)])];
  if (e.trusted === null && !reasons.length) return e;
  return { trusted: reasons.length === 0, reasons };
}
