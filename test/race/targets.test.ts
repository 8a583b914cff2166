// The race's targets (lib/evidence/resolution.ts, first found), each solution's standing, and the mergeable gate,
// over the per-test contract (tests.cases) and the counts fallback.
import { describe, expect, it } from 'vitest';
import { evaluateGate, failedConditions, type GateInput } from '../../lib/race/gate.js';
import {
  raceTargets,
  targetFraction,
  targetStanding,
  unfixedByAll,
  type CaseStatus,
  type RaceTargets,
} from '../../lib/race/targets.js';
import type { Feedback, TestCounts } from '../../lib/schema/types.generated.js';

type CountsWithCases = TestCounts;

/** Counts with per-test cases, as the counts work's contract gives them (ids of pytest's shape). */
function run(cases: Record<string, CaseStatus>, complete = true): CountsWithCases {
  const list = Object.entries(cases).map(([id, status]) => ({ id: `tests/test_d.py::${id}`, status }));
  const n = (s: CaseStatus) => list.filter((c) => c.status === s).length;
  return {
    runner: 'pytest',
    passed: n('passed'),
    failed: n('failed'),
    errors: n('error'),
    skipped: n('skipped'),
    total: list.length,
    cases: list,
    cases_complete: complete,
  };
}
const id = (x: string) => `tests/test_d.py::${x}`;
const counts = (passed: number, failed: number, skipped = 0, errors = 0): CountsWithCases => ({
  runner: 'pytest',
  passed,
  failed,
  errors,
  skipped,
  total: passed + failed + skipped + errors,
});

const BASE = run({ seconds: 'passed', minutes: 'passed', hours: 'failed', spaces: 'error' });
const FIX = run({ seconds: 'passed', minutes: 'passed', hours: 'passed', spaces: 'passed', new_case: 'passed' });
const HALF = run({ seconds: 'passed', minutes: 'passed', hours: 'passed', spaces: 'failed' });
const DELETED = run({ seconds: 'passed', minutes: 'passed' });
const SKIPPED = run({ seconds: 'passed', minutes: 'skipped', hours: 'skipped', spaces: 'skipped' });
const BROKE = run({ seconds: 'failed', minutes: 'passed', hours: 'passed', spaces: 'passed', extra: 'passed' });

const targetsOf = (over: Partial<Parameters<typeof raceTargets>[0]> = {}): RaceTargets =>
  raceTargets({ task: [], race: [], testsRef: false, taskType: undefined, base: BASE, ...over });

describe('raceTargets: first found, one definition with the collector', () => {
  it("takes the task's, then --target, then the base failures of a fix task", () => {
    expect(targetsOf({ task: ['b', 'a', 'a'], race: ['c'] })).toMatchObject({
      source: 'task',
      fail_to_pass: ['a', 'b'],
      count: 2,
    });
    expect(targetsOf({ race: ['c'] })).toMatchObject({ source: 'race', fail_to_pass: ['c'] });
    expect(targetsOf({ taskType: 'bugfix' })).toEqual({
      source: 'base_failing',
      fail_to_pass: [id('hours'), id('spaces')],
      count: 2,
      note: 'the 2 tests failing on the base (the default for a task that fixes something); --target names the real ones when some are unrelated',
    });
  });
  it("gives a feature or refactor none: the base's failures are context", () => {
    expect(targetsOf({ taskType: 'refactor' })).toMatchObject({ source: 'none', fail_to_pass: [], count: 0 });
    expect(targetsOf({ taskType: 'refactor' }).note).toMatch(/a refactor task's base failures are context/);
    expect(targetsOf({ base: run({ a: 'passed' }) })).toMatchObject({ source: 'none', count: 0 });
  });
  it('never says nothing fails on the base when the base gave no test results', () => {
    const t = targetsOf({ base: null });
    expect(t).toMatchObject({ source: 'none', count: 0 });
    expect(t.note).toMatch(/^no target tests known: the base gave no test results/);
    expect(t.note).not.toMatch(/nothing fails on the base/);
  });
  it('counts the base failures when the base has no per-test list, and names none', () => {
    const t = targetsOf({ base: counts(8, 1) });
    expect(t).toMatchObject({ source: 'base_failing', fail_to_pass: [], count: 1 });
    expect(t.note).toMatch(/per-test results absent: known by the counts only/);
  });
});

describe('targetStanding (per-test)', () => {
  const targets = targetsOf();

  it('a real fix passes every target and keeps every passing test: resolved; its own new test is not a target', () => {
    const st = targetStanding(targets, FIX, BASE);
    expect(st).toMatchObject({
      basis: 'per-test',
      targets: [id('hours'), id('spaces')],
      target_passed: 2,
      target_total: 2,
      target_failing: [],
      added: [id('new_case')],
      broke: [],
      disappeared: [],
      newly_skipped: [],
      resolved: true,
      line: 'resolved: fixes 2 of 2 target tests',
    });
    expect(targetFraction(st)).toBe(1);
  });

  it('names the targets a half fix leaves failing: fixes 1 of 2, not resolved', () => {
    const st = targetStanding(targets, HALF, BASE);
    expect(st).toMatchObject({ target_failing: [id('spaces')], resolved: false, line: 'fixes 1 of 2 target tests' });
    expect(targetFraction(st)).toBe(0.5);
  });

  it('a refactor that leaves the base as it was fixes 0', () => {
    const st = targetStanding(targets, BASE, BASE);
    expect(st).toMatchObject({ target_passed: 0, resolved: false, line: 'fixes 0 of 2 target tests' });
    expect(targetFraction(st)).toBe(0);
  });

  it('counts a deleted target as failing, and a skipped passing test as a regression', () => {
    expect(targetStanding(targets, DELETED, BASE).target_failing).toEqual([id('hours'), id('spaces')]);
    const sk = targetStanding(targets, SKIPPED, BASE);
    expect(sk.target_failing).toEqual([id('hours'), id('spaces')]);
    expect(sk.newly_skipped).toEqual([id('minutes')]);
  });

  it('names the pass-to-pass test that broke even when the counts look no worse (one added, one broken)', () => {
    // 4 pass of 5 against the base's 2 of 4: the counts alone saw progress.
    const st = targetStanding(targets, BROKE, BASE);
    expect(st.broke).toEqual([id('seconds')]);
    expect(st).toMatchObject({ target_failing: [], resolved: false });
  });

  it('a capped list proves nothing by its gaps: a target or base test missing from it is failing or gone', () => {
    // The collector never caps the gate's tests out of the list, so what is missing is missing.
    const capped = run({ hours: 'failed' }, false);
    capped.total = 4;
    const st = targetStanding(targets, capped, BASE);
    expect(st.target_failing).toEqual([id('hours'), id('spaces')]);
    expect(st.disappeared).toEqual([]);
  });

  it('a rewritten base test that fails graded and passes in the agent version is a changed expectation, not a break', () => {
    const st = targetStanding(targets, BROKE, BASE, [id('seconds')]);
    expect(st.broke).toEqual([]);
    expect(st.changed).toEqual([id('seconds')]);
    expect(st.resolved).toBe(true);
  });

  it('gamed passes are measured but never credited: not resolved, a share of 0', () => {
    const st = targetStanding(targets, FIX, BASE, [], ['special_case at d.py:4']);
    expect(st).toMatchObject({ target_passed: 2, resolved: false, gamed: ['special_case at d.py:4'] });
    expect(st.line).toBe('fixes 0 of 2 target tests; passes gamed (special_case at d.py:4): no target counts as fixed');
    expect(targetFraction(st)).toBe(0);
  });
});

describe('unfixedByAll: targets plainly outside the task are named, never dropped', () => {
  const fail = (msg: string) => ({ id: id('unrelated'), status: 'failed' as const, excerpt: msg });
  const withUnrelated = (c: CountsWithCases, msg: string): CountsWithCases => ({
    ...c,
    failed: c.failed + 1,
    cases: [...c.cases!, fail(msg)],
  });
  const base = withUnrelated(BASE, 'ConnectionError at /tmp/a/wt-base/net.py:3 after 12 ms');
  const targets = targetsOf({ base });
  it('a target failing the same way in every solution and on the base (paths and timings aside)', () => {
    const sols = [
      withUnrelated(FIX, 'ConnectionError at /tmp/b/wt-fix/net.py:3 after 40 ms'),
      withUnrelated(HALF, 'ConnectionError at /tmp/c/wt-half/net.py:3 after 7 ms'),
    ];
    const entries = sols.map((c) => ({ counts: c, standing: targetStanding(targets, c, base) }));
    expect(unfixedByAll(targets, base, entries)).toEqual([id('unrelated')]);
  });
  it('not when one solution changed how it fails, or fixed it', () => {
    const moved = withUnrelated(HALF, 'KeyError: h');
    const entries = [FIX, moved].map((c) => ({ counts: c, standing: targetStanding(targets, c, base) }));
    expect(unfixedByAll(targets, base, entries)).toEqual([]);
  });
});

describe('targetStanding (counts only: no test is named)', () => {
  const t = targetsOf({ base: counts(2, 2) });
  it('fixing a failing test is one fewer failure and one more pass; deleting or skipping it is not', () => {
    expect(targetStanding(t, counts(4, 0), counts(2, 2))).toMatchObject({
      basis: 'counts',
      target_passed: 2,
      target_total: 2,
      target_failing: [],
      resolved: true,
      line: 'resolved: fixes 2 of 2 target tests (by counts)',
    });
    expect(targetStanding(t, counts(2, 0), counts(2, 2))).toMatchObject({
      target_passed: 0,
      disappeared: ['2 fewer tests (2, base 4)'],
      resolved: false,
    });
    expect(targetStanding(t, counts(2, 0, 2), counts(2, 2))).toMatchObject({
      target_passed: 0,
      newly_skipped: ['2 more skipped (2, base 0)'],
    });
    const half = targetStanding(t, counts(3, 1), counts(2, 2));
    // No per-test fact: the standing names no test as failing, only how many targets the counts show fixed.
    expect(half).toMatchObject({ target_failing: [], line: 'fixes 1 of 2 target tests (by counts)' });
    expect(half.notes).toEqual(['per-test results absent: decided by the counts, no test named']);
  });
  it('without a pass count (plain go test), a failing test that is gone is never fixed', () => {
    const noPass = (failed: number): CountsWithCases => ({
      runner: 'go',
      passed: null,
      failed,
      errors: 0,
      skipped: 0,
      total: null,
    });
    const gone = targetStanding(targetsOf({ base: noPass(1) }), noPass(0), noPass(1));
    expect(gone).toMatchObject({ target_passed: 0, target_total: 1, target_failing: [], resolved: null });
    expect(gone.notes).toContain(
      'no pass count: a failing test that is gone cannot be told from one fixed, so none counts as fixed',
    );
  });
  it('fewer passing tests than the base is a regression by counts, with the number', () => {
    const st = targetStanding(targetsOf({ base: counts(2, 0) }), counts(1, 1), counts(2, 0));
    expect(st.broke).toEqual(['by counts, 1 pass against 2 on the base']);
    expect(st.resolved).toBe(false);
  });
});

describe('the mergeable gate', () => {
  const targets = targetsOf({ task: [id('hours'), id('spaces')] });
  const passed = { status: 'passed', exit_code: 0 } as unknown as Feedback['checks']['build'];
  const failedBuild = { status: 'failed', exit_code: 2 } as unknown as Feedback['checks']['build'];
  const test = { status: 'failed', exit_code: 1 } as unknown as Feedback['checks']['test'];
  const input = (over: Partial<GateInput>): GateInput => ({
    build: passed,
    test,
    standing: targetStanding(targets, FIX, BASE),
    noOp: null,
    flags: [],
    blockingKinds: ['dangerous_op', 'test_deleted'],
    evidence: { trusted: true, reasons: [] },
    ...over,
  });
  const failed = (g: ReturnType<typeof evaluateGate>) =>
    g.conditions.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.detail}`);

  it('passes a real fix on every condition', () => {
    const g = evaluateGate(input({}));
    expect(g.mergeable).toBe(true);
    expect(g.conditions.map((c) => c.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(g.reasons).toEqual([]);
  });

  it('names every failed condition: build, broken tests, a no-op, a blocking finding', () => {
    const g = evaluateGate(
      input({
        build: failedBuild,
        standing: targetStanding(targets, BROKE, BASE),
        noOp: { kind: 'tests_only', detail: 'changes no code under test: only 1 test file' },
        flags: [
          { kind: 'test_deleted', detail: 'x', file: 'tests/test_d.py', line: 12 },
          { kind: 'stub', detail: 'TODO', file: 'd.py', line: 3 },
        ],
      }),
    );
    expect(g.mergeable).toBe(false);
    expect(failed(g)).toEqual([
      'builds: build failed (exit 2)',
      `pass_to_pass_kept: broke ${id('seconds')}`,
      'substantive_change: changes no code under test: only 1 test file',
      'no_blocking_finding: test_deleted at tests/test_d.py:12',
    ]);
    expect(g.reasons[0]).toBe('builds failed: build failed (exit 2)');
  });

  it('target_tests_pass is shown, never blocking: a safe half fix is mergeable and says what it left', () => {
    const g = evaluateGate(input({ standing: targetStanding(targets, HALF, BASE) }));
    expect(g.conditions[1]).toEqual({
      name: 'target_tests_pass',
      status: 'fail',
      detail: `fixes 1 of 2; not passing: ${id('spaces')}`,
    });
    expect(g.mergeable).toBe(true);
    expect(g.reasons).toEqual([
      `target_tests_pass failed (does not block merging): fixes 1 of 2; not passing: ${id('spaces')}`,
    ]);
    expect(failedConditions(g)).toBe('');
  });

  it('✓ target_tests_pass only where true: not for gamed passes, not by counts without the fix, unknown without targets', () => {
    const gamed = evaluateGate(input({ standing: targetStanding(targets, FIX, BASE, [], ['special_case at d.py:4']) }));
    expect(gamed.conditions[1]).toMatchObject({ status: 'fail', detail: 'passes gamed: special_case at d.py:4' });
    const t = targetsOf({ base: counts(8, 1) });
    const same = evaluateGate(input({ standing: targetStanding(t, counts(8, 1), counts(8, 1)) }));
    expect(same.conditions[1]).toEqual({
      name: 'target_tests_pass',
      status: 'fail',
      detail: 'fixes 0 of 1 target test (by counts)',
    });
    const none = targetsOf({ taskType: 'feature' });
    expect(evaluateGate(input({ standing: targetStanding(none, FIX, BASE) })).conditions[1]).toMatchObject({
      status: 'unknown',
    });
  });

  it('tests that could not run fail both test conditions; no test command leaves them unknown (not blocking)', () => {
    const skipped = {
      status: 'skipped',
      exit_code: null,
      skipped_reason: 'the build failed',
    } as unknown as Feedback['checks']['test'];
    expect(failed(evaluateGate(input({ test: skipped })))).toEqual([
      'target_tests_pass: tests not run: the build failed',
      'pass_to_pass_kept: tests not run: the build failed',
    ]);
    const none = evaluateGate(input({ test: undefined, build: undefined }));
    expect(none.conditions.map((c) => c.status)).toEqual(['unknown', 'unknown', 'unknown', 'pass', 'pass']);
    expect(none.mergeable).toBe(true);
    expect(none).toMatchObject({ build_passes: null, no_test_regression: null });
  });

  it('evidence the trust rule rejects fails both test conditions, whatever the per-test list says', () => {
    const g = evaluateGate(input({ evidence: { trusted: false, reasons: ['report_missing'] } }));
    expect(g.mergeable).toBe(false);
    expect(failed(g)).toEqual([
      'target_tests_pass: test evidence not trusted: the structured report was asked for and not written (or not readable)',
      'pass_to_pass_kept: test evidence not trusted: the structured report was asked for and not written (or not readable)',
    ]);
  });

  it('no test result at all is unmeasured: never mergeable (unknown is not a pass)', () => {
    const st = targetStanding(targets, null, BASE);
    const g = evaluateGate(
      input({ standing: st, test: { status: 'passed', exit_code: 0 } as Feedback['checks']['test'] }),
    );
    expect(g.mergeable).toBe(false);
    expect(g.conditions[2]).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^unmeasured/) });
  });

  it('a finding blocks only when its kind is in the configured list', () => {
    const flags = [{ kind: 'special_case' as const, detail: 'x', file: 'd.py', line: 4 }];
    expect(evaluateGate(input({ flags })).mergeable).toBe(true);
    expect(evaluateGate(input({ flags, blockingKinds: ['special_case'] })).mergeable).toBe(false);
  });
});
