// A window's drop evidence against its reference (the scan statistics of bench/drift-scan.ts), by hand.
import { describe, expect, it } from 'vitest';
import {
  conditionalLowerTail,
  lnGamma,
  plugInLowerTail,
  predictiveLowerTail,
  windowGlrScore,
} from '../../lib/stats/window-scores.js';

describe('window scores', () => {
  it('ln Gamma at integers and halves', () => {
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lnGamma(301)).toBeCloseTo(
      Array.from({ length: 300 }, (_, i) => Math.log(i + 1)).reduce((a, b) => a + b),
      8,
    );
  });
  it('plug-in: the binomial lower tail at the reference rate, which is kept off 0 and 1', () => {
    expect([...plugInLowerTail(2, 10, 5)].map((v) => +v.toFixed(12))).toEqual([0.25, 0.75, 1]);
    // 0 passes in 4 reference runs: p = 1/8, not 0 (a window with passes is not impossible).
    expect(plugInLowerTail(1, 4, 0)[0]).toBeCloseTo(7 / 8, 12);
  });
  it('predictive: beta-binomial(w, k + 1/2, n - k + 1/2), by hand; plug-in when the reference is huge', () => {
    const t = predictiveLowerTail(2, 3, 1); // a = 1.5, b = 2.5
    expect(t[0]).toBeCloseTo((2.5 * 3.5) / (4 * 5), 12);
    expect(t[1]).toBeCloseTo(1 - (1.5 * 2.5) / (4 * 5), 12);
    expect(t[2]).toBeCloseTo(1, 12);
    const big = predictiveLowerTail(20, 1_000_000, 600_000);
    const plug = plugInLowerTail(20, 1_000_000, 600_000);
    for (let x = 0; x <= 20; x++) expect(big[x]).toBeCloseTo(plug[x]!, 5);
    // The reference's uncertainty widens the tail: a short reference makes a low count less surprising.
    expect(predictiveLowerTail(20, 300, 180)[4]!).toBeGreaterThan(plugInLowerTail(20, 300, 180)[4]!);
  });
  it("conditional: Fisher's hypergeometric tail given both samples' passes", () => {
    // 2 of 2 reference runs passed, 0 of 2 window runs: 2 passes among 4, both in the reference: 1 / C(4, 2).
    expect(conditionalLowerTail(2, 2, 2)[0]).toBeCloseTo(1 / 6, 12);
    expect(conditionalLowerTail(2, 2, 2)[2]).toBeCloseTo(1, 12);
  });
  it('two-sample GLR: exp(-log LR), 1 unless the window is below the reference', () => {
    const g = windowGlrScore(2, 2, 2);
    expect(g[0]).toBeCloseTo(1 / 16, 12); // LR 4 ln 2
    expect(g[1]).toBeCloseTo(27 / 64, 12); // LR 6 ln 2 - 3 ln 3
    expect(g[2]).toBe(1);
  });
  it('every score rises with the count (more passes, less evidence of a drop)', () => {
    for (const f of [plugInLowerTail, predictiveLowerTail, conditionalLowerTail, windowGlrScore]) {
      const s = f(70, 300, 180);
      for (let x = 1; x <= 70; x++) expect(s[x]!).toBeGreaterThanOrEqual(s[x - 1]!);
      expect(s[70]).toBeCloseTo(1, 12);
    }
  });
});
