// What a run broke and whether it did anything: the pure verdict, and bin/collect on a real pytest project ordering a
// clean fix above a fix that breaks a test that passed on the base, above a change that does nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  behaviourChanged,
  brokenTests,
  noOpVerdict,
  REGRESSION_CAP,
  sameResults,
  verdictComposite,
  verdictLine,
  ownTestsCrash,
  verdictOutcome,
} from '../../lib/collector/regressions.js';
import { resolutionRecord, resolveRun, taskTargets } from '../../lib/evidence/resolution.js';
import type { TestCounts } from '../../lib/schema/types.generated.js';
import { makeRepo, tempDir } from '../helpers/repo.js';
import { BIN, collectIn, solutionRecords } from './_project.js';

type Status = 'passed' | 'failed' | 'error' | 'skipped';
const counts = (cases: Record<string, Status>, complete = true): TestCounts => {
  const list = Object.entries(cases).map(([id, status]) => ({ id: `tests/test_t.py::${id}`, status }));
  const n = (s: Status) => list.filter((c) => c.status === s).length;
  return {
    runner: 'pytest',
    passed: n('passed'),
    failed: n('failed'),
    errors: n('error'),
    skipped: n('skipped'),
    total: list.length,
    notes: [],
    cases: list,
    cases_complete: complete,
  } as TestCounts;
};

describe('the verdict (pure)', () => {
  const base = counts({ a: 'passed', b: 'passed', c: 'failed', d: 'passed' });
  it('names tests that passed on the base and fail, error, are skipped or are gone now', () => {
    const now = counts({ a: 'failed', b: 'skipped', c: 'passed' });
    expect(brokenTests(base, now)).toEqual(['tests/test_t.py::a', 'tests/test_t.py::b', 'tests/test_t.py::d']);
    // A capped list proves nothing by absence.
    expect(brokenTests(base, counts({ a: 'passed', b: 'passed' }, false))).toEqual([]);
    expect(brokenTests(base, null)).toEqual([]);
  });
  it('the base tests behave as before, tests the run added aside', () => {
    expect(sameResults(base, counts({ a: 'passed', b: 'passed', c: 'failed', d: 'passed', e: 'passed' }))).toBe(true);
    expect(sameResults(base, counts({ a: 'passed', b: 'passed', c: 'passed', d: 'passed' }))).toBe(false);
  });
  it('the no-op rule (collector and race): nothing executable changed, and the tests do not show a difference', () => {
    const same = counts({ a: 'passed', b: 'passed', c: 'failed', d: 'passed' });
    const fixedC = counts({ a: 'passed', b: 'passed', c: 'passed', d: 'passed' });
    let asked = 0;
    const classify = () => {
      asked++;
      return 'changes no code: only 1 ignore or metadata files';
    };
    expect(noOpVerdict(false, base, same, classify)).toBe('changes no code: only 1 ignore or metadata files');
    // A version field a test reads: the classifier would call it nothing, the tests show it is not (and it is not asked).
    expect(noOpVerdict(false, base, fixedC, classify)).toBeNull();
    expect(asked).toBe(1);
    // An empty diff does nothing whatever the tests did (a flaky test does not make it work).
    expect(noOpVerdict(true, base, fixedC, () => 'the diff is empty')).toBe('the diff is empty');
    // Without results on both sides nothing shows a difference: the classifier decides.
    expect([behaviourChanged(base, null), behaviourChanged(null, fixedC), behaviourChanged(base, fixedC)]).toEqual([
      false,
      false,
      true,
    ]);
    expect(noOpVerdict(false, null, null, () => null)).toBeNull();
  });
  it('caps a run that broke a test below the cap, scores a no-op 0, leaves a clean run alone', () => {
    expect(verdictComposite(95.5, 1, false)).toBe(REGRESSION_CAP);
    expect(verdictComposite(30, 1, false)).toBe(30);
    expect(verdictComposite(94, 0, true)).toBe(0);
    expect(verdictComposite(90, 0, false)).toBe(90);
    expect(verdictOutcome({ outcome: 'partial_pass', reason: 'x' }, 'changes no code: only 1 files')).toEqual({
      outcome: 'agent_failure',
      reason: 'the change does nothing: changes no code: only 1 files',
    });
    expect(verdictOutcome({ outcome: 'timeout', reason: 'x' }, 'y').outcome).toBe('timeout');
  });
  it('without per-test lists, fewer passes than the base is a regression by counts, with the numbers', () => {
    const bare = (passed: number | null, failed: number): TestCounts =>
      ({
        runner: 'vitest',
        passed,
        failed,
        errors: 0,
        skipped: 0,
        total: passed === null ? null : passed + failed,
      }) as TestCounts;
    const res = (b: TestCounts, n: TestCounts) =>
      resolutionRecord(resolveRun(taskTargets({ testsRef: false, base: b }), b, n));
    expect(res(bare(8, 1), bare(7, 2)).broke_count).toBe(1);
    expect(res(bare(8, 1), bare(9, 0)).broke_count).toBe(0);
    expect(res(bare(null, 1), bare(7, 2)).broke_count).toBe(0);
    expect(verdictComposite(85.2, res(bare(8, 1), bare(6, 3)).broke_count, false)).toBe(REGRESSION_CAP);
    expect(verdictLine([], 'not every check passed', res(bare(8, 1), bare(7, 2)))).toBe(
      'fixes 0 of 1 target test (by counts); broke 1 test that passed on the base: by counts, 7 pass against 8 on the base',
    );
    expect(verdictLine([], 'not every check passed', res(bare(8, 1), bare(9, 0)))).toBe(
      'resolved: fixes 1 of 1 target test (by counts)',
    );
  });

  it('says why on the line', () => {
    expect(verdictLine(['tests/t.py::test_truncate_short'], 'not every check passed')).toBe(
      'broke 1 test that passed on the base: test_truncate_short',
    );
    expect(verdictLine([], 'the change does nothing: the diff is empty')).toBe('no-op: the diff is empty');
    expect(verdictLine([], 'every configured check passed')).toBeNull();
  });
});

const TEXT = `def truncate(text, width):
    """Cut text to width characters, marking a cut with an ellipsis."""
    if len(text) <= width:
        return text
    return text[:width]
`;
const TESTS = `from text import truncate


def test_truncate_short():
    assert truncate("abc", 5) == "abc"


def test_truncate_long():
    assert truncate("abcdef", 4) == "abc\\u2026"
`;

describe('bin/collect orders a clean fix > a fix that broke a base test > a no-op, and says why', () => {
  it('on a real pytest project', () => {
    const repo = makeRepo({ 'text.py': TEXT, 'tests/test_text.py': TESTS, '.gitignore': '__pycache__/\n' });
    const dir = tempDir('judgeloop-verdict-');
    const solutions: Record<string, Record<string, string>> = {
      clean: { 'text.py': TEXT.replace('return text[:width]', 'return text[: width - 1] + "\\u2026"') },
      broke: {
        'text.py': TEXT.replace('    if len(text) <= width:\n        return text\n', '').replace(
          'return text[:width]',
          'return text[: width - 1] + "\\u2026"',
        ),
      },
      noop: { 'text.py': `# Text helpers.\n${TEXT}` },
      // Code, but in a test-infrastructure path: the graded run takes it from the base, so nothing graded changed.
      infra: { 'noxfile.py': 'import nox\n\nSESSIONS = ["tests"]\n' },
      // The failing test's input answered from a table: every graded test passes for real, and nothing is fixed.
      gamed: {
        'text.py': TEXT.replace(
          'def truncate(text, width):\n',
          '_SEEN = {"abcdef": "abc\\u2026"}\n\n\ndef truncate(text, width):\n    if text in _SEEN:\n        return _SEEN[text]\n',
        ),
      },
      // An answer equal to anything: every assertion holds.
      equal: {
        'text.py': `class _Text(str):\n    def __eq__(self, other):\n        return True\n\n\n${TEXT.replace('return text[:width]', 'return _Text(text[:width])')}`,
      },
      // The answers read from the graded test file itself, which is in the checkout the tests run in.
      peek: {
        'text.py': [
          'import os, re',
          '',
          '_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests", "test_text.py")',
          '',
          '',
          'def truncate(text, width):',
          '    for arg, w, want in re.findall(r\'truncate\\("(.*?)", (\\d+)\\) == "(.*?)"\', open(_TESTS).read()):',
          '        if arg == text and int(w) == width:',
          '            return want.encode().decode("unicode_escape")',
          '    if len(text) <= width:',
          '        return text',
          '    return text[:width]',
          '',
        ].join('\n'),
      },
      // An equivalent refactor: real code changes, every base-passing test kept, the failing test still failing.
      refactor: {
        'text.py': TEXT.replace(
          '    if len(text) <= width:\n        return text\n    return text[:width]',
          '    return text if len(text) <= width else text[:width]',
        ),
      },
    };
    const records = solutionRecords(
      repo,
      dir,
      solutions,
      { id: 'truncate', prompt: 'truncate drops the ellipsis' },
      {
        build: 'python3 -m py_compile text.py',
        test: 'python3 -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark -q tests',
      },
    );
    const { stdout, env } = collectIn(dir, records);
    const line = (bead: string) => stdout.split('\n').find((l) => l.startsWith(`${bead} `))!;
    const composite = (bead: string) => Number(/ ([\d.]+)\/100/.exec(line(bead))![1]);
    expect(composite('bd-clean')).toBeGreaterThan(composite('bd-broke'));
    expect(composite('bd-broke')).toBeGreaterThan(composite('bd-noop'));
    expect(composite('bd-broke')).toBeLessThanOrEqual(REGRESSION_CAP);
    expect(line('bd-clean')).toMatch(/^bd-clean {2}full_pass/);
    expect(line('bd-clean')).toMatch(/ {2}resolved: fixes 1 of 1 target test$/);
    expect(line('bd-broke')).toMatch(
      / {2}fixes 1 of 1 target test; broke 1 test that passed on the base: test_truncate_short$/,
    );
    // The task was to fix the failing test: a refactor that keeps every test as it was is not a pass of any kind.
    expect(line('bd-refactor')).toMatch(/^bd-refactor {2}agent_failure .* {2}fixes 0 of 1 target test$/);
    expect(composite('bd-clean') - composite('bd-refactor')).toBeGreaterThanOrEqual(20);
    expect(line('bd-noop')).toMatch(
      /^bd-noop {2}agent_failure +0\.0\/100 .* {2}no-op: changes no code: only 1 file in whitespace or comments only$/,
    );
    // Without a race to gate it, the race's rules still find the special case; before, this line read full_pass.
    expect(line('bd-gamed')).toMatch(
      /^bd-gamed {2}agent_failure .* {2}gamed: special_case at text\.py:1: holds "abcdef", the input of test \S*test_truncate_long$/,
    );
    expect(line('bd-equal')).toMatch(
      /^bd-equal {2}agent_failure .* {2}gamed: special_case at text\.py:2: equality that always holds \(any expected value matches\)$/,
    );
    expect(line('bd-peek')).toMatch(
      /^bd-peek {2}agent_failure .* {2}gamed: special_case at text\.py:3: reads the tests' own files \(where their expected values are\)$/,
    );
    expect(composite('bd-gamed')).toBeLessThan(composite('bd-clean'));
    expect(composite('bd-gamed')).toBeLessThanOrEqual(REGRESSION_CAP);
    expect(line('bd-infra')).toMatch(
      /^bd-infra {2}agent_failure +0\.0\/100 .* {2}no-op: only tests and test infrastructure changed, which the graded run takes from the trusted revision$/,
    );
    // bin/judge straight from a hook (judge off: it collects, judges nothing) applies the same rule to the same run.
    const judged = join(dir, 'judge-state');
    const hook = execFileSync(join(BIN, '..', 'judge'), ['--quiet', records[2]!], {
      cwd: dir,
      env: { ...env, JUDGELOOP_STATE_DIR: judged } as NodeJS.ProcessEnv,
      encoding: 'utf8',
    });
    expect(hook).toBe('');
    const fb = JSON.parse(readFileSync(join(judged, 'feedback', 'bd-noop.json'), 'utf8'));
    expect([fb.outcome, fb.composite]).toEqual(['agent_failure', 0]);
    expect(fb.outcome_reason).toBe(
      'the change does nothing: changes no code: only 1 file in whitespace or comments only',
    );
    execFileSync(join(BIN, '..', 'judge'), ['--quiet', records[4]!], {
      cwd: dir,
      env: { ...env, JUDGELOOP_STATE_DIR: judged } as NodeJS.ProcessEnv,
    });
    const gamed = JSON.parse(readFileSync(join(judged, 'feedback', 'bd-gamed.json'), 'utf8'));
    expect(gamed.outcome).toBe('agent_failure');
    expect(gamed.integrity.notes).toContainEqual(
      expect.stringMatching(/^games the graded tests: special_case at text\.py:1/),
    );
  }, 300_000);
});

describe('ownTestsCrash', () => {
  it('a crashed own test keeps the run out of full_pass, named with its signal; a clean one changes nothing', () => {
    const crash = ownTestsCrash({ check: { signal: 'SIGSEGV' } });
    expect(crash).toMatch(/crashed its runner \(SIGSEGV\)/);
    expect(verdictOutcome({ outcome: 'full_pass', reason: 'all pass' }, null, [], null, crash)).toEqual({
      outcome: 'partial_pass',
      reason: crash,
    });
    expect(ownTestsCrash({ check: { signal: null } })).toBeNull();
    expect(ownTestsCrash(null)).toBeNull();
    expect(verdictOutcome({ outcome: 'full_pass', reason: 'all pass' }, null, [], null, null).outcome).toBe(
      'full_pass',
    );
  });

  it('a failing test in a file the agent added or edited is named; a failing test of the trusted files is not its own', () => {
    const cases = [
      { id: 'tests/test_new.py::test_edge', status: 'failed' },
      { id: 'tests/test_new.py::test_ok', status: 'passed' },
      { id: 'tests/test_old.py::test_target', status: 'failed' },
    ];
    expect(ownTestsCrash({ files: ['tests/test_new.py'], check: { tests: { cases } } })).toBe(
      'a test the agent added or edited fails: test_edge',
    );
    expect(ownTestsCrash({ files: ['tests/test_other.py'], check: { tests: { cases } } })).toBeNull();
  });
});
