// feedback.resolution as the collector writes it, built by the real verdict (lib/evidence/resolution.ts) from
// per-test results of a base and a run: a bug fix whose targets are the tests failing on the base.
import { resolutionRecord, resolveRun, taskTargets } from '../../lib/evidence/resolution.js';
import type { Feedback, TestCounts } from '../../lib/schema/types.generated.js';

type Case = NonNullable<TestCounts['cases']>[number];

function counts(cases: Case[]): TestCounts {
  const n = (s: Case['status']) => cases.filter((c) => c.status === s).length;
  return {
    runner: 'pytest',
    passed: n('passed'),
    failed: n('failed'),
    skipped: 0,
    errors: 0,
    total: cases.length,
    cases,
    cases_complete: true,
    source: 'report',
  };
}

/**
 * The resolution of a run on a bug fix with `targets` tests failing on the base and `others` passing: the run makes
 * the first `fixed` targets pass and the first `broke` others fail.
 */
export function resolutionOf(
  targets: number,
  fixed: number,
  broke = 0,
  others = 5,
): NonNullable<Feedback['resolution']> {
  const t = Array.from({ length: targets }, (_, i) => `tests/test_task.py::test_target_${i}`);
  const o = Array.from({ length: others }, (_, i) => `tests/test_other.py::test_other_${i}`);
  const base = counts([
    ...t.map((id) => ({ id, status: 'failed' as const })),
    ...o.map((id) => ({ id, status: 'passed' as const })),
  ]);
  const now = counts([
    ...t.map((id, i) => ({ id, status: i < fixed ? ('passed' as const) : ('failed' as const) })),
    ...o.map((id, i) => ({ id, status: i < broke ? ('failed' as const) : ('passed' as const) })),
  ]);
  return resolutionRecord(resolveRun(taskTargets({ testsRef: false, taskType: 'bugfix', base }), base, now));
}
