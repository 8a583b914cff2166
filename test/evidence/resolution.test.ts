// The resolved verdict (every target passes, nothing that passed broke): targets first found, per test and by counts.
import { describe, expect, it } from 'vitest';
import {
  failingIds,
  fixedShare,
  isFixTask,
  resolutionLine,
  resolveRun,
  taskTargets,
} from '../../lib/evidence/resolution.js';
import type { TestCounts } from '../../lib/schema/types.generated.js';

type Status = 'passed' | 'failed' | 'error' | 'skipped';
const cases = (m: Record<string, Status>): TestCounts => {
  const list = Object.entries(m).map(([id, status]) => ({ id, status }));
  const n = (s: Status) => list.filter((c) => c.status === s).length;
  return {
    runner: 'vitest',
    passed: n('passed'),
    failed: n('failed'),
    errors: n('error'),
    skipped: n('skipped'),
    total: list.length,
    cases: list,
  };
};
const countsOnly = (passed: number | null, failed: number): TestCounts => ({
  runner: 'vitest',
  passed,
  failed,
  errors: 0,
  skipped: 0,
  total: passed === null ? null : passed + failed,
});

const BASE = cases({ a: 'passed', b: 'passed', c: 'passed', t: 'failed' });

describe('isFixTask', () => {
  it('takes a bug fix or an unnamed type as fixing something, a feature or refactor as not', () => {
    expect([undefined, '', 'bugfix', 'bug', 'fix', 'regression'].map(isFixTask)).toEqual(Array(6).fill(true));
    expect(['feature', 'Feature', 'refactor', 'docs', 'chore'].map(isFixTask)).toEqual(Array(5).fill(false));
  });
});

describe('taskTargets', () => {
  it('takes the first found: the task, the race, the test revision, the base failures of a fix', () => {
    expect(taskTargets({ task: ['x', 'x'], race: ['y'], testsRef: true, base: BASE })).toEqual({
      source: 'task',
      ids: ['x'],
      count: 1,
    });
    expect(taskTargets({ race: ['y'], testsRef: true, base: BASE }).source).toBe('race');
    expect(taskTargets({ testsRef: true, taskType: 'feature', base: BASE })).toEqual({
      source: 'tests_ref',
      ids: ['t'],
      count: 1,
    });
    expect(taskTargets({ testsRef: false, taskType: 'bugfix', base: BASE })).toEqual({
      source: 'base_failing',
      ids: ['t'],
      count: 1,
    });
  });
  it('gives a feature or refactor on a base with unrelated failures no targets', () => {
    expect(taskTargets({ testsRef: false, taskType: 'refactor', base: BASE })).toEqual({
      source: 'none',
      ids: [],
      count: 0,
    });
  });
  it('counts the base failures when the base has no per-test list', () => {
    expect(taskTargets({ testsRef: false, base: countsOnly(3, 2) })).toEqual({
      source: 'base_failing',
      ids: null,
      count: 2,
    });
    expect(failingIds(countsOnly(3, 2))).toBeNull();
  });
});

describe('resolveRun', () => {
  const targets = taskTargets({ testsRef: false, base: BASE });
  it('resolves a fix that keeps every base-passing test', () => {
    const r = resolveRun(targets, BASE, cases({ a: 'passed', b: 'passed', c: 'passed', t: 'passed', n: 'passed' }));
    expect(r).toMatchObject({ basis: 'per_test', fixed: 1, unfixed: [], broke: [], resolved: true, base_passing: 3 });
    expect(resolutionLine(r)).toBe('resolved: fixes 1 of 1 target test');
  });
  it('does not resolve a refactor that leaves the target failing', () => {
    const r = resolveRun(targets, BASE, BASE);
    expect(r).toMatchObject({ fixed: 0, unfixed: ['t'], resolved: false });
    expect(fixedShare(r)).toBe(0);
    expect(resolutionLine(r)).toBe('fixes 0 of 1 target test');
  });
  it('names what a fix broke, a skipped or a vanished test included', () => {
    const r = resolveRun(targets, BASE, cases({ a: 'failed', b: 'skipped', t: 'passed' }));
    expect(r).toMatchObject({ fixed: 1, broke: ['a', 'b', 'c'], broke_count: 3, resolved: false });
    expect(resolutionLine(r)).toBe('fixes 1 of 1 target test; broke 3 tests that passed on the base');
  });
  it('does not count a base test whose expectation the agent rewrote as broken', () => {
    const now = cases({ a: 'failed', b: 'passed', c: 'passed', t: 'passed' });
    expect(resolveRun(targets, BASE, now)).toMatchObject({ broke: ['a'], resolved: false });
    expect(resolveRun(targets, BASE, now, ['a'])).toMatchObject({ broke: [], resolved: true, base_passing: 2 });
  });
  it('does not count a capped list missing a test as broken', () => {
    const now = { ...cases({ t: 'passed' }), cases_complete: false };
    expect(resolveRun(targets, BASE, now).broke).toEqual([]);
  });
  it('by counts: a failure that vanished is not fixed, fewer passes is a regression with the number', () => {
    const base = countsOnly(8, 1);
    const t = taskTargets({ testsRef: false, base });
    expect(resolveRun(t, base, countsOnly(9, 0))).toMatchObject({ basis: 'counts', fixed: 1, resolved: true });
    expect(resolveRun(t, base, countsOnly(8, 0))).toMatchObject({ fixed: 0, resolved: false });
    const broke = resolveRun(t, base, countsOnly(7, 2));
    expect(broke).toMatchObject({ fixed: 0, broke_count: 1, resolved: false });
    expect(broke.broke).toEqual(['by counts, 7 pass against 8 on the base']);
    expect(resolveRun(t, base, countsOnly(null, 0)).resolved).toBeNull();
  });
  it('says where correctness comes from when there are no targets', () => {
    const none = taskTargets({ testsRef: false, taskType: 'feature', base: BASE });
    const r = resolveRun(none, BASE, BASE);
    expect(r.resolved).toBe(true);
    expect(resolutionLine(r)).toMatch(/no target tests .*agent's own tests and the judge/);
  });
});
