// cohensKappa against worked examples: Wikipedia's "Cohen's kappa" (50 proposals, two readers) and a textbook table.
import { describe, expect, it } from 'vitest';
import { cohensKappa } from '../../lib/stats/kappa.js';

describe('cohensKappa', () => {
  it("Wikipedia's example: yes/yes 20, yes/no 5, no/yes 10, no/no 15 → po 0.7, pe 0.5, kappa 0.4, SE 0.1296", () => {
    const k = cohensKappa([
      [20, 5],
      [10, 15],
    ])!;
    expect(k.n).toBe(50);
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
    // sqrt(0.7 · 0.3 / (50 · 0.25)) = sqrt(0.0168)
    expect(k.se).toBeCloseTo(0.12961, 5);
    expect(k.low).toBeCloseTo(0.4 - 1.96 * 0.12961, 3);
    expect(k.high).toBeCloseTo(0.4 + 1.96 * 0.12961, 3);
  });

  it('a textbook table (20, 5 / 10, 65): po 0.85, pe 0.6, kappa 0.625; symmetric in the raters', () => {
    const a = cohensKappa([
      [20, 5],
      [10, 65],
    ])!;
    expect(a.kappa).toBeCloseTo(0.625, 12);
    const b = cohensKappa([
      [20, 10],
      [5, 65],
    ])!;
    expect(b.kappa).toBeCloseTo(a.kappa!, 12);
  });

  it('perfect agreement is 1 with a zero-width interval; agreement no better than chance is 0; three categories', () => {
    expect(
      cohensKappa([
        [3, 0],
        [0, 2],
      ]),
    ).toMatchObject({ kappa: 1, se: 0, low: 1, high: 1 });
    expect(
      cohensKappa([
        [10, 10],
        [10, 10],
      ])!.kappa,
    ).toBeCloseTo(0, 12);
    // po = 0.6, margins rows (10, 10, 10) cols (10, 10, 10): pe = 1/3, kappa = (0.6 - 1/3) / (2/3) = 0.4
    expect(
      cohensKappa([
        [6, 2, 2],
        [2, 6, 2],
        [2, 2, 6],
      ])!.kappa,
    ).toBeCloseTo(0.4, 12);
  });

  it('empty: null; one category used by both: kappa null (undefined), agreement still said', () => {
    expect(
      cohensKappa([
        [0, 0],
        [0, 0],
      ]),
    ).toBeNull();
    expect(
      cohensKappa([
        [4, 0],
        [0, 0],
      ]),
    ).toMatchObject({ n: 4, observed: 1, expected: 1, kappa: null });
    expect(() => cohensKappa([[1, 2]])).toThrow(/square/);
  });
});
