// Outcome precedence and integrity flag rules, one case per rule (the end-to-end tests produce them from real runs).
import { describe, expect, it } from 'vitest';
import { classifyOutcome, integrityFlags, type ChecksSet } from '../../lib/collector/outcome.js';
import type { Check, TestCounts } from '../../lib/schema/types.generated.js';

const ran = (status: Check['status'], exit: number | null, extra: Partial<Check> = {}): Check => ({
  status,
  exit_code: exit,
  signal: null,
  duration_ms: 5,
  source: 'collector',
  output: { text: '', bytes: 0, truncated: false },
  ...extra,
});
const counts = (
  passed: number | null,
  failed = 0,
  total: number | null = (passed ?? 0) + failed,
  more: Partial<TestCounts> = {},
): TestCounts => ({ runner: 'x', passed, failed, skipped: 0, errors: 0, total, ...more });
const none: ChecksSet = { build: null, test: null, lint: null, typecheck: null };
const clean = {
  tests_not_run: false,
  exit_code_contradicts_counts: false,
  test_count_below_baseline: false,
  counts_disputed: false,
  runner_crashed: false,
  no_tests_collected: false,
  notes: [],
};

function classify(checks: Partial<ChecksSet>, over: Partial<Parameters<typeof classifyOutcome>[0]> = {}) {
  const all = { ...none, ...checks };
  return classifyOutcome({
    status: 'completed',
    failureReason: null,
    infraReason: null,
    checks: all,
    integrity: integrityFlags(all.test, null),
    baselineLint: null,
    ...over,
  });
}

describe('classifyOutcome precedence: infra_failure > timeout > agent_failure > full_pass > partial_pass', () => {
  const passingTest = ran('passed', 0, { tests: counts(3) });
  it('infra_failure from the record wins over everything', () => {
    expect(classify({ test: ran('timeout', null) }, { status: 'infra_failure', failureReason: 'disk full' })).toEqual({
      outcome: 'infra_failure',
      reason: 'the orchestrator reported an infrastructure failure: disk full',
    });
  });
  it('a check that could not start is infra_failure, before a timeout', () => {
    expect(classify({ build: ran('error', null), test: ran('timeout', null) }).outcome).toBe('infra_failure');
  });
  it('the agent timing out, or any check timing out, is timeout', () => {
    expect(classify({ test: passingTest }, { status: 'timeout' }).outcome).toBe('timeout');
    expect(classify({ build: ran('passed', 0), lint: ran('timeout', null) }).outcome).toBe('timeout');
  });
  it('agent_failure: the record says failed, the build failed, or no test passed', () => {
    expect(classify({ test: passingTest }, { status: 'failed' }).outcome).toBe('agent_failure');
    expect(classify({ build: ran('failed', 2) }).outcome).toBe('agent_failure');
    expect(classify({ test: ran('failed', 1, { tests: counts(0, 4) }) }).reason).toBe('no test passed');
  });
  it('xfailed-only suites are not "no test passed"', () => {
    expect(classify({ test: ran('passed', 0, { tests: counts(0, 0, 2, { xfailed: 2 }) }) }).outcome).toBe('full_pass');
  });
  it('full_pass needs every configured check clean', () => {
    expect(
      classify({
        build: ran('passed', 0),
        test: passingTest,
        lint: ran('passed', 0, { lint: { linter: 'x', errors: 0, warnings: 3 } }),
        typecheck: ran('passed', 0),
      }).outcome,
    ).toBe('full_pass');
    // Nothing measured is not a pass.
    expect(classify({})).toEqual({
      outcome: 'unmeasured',
      reason: 'no build, test, lint or typecheck command is configured: nothing was measured (not a pass)',
    });
  });
  it('partial_pass: some failures, a failed type check, new lint errors, or unparsed green tests', () => {
    expect(classify({ test: ran('failed', 1, { tests: counts(3, 1) }) }).outcome).toBe('partial_pass');
    expect(classify({ test: passingTest, typecheck: ran('failed', 2) }).reason).toMatch(/type check failed/);
    expect(classify({ lint: ran('failed', 1, { lint: { linter: 'x', errors: 2, warnings: 0 } }) }).reason).toMatch(
      /new errors/,
    );
    expect(classify({ test: ran('passed', 0, { tests: null }) }).outcome).toBe('partial_pass');
  });
  it('pre-existing lint errors alone do not spoil a full pass', () => {
    const lint = ran('failed', 1, { lint: { linter: 'x', errors: 2, warnings: 0 } });
    expect(classify({ lint }, { baselineLint: { linter: 'x', errors: 2, warnings: 0 } }).outcome).toBe('full_pass');
  });
});

describe('integrityFlags', () => {
  it('nothing is flagged when no test command ran, or when the build short-circuited it', () => {
    expect(integrityFlags(null, null)).toEqual(clean);
    expect(
      integrityFlags(
        {
          status: 'skipped',
          exit_code: null,
          duration_ms: null,
          source: 'none',
          output: null,
          skipped_reason: 'the build failed',
        },
        null,
      ),
    ).toEqual(clean);
  });
  it('tests_not_run: nothing parsed, zero tests, "no tests found", crash by signal, timeout, not started', () => {
    expect(integrityFlags(ran('passed', 0, { tests: null }), null).tests_not_run).toBe(true);
    expect(integrityFlags(ran('passed', 0, { tests: counts(0, 0, 0) }), null).tests_not_run).toBe(true);
    expect(integrityFlags(ran('passed', 0, { tests: counts(0, 0, 3, { skipped: 3 }) }), null).tests_not_run).toBe(true);
    expect(
      integrityFlags(
        ran('passed', 0, {
          tests: counts(1),
          output: { text: 'warning: no tests found in pkg/x\n1 passed', bytes: 1, truncated: false },
        }),
        null,
      ).tests_not_run,
    ).toBe(true);
    expect(integrityFlags(ran('failed', null, { signal: 'SIGSEGV', tests: counts(2) }), null).tests_not_run).toBe(true);
    expect(integrityFlags(ran('timeout', null), null).tests_not_run).toBe(true);
    expect(integrityFlags(ran('error', null), null).tests_not_run).toBe(true);
  });
  it('exit_code_contradicts_counts: non-zero with nothing failed, zero with failures', () => {
    expect(integrityFlags(ran('failed', 1, { tests: counts(3) }), null).exit_code_contradicts_counts).toBe(true);
    expect(integrityFlags(ran('passed', 0, { tests: counts(3, 1) }), null).exit_code_contradicts_counts).toBe(true);
    expect(
      integrityFlags(ran('failed', 1, { tests: counts(3, 0, 3, { errors: 1 }) }), null).exit_code_contradicts_counts,
    ).toBe(false);
    expect(integrityFlags(ran('failed', 1, { tests: counts(3, 1) }), null).exit_code_contradicts_counts).toBe(false);
  });
  it('test_count_below_baseline: fewer tests counted, or fewer ran (more skipped)', () => {
    expect(integrityFlags(ran('passed', 0, { tests: counts(4) }), counts(5)).test_count_below_baseline).toBe(true);
    expect(
      integrityFlags(ran('passed', 0, { tests: counts(3, 0, 5, { skipped: 2 }) }), counts(5)).test_count_below_baseline,
    ).toBe(true);
    expect(integrityFlags(ran('passed', 0, { tests: counts(6) }), counts(5)).test_count_below_baseline).toBe(false);
    expect(integrityFlags(ran('passed', 0, { tests: counts(6) }), null).test_count_below_baseline).toBe(false);
  });
});

describe('the count flags (issue 12): never full_pass', () => {
  const green = (more: Partial<TestCounts>) => ran('passed', 0, { tests: counts(3, 0, 3, more) });
  it('disputed counts: partial_pass, flagged, with the reason', () => {
    const r = classify({ test: green({ counts_disputed: true }) });
    expect(r.outcome).toBe('partial_pass');
    expect(r.reason).toMatch(/disputed/);
    expect(integrityFlags(green({ counts_disputed: true }), null).counts_disputed).toBe(true);
  });
  it('a crashed runner: partial_pass even when every counted test passed', () => {
    expect(classify({ test: green({ runner_crashed: true }) }).outcome).toBe('partial_pass');
    expect(integrityFlags(ran('failed', 139, { tests: null }), null).runner_crashed).toBe(true);
    expect(integrityFlags(ran('timeout', null, { signal: 'SIGTERM', tests: null }), null).runner_crashed).toBe(false);
  });
  it('no tests collected: agent_failure, "no tests found"', () => {
    const r = classify({ test: ran('passed', 0, { tests: counts(0, 0, 0, { no_tests_collected: true }) }) });
    expect(r).toEqual({ outcome: 'agent_failure', reason: 'no tests found: the test runner collected no test' });
  });
  it('no check configured at all: unmeasured, never full_pass', () => {
    expect(classify({}).outcome).toBe('unmeasured');
    expect(classify({}, { status: 'failed' }).outcome).toBe('agent_failure');
  });
});
