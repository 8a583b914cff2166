import { describe, expect, it } from 'vitest';
import { UNRESOLVED_CAP, verdictComposite } from '../../lib/collector/regressions.js';
import {
  scoreTestsResolved,
  churnScore,
  compositeScore,
  fileScore,
  normaliseWeights,
  scoreBuild,
  scoreDiffSize,
  scoreLint,
  scoreSpeed,
  scoreTests,
  scoreTestsByExitCode,
  tallyTests,
  type Scores,
  type Weights,
} from '../../lib/collector/scoring.js';

const W: Weights = { build: 30, tests: 30, lint: 15, diff_size: 15, speed: 10 };

describe("seed 000's worked example", () => {
  // The table's dimension scores, used as given (several of them do not follow from the formulas: see docs/notes/collector.md).
  const claude: Scores = { build: 100, tests: 95, lint: 90, diff_size: 75, speed: 80 };
  const codex: Scores = { build: 100, tests: 80, lint: 100, diff_size: 95, speed: 100 };
  const cursor: Scores = { build: 0, tests: 0, lint: 0, diff_size: 60, speed: 70 };

  it('Claude Code is 91.25 (the document prints 91.0: 9125/100 is 91.25)', () => {
    expect(compositeScore(claude, W)).toBe(91.25);
  });
  it('Codex CLI is 93.25 (the document rounds to 93.3)', () => {
    expect(compositeScore(codex, W)).toBe(93.25);
  });
  it('Cursor CLI is 16.0 (build failed: tests and lint 0, not null)', () => {
    expect(compositeScore(cursor, W)).toBe(16);
  });
  it('ranks Codex first', () => {
    const ranked = [
      ['claude', claude],
      ['codex', codex],
      ['cursor', cursor],
    ].sort((a, b) => compositeScore(b[1] as Scores, W)! - compositeScore(a[1] as Scores, W)!);
    expect(ranked.map((r) => r[0])).toEqual(['codex', 'claude', 'cursor']);
  });
  it('speed column: 36 s fastest → 100, 45 s → 80, 51 s → 70.59 (the table truncates it to 70)', () => {
    expect(scoreSpeed(36, 36)).toBe(100);
    expect(scoreSpeed(45, 36)).toBe(80);
    expect(scoreSpeed(51, 36)).toBeCloseTo(70.588, 3);
  });
  it("the table's tests and lint cells do not follow from the formulas (slips)", () => {
    // "95 (1 new test, all pass)": all pass gives 100 + bonus, clamped to 100.
    expect(scoreTests({ passed: 20, total: 20 }, { passed: 19, total: 19 })).toBe(100);
    // "80 (all pass, no new)": all pass with no new test is 100.
    expect(scoreTests({ passed: 19, total: 19 }, { passed: 19, total: 19 })).toBe(100);
    // "90 (2 new warnings)": 100 − 2×2 = 96.
    expect(scoreLint({ errors: 0, warnings: 2 }, { errors: 0, warnings: 0 })).toBe(96);
  });
});

describe('scoreBuild', () => {
  it('is 100 on success and 0 otherwise', () => {
    expect(scoreBuild(true)).toBe(100);
    expect(scoreBuild(false)).toBe(0);
  });
});

describe('scoreTests', () => {
  it('is the pass rate when nothing changed', () => {
    expect(scoreTests({ passed: 8, total: 10 }, { passed: 8, total: 10 })).toBe(80);
  });
  it('adds the new-test bonus (new/total × 10)', () => {
    // 9/10 pass = 90, 2 new tests of 10 → +2
    expect(scoreTests({ passed: 9, total: 10 }, { passed: 8, total: 8 })).toBe(92);
  });
  it('subtracts the regression penalty ((base − agent)/base × 50)', () => {
    // 5/10 = 50; 10 passed before, 5 now → −25
    expect(scoreTests({ passed: 5, total: 10 }, { passed: 10, total: 10 })).toBe(25);
  });
  it('clamps to 0 and 100', () => {
    expect(scoreTests({ passed: 1, total: 10 }, { passed: 10, total: 10 })).toBe(0); // 10 − 45
    expect(scoreTests({ passed: 20, total: 20 }, { passed: 10, total: 10 })).toBe(100); // 100 + 5
  });
  it('without a baseline: pass rate only', () => {
    expect(scoreTests({ passed: 3, total: 4 }, null)).toBe(75);
  });
  it('zero tests: 0 (no evidence), with or without baseline', () => {
    expect(scoreTests({ passed: 0, total: 0 }, null)).toBe(0);
    expect(scoreTests({ passed: 0, total: 0 }, { passed: 0, total: 0 })).toBe(0);
    expect(scoreTests({ passed: 0, total: 0 }, { passed: 5, total: 5 })).toBe(0);
  });
  it('baseline with 0 passes: no division by zero, no penalty', () => {
    expect(scoreTests({ passed: 2, total: 4 }, { passed: 0, total: 4 })).toBe(50);
    expect(scoreTests({ passed: 0, total: 4 }, { passed: 0, total: 4 })).toBe(0);
  });
  it('falls back to the exit code when counts are unknown', () => {
    expect(scoreTestsByExitCode(0)).toBe(100);
    expect(scoreTestsByExitCode(1)).toBe(0);
    expect(scoreTestsByExitCode(null)).toBe(0);
  });
});

describe('tallyTests', () => {
  it('uses the runner total and counts load errors as tests that did not pass', () => {
    expect(tallyTests({ passed: 5, failed: 0, skipped: 1, errors: 1, total: 6 })).toEqual({ passed: 5, total: 7 });
  });
  it('counts xfailed/xpassed as passed, never above the total', () => {
    expect(tallyTests({ passed: 3, failed: 0, skipped: 0, errors: 0, total: 5, xfailed: 1, xpassed: 1 })).toEqual({
      passed: 5,
      total: 5,
    });
    expect(tallyTests({ passed: 3, failed: 0, skipped: 0, errors: 0, total: 3, xfailed: 2 })).toEqual({
      passed: 3,
      total: 3,
    });
  });
  it('is null when the passes are unknown; sums the parts when the total is', () => {
    expect(tallyTests({ passed: null, failed: 1, skipped: 0, errors: 0, total: null })).toBeNull();
    expect(tallyTests({ passed: 4, failed: 1, skipped: 2, errors: 0, total: null })).toEqual({ passed: 4, total: 7 });
  });
});

describe('scoreLint', () => {
  it('penalises new errors ×10 and new warnings ×2', () => {
    expect(scoreLint({ errors: 3, warnings: 5 }, { errors: 1, warnings: 2 })).toBe(100 - 20 - 6);
  });
  it('rewards resolved issues ×1', () => {
    expect(scoreLint({ errors: 0, warnings: 0 }, { errors: 2, warnings: 3 })).toBe(100); // clamped 105
    expect(scoreLint({ errors: 3, warnings: 0 }, { errors: 1, warnings: 5 })).toBe(100 - 20 + 3);
  });
  it('clamps at 0', () => {
    expect(scoreLint({ errors: 11, warnings: 0 }, { errors: 0, warnings: 0 })).toBe(0);
  });
  it('without a baseline compares with a clean base', () => {
    expect(scoreLint({ errors: 1, warnings: 1 }, null)).toBe(88);
  });
});

describe('diff size', () => {
  it('churn breakpoints: 100 → 100, 300 → 80, 500 → 60, 1500 → 20, floor 20', () => {
    expect(churnScore(0)).toBe(100);
    expect(churnScore(100)).toBe(100);
    expect(churnScore(101)).toBeCloseTo(99.9, 10);
    expect(churnScore(300)).toBe(80);
    expect(churnScore(500)).toBe(60);
    expect(churnScore(501)).toBeCloseTo(59.96, 10);
    expect(churnScore(1000)).toBe(40);
    expect(churnScore(1500)).toBe(20);
    expect(churnScore(100_000)).toBe(20);
  });
  it('file breakpoints: 5 → 100, 10 → 85, 15 → 70, 35 → 30, floor 30', () => {
    expect(fileScore(0)).toBe(100);
    expect(fileScore(5)).toBe(100);
    expect(fileScore(6)).toBe(97);
    expect(fileScore(10)).toBe(85);
    expect(fileScore(15)).toBe(70);
    expect(fileScore(16)).toBe(68);
    expect(fileScore(35)).toBe(30);
    expect(fileScore(500)).toBe(30);
  });
  it('combines 0.6 churn + 0.4 files', () => {
    expect(scoreDiffSize({ linesAdded: 10, linesRemoved: 5, filesChanged: 2 })).toBe(100);
    expect(scoreDiffSize({ linesAdded: 200, linesRemoved: 100, filesChanged: 10 })).toBeCloseTo(
      80 * 0.6 + 85 * 0.4,
      10,
    );
    expect(scoreDiffSize({ linesAdded: 5000, linesRemoved: 0, filesChanged: 100 })).toBeCloseTo(
      20 * 0.6 + 30 * 0.4,
      10,
    );
  });
});

describe('scoreSpeed', () => {
  it('twice as slow as the fastest → 50', () => {
    expect(scoreSpeed(72, 36)).toBe(50);
  });
  it('against a budget: within it 100, double it 50', () => {
    expect(scoreSpeed(300, 600)).toBe(100);
    expect(scoreSpeed(1200, 600)).toBe(50);
  });
  it('zero duration → 100', () => {
    expect(scoreSpeed(0, 36)).toBe(100);
  });
});

describe('weights re-normalised over the dimensions present', () => {
  it("seed 000's example: no test command → 30/15/15/10 over 70", () => {
    const scores: Scores = { build: 100, tests: null, lint: 80, diff_size: 90, speed: 50 };
    const w = normaliseWeights(W, scores);
    expect(w).toEqual({ build: 30 / 70, lint: 15 / 70, diff_size: 15 / 70, speed: 10 / 70 });
    expect(compositeScore(scores, W)).toBeCloseTo((100 * 30 + 80 * 15 + 90 * 15 + 50 * 10) / 70, 10);
  });
  it('all weights but one missing: the composite is that dimension', () => {
    const scores: Scores = { build: null, tests: null, lint: null, diff_size: 72.5, speed: null };
    expect(normaliseWeights(W, scores)).toEqual({ diff_size: 1 });
    expect(compositeScore(scores, W)).toBe(72.5);
  });
  it('nothing present (or only zero weights): composite null, no weights', () => {
    const none: Scores = { build: null, tests: null, lint: null, diff_size: null, speed: null };
    expect(compositeScore(none, W)).toBeNull();
    expect(normaliseWeights(W, none)).toEqual({});
    expect(compositeScore({ ...none, speed: 100 }, { ...W, speed: 0 })).toBeNull();
  });
  it('a score of 0 is present, not missing', () => {
    expect(compositeScore({ build: 0, tests: null, lint: null, diff_size: 100, speed: null }, W)).toBeCloseTo(
      (100 * 15) / 45,
      10,
    );
  });
});

describe('scoreTestsResolved (issue 34: the fix, not the pass rate)', () => {
  it('is 100 × targets fixed × base-passing tests kept', () => {
    expect(scoreTestsResolved({ fixed: 1, targets: 1, broke: 0, basePassing: 8 })).toBe(100);
    expect(scoreTestsResolved({ fixed: 0, targets: 1, broke: 0, basePassing: 8 })).toBe(0);
    expect(scoreTestsResolved({ fixed: 1, targets: 2, broke: 2, basePassing: 8 })).toBe(37.5);
    expect(scoreTestsResolved({ fixed: 1, targets: 1, broke: 1, basePassing: 0 })).toBe(0);
    expect(scoreTestsResolved({ fixed: 1, targets: 1, broke: 0, basePassing: null })).toBe(100);
  });
  it('caps a run that fixes nothing at 40, below the regression cap', () => {
    expect(verdictComposite(70, 0, false, false, true)).toBe(UNRESOLVED_CAP);
    expect(verdictComposite(70, 2, false, false, true)).toBe(UNRESOLVED_CAP);
    expect(verdictComposite(70, 2, false, false, false)).toBe(45);
    expect(verdictComposite(30, 0, false, false, true)).toBe(30);
  });
});
