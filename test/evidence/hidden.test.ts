// The hidden tests' verdict (pure): which cases are the hidden files', fixed and broken against the base, the line.
import { describe, expect, it } from 'vitest';
import { hiddenLine, hiddenPart, hiddenStanding, namesHiddenFile } from '../../lib/evidence/hidden.js';
import type { TestCounts } from '../../lib/schema/types.generated.js';

type Status = NonNullable<TestCounts['cases']>[number]['status'];
const run = (cases: [string, Status][]): TestCounts => ({
  runner: 'pytest',
  passed: cases.filter(([, s]) => s === 'passed').length,
  failed: cases.filter(([, s]) => s === 'failed').length,
  skipped: 0,
  errors: 0,
  total: cases.length,
  cases: cases.map(([id, status]) => ({ id, status })),
});
const FILES = ['tests/test_held.py', 'spec/held.test.mjs'];

describe('namesHiddenFile', () => {
  it('takes pytest, node and bare ids of a hidden file, not a file whose name merely starts the same', () => {
    expect(namesHiddenFile('tests/test_held.py::test_a', FILES)).toBe(true);
    expect(namesHiddenFile('spec/held.test.mjs > suite > case', FILES)).toBe(true);
    expect(namesHiddenFile('tests/test_held.py', FILES)).toBe(true);
    expect(namesHiddenFile('tests/test_held.py2::test_a', FILES)).toBe(false);
    expect(namesHiddenFile('tests/test_held_more.py::test_a', FILES)).toBe(false);
    expect(namesHiddenFile('tests/test_units.py::test_a', FILES)).toBe(false);
  });
});

describe('hiddenStanding', () => {
  const base = run([
    ['tests/test_units.py::test_v', 'failed'],
    ['tests/test_held.py::test_target', 'failed'],
    ['tests/test_held.py::test_kept', 'passed'],
  ]);
  it('a hidden target fixed and nothing broken: resolved', () => {
    const now = run([
      ['tests/test_units.py::test_v', 'passed'],
      ['tests/test_held.py::test_target', 'passed'],
      ['tests/test_held.py::test_kept', 'passed'],
    ]);
    const h = hiddenStanding(hiddenPart(base, FILES), hiddenPart(now, FILES));
    expect(h).toEqual({
      total: 2,
      passed: 2,
      targets: 1,
      fixed: ['tests/test_held.py::test_target'],
      unfixed: [],
      broke: [],
      resolved: true,
    });
    expect(hiddenLine(h)).toBe('hidden tests: 2/2 pass; fixes 1 of 1 hidden target');
  });
  it('the visible target passing alone is not resolved; a hidden test that passed and fails is broken', () => {
    const now = run([
      ['tests/test_units.py::test_v', 'passed'],
      ['tests/test_held.py::test_target', 'failed'],
      ['tests/test_held.py::test_kept', 'failed'],
    ]);
    const h = hiddenStanding(hiddenPart(base, FILES), hiddenPart(now, FILES));
    expect(h.resolved).toBe(false);
    expect(h.unfixed).toEqual(['tests/test_held.py::test_target']);
    expect(h.broke).toEqual(['tests/test_held.py::test_kept']);
    expect(hiddenLine(h)).toBe(
      'hidden tests: 0/2 pass; fixes 0 of 1 hidden target; broke 1 hidden test that passed on the base',
    );
  });
  it('a hidden test gone from the run is broken; none ran at all is not resolved', () => {
    const gone = run([['tests/test_held.py::test_target', 'passed']]);
    expect(hiddenStanding(hiddenPart(base, FILES), hiddenPart(gone, FILES)).broke).toEqual([
      'tests/test_held.py::test_kept',
    ]);
    const none = hiddenStanding(hiddenPart(base, FILES), hiddenPart(run([]), FILES));
    expect(none.resolved).toBe(false);
    expect(hiddenLine(none)).toBe(
      'hidden tests: 0/0 pass (none ran); fixes 0 of 1 hidden target; broke 1 hidden test that passed on the base',
    );
  });
  it('without per-test results it cannot be told', () => {
    const counts = { ...base, cases: undefined };
    expect(hiddenPart(counts, FILES)).toBeNull();
    expect(hiddenStanding(null, null).resolved).toBeNull();
  });
});
