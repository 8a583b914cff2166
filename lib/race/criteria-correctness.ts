// Seed 001's correctness criteria: builds, tests pass (target tests first), API compatibility, special-casing,
// the judge's correctness (pure).
import type { Feedback } from '../schema/types.generated.js';
import { measured, notApplicable, unmeasured, type CriterionResult } from './categories.js';
import { booleanToScore } from './rubric.js';
import type { ApiChange } from '../change/ts-metrics.js';
import { targetFraction, type TargetStanding } from './targets.js';
import type { SolutionFacts } from './facts.js';

import { checkCriterion, judgeCriterion, testFacts } from './criteria.js';

function targetCriterion(st: TargetStanding, test: Feedback['checks']['test']): CriterionResult {
  if (!test) return unmeasured('target_tests', 'no test command configured');
  if (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error')
    return measured('target_tests', 0, `tests did not run (${test.status})`);
  if (st.basis === 'none') return unmeasured('target_tests', st.notes.join('; ') || 'no test results');
  if (!st.target_total) return notApplicable('target_tests', st.line);
  const frac = targetFraction(st);
  if (frac === null) return unmeasured('target_tests', st.line);
  // Gamed passes are no fix: the share credited is 0, and the detail says what was measured and why it is not credit.
  return st.basis === 'counts'
    ? measured('target_tests', frac, `${st.line} (per-test results absent)`, 'mechanical', 0.5)
    : measured('target_tests', frac, st.line);
}

export function correctness(
  facts: SolutionFacts,
  api: ApiChange[] | null,
  apiNote: string,
  st: TargetStanding,
  specialCases: number,
): CriterionResult[] {
  const fb = facts.feedback;
  const t = testFacts(fb);
  const out: CriterionResult[] = [targetCriterion(st, fb.checks.test)];
  const test = fb.checks.test;
  if (!test) out.push(unmeasured('tests_pass', 'no test command configured'));
  else if (test.status === 'skipped' || test.status === 'error' || test.status === 'timeout')
    out.push(checkCriterion('tests_pass', test, 'tests'));
  else if (fb.integrity.tests_not_run)
    out.push(measured('tests_pass', 0, 'a test command is configured but no test ran'));
  else if (t.passed !== null && test.tests) {
    const ran = t.passed + test.tests.failed + test.tests.errors;
    out.push(
      ran > 0
        ? measured('tests_pass', t.passed / ran, `${t.passed}/${ran} tests pass`)
        : measured('tests_pass', 0, 'no test ran'),
    );
  } else
    out.push(
      measured(
        'tests_pass',
        booleanToScore(test.status === 'passed'),
        `no counts parsed; by exit code ${test.exit_code}`,
        'mechanical',
        0.5,
      ),
    );
  out.push(checkCriterion('typecheck', fb.checks.typecheck, 'type check'));
  out.push(checkCriterion('lint_clean', fb.checks.lint, 'lint'));
  out.push(checkCriterion('build', fb.checks.build, 'build'));
  // Pass-to-pass: any test that passed on the base and now fails, is gone or is skipped scores 0 (not a ratio: one
  // broken test of 600 is a regression, not 99.8% of one).
  if (test && (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error') && t.basePassed) {
    out.push(measured('no_regressions', 0, `tests could not run; base passed ${t.basePassed}`));
  } else if (st.basis === 'none' || (st.basis === 'counts' && !fb.baseline?.tests)) {
    out.push(
      unmeasured('no_regressions', fb.baseline ? 'test results missing for the solution or the base' : 'no baseline'),
    );
  } else {
    const lost = [
      ...st.broke.map((x) => `broke ${x}`),
      ...st.disappeared.map((x) => `gone ${x}`),
      ...st.newly_skipped.map((x) => `skipped ${x}`),
    ];
    const by = st.basis === 'counts' ? ' (by counts: no test named)' : '';
    out.push(
      measured(
        'no_regressions',
        booleanToScore(lost.length === 0),
        lost.length
          ? `${lost.slice(0, 3).join('; ')}${lost.length > 3 ? '; …' : ''}${by}`
          : `every test that passed on the base still passes${by}`,
      ),
    );
  }
  out.push(
    measured(
      'no_special_casing',
      booleanToScore(specialCases === 0),
      specialCases
        ? `${specialCases} added comparisons against the tests' literal inputs`
        : "no comparison against the tests' literals added",
    ),
  );
  out.push(judgeCriterion('requirement_coverage', 'requirement_coverage', facts));
  out.push(judgeCriterion('edge_cases', 'edge_cases', facts));
  if (api === null)
    out.push(
      apiNote === 'no source file changed'
        ? notApplicable('api_compatible', apiNote)
        : unmeasured('api_compatible', apiNote),
    );
  else {
    const breaks = api.filter((c) => c.change !== 'added');
    out.push(
      measured(
        'api_compatible',
        booleanToScore(breaks.length === 0),
        breaks.length ? breaks.map((b) => b.detail).join('; ') : 'no exported signature removed or changed',
      ),
    );
  }
  return out;
}

/** Where complexity and function length are measured (for the notes). */
