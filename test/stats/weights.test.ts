import { describe, expect, it } from 'vitest';
import { normaliseWeights, weightedMean } from '../../lib/stats/weights.js';
import { average, median } from '../../lib/stats/stats.js';
import { normaliseWeights as collectorWeights } from '../../lib/collector/scoring.js';
import { presentWeights } from '../../lib/race/categories.js';
import { normaliseWeights as blendWeights } from '../../lib/templates/formula.js';

describe('normaliseWeights', () => {
  it('divides by the sum over the keys given, and the result sums to 1', () => {
    const w = { a: 3, b: 1, c: 4 };
    const n = normaliseWeights(w, ['a', 'b']);
    expect(Object.keys(n).sort()).toEqual(['a', 'b']);
    expect(n.a! / n.b!).toBeCloseTo(3, 12);
    expect(n.a! + n.b!).toBeCloseTo(1, 12);
    const all = normaliseWeights(w);
    expect(Object.values(all).reduce((s, x) => s + x!, 0)).toBeCloseTo(1, 12);
  });

  it('is empty for no key, all-zero weights, a negative sum and NaN', () => {
    expect(normaliseWeights({ a: 1 }, [])).toEqual({});
    expect(normaliseWeights({ a: 0, b: 0 })).toEqual({});
    expect(normaliseWeights({ a: -1, b: 0.5 })).toEqual({});
    expect(normaliseWeights({ a: Number.NaN, b: 1 })).toEqual({});
  });

  it('is what the collector, the race and the template blend use (same rule for the same input)', () => {
    const weights = { build: 30, tests: 30, lint: 15, diff_size: 15, speed: 10 };
    const scores = { build: 100, tests: null, lint: 50, diff_size: null, speed: 0 };
    expect(collectorWeights(weights, scores)).toEqual(normaliseWeights(weights, ['build', 'lint', 'speed']));
    const cats = {
      correctness: { overall: 0.5 },
      quality: { overall: null },
      efficiency: { overall: 1 },
      completeness: { overall: 0.2 },
      safety: { overall: 0 },
    };
    const cw = { correctness: 0.4, quality: 0.25, efficiency: 0.15, completeness: 0.1, safety: 0 };
    const race = presentWeights(cats as never, cw as never);
    expect(race).toEqual(normaliseWeights(cw, ['correctness', 'efficiency', 'completeness']));
    expect(blendWeights({ mechanical: 0.6, judge: 0.4 } as never)).toEqual(
      normaliseWeights({ mechanical: 0.6, judge: 0.4 }),
    );
    expect(() => blendWeights({ mechanical: 0, judge: 0 } as never)).toThrow(/above 0/);
  });
});

describe('weightedMean', () => {
  it('is Σ value·weight / Σ weight, exact on integers (seed 000: 91.25), and the normalised weights give the same', () => {
    const pairs: [number, number][] = [
      [100, 30],
      [75, 30],
      [100, 15],
      [85, 15],
      [100, 10],
    ];
    const m = weightedMean(pairs)!;
    expect(m * 100).toBe(Math.round(m * 100));
    const n = normaliseWeights(Object.fromEntries(pairs.map(([, w], i) => [`k${i}`, w])));
    expect(pairs.reduce((s, [v], i) => s + v * n[`k${i}`]!, 0)).toBeCloseTo(m, 10);
  });

  it('is null for no pair, all-zero weights and a NaN weight; a NaN value propagates', () => {
    expect(weightedMean([])).toBeNull();
    expect(
      weightedMean([
        [1, 0],
        [2, 0],
      ]),
    ).toBeNull();
    expect(weightedMean([[1, Number.NaN]])).toBeNull();
    expect(weightedMean([[Number.NaN, 1]])).toBeNaN();
  });
});

describe('median and average', () => {
  it('median: odd, even (mean of the middle two), unsorted input left as it was, empty → null', () => {
    const xs = [5, 1, 4, 2];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 4, 2]);
    expect(median([7])).toBe(7);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });

  it('average: the sum over the count; empty → null; a NaN propagates', () => {
    expect(average([1, 2, 3, 6])).toBe(3);
    expect(average([])).toBeNull();
    expect(average([1, Number.NaN])).toBeNaN();
  });
});
