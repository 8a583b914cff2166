// Target tests and the mergeable gate over the per-test contract (tests.cases) and the counts fallback.
import { describe, expect, it } from 'vitest';
import { evaluateGate, type GateInput } from '../../lib/race/gate.js';
import {
  caseList,
  deriveTargets,
  targetFraction,
  targetStanding,
  type CaseStatus,
  type CountsWithCases,
} from '../../lib/race/targets.js';
import type { Feedback } from '../../lib/schema/types.generated.js';

/** Counts with per-test cases, as the counts work's contract gives them (ids of pytest's shape). */
function run(cases: Record<string, CaseStatus>, complete = true): CountsWithCases {
  const list = Object.entries(cases).map(([id, status]) => ({ id: `tests/test_d.py::${id}`, status }));
  const n = (s: CaseStatus) => list.filter((c) => c.status === s).length;
  return {
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

describe('deriveTargets', () => {
  it('takes the tests failing on the base that pass in at least one solution, sorted', () => {
    const t = deriveTargets(caseList(BASE), [HALF, DELETED].map(caseList));
    expect(t).toEqual({
      source: 'derived',
      fail_to_pass: [id('hours')],
      note: '1 tests fail on the base and pass in at least one solution',
    });
    expect(deriveTargets(caseList(BASE), [DELETED, FIX, HALF].map(caseList)).fail_to_pass).toEqual([
      id('hours'),
      id('spaces'),
    ]);
  });

  it('is the same whatever order the solutions come in', () => {
    const sols = [FIX, HALF, DELETED, SKIPPED, BROKE].map(caseList);
    expect(deriveTargets(caseList(BASE), [...sols].reverse())).toEqual(deriveTargets(caseList(BASE), sols));
  });

  it('says when nothing can be derived: no per-test results, or no solution fixes anything', () => {
    expect(deriveTargets(null, [caseList(FIX)]).source).toBe('counts');
    expect(deriveTargets(caseList(counts(2, 1)), [caseList(FIX)]).source).toBe('counts');
    // Nobody fixed anything: without targets named by the task, fixing a base failure is credit, not an obligation.
    const t = deriveTargets(caseList(BASE), [caseList(DELETED)]);
    expect(t).toMatchObject({ source: 'base_failing', fail_to_pass: [id('hours'), id('spaces')] });
    expect(targetStanding(t, DELETED, BASE)).toMatchObject({
      target_failing: [],
      credit: { fixed: 0, base_failing: 2 },
    });
    expect(targetFraction(targetStanding(t, DELETED, BASE))).toBe(0);
    expect(deriveTargets(caseList(run({ a: 'passed' })), [caseList(FIX)])).toMatchObject({
      source: 'none',
      fail_to_pass: [],
    });
  });

  it('uses named targets as given (explicit)', () => {
    expect(deriveTargets(null, [], ['b', 'a', 'a'])).toEqual({
      source: 'explicit',
      fail_to_pass: ['a', 'b'],
      note: '3 target tests named for the race',
    });
  });
});

describe('targetStanding (per-test, targets named by the task)', () => {
  const targets = deriveTargets(caseList(BASE), [FIX, HALF].map(caseList), [id('hours'), id('spaces')]);

  it('a real fix passes every target and keeps every passing test; its own new test is not a target', () => {
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
    });
    expect(targetFraction(st)).toBe(1);
  });

  it('names the targets a half fix leaves failing', () => {
    const st = targetStanding(targets, HALF, BASE);
    expect(st.target_failing).toEqual([id('spaces')]);
    expect(targetFraction(st)).toBe(0.5);
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
    expect(st.target_failing).toEqual([]);
  });

  it('a capped list proves nothing by its gaps: a target or base test missing from it is failing or gone', () => {
    // The collector never caps the gate's tests out of the list, so what is missing is missing.
    const capped = run({ hours: 'failed' }, false);
    capped.total = 4;
    const st = targetStanding(targets, capped, BASE);
    expect(st.target_failing).toEqual([id('hours'), id('spaces')]);
    expect(st.disappeared).toEqual([id('minutes'), id('seconds')]);
  });

  it('a rewritten base test that fails graded and passes in the agent version is a changed expectation, not a break', () => {
    const st = targetStanding(targets, BROKE, BASE, [id('seconds')]);
    expect(st.broke).toEqual([]);
    expect(st.changed).toEqual([id('seconds')]);
  });
});

describe('targetStanding (per-test, no targets named): one solution never obliges another', () => {
  // A base with an unrelated failing test (spaces) that only a cheat makes pass.
  const CHEAT = run({ seconds: 'passed', minutes: 'passed', hours: 'passed', spaces: 'passed' });
  const HONEST = run({ seconds: 'passed', minutes: 'passed', hours: 'passed', spaces: 'error' });
  const targets = deriveTargets(caseList(BASE), [CHEAT, HONEST].map(caseList));

  it("the cheat's extra pass is its credit, not the honest fix's obligation", () => {
    const honest = targetStanding(targets, HONEST, BASE);
    expect(honest).toMatchObject({ target_failing: [], targets: [id('hours')], credit: { fixed: 1, base_failing: 2 } });
    expect(targetStanding(targets, CHEAT, BASE).credit).toEqual({ fixed: 2, base_failing: 2 });
    expect(targetFraction(honest)).toBe(0.5);
  });
});

describe('targetStanding (counts only: the fallback says so)', () => {
  const t = deriveTargets(null, []);
  it('fixing a failing test is one fewer failure and one more pass; deleting or skipping it is not', () => {
    expect(targetStanding(t, counts(4, 0), counts(2, 2))).toMatchObject({
      basis: 'counts',
      target_passed: 2,
      target_total: 2,
      target_failing: [],
    });
    expect(targetStanding(t, counts(2, 0), counts(2, 2))).toMatchObject({
      target_passed: 0,
      disappeared: ['2 fewer tests (2, base 4)'],
    });
    expect(targetStanding(t, counts(2, 0, 2), counts(2, 2))).toMatchObject({
      target_passed: 0,
      newly_skipped: ['2 more skipped (2, base 0)'],
    });
    expect(targetStanding(t, counts(3, 1), counts(2, 2)).target_failing).toEqual([
      "1 of the base's 2 failing tests not shown fixed by the counts (1 fail; 3 pass, base 2)",
    ]);
    expect(targetStanding(t, counts(3, 1), counts(2, 2)).notes).toEqual([
      'per-test results absent: decided by the counts',
    ]);
  });
  it('without a pass count (plain go test), a failing test that is gone is never fixed', () => {
    const noPass = (failed: number): CountsWithCases => ({ passed: null, failed, errors: 0, skipped: 0, total: null });
    const gone = targetStanding(t, noPass(0), noPass(1));
    expect(gone).toMatchObject({ target_passed: 0, target_total: 1 });
    expect(gone.target_failing).toEqual([
      "1 of the base's 1 failing tests not shown fixed by the counts (0 fail; ? pass, base ?)",
    ]);
    expect(gone.notes).toContain(
      'no pass count: a failing test that is gone cannot be told from one fixed, so none counts as fixed',
    );
    // With totals that did not shrink, the failure went away while the test stayed: fixed.
    const withTotals = targetStanding(t, { ...noPass(0), total: 3 }, { ...noPass(1), total: 3 });
    expect(withTotals).toMatchObject({ target_passed: 1, target_failing: [] });
  });
  it('counts never state which tests fail: a target fixed while two others broke is "not shown fixed", not "failing"', () => {
    // Base 8 pass, 1 fails; the fix makes it pass and breaks two others: 7 pass, 2 fail.
    const st = targetStanding(t, counts(7, 2), counts(8, 1));
    expect(st.target_failing).toEqual([
      "1 of the base's 1 failing tests not shown fixed by the counts (2 fail; 7 pass, base 8)",
    ]);
    expect(st.broke).toEqual(['1 fewer tests pass (7, base 8)']);
  });
  it('fewer passing tests than the base is a regression by counts', () => {
    expect(targetStanding(t, counts(1, 1), counts(2, 0)).broke).toEqual(['1 fewer tests pass (1, base 2)']);
  });
});

describe('the mergeable gate', () => {
  const targets = deriveTargets(caseList(BASE), [FIX, HALF].map(caseList), [id('hours'), id('spaces')]);
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

  it('names every failed condition: build, failing targets, broken tests, a no-op, a blocking finding', () => {
    const g = evaluateGate(
      input({
        build: failedBuild,
        standing: targetStanding(targets, BROKE, BASE),
        noOp: { kind: 'tests_only', detail: 'changes no code under test: only 1 test files' },
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
      'substantive_change: changes no code under test: only 1 test files',
      'no_blocking_finding: test_deleted at tests/test_d.py:12',
    ]);
    expect(g.reasons[0]).toBe('builds failed: build failed (exit 2)');
    expect(evaluateGate(input({ standing: targetStanding(targets, HALF, BASE) })).conditions[1]).toEqual({
      name: 'target_tests_pass',
      status: 'fail',
      detail: `failing: ${id('spaces')}`,
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
    expect(g.conditions[1]).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^unmeasured/) });
  });

  it('a finding blocks only when its kind is in the configured list', () => {
    const flags = [{ kind: 'special_case' as const, detail: 'x', file: 'd.py', line: 4 }];
    expect(evaluateGate(input({ flags })).mergeable).toBe(true);
    expect(evaluateGate(input({ flags, blockingKinds: ['special_case'] })).mergeable).toBe(false);
  });
});
