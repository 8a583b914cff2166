// The one home of judgeloop's statistics (pure, no IO): median and mean of a list, running moments, 95% intervals
// (Wilson, Student t), rank correlations. Seeded draws are in prng.ts, weight normalising in weights.ts.
import type { Interval } from '../schema/types.generated.js';

const Z95 = 1.959963984540054;
// Two-sided 95% Student t quantiles for 1..30 degrees of freedom.
const T95 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448, 2.1314,
  2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/** The two-sided 95% t quantile; above 30 degrees of freedom the Cornish-Fisher expansion to 1/df^2 (error < 0.001). */
export function t95(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T95[Math.floor(df) - 1]!;
  const g1 = (Z95 ** 3 + Z95) / 4;
  const g2 = (5 * Z95 ** 5 + 16 * Z95 ** 3 + 3 * Z95) / 96;
  return Z95 + g1 / df + g2 / (df * df);
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** The median (the mean of the two middle values for an even count); null for an empty list. NaN sorts as given. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The arithmetic mean of a list; null for an empty list. */
export function average(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Wilson score interval (95%) of k successes in n trials; null when n is 0. */
export function wilsonInterval(k: number, n: number): Interval {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: clamp01(centre - half), high: clamp01(centre + half), method: 'wilson' };
}

/** Running sums of one variable: enough for a mean and its variance. */
export interface Moments {
  n: number;
  sum: number;
  sumSq: number;
}

export const emptyMoments = (): Moments => ({ n: 0, sum: 0, sumSq: 0 });

export function addMoment(m: Moments, x: number): void {
  m.n += 1;
  m.sum += x;
  m.sumSq += x * x;
}

export function mean(m: Moments): number | null {
  return m.n > 0 ? m.sum / m.n : null;
}

/** Sample variance (n - 1); null below 2 values. Clamped at 0 against rounding. */
export function sampleVariance(m: Moments): number | null {
  if (m.n < 2) return null;
  return Math.max(0, (m.sumSq - (m.sum * m.sum) / m.n) / (m.n - 1));
}

/** Student t interval (95%) of a mean, clamped to 0-1; null below 2 values. */
export function tInterval(m: Moments, center: number | null = mean(m)): Interval {
  const v = sampleVariance(m);
  if (v === null || center === null) return null;
  const half = t95(m.n - 1) * Math.sqrt(v / m.n);
  return { low: clamp01(center - half), high: clamp01(center + half), method: 't' };
}

/** Ranks 1..n, best (highest value) first; ties share the average of their ranks. */
export function averageRanks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = r;
    i = j + 1;
  }
  return ranks;
}

function pearson(x: number[], y: number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Spearman's rho: Pearson correlation of average ranks (correct with ties); null below 2 items or with no variation. */
export function spearman(x: number[], y: number[]): number | null {
  if (x.length !== y.length) throw new Error('spearman: lists of different lengths');
  return pearson(averageRanks(x), averageRanks(y));
}

/** Kendall's tau-b (tie-corrected); null below 2 items or when one list is all ties. */
export function kendallTauB(x: number[], y: number[]): number | null {
  if (x.length !== y.length) throw new Error('kendallTauB: lists of different lengths');
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  if (denom === 0) return null;
  return Math.max(-1, Math.min(1, (concordant - discordant) / denom));
}
