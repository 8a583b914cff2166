// The change detectors as pure functions: hand-computed values, and hostile cases (clean references, restarts).
import { describe, expect, it } from 'vitest';
import {
  bernoulliLlr,
  bernoulliMaxLl,
  glrDropScan,
  cusumPath,
  detectDrop,
  FALSE_ALARM_GRID,
  falseAlarmsFor,
  fisherLowerP,
  recoveryStatistic,
  refitDesignDays,
  runsPerDay,
  scaledThreshold,
  welchT,
  predictedWindowDetection,
  runsPerDayFor,
  windowAlarmRate,
  windowArls,
  windowThreshold,
} from '../../lib/stats/change.js';
import defaults from '../../config/defaults.json' with { type: 'json' };
import { averageRunLength, windowChain } from '../../lib/stats/chains.js';
import { trendInterval } from '../../lib/templates/aggregate.js';

const split = { reference_runs: 20, min_reference_runs: 10, monitor_runs: 10 };
const params = { shift: 0.3, threshold: 3, window_runs: 10 };
const paramsOf = (name: string) => (name === 'fisher_full_pass' ? { ...params, threshold: 0.01 } : params);

describe('change detectors', () => {
  it('the CUSUM path restarts at 0 and reports where its excursion began', () => {
    const c = cusumPath([1, -3, 2, 2, -1, 2], 0, (x) => x);
    expect(c).toEqual({ value: 5, start: 2 });
  });
  it('the Bernoulli log-likelihood ratio, by hand', () => {
    expect(bernoulliLlr(1, 0.6, 0.3)).toBeCloseTo(Math.log(0.5), 12);
    expect(bernoulliLlr(0, 0.6, 0.3)).toBeCloseTo(Math.log(0.7 / 0.4), 12);
  });
  it('the GLR scan: both rates estimated, the best change point, drops only', () => {
    // k = 4: 4/4 before, 0/2 after, against 4/6 throughout: 6 ln 6 - 4 ln 4 - 2 ln 2 (other k give less, by hand).
    const g = glrDropScan([1, 1, 1, 1, 0, 0], 0, 2, 0);
    expect(g.value).toBeCloseTo(6 * Math.log(6) - 4 * Math.log(4) - 2 * Math.log(2), 12);
    expect(g).toMatchObject({ start: 4, before: 1, after: 0 });
    expect(bernoulliMaxLl(4, 6)).toBeCloseTo(4 * Math.log(4 / 6) + 2 * Math.log(2 / 6), 12);
    // A rise is not a drop; a drop smaller than min_shift is not counted.
    expect(glrDropScan([0, 0, 0, 0, 1, 1], 0, 2, 0).value).toBe(0);
    expect(glrDropScan([1, 0, 1, 0, 1, 0, 0, 0, 1, 0], 0, 4, 0.6).value).toBe(0);
    // Runs before r0 are not looked at.
    expect(glrDropScan([0, 0, 1, 1, 1, 1, 0, 0], 2, 4, 0).value).toBeCloseTo(g.value, 12);
  });
  it('Fisher exact, one-sided, against a hand-computed hypergeometric tail', () => {
    // 8/10 in the reference, 0/4 in the window: P(X <= 0), X ~ Hypergeom(14, 8, 4) = C(6,4)/C(14,4) = 15/1001.
    expect(fisherLowerP(8, 10, 0, 4)).toBeCloseTo(15 / 1001, 12);
    expect(fisherLowerP(5, 10, 4, 4)).toBe(1);
  });
  it('Welch t stays finite on a window of identical values', () => {
    const t = welchT([1, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0], 0, 8);
    expect(Number.isFinite(t)).toBe(true);
    expect(t).toBeGreaterThan(0);
  });
  it('fires on a collapse after a clean reference, not on the same level', () => {
    const ref = Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 0 : 1));
    const steady = [...ref, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
    const broken = [...ref, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (const name of [
      'glr_full_pass',
      'cusum_full_pass',
      'cusum_score',
      'fisher_full_pass',
      'welch_score',
    ] as const) {
      expect(detectDrop(name, steady, paramsOf(name), split)!.alarm, name).toBe(false);
      const d = detectDrop(name, broken, paramsOf(name), split)!;
      expect(d.alarm, name).toBe(true);
      expect(d.level).toBeCloseTo(0.8, 12);
    }
    expect(detectDrop('cusum_full_pass', broken, params, split)!.changeIndex).toBe(20);
    expect(detectDrop('glr_full_pass', broken, { ...params, shift: 0 }, split)!.changeIndex).toBe(20);
  });
  it('too short a reference tests nothing; a restart leaves older runs as reference only', () => {
    expect(detectDrop('cusum_full_pass', [1, 1, 0, 0], params, split)).toBeNull();
    const xs = [...Array.from({ length: 20 }, () => 1), 0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
    expect(detectDrop('cusum_full_pass', xs, params, split)!.alarm).toBe(true);
    // Restarted after the failures (a trigger closed there): the monitored runs are the four passes.
    expect(detectDrop('cusum_full_pass', xs, params, split, 26)!.alarm).toBe(false);
    expect(detectDrop('glr_full_pass', xs, params, split)!.alarm).toBe(true);
    expect(detectDrop('glr_full_pass', xs, params, split, 26)!.alarm).toBe(false);
  });
  it('thresholds scale with volume so false alarms per day stay put', () => {
    expect(scaledThreshold('cusum_full_pass', 9, 10)).toBe(9);
    expect(scaledThreshold('cusum_full_pass', 9, 100)).toBeCloseTo(9 + Math.log(10), 12);
    expect(scaledThreshold('fisher_full_pass', 0.001, 100)).toBeCloseTo(0.0001, 12);
    // The GLR takes its own slope (calibrated 0.4); the CUSUM ignores one.
    expect(scaledThreshold('glr_full_pass', 7.6, 100, 0.4)).toBeCloseTo(7.6 + 0.4 * Math.log(10), 12);
    expect(scaledThreshold('glr_full_pass', 7.6, 3, 0.4)).toBeCloseTo(7.6 + 0.4 * Math.log(0.3), 12);
    expect(scaledThreshold('cusum_full_pass', 9, 100, 0.4)).toBeCloseTo(9 + Math.log(10), 12);
    expect(scaledThreshold('welch_score', 3, 10)).toBeCloseTo(3, 12);
    expect(runsPerDay(11, 0, 86_400_000)).toBe(10);
    expect(runsPerDay(1, 0, 0)).toBe(1);
  });
  it('recovery: a pass streak after a drop from 0.8 climbs; failures keep it at 0', () => {
    expect(recoveryStatistic([1, 1, 1, 1], true, 0.8, null, 0.3).value).toBeCloseTo(4 * Math.log(0.8 / 0.5), 2);
    expect(recoveryStatistic([0, 0, 0, 0], true, 0.8, null, 0.3).value).toBe(0);
  });
  it('the trend interval: pooled two-sample t; a half of one run cannot tell', () => {
    const i = trendInterval([1, 0, 1, 0], [0, 0, 1, 0], -0.25)!;
    // pooled variance (3*1/3 + 3*0.25)/6 = 0.2917; half = t(6) 2.4469 * sqrt(0.2917 * 0.5)
    expect(i.high + 0.25).toBeCloseTo(2.4469 * Math.sqrt((1.75 / 6) * 0.5), 4);
    expect(i.low).toBe(-1); // clamped to the scale
    expect(i.low).toBeLessThan(0);
    expect(i.high).toBeGreaterThan(0);
    expect(trendInterval([1], [0, 1], 0)).toBeNull();
  });
});

describe('window_full_pass (issue 39)', () => {
  it('the approximate alarm rate is within 20% of the exact chain, and errs on the safe side (longer ARL)', () => {
    const rows: string[] = [];
    for (const [w, c, p] of [
      [20, 3, 0.6],
      [20, 4, 0.6],
      [12, 1, 0.6],
      [12, 2, 0.6],
      [16, 3, 0.8],
    ] as const) {
      const exact = averageRunLength(windowChain(w, c, 0), p, w);
      const approx = 1 / windowAlarmRate(w, c, p);
      rows.push(`w ${w} c ${c} p ${p}: exact ARL ${exact.toFixed(0)}, approx ${approx.toFixed(0)}`);
      expect(approx).toBeLessThanOrEqual(exact);
      expect(approx / exact).toBeGreaterThan(0.8);
    }
    console.log(rows.join('\n'));
  });
  it('the boundary: the largest c under the budget, gamma between c and c + 1', () => {
    const { c, gamma } = windowThreshold(20, 0.6, 10_000);
    expect(1 / windowAlarmRate(20, c, 0.6)).toBeGreaterThanOrEqual(10_000);
    expect(1 / windowAlarmRate(20, c + 1, 0.6)).toBeLessThan(10_000);
    const rate = (1 - gamma) * windowAlarmRate(20, c, 0.6) + gamma * windowAlarmRate(20, c + 1, 0.6);
    expect(rate).toBeCloseTo(1 / 10_000, 12);
    // P(Bin(4, 0.5) = 1) x 0.25: the rate of entering "1 pass in the last 5" from 2, by hand.
    expect(windowAlarmRate(5, 1, 0.5)).toBeCloseTo((4 / 16) * 0.25, 12);
  });
  it('fires on a collapse after a steady reference, not on the same level; windows start after a restart', () => {
    const wp = { window_days: [2, 7], shares: [0.85, 0.15], min_window_runs: 12, design_days: 1000, volume_slope: 0 };
    const d = { shift: 0, threshold: 1000, window_runs: 0, windows: wp };
    const sp = { reference_runs: 300, min_reference_runs: 80, monitor_runs: 300 };
    const ref = Array.from({ length: 200 }, (_, i) => (i % 5 < 3 ? 1 : 0));
    const steady = [...ref, ...ref.slice(0, 40)];
    const broken = [...ref, ...Array.from({ length: 20 }, (_, i) => (i % 10 === 0 ? 1 : 0))];
    expect(detectDrop('window_full_pass', steady, d, sp, 0, 10)!.alarm).toBe(false);
    const hit = detectDrop('window_full_pass', broken, d, sp, 0, 10)!;
    expect(hit.alarm).toBe(true);
    expect(hit.level).toBeCloseTo(0.6, 1);
    expect(hit.statistic).toBeLessThanOrEqual(hit.threshold + 1);
    expect(hit.changeIndex).toBeGreaterThanOrEqual(200 - 20);
    // Restarted 10 runs before the end: no 20-run window lies after it, so nothing is tested.
    expect(detectDrop('window_full_pass', broken, d, sp, broken.length - 10, 10)?.alarm ?? false).toBe(false);
  });
  it('refitting design_days: too many alarms lengthen the design, too few shorten it, on target it stays', () => {
    expect(refitDesignDays(1000, 2e-4, 1e-4)).toBeCloseTo(1000 * 2 ** 1.1, 9);
    expect(refitDesignDays(1000, 5e-5, 1e-4)).toBeCloseTo(1000 * 0.5 ** 1.1, 9);
    expect(refitDesignDays(1500, 1e-4, 1e-4)).toBeCloseTo(1500, 9);
    // No alarm at all says only "fewer": halve it.
    expect(refitDesignDays(1500, 0, 1e-4)).toBe(750);
  });
});

describe('window_full_pass: what the runs allow (issue 39, item 3)', () => {
  const wp = defaults.templates.triggers.drop.window_full_pass;
  const sp = defaults.templates.triggers.drop;
  it('more runs a day catch more by the same deadline; the 90% rate is the first on the grid that reaches it', () => {
    const k = { p0: 0.6, p1: 0.15, days: 2 };
    const at = [3, 10, 30].map((perDay) => predictedWindowDetection(wp, sp, { ...k, perDay }, 300));
    console.log(`0.6 -> 0.15 within 2 days at 3 / 10 / 30 a day: ${at.map((x) => (100 * x).toFixed(1)).join(' / ')}`);
    expect(at[0]!).toBeLessThan(at[1]!);
    expect(at[1]!).toBeLessThan(at[2]!);
    const need = runsPerDayFor(wp, sp, k, 0.9, 300)!;
    expect(predictedWindowDetection(wp, sp, { ...k, perDay: need }, 300)).toBeGreaterThanOrEqual(0.9);
    expect(need).toBeGreaterThan(10);
  });
  it('the false-alarm rate that would reach 90% at a run rate: the first on the grid whose budget reaches it', () => {
    const k = { p0: 0.6, p1: 0.15, days: 2, perDay: 10 };
    const fa = falseAlarmsFor(wp, sp, k, 0.9, 300)!;
    const at = (budget: number) => predictedWindowDetection({ ...wp, budget }, sp, k, 300);
    console.log(
      `0.6 -> 0.15 within 2 days at 10 a day: 90% at ~${fa} false alarms per 1,000 days (${FALSE_ALARM_GRID.map((b) => `${b}: ${(100 * at(b)).toFixed(1)}`).join(', ')})`,
    );
    expect(fa).toBeGreaterThan(1);
    expect(at(fa)).toBeGreaterThanOrEqual(0.9);
    expect(at(FALSE_ALARM_GRID[FALSE_ALARM_GRID.indexOf(fa) - 1]!)).toBeLessThan(0.9);
    // A larger budget is shorter ARLs: twice the budget, half of every window's ARL.
    expect(windowArls({ ...wp, budget: 2 }, 10)).toEqual(windowArls(wp, 10).map((a) => a / 2));
    // Out of reach on the grid: a fall of 0.01 within a day at 3 a day.
    expect(falseAlarmsFor(wp, sp, { p0: 0.6, p1: 0.59, days: 1, perDay: 3 }, 0.9, 100)).toBeNull();
  });
  it('the prediction is memoised by its inputs: the same call gives the same value, another p0 another cell', () => {
    const k = { p0: 0.7, p1: 0.2, days: 2, perDay: 6 };
    const a = predictedWindowDetection(wp, sp, k, 200);
    expect(predictedWindowDetection({ ...wp }, { ...sp }, { ...k }, 200)).toBe(a);
    expect(predictedWindowDetection(wp, sp, { ...k, p1: 0.69 }, 200)).toBeLessThan(a);
  });
});
