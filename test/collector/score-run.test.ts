// scoreRun: the measured run's scores, composite and speed reference, assembled from the pure formulas (no I/O).
import { resolveRun, taskTargets } from '../../lib/evidence/resolution.js';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config.js';
import { scoreRun, type RunMeasures } from '../../lib/collector/feedback-parts.js';
import type { Integrity } from '../../lib/collector/outcome.js';
import { REGRESSION_CAP } from '../../lib/collector/regressions.js';
import { compositeScore, scoreDiffSize, scoreSpeed, type Scores } from '../../lib/collector/scoring.js';
import type { Check, RunRecord, TestCounts } from '../../lib/schema/types.generated.js';

const config = loadConfig({ env: {}, cwd: tmpdir() });
const run = { started_at: '2026-01-01T00:00:00Z', completed_at: '2026-01-01T00:01:00Z' } as RunRecord; // 60 s
const integrity = (): Integrity => ({
  tests_not_run: false,
  exit_code_contradicts_counts: false,
  test_count_below_baseline: false,
  notes: [],
});
const counts = (cases: [string, string][]): TestCounts =>
  ({
    passed: cases.filter(([, s]) => s === 'passed').length,
    failed: cases.filter(([, s]) => s === 'failed').length,
    skipped: 0,
    errors: 0,
    total: cases.length,
    cases: cases.map(([id, status]) => ({ id, status })),
  }) as TestCounts;
const check = (tests: TestCounts): Check =>
  ({ status: tests.failed ? 'failed' : 'passed', exit_code: tests.failed ? 1 : 0, signal: null, tests }) as Check;
const build: Check = { status: 'passed', exit_code: 0, signal: null } as Check;

function measures(now: TestCounts, base: TestCounts, noOp: string | null = null, gaming: string[] = []): RunMeasures {
  return {
    checks: { build, test: check(now), lint: null, typecheck: null },
    baseline: { key: 'k', commit: 'c', build_passed: true, tests: base, lint: null },
    diff: {
      baseCommit: 'b',
      headCommit: 'h',
      mergeBase: 'b',
      tree: 't',
      files: [{ path: 'a.py', added: 10, removed: 2, binary: false, untracked: false }],
    },
    noOp,
    gaming,
    resolution: resolveRun(taskTargets({ testsRef: false, base }), base, now),
  };
}
const green = counts([
  ['t::a', 'passed'],
  ['t::b', 'passed'],
]);
const opts = (over: Partial<Parameters<typeof scoreRun>[3]> = {}) => ({
  fastest: null,
  config,
  outcome: 'full_pass' as const,
  ...over,
});

describe('scoreRun', () => {
  it('without a race peer, speed is scored against the time budget; with one, against the faster of the two', () => {
    const budget = config.collector.time_budget_seconds;
    expect(scoreRun(measures(green, green), integrity(), run, opts()).speed).toEqual({
      basis: 'budget',
      duration_seconds: 60,
      reference_seconds: budget,
    });
    const slower = scoreRun(measures(green, green), integrity(), run, opts({ fastest: 90 }));
    expect(slower.speed).toEqual({ basis: 'race', duration_seconds: 60, reference_seconds: 60 });
    const faster = scoreRun(measures(green, green), integrity(), run, opts({ fastest: 30 }));
    expect(faster.scores.speed! * 100).toBeCloseTo(scoreSpeed(60, 30)!, 4);
  });

  it('the composite is the weighted mean of the five dimensions', () => {
    const s = scoreRun(measures(green, green), integrity(), run, opts());
    const dims: Scores = {
      build: s.scores.build! * 100,
      tests: s.scores.tests! * 100,
      lint: null,
      diff_size: scoreDiffSize({ linesAdded: 10, linesRemoved: 2, filesChanged: 1 }),
      speed: s.scores.speed! * 100,
    };
    expect(s.composite! * 100).toBeCloseTo(compositeScore(dims, config.scoring.weights)!, 2);
  });

  it('a run that broke a test that passed on the base is capped', () => {
    const broke = counts([
      ['t::a', 'passed'],
      ['t::b', 'failed'],
    ]);
    const s = scoreRun(measures(broke, green), integrity(), run, opts({ outcome: 'partial_pass' }));
    expect(s.composite! * 100).toBeLessThanOrEqual(REGRESSION_CAP);
    expect(s.composite).toBeGreaterThan(0);
  });

  it('a run whose code games the graded tests scores tests 0 and is capped like a regression', () => {
    const clean = scoreRun(measures(green, green), integrity(), run, opts());
    const gamed = scoreRun(
      measures(green, green, null, ['special_case at a.py:3: holds "1h", the input of test t::a']),
      integrity(),
      run,
      opts({ outcome: 'agent_failure' }),
    );
    expect(gamed.scores.tests).toBe(0);
    expect(gamed.composite! * 100).toBeLessThanOrEqual(REGRESSION_CAP);
    expect(gamed.composite!).toBeLessThan(clean.composite!);
  });

  it('a no-op scores tests 0 and composite 0; an unmeasured run has no composite', () => {
    const noOp = scoreRun(
      measures(green, green, 'comments only'),
      integrity(),
      run,
      opts({ outcome: 'agent_failure' }),
    );
    expect(noOp.scores.tests).toBe(0);
    expect(noOp.composite).toBe(0);
    expect(scoreRun(measures(green, green), integrity(), run, opts({ outcome: 'unmeasured' })).composite).toBeNull();
  });
});
