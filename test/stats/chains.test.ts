// The detectors' Markov chains against hand-solved cases, and issue 39's oracle table computed exactly (printed).
import { describe, expect, it } from 'vitest';
import {
  averageRunLength,
  calibrateWindow,
  cusumChain,
  cusumSteps,
  detectionWithin,
  oracleCusumDetection,
  oracleWindowDetection,
  windowChain,
} from '../../lib/stats/chains.js';

/** Issue 39's cases and its reference values (oracle CUSUM, best window, the proven optimum of any detector). */
const CASES = [
  { k: { p0: 0.6, p1: 0.15, perDay: 10, days: 2 }, cusum: 0.801, window: 20, best: 0.839, optimum: 0.8452 },
  { k: { p0: 0.6, p1: 0.15, perDay: 3, days: 4 }, cusum: 0.544, window: 11, best: 0.567, optimum: 0.5705 },
  { k: { p0: 0.6, p1: 0.4, perDay: 10, days: 7 }, cusum: 0.658, window: null, best: null, optimum: 0.82 },
];

describe('detector chains', () => {
  it('a 1-run window alarming on a fail: geometric run length and detection', () => {
    const c = windowChain(1, 0, 0);
    expect(averageRunLength(c, 0.6, 1)).toBeCloseTo(1 / 0.4, 9);
    // Survived the steady runs, it alarms within 5 changed runs unless all 5 pass.
    expect(detectionWithin(c, 0.6, 0.3, 10, 5, 1)).toBeCloseTo(1 - 0.3 ** 5, 12);
  });
  it('the CUSUM chain, by hand: steps +1/-1, alarm above 1: ARL (1 + q) / q^2', () => {
    expect(averageRunLength(cusumChain(1, 1, 1, 0), 0.6)).toBeCloseTo(1.4 / 0.16, 9);
    // gamma 1 at S = 1 alarms at S >= 1: the first fail, ARL 1/q.
    expect(averageRunLength(cusumChain(1, 1, 1, 1), 0.6)).toBeCloseTo(2.5, 9);
    // Symmetric rates are one exact unit each way.
    expect(cusumSteps(0.6, 0.4, 100)).toMatchObject({ a: 1, b: 1 });
    expect(cusumSteps(0.6, 0.15, 100)).toMatchObject({ a: 100, b: 184 });
  });
  it('a window count test calibrated to an exact ARL through its boundary probability', () => {
    const c = calibrateWindow(8, 0.6, 500);
    expect(c.arl).toBeCloseTo(500, 4);
    expect(c.gamma).toBeGreaterThan(0);
    expect(c.gamma).toBeLessThan(1);
    // The integer thresholds on either side bracket the target.
    expect(averageRunLength(windowChain(8, c.threshold, 0), 0.6, 8)).toBeGreaterThanOrEqual(500);
    expect(averageRunLength(windowChain(8, c.threshold, 1), 0.6, 8)).toBeLessThan(500);
  });
  it("issue 39's oracle table: within a point of its reference, never above the proven optimum", () => {
    const rows: string[] = ['case | oracle CUSUM | best window count test | exact optimum'];
    for (const r of CASES) {
      const cu = oracleCusumDetection(r.k);
      expect(Math.abs(cu.detection - r.cusum)).toBeLessThan(0.01);
      expect(cu.detection).toBeLessThanOrEqual(r.optimum);
      let win = '-';
      if (r.window !== null) {
        const w = oracleWindowDetection(r.k, r.window);
        expect(Math.abs(w.detection - r.best!)).toBeLessThan(0.01);
        expect(w.detection).toBeLessThanOrEqual(r.optimum);
        win = `${(100 * w.detection).toFixed(1)} (window ${r.window}, <= ${w.c} passes, ${w.c + 1} with p ${w.gamma.toFixed(3)})`;
      }
      const { p0, p1, perDay, days } = r.k;
      rows.push(
        `${p0} -> ${p1}, ${perDay}/day, within ${days} days | ${(100 * cu.detection).toFixed(1)} (h ${cu.h.toFixed(2)}) | ${win} | ${100 * r.optimum}`,
      );
    }
    console.log(rows.join('\n'));
  });
});
