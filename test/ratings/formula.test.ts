import { describe, expect, it } from 'vitest';
import { configBudget, resolveBudget, type BudgetConfig, type BudgetSample } from '../../lib/ratings/budgets.js';
import { median } from '../../lib/stats/stats.js';
import { emaAlpha, emaUpdate } from '../../lib/ratings/ema.js';
import { computeRunScore, computeTotalCost, normalise } from '../../lib/ratings/score.js';
import { config } from './helpers.js';

const rc = config().ratings!;
const W = rc.weights;
const budget = { cost_usd: 2, duration_seconds: 1800, iterations: 3 };

describe('seed 002 §6.2 run score', () => {
  it('uses the seed weights w_q 1.0, w_c .15, w_t .10, w_i .20 from config defaults', () => {
    expect(W).toEqual({ quality: 1.0, cost: 0.15, time: 0.1, iterations: 0.2 });
  });

  it('a perfect run with no cost, time or retries reaches 10', () => {
    expect(
      computeRunScore({ quality: 10, totalCost: 0, durationSeconds: 0, iterations: 0, budget, weights: W }).score,
    ).toBe(10);
  });

  it('subtracts each penalty in proportion to its share of the budget', () => {
    // Q .9, cost 0.6/2 = .3, time 600/1800 = 1/3, iterations 1/3: .9 − .045 − .0333… − .0666… = .755
    const r = computeRunScore({ quality: 9, totalCost: 0.6, durationSeconds: 600, iterations: 1, budget, weights: W });
    expect(r.norms).toEqual({ cost: 0.3, time: 1 / 3, iterations: 1 / 3 });
    expect(r.score).toBeCloseTo(10 * (0.9 - 0.15 * 0.3 - 0.1 / 3 - 0.2 / 3), 12);
    expect(r.score).toBeCloseTo(7.55, 12);
  });

  it('caps every penalty at its weight (norms clamp at 1), so a run far over budget loses at most 4.5 points', () => {
    const r = computeRunScore({
      quality: 10,
      totalCost: 1000,
      durationSeconds: 1e7,
      iterations: 99,
      budget,
      weights: W,
    });
    expect(r.norms).toEqual({ cost: 1, time: 1, iterations: 1 });
    expect(r.score).toBeCloseTo(5.5, 12);
  });

  it('retries penalise hard but not to zero: budget-many retries on a perfect, free, instant run leave 8', () => {
    expect(
      computeRunScore({ quality: 10, totalCost: 0, durationSeconds: 0, iterations: 3, budget, weights: W }).score,
    ).toBeCloseTo(8, 12);
  });

  it('clamps below at 0: poor quality sinks the score and never goes negative', () => {
    const r = computeRunScore({ quality: 2, totalCost: 10, durationSeconds: 5000, iterations: 5, budget, weights: W });
    expect(r.unclamped).toBeCloseTo(0.2 - 0.45, 12);
    expect(r.score).toBe(0);
  });

  it('negative iterations count as zero (max(0, iterations))', () => {
    expect(
      computeRunScore({ quality: 8, totalCost: 0, durationSeconds: 0, iterations: -2, budget, weights: W }).norms
        .iterations,
    ).toBe(0);
  });

  it('spreads a missing penalty over the present ones instead of waiving it', () => {
    const r = computeRunScore({
      quality: 10,
      totalCost: null,
      durationSeconds: 1800,
      iterations: null,
      budget,
      weights: W,
    });
    expect(r.norms).toEqual({ cost: null, time: 1, iterations: null });
    expect(r.weights_used.time).toBeCloseTo(0.45, 12);
    expect(r.weights_used.cost).toBe(0);
    expect(r.score).toBeCloseTo(5.5, 12);
  });

  it('rejects a quality outside 0-10', () => {
    expect(() =>
      computeRunScore({ quality: 11, totalCost: 0, durationSeconds: 0, iterations: 0, budget, weights: W }),
    ).toThrow(/0-10/);
  });

  it('normalise: zero usage is no penalty; a zero budget makes any usage a full penalty', () => {
    expect(normalise(0, 0)).toBe(0);
    expect(normalise(1, 0)).toBe(1);
    expect(normalise(1, 4)).toBe(0.25);
  });
});

describe('seed 002 §5.5 total cost', () => {
  it('is tokens × price per million / 1e6, falling back to the recorded cost, else missing', () => {
    expect(computeTotalCost(2_000_000, 15, 99)).toEqual({ total_cost: 30, source: 'tokens_x_price' });
    expect(computeTotalCost(2_000_000, null, 1.25)).toEqual({ total_cost: 1.25, source: 'recorded' });
    expect(computeTotalCost(null, 15, 1.25)).toEqual({ total_cost: 1.25, source: 'recorded' });
    expect(computeTotalCost(null, null, null)).toEqual({ total_cost: null, source: null });
  });
});

describe('seed 002 §6.1 budgets by command and complexity bucket', () => {
  const cfg: BudgetConfig = {
    ...rc.budgets,
    by_command: { 'code-review': { '3': { duration_seconds: 120 } } },
    empirical: { min_runs: 4, multiplier: 2 },
  };

  it('default budgets grow with complexity', () => {
    for (let c = 2; c <= 10; c++) {
      const lo = configBudget(rc.budgets, null, c - 1);
      const hi = configBudget(rc.budgets, null, c);
      expect(hi.cost_usd).toBeGreaterThan(lo.cost_usd);
      expect(hi.duration_seconds).toBeGreaterThan(lo.duration_seconds);
      expect(hi.iterations).toBeGreaterThanOrEqual(lo.iterations);
    }
  });

  it('the same run scores higher against a higher complexity bucket (complex work is not punished unfairly)', () => {
    const run = { quality: 8, totalCost: 1.5, durationSeconds: 1500, iterations: 2, weights: W };
    const easy = computeRunScore({ ...run, budget: configBudget(rc.budgets, null, 2) }).score;
    const hard = computeRunScore({ ...run, budget: configBudget(rc.budgets, null, 8) }).score;
    expect(hard).toBeGreaterThan(easy);
  });

  it('a command override replaces only the dimensions it names', () => {
    expect(configBudget(cfg, 'code-review', 3)).toEqual({ ...rc.budgets.default['3'], duration_seconds: 120 });
    expect(configBudget(cfg, 'code-review', 4)).toEqual(rc.budgets.default['4']);
    expect(configBudget(cfg, 'other', 3)).toEqual(rc.budgets.default['3']);
  });

  it('switches a dimension to multiplier × median once min_runs past runs measured it', () => {
    const s = (c: number | null, d: number | null, i: number | null): BudgetSample => ({
      total_cost: c,
      duration_seconds: d,
      iterations: i,
    });
    const three = [s(1, 100, 0), s(2, 200, 0), s(3, 300, 0)];
    expect(resolveBudget(cfg, null, 3, three).source).toEqual({
      cost_usd: 'config',
      duration_seconds: 'config',
      iterations: 'config',
    });
    const four = [...three, s(null, 400, 0)];
    const r = resolveBudget(cfg, null, 3, four);
    expect(r.duration_seconds).toBe(2 * 250);
    expect(r.source.duration_seconds).toBe('empirical');
    // Cost was measured 3 times only; iterations' median is 0, which would make every retry a full penalty.
    expect(r.source.cost_usd).toBe('config');
    expect(r.source.iterations).toBe('config');
    expect(r.samples).toEqual({ cost_usd: 3, duration_seconds: 4, iterations: 4 });
  });

  it('median of odd and even lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('seed 002 §6.3 EMA', () => {
  it('alpha = 2/(N+1) with N = 50 is 2/51 ≈ 0.0392', () => {
    expect(rc.ema_n).toBe(50);
    expect(emaAlpha(50)).toBe(2 / 51);
    expect(emaAlpha(50)).toBeCloseTo(0.0392, 4);
  });

  it('moves the rating by alpha of the gap; the first score seeds an unrated agent', () => {
    expect(emaUpdate(5, 10, 2 / 51)).toBeCloseTo(5 + (2 / 51) * 5, 12);
    expect(emaUpdate(null, 7.3, 2 / 51)).toBe(7.3);
  });

  it('after 50 runs the starting value still weighs (49/51)^50 ≈ 0.135 (the seed’s "stable after ~50 runs" is approximate)', () => {
    let r = 0;
    for (let i = 0; i < 50; i++) r = emaUpdate(r, 10, emaAlpha(50));
    expect(1 - r / 10).toBeCloseTo((49 / 51) ** 50, 12);
    expect((49 / 51) ** 50).toBeCloseTo(0.135, 3);
  });
});
