// The seed documents' own examples and rules, through the race's pure functions.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config.js';
import { shouldAutoAccept, type AutoAcceptConfig } from '../../lib/race/auto-accept.js';
import { assembleCategory, DEFAULT_CATEGORY_WEIGHTS, measured, overallScore } from '../../lib/race/categories.js';
import { seed000Composite } from '../../lib/race/collector-adapter.js';
import { applyAdjustments, learnAdjustments } from '../../lib/race/learning.js';
import {
  allAgentsFailed,
  categoryConsistency,
  rankingConfidence,
  rankSolutions,
  type Rankable,
} from '../../lib/race/rank.js';
import { inverseScore, ratioToScore } from '../../lib/race/rubric.js';
import type { RaceCategory, RaceChoice } from '../../lib/schema/types.generated.js';

const W000 = { build: 30, tests: 30, lint: 15, diff_size: 15, speed: 10 };
const cats = (
  c: number | null,
  q: number | null,
  e: number | null,
  m: number | null,
  s: number | null,
): Record<RaceCategory, number | null> => ({ correctness: c, quality: q, efficiency: e, completeness: m, safety: s });

describe("seed 000's worked example", () => {
  const agents = {
    'Claude Code': { build: 100, tests: 95, lint: 90, diff_size: 75, speed: 80 },
    'Codex CLI': { build: 100, tests: 80, lint: 100, diff_size: 95, speed: 100 },
    'Cursor CLI': { build: 0, tests: 0, lint: 0, diff_size: 60, speed: 70 },
  };
  const composite = Object.fromEntries(Object.entries(agents).map(([k, v]) => [k, seed000Composite(v, W000)]));

  it('gives 91.25 / 93.25 / 16.0 (the document prints 91.0 and 93.3)', () => {
    expect(composite).toEqual({ 'Claude Code': 91.25, 'Codex CLI': 93.25, 'Cursor CLI': 16 });
  });

  it('ranks Codex CLI first through the race ranking (rank_by composite)', () => {
    // Categories from the same measurements: correctness = build/tests/lint, quality = diff size, efficiency = speed.
    const items: Rankable[] = Object.entries(agents).map(([id, v]) => ({
      id,
      score: composite[id]! / 100,
      confidence: 1,
      categories: cats(
        assembleCategory([
          measured('build', v.build / 100, ''),
          measured('tests_pass', v.tests / 100, ''),
          measured('lint_clean', v.lint / 100, ''),
        ]).overall,
        v.diff_size / 100,
        v.speed / 100,
        null,
        null,
      ),
      mergeable: true,
      resolved: null,
      target: null,
      hash: id,
    }));
    const { ranking } = rankSolutions(
      items,
      allAgentsFailed(
        Object.values(composite).map((c) => c! / 100),
        30,
      ),
    );
    expect(ranking.order).toEqual(['Codex CLI', 'Claude Code', 'Cursor CLI']);
    expect(ranking.all_failed).toBe(false);
    // Seed 001's confidence rule on seed 000's example: gap 0.02 → 0.2×0.4, consistency 2/5 (quality, efficiency) ×0.3,
    // evaluation confidence 1 ×0.3 = 0.50 < 0.6: seed 001 withholds the winner seed 000 names.
    expect(ranking.factors.gap).toBeCloseTo(0.02, 10);
    expect(ranking.confidence).toBeCloseTo(0.08 + 0.3 + 0.12, 10);
    expect(ranking.winner).toBeNull();
  });

  it('says "all agents failed" below fail_maximum 30, and not at it', () => {
    expect(allAgentsFailed([0.16, 0.29], 30)).toBe(true);
    expect(allAgentsFailed([0.16, 0.3], 30)).toBe(false);
    expect(allAgentsFailed([null, 0.1], 30)).toBe(true);
    expect(allAgentsFailed([], 30)).toBe(false);
  });
});

describe("seed 001's ranking confidence", () => {
  const r = (id: string, score: number, confidence: number, c: Record<RaceCategory, number | null>): Rankable => ({
    id,
    score,
    confidence,
    categories: c,
    mergeable: true,
    resolved: null,
    target: null,
    hash: id,
  });

  it('is 0 for none and 1 for a single solution', () => {
    expect(rankingConfidence([]).confidence).toBe(0);
    expect(rankingConfidence([r('a', 0.3, 0.2, cats(0.1, 0.1, 0.1, 0.1, 0.1))]).confidence).toBe(1);
  });

  it('is gap/0.1 (capped) ×0.4 + mean evaluation confidence ×0.3 + consistency ×0.3', () => {
    const a = r('a', 0.9, 0.8, cats(0.9, 0.8, 0.7, 0.9, 1));
    const b = r('b', 0.85, 0.6, cats(0.8, 0.7, 0.8, 0.8, 1));
    // gap .05 → .5; mean .7; a beats b in 3 of 5 (safety tied, efficiency lost).
    expect(rankingConfidence([a, b]).confidence).toBeCloseTo(0.5 * 0.4 + 0.7 * 0.3 + 0.6 * 0.3, 12);
    const far = r('a', 1, 0.8, a.categories);
    expect(rankingConfidence([far, b]).factors.gap_confidence).toBe(1);
  });

  it('counts a category as a win only when strictly higher and measured for both', () => {
    expect(
      categoryConsistency(r('a', 1, 1, cats(1, 1, null, 0.5, 1)), r('b', 0, 1, cats(0.5, 1, 0.1, null, 0.9))),
    ).toBe(2 / 5);
  });

  it('names a winner only at confidence ≥ 0.6', () => {
    const a = r('a', 0.9, 1, cats(1, 1, 1, 1, 1));
    const at = rankSolutions([a, r('b', 0.9 - 0.0125, 1, cats(0.5, 0.5, 0.5, 0.5, 1))], false); // .05+.3+.24 = .59
    expect(at.ranking.confidence).toBeCloseTo(0.59, 12);
    expect(at.ranking.winner).toBeNull();
    const above = rankSolutions([a, r('b', 0.9 - 0.0125, 1, cats(0.5, 0.5, 0.5, 0.5, 0.5))], false); // .05+.3+.3 = .65
    expect(above.ranking.winner).toBe('a');
    expect(rankSolutions([a], true).ranking.winner).toBeNull();
  });

  it("seed 001's presentation table does not add up under its own weights", () => {
    const overall = (c: number, q: number, e: number, m: number, s: number) =>
      overallScore(
        {
          correctness: { overall: c },
          quality: { overall: q },
          efficiency: { overall: e },
          completeness: { overall: m },
          safety: { overall: s },
        },
        DEFAULT_CATEGORY_WEIGHTS,
      )!;
    const it1 = overall(0.85, 0.75, 0.7, 0.9, 1);
    const it2 = overall(0.95, 0.82, 0.75, 0.95, 1);
    const it3 = overall(0.8, 0.78, 0.8, 0.85, 1);
    expect(it1).toBeCloseTo(0.8225, 12); // printed 0.82: consistent
    expect(it2).toBeCloseTo(0.8925, 12); // printed 0.87: a slip
    expect(it3).toBeCloseTo(0.82, 12); // printed 0.81: a slip
    // "Confidence: 92%" cannot come from its formula: gap .07 and 4 of 5 categories give at most .28 + .3 + .24 = .82.
    const best = rankingConfidence([
      r('2', it2, 1, cats(0.95, 0.82, 0.75, 0.95, 1)),
      r('1', it1, 1, cats(0.85, 0.75, 0.7, 0.9, 1)),
      r('3', it3, 1, cats(0.8, 0.78, 0.8, 0.85, 1)),
    ]);
    expect(best.confidence).toBeCloseTo(0.82, 12);
  });
});

describe("seed 001's auto-acceptance", () => {
  const defaults: AutoAcceptConfig = loadConfig({ env: {} }).race!.auto_accept;
  const on = { ...defaults, enabled: true };
  const good = { id: 'w', score: 0.9, confidence: 0.9, categories: cats(0.95, 0.8, 0.7, 0.9, 1), composite: 0.9 };
  const input = (w: typeof good | null, second: number | null = 0.7, n = 2) => ({
    winner: w,
    secondScore: second,
    solutionCount: n,
  });

  it('has the documented defaults, disabled', () => {
    expect(defaults).toEqual({
      enabled: false,
      min_score: 0.85,
      min_confidence: 0.8,
      category_minimums: { correctness: 0.9, quality: 0.7, efficiency: 0.6, completeness: 0.8, safety: 0.95 },
      min_score_gap: 0.1,
    });
    expect(shouldAutoAccept(input(good), defaults, 85)).toMatchObject({
      accept: false,
      reason: 'Auto-acceptance disabled',
    });
  });

  it('checks winner, score, confidence, floors, gap in that order, each with its reason', () => {
    expect(shouldAutoAccept(input(null), on, 85).reason).toBe('No clear winner');
    expect(shouldAutoAccept(input({ ...good, score: 0.84, confidence: 0.1 }), on, 85).reason).toBe(
      'Score 0.84 below threshold 0.85',
    );
    expect(shouldAutoAccept(input({ ...good, score: 0.85 }), on, 85).accept).toBe(true);
    expect(shouldAutoAccept(input({ ...good, confidence: 0.79 }), on, 85).reason).toBe(
      'Confidence 0.79 below threshold 0.8',
    );
    expect(shouldAutoAccept(input({ ...good, categories: cats(0.89, 0, 0, 0, 0) }), on, 85).reason).toBe(
      'correctness score 0.89 below minimum 0.9',
    );
    expect(shouldAutoAccept(input({ ...good, categories: cats(0.95, 0.8, 0.7, 0.9, 0.94) }), on, 85).reason).toBe(
      'safety score 0.94 below minimum 0.95',
    );
    expect(shouldAutoAccept(input({ ...good, categories: cats(0.95, 0.8, null, 0.9, 1) }), on, 85).reason).toBe(
      'efficiency could not be measured (minimum 0.6)',
    );
    expect(shouldAutoAccept(input(good, 0.81), on, 85).reason).toBe('Score gap 0.09 below minimum 0.1');
    expect(shouldAutoAccept(input(good, null, 1), on, 85)).toEqual({
      enabled: true,
      accept: true,
      reason: 'All criteria met',
      solution: 'w',
    });
  });

  it("adds seed 000's auto_merge_minimum on the composite (strictly above)", () => {
    expect(shouldAutoAccept(input({ ...good, composite: 0.85 }), on, 85).reason).toBe(
      'Composite 85.0 not above auto_merge_minimum 85',
    );
    expect(shouldAutoAccept(input({ ...good, composite: 0.851 }), on, 85).accept).toBe(true);
  });
});

describe('rubrics and learning', () => {
  it("seed 001's rubrics", () => {
    expect(ratioToScore(3, 4)).toBe(0.75);
    expect(ratioToScore(5, 4)).toBe(1);
    expect(inverseScore(10, 10, 20)).toBe(1);
    expect(inverseScore(15, 10, 20)).toBe(0.5);
    expect(inverseScore(25, 10, 20)).toBe(0);
  });

  it('absent criteria are re-normalised away, never scored', () => {
    const c = assembleCategory([
      measured('a', 1, ''),
      { name: 'b', reason: 'unmeasured', detail: 'x', absent: true },
      { name: 'n', reason: 'not_applicable', detail: 'y', absent: true },
    ]);
    expect(c.overall).toBe(1);
    expect(c.coverage).toBe(0.5);
    expect(
      overallScore(
        {
          correctness: { overall: 1 },
          quality: { overall: null },
          efficiency: { overall: 0.5 },
          completeness: { overall: null },
          safety: { overall: null },
        },
        DEFAULT_CATEGORY_WEIGHTS,
      ),
    ).toBeCloseTo((0.4 + 0.075) / 0.55, 12);
  });

  const choice = (
    chosen: Partial<Record<RaceCategory, number>>,
    rec: Partial<Record<RaceCategory, number>>,
    over: Partial<RaceChoice> = {},
  ): RaceChoice => ({
    schema_version: '1.0.0',
    ranking_id: 'r',
    user_choice: 'chose_other',
    recommended_solution_id: 'a',
    chosen_solution_id: 'b',
    timestamp: '2026-01-01T00:00:00Z',
    categories: {
      chosen: { ...cats(0.5, 0.5, 0.5, 0.5, 0.5), ...chosen },
      recommended: { ...cats(0.5, 0.5, 0.5, 0.5, 0.5), ...rec },
    },
    ...over,
  });

  it('moves weights towards what overriding choices preferred, bounded, and ignores accepted winners', () => {
    const opts = { rate: 0.02, maxAdjustment: 0.1 };
    const one = learnAdjustments([choice({ quality: 0.9 }, { quality: 0.6, efficiency: 0.9 })], opts);
    expect(one.basedOn).toBe(1);
    expect(one.adjustments).toEqual({ correctness: 0, quality: 0.02, efficiency: -0.02, completeness: 0, safety: 0 });
    const many = learnAdjustments(Array(20).fill(choice({ quality: 0.9 }, { quality: 0.6 })), opts);
    expect(many.adjustments.quality).toBe(0.1);
    const accepted = learnAdjustments(
      [choice({ quality: 0.9 }, {}, { user_choice: 'accepted_winner', chosen_solution_id: 'a' })],
      opts,
    );
    expect(accepted.basedOn).toBe(0);
    const w = applyAdjustments(DEFAULT_CATEGORY_WEIGHTS, many.adjustments, 0.05);
    expect(Object.values(w).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(w.quality).toBeCloseTo(0.35 / 1.1, 12);
  });
});
