// Change detection on per-run values, oldest first (pure): Bernoulli GLR and CUSUM, score CUSUM, windowed Fisher
// and Welch, the upward CUSUM of a recovery; chosen by bench/drift.ts (docs/design/templates.md).
import { deadlineDesignDays, deadlineFactor } from './deadline.js';
import { createRng } from './prng.js';

export type DetectorName =
  | 'cusum_full_pass'
  | 'glr_full_pass'
  | 'window_full_pass'
  | 'cusum_score'
  | 'fisher_full_pass'
  | 'welch_score';

export interface DetectorParams {
  /** CUSUM: the drop it is tuned for (0-1 scale); GLR: the smallest estimated drop it counts. */
  shift: number;
  /** CUSUM: h (nats for 0/1, standard deviations for scores); Fisher: the one-sided p below which it fires; Welch: t. */
  threshold: number;
  /** Windowed tests: the newest runs tested against the reference before them. */
  window_runs: number;
  /** GLR: the threshold grows by this x ln(runs a day / 10) (default 1). */
  volume_slope?: number;
  /** window_full_pass: its windows and budget. */
  windows?: WindowParams;
}

export interface SplitParams {
  reference_runs: number;
  min_reference_runs: number;
  /** CUSUM: the newest runs the statistic runs over (the reference is the runs just before them). */
  monitor_runs: number;
}

export interface Detection {
  detector: DetectorName;
  statistic: number;
  threshold: number;
  alarm: boolean;
  /** Index of the first run after the estimated change point (CUSUM: where the current excursion began). */
  changeIndex: number;
  /** The reference runs: [referenceStart, monitorStart). */
  referenceStart: number;
  monitorStart: number;
  /** Reference level (rate or mean) and, for scores, its standard deviation as used. */
  level: number;
  sd: number | null;
}

/** The runs a day at which configured thresholds hold; others are scaled so false alarms per day stay the same. */
const PER_DAY_REFERENCE = 10;

/** Runs a day over a stretch of runs (n runs between two completion times), at least 1. */
export function runsPerDay(n: number, firstMs: number, lastMs: number): number {
  const days = (lastMs - firstMs) / 86_400_000;
  return n < 2 || !(days > 0) ? 1 : Math.max(1, (n - 1) / days);
}

/**
 * The threshold at `perDay` runs a day, so false alarms per day stay put: CUSUM h + ln(r/10), Fisher p x 10/r, Welch
 * t^2 + 2 ln(r/10); the GLR's grow slower with volume (overlapping scans), so h + slope x ln(r/10), slope calibrated.
 */
export function scaledThreshold(name: DetectorName, threshold: number, perDay: number | null, slope = 1): number {
  if (perDay === null) return threshold;
  const r = Math.log(perDay / PER_DAY_REFERENCE);
  if (name === 'fisher_full_pass') return threshold * Math.exp(-r);
  if (name === 'welch_score') return Math.sqrt(Math.max(0, threshold ** 2 + 2 * r));
  return Math.max(0, threshold + (name === 'glr_full_pass' ? slope : 1) * r);
}

/** Smallest standard deviation a score CUSUM divides by: a reference of identical values is not noise-free. */
const SD_FLOOR = 0.1;

const clampRate = (p: number, n: number): number => Math.min(1 - 0.5 / n, Math.max(0.5 / n, p));

function meanOf(xs: ArrayLike<number>, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += xs[i]!;
  return s / (to - from);
}

function sdOf(xs: ArrayLike<number>, from: number, to: number, mu: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += (xs[i]! - mu) ** 2;
  return to - from > 1 ? Math.sqrt(s / (to - from - 1)) : 0;
}

/** Rate after a drop of `shift` from p0; a template already below the shift is tuned for a fall to a third. */
const droppedRate = (p0: number, shift: number): number => Math.max(p0 - shift, p0 / 3);

/** Per-run log-likelihood ratio of "rate p1" against "rate p0" for a 0/1 value. */
export const bernoulliLlr = (x: number, p0: number, p1: number): number =>
  x >= 0.5 ? Math.log(p1 / p0) : Math.log((1 - p1) / (1 - p0));

/** One-sided CUSUM S_t = max(0, S_t-1 + step(x_t)) over xs[from..]; its last value and where its excursion began. */
export function cusumPath(
  xs: ArrayLike<number>,
  from: number,
  step: (x: number) => number,
): { value: number; start: number } {
  let s = 0;
  let start = from;
  for (let i = from; i < xs.length; i++) {
    s += step(xs[i]!);
    if (s <= 0) {
      s = 0;
      start = i + 1;
    }
  }
  return { value: s, start: Math.min(start, xs.length - 1) };
}

/** k ln k from a table that grows as needed (0 ln 0 = 0). */
const XLOGX = [0];
function xlogx(k: number): number {
  for (let i = XLOGX.length; i <= k; i++) XLOGX.push(i * Math.log(i));
  return XLOGX[k]!;
}

/** Maximised Bernoulli log-likelihood of a successes in n runs: a ln(a/n) + (n - a) ln((n - a)/n). */
export const bernoulliMaxLl = (a: number, n: number): number => xlogx(a) + xlogx(n - a) - xlogx(n);

/**
 * Two-sample Bernoulli GLR scan for a drop over 0/1 values xs[r0..]: for every change point k in [from, n), the
 * log-likelihood ratio of "rate a/(k - r0) before k, b/(n - k) from k on" against "one rate throughout", counted only
 * where the rate after is below the rate before by at least minShift. Both rates are estimated (no plug-in p0).
 */
export function glrDropScan(
  xs: ArrayLike<number>,
  r0: number,
  from: number,
  minShift: number,
): { value: number; start: number; before: number; after: number } {
  const n = xs.length;
  let total = 0;
  for (let i = r0; i < n; i++) total += xs[i]! >= 0.5 ? 1 : 0;
  const all = bernoulliMaxLl(total, n - r0);
  let a = 0;
  for (let i = r0; i < from; i++) a += xs[i]! >= 0.5 ? 1 : 0;
  let best = { value: 0, start: from, before: a / Math.max(1, from - r0), after: (total - a) / Math.max(1, n - from) };
  for (let k = from; k < n; k++) {
    const na = k - r0;
    const b = total - a;
    const pa = a / na;
    const pb = b / (n - k);
    if (pa - pb >= minShift && pa > pb) {
      const v = bernoulliMaxLl(a, na) + bernoulliMaxLl(b, n - k) - all;
      if (v > best.value) best = { value: v, start: k, before: pa, after: pb };
    }
    a += xs[k]! >= 0.5 ? 1 : 0;
  }
  return best;
}

/** Where the reference ends and the monitored runs begin; null when the reference is too short. */
function split(n: number, restart: number, p: SplitParams, window: number | null): [number, number] | null {
  const monitorStart = Math.max(restart, p.min_reference_runs, window === null ? n - p.monitor_runs : n - window);
  if (monitorStart >= n) return null;
  const referenceStart = Math.max(0, monitorStart - p.reference_runs);
  if (monitorStart - referenceStart < p.min_reference_runs) return null;
  return [referenceStart, monitorStart];
}

/** log(k!) from a table that grows as needed. */
const LOG_FACT = [0];
function logFact(k: number): number {
  for (let i = LOG_FACT.length; i <= k; i++) LOG_FACT.push(LOG_FACT[i - 1]! + Math.log(i));
  return LOG_FACT[k]!;
}
const logChoose = (n: number, k: number): number => logFact(n) - logFact(k) - logFact(n - k);

/**
 * One-sided Fisher exact test: P(X <= b) for X hypergeometric — b successes in a window of nw runs when the
 * reference had a successes in nr runs and both are one population.
 */
export function fisherLowerP(a: number, nr: number, b: number, nw: number): number {
  const k = a + b;
  const n = nr + nw;
  const lo = Math.max(0, k - nr);
  const denom = logChoose(n, nw);
  let p = 0;
  for (let x = lo; x <= b; x++) p += Math.exp(logChoose(k, x) + logChoose(n - k, nw - x) - denom);
  return Math.min(1, p);
}

/**
 * Welch's t of reference mean minus window mean; each variance is at least the variance of both together (under
 * "nothing changed" they are one sample), so a window of identical values does not give an infinite t.
 */
export function welchT(xs: ArrayLike<number>, r0: number, w0: number): number {
  const n = xs.length;
  const mr = meanOf(xs, r0, w0);
  const mw = meanOf(xs, w0, n);
  const all = sdOf(xs, r0, n, meanOf(xs, r0, n)) ** 2;
  const vr = Math.max(sdOf(xs, r0, w0, mr) ** 2, all);
  const vw = Math.max(sdOf(xs, w0, n, mw) ** 2, all);
  const se = Math.sqrt(vr / (w0 - r0) + vw / (n - w0));
  return se > 0 ? (mr - mw) / se : 0;
}

/**
 * Runs the named detector on xs (0/1 values for *_full_pass, scores otherwise), oldest first; runs before `restart`
 * are reference only (the detector starts again after a closed trigger); thresholds are scaled to `perDay` runs a
 * day (null: as configured). null when there are too few runs.
 */
export function detectDrop(
  name: DetectorName,
  xs: ArrayLike<number>,
  d: DetectorParams,
  p: SplitParams,
  restart = 0,
  perDay: number | null = null,
  coins: ArrayLike<number> | null = null,
): Detection | null {
  if (name === 'window_full_pass') return windowDetect(xs, d.windows!, p, restart, perDay ?? PER_DAY_REFERENCE, coins);
  const windowed = name === 'fisher_full_pass' || name === 'welch_score';
  const s = split(xs.length, restart, p, windowed ? d.window_runs : null);
  if (s === null) return null;
  const [r0, m0] = s;
  const level = meanOf(xs, r0, m0);
  const h = scaledThreshold(name, d.threshold, perDay, d.volume_slope);
  const base = { detector: name, threshold: h, referenceStart: r0, monitorStart: m0, level };
  if (name === 'cusum_full_pass') {
    const p0 = (level * (m0 - r0) + 1) / (m0 - r0 + 2); // Laplace: a clean reference is not a certain one
    const p1 = droppedRate(p0, d.shift);
    const c = cusumPath(xs, m0, (x) => bernoulliLlr(x, p0, p1));
    return { ...base, statistic: c.value, alarm: c.value > h, changeIndex: c.start, sd: null };
  }
  if (name === 'glr_full_pass') {
    const g = glrDropScan(xs, r0, m0, d.shift);
    return { ...base, level: g.before, statistic: g.value, alarm: g.value > h, changeIndex: g.start, sd: null };
  }
  if (name === 'cusum_score') {
    const sd = Math.max(SD_FLOOR, sdOf(xs, r0, m0, level));
    const c = cusumPath(xs, m0, (x) => (level - x - d.shift / 2) / sd);
    return { ...base, statistic: c.value, alarm: c.value > h, changeIndex: c.start, sd };
  }
  if (name === 'fisher_full_pass') {
    let a = 0;
    let b = 0;
    for (let i = r0; i < m0; i++) a += xs[i]! >= 0.5 ? 1 : 0;
    for (let i = m0; i < xs.length; i++) b += xs[i]! >= 0.5 ? 1 : 0;
    const pv = fisherLowerP(a, m0 - r0, b, xs.length - m0);
    return { ...base, statistic: pv, alarm: pv < h, changeIndex: m0, sd: null };
  }
  const t = welchT(xs, r0, m0);
  return { ...base, statistic: t, alarm: t > h, changeIndex: m0, sd: sdOf(xs, r0, m0, level) };
}

/**
 * The upward CUSUM that says a dropped level came back: over the runs since the change, "the pre-change level"
 * against "the level after a drop of shift"; recovered when it exceeds the threshold.
 */
export function recoveryStatistic(
  xs: ArrayLike<number>,
  binary: boolean,
  level: number,
  sd: number | null,
  shift: number,
): { value: number; start: number } {
  if (binary) {
    const p0 = clampRate(level, 200);
    const p1 = droppedRate(p0, shift);
    return cusumPath(xs, 0, (x) => bernoulliLlr(x, p1, p0));
  }
  const s = Math.max(SD_FLOOR, sd ?? 0);
  return cusumPath(xs, 0, (x) => (x - (level - shift) - shift / 2) / s);
}

/** P(Binomial(n, p) = k), by log-factorials. */
function binomialPmf(n: number, k: number, p: number): number {
  if (k < 0 || k > n) return 0;
  if (p <= 0) return k === 0 ? 1 : 0;
  if (p >= 1) return k === n ? 1 : 0;
  return Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p));
}

/**
 * Steady alarms per run of "at most c passes in the last w runs" at pass rate p, approximated by the rate at which the
 * count enters c from c + 1 (the run leaving was a pass, the one entering a fail, c passes between): one alarm per
 * excursion, the re-entries of one excursion not counted (so the true ARL is a little longer; the bench calibrates).
 */
export const windowAlarmRate = (w: number, c: number, p: number): number =>
  c < 0 ? 0 : c >= w ? 1 : binomialPmf(w - 1, c, p) * p * (1 - p);

/**
 * The window count test's boundary at reference rate p0 for an average run length of `arl` runs: alarm at <= c passes
 * in the last w runs, at c + 1 with probability gamma (1/ARL taken linear in gamma between c and c + 1).
 */
export function windowThreshold(w: number, p0: number, arl: number): { c: number; gamma: number } {
  const target = 1 / arl;
  let c = -1;
  while (c + 1 < w && windowAlarmRate(w, c + 1, p0) <= target) c++;
  const lo = windowAlarmRate(w, c, p0);
  const hi = windowAlarmRate(w, c + 1, p0);
  return { c, gamma: hi > lo ? Math.min(1, Math.max(0, (target - lo) / (hi - lo))) : 0 };
}

const WINDOW_CACHE = new Map<string, { c: number; gamma: number }>();
const cachedThreshold = (w: number, p0: number, arl: number): { c: number; gamma: number } => {
  const key = `${w}/${p0}/${arl}`;
  let t = WINDOW_CACHE.get(key);
  if (t === undefined) {
    if (WINDOW_CACHE.size > 50_000) WINDOW_CACHE.clear();
    t = windowThreshold(w, p0, arl);
    WINDOW_CACHE.set(key, t);
  }
  return t;
};

const FACTORED_CACHE = new WeakMap<WindowScale, Map<string, { c: number; gamma: number }>>();
/** cachedThreshold at the ARL times the look's factor, memoised per factor function (its logs cost more than a look). */
function factoredThreshold(scale: WindowScale, w: number, n: number, level: number, arl: number) {
  let m = FACTORED_CACHE.get(scale);
  if (m === undefined) {
    m = new Map();
    FACTORED_CACHE.set(scale, m);
  }
  const key = `${w}/${n}/${level}/${arl}`;
  let t = m.get(key);
  if (t === undefined) {
    if (m.size > 50_000) m.clear();
    t = cachedThreshold(w, level, arl * scale(w, n, level));
    m.set(key, t);
  }
  return t;
}

/** A look's boundary for a window of w runs behind a reference of n runs at `level`: the ARL times the factor, if any. */
const lookThreshold = (scale: WindowScale | null, w: number, n: number, level: number, arl: number) =>
  scale === null ? cachedThreshold(w, level, arl) : factoredThreshold(scale, w, n, level, arl);

/** The window count detector's settings: windows in days, their runs at least `min_window_runs`, one ARL budget. */
export interface WindowParams {
  window_days: number[];
  /** Each window's share of the false-alarm budget (summing to 1). */
  shares: number[];
  min_window_runs: number;
  /** Window i's threshold is set for an ARL of design_days x (r/10)^volume_slope x r / shares[i] at r runs a day. */
  design_days: number;
  volume_slope: number;
  /** When set: one window of this many days, the whole budget, design_days from the fitted table (the above unused). */
  deadline_days?: number | null;
  /** The false-alarm budget as a multiple of the design's (every ARL divided by it); 1 when absent. */
  budget?: number;
  /** By a deadline: a second window of this many days (used when longer than the deadline's) at backstop_share. */
  backstop_days?: number | null;
  backstop_share?: number;
}

const hasDeadline = (wp: WindowParams): wp is WindowParams & { deadline_days: number } =>
  typeof wp.deadline_days === 'number';

/** By a deadline, the backstop's days when it is set and its window is longer than the deadline's; else null. */
function backstopDays(wp: WindowParams & { deadline_days: number }, perDay: number): number | null {
  const b = wp.backstop_days ?? null;
  const runs = (d: number): number => Math.max(2, wp.min_window_runs, Math.round(d * perDay));
  return b !== null && (wp.backstop_share ?? 0) > 0 && runs(b) > runs(wp.deadline_days) ? b : null;
}

/** By a deadline: the deadline's design ARL over its share, then the backstop's (its own table's) over its share. */
function deadlineArls(wp: WindowParams & { deadline_days: number }, perDay: number): number[] {
  const b = backstopDays(wp, perDay);
  const arl = (d: number): number => deadlineDesignDays(d, perDay) * perDay;
  if (b === null) return [arl(wp.deadline_days)];
  const s = wp.backstop_share!;
  return [arl(wp.deadline_days) / (1 - s), arl(b) / s];
}

/** Each window's design ARL in runs at `perDay` runs a day. */
export const windowArls = (wp: WindowParams, perDay: number): number[] =>
  (hasDeadline(wp)
    ? deadlineArls(wp, perDay)
    : wp.window_days.map(
        (_, i) =>
          (wp.design_days * (perDay / PER_DAY_REFERENCE) ** wp.volume_slope * perDay) /
          (wp.shares[i] ?? 1 / wp.window_days.length),
      )
  ).map((arl) => arl / (wp.budget ?? 1));

/** A look's factor on its window's design ARL from the window's runs w, the reference's runs n and its level. */
export type WindowScale = (w: number, n: number, level: number) => number;

/** By a deadline: the fitted factor over level and reference size (deadlineFactor); else none. */
export const windowScale = (wp: WindowParams): WindowScale | null => (hasDeadline(wp) ? deadlineFactor : null);

/** The windows in runs at `perDay` runs a day (at least 2 and `min_window_runs`). */
export const windowRuns = (wp: WindowParams, perDay: number): number[] =>
  (hasDeadline(wp) ? [wp.deadline_days, backstopDays(wp, perDay)].filter((d) => d !== null) : wp.window_days).map((d) =>
    Math.max(2, wp.min_window_runs, Math.round(d * perDay)),
  );

export interface WindowLook {
  /** Window length in runs, its passes, the boundary and the reference rate it was set from. */
  w: number;
  passes: number;
  c: number;
  gamma: number;
  level: number;
  referenceStart: number;
}

/**
 * The window count test after run t - 1 (P: prefix sums of passes, P[i] = passes in runs 0..i-1): for each window w,
 * the reference is the `reference_runs` runs before it (at least `min_reference_runs`, none before `restart`... the
 * window itself starts at or after restart); p0 its rate. Fires on <= c passes, or c + 1 when coin < gamma.
 */
export function windowLookAt(
  P: ArrayLike<number>,
  t: number,
  restart: number,
  ws: number[],
  arls: number[],
  p: SplitParams,
  coin: number,
  scale: WindowScale | null = null,
): WindowLook | null {
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const w0 = t - w;
    if (w0 < restart) continue;
    const r0 = Math.max(0, w0 - p.reference_runs);
    if (w0 - r0 < p.min_reference_runs) continue;
    const n = w0 - r0;
    const level = clampRate((P[w0]! - P[r0]!) / n, n);
    const passes = P[t]! - P[w0]!;
    const { c, gamma } = lookThreshold(scale, w, n, level, arls[i]!);
    if (passes <= c || (passes === c + 1 && coin < gamma)) return { w, passes, c, gamma, level, referenceStart: r0 };
  }
  return null;
}

/**
 * window_full_pass over the monitored runs: the window test after each run since the restart (among the newest
 * `monitor_runs`), the first that fires; else the newest look. coins[i]: run i's boundary coin in [0, 1).
 */
function windowDetect(
  xs: ArrayLike<number>,
  wp: WindowParams,
  p: SplitParams,
  restart: number,
  perDay: number,
  coins: ArrayLike<number> | null,
): Detection | null {
  const n = xs.length;
  const P = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) P[i + 1] = P[i]! + (xs[i]! >= 0.5 ? 1 : 0);
  const ws = windowRuns(wp, perDay);
  const arls = windowArls(wp, perDay);
  const scale = windowScale(wp);
  const found = (t: number, look: WindowLook, alarm: boolean): Detection => ({
    detector: 'window_full_pass',
    statistic: look.passes,
    threshold: look.c,
    alarm,
    changeIndex: t - look.w,
    referenceStart: look.referenceStart,
    monitorStart: t - look.w,
    level: look.level,
    sd: null,
  });
  for (let t = Math.max(restart + 1, n - p.monitor_runs + 1, 1); t <= n; t++) {
    const look = windowLookAt(P, t, restart, ws, arls, p, coins?.[t - 1] ?? 1, scale);
    if (look) return found(t, look, true);
  }
  // No alarm: the shortest window's look at the newest run (passes against its boundary), if it has a reference.
  const w0 = n - ws[0]!;
  if (w0 < restart || w0 < p.min_reference_runs) return null;
  const r0 = Math.max(0, w0 - p.reference_runs);
  const level = clampRate((P[w0]! - P[r0]!) / (w0 - r0), w0 - r0);
  const { c, gamma } = lookThreshold(scale, ws[0]!, w0 - r0, level, arls[0]!);
  return found(n, { w: ws[0]!, passes: P[n]! - P[w0]!, c, gamma, level, referenceStart: r0 }, false);
}

/**
 * What window_full_pass catches at `perDay` runs a day: of `reps` seeded collapses p0 -> p1 after `reference_runs`
 * steady runs, the share flagged within `days` (counted only without an earlier alarm), as the bench measures it.
 */
export function predictedWindowDetection(
  wp: WindowParams,
  p: SplitParams,
  k: { p0: number; p1: number; perDay: number; days: number },
  reps = 500,
): number {
  // Pure and seeded by its inputs: memoised in-process (a trigger's note asks the same cells again).
  const key = JSON.stringify([wp, p.reference_runs, p.min_reference_runs, k.p0, k.p1, k.perDay, k.days, reps]);
  let v = PREDICTIONS.get(key);
  if (v === undefined) {
    if (PREDICTIONS.size > 10_000) PREDICTIONS.clear();
    v = simulateDetection(wp, p, k, reps);
    PREDICTIONS.set(key, v);
  }
  return v;
}

const PREDICTIONS = new Map<string, number>();
let SIMULATIONS = 0;

/** How many simulations predictedWindowDetection has run in this process (not memoised ones). */
export const detectionSimulations = (): number => SIMULATIONS;

function simulateDetection(
  wp: WindowParams,
  p: SplitParams,
  k: { p0: number; p1: number; perDay: number; days: number },
  reps: number,
): number {
  SIMULATIONS++;
  const rng = createRng(`predict/${k.p0}/${k.p1}/${k.perDay}/${k.days}`);
  const ws = windowRuns(wp, k.perDay);
  const arls = windowArls(wp, k.perDay);
  const scale = windowScale(wp);
  const pre = p.reference_runs;
  const n = pre + Math.round(k.days * k.perDay);
  const P = new Int32Array(n + 1);
  let hits = 0;
  let counted = 0;
  for (let i = 0; i < reps; i++) {
    for (let j = 0; j < n; j++) P[j + 1] = P[j]! + (rng() < (j < pre ? k.p0 : k.p1) ? 1 : 0);
    let at = 0;
    for (let t = 1; t <= n && at === 0; t++) if (windowLookAt(P, t, 0, ws, arls, p, rng(), scale) !== null) at = t;
    if (at !== 0 && at <= pre) continue;
    counted++;
    if (at !== 0) hits++;
  }
  return counted ? hits / counted : 0;
}

/**
 * False alarms of window_full_pass over `runs` steady runs at pass rate p0 (after each it starts again), seeded; the
 * runs generated a million at a time, keeping the newest window and reference whole (the bench's false-alarm rate).
 */
export function windowSteadyAlarms(
  wp: WindowParams,
  p: SplitParams,
  k: { p0: number; perDay: number; runs: number },
  seed: string,
  scale: WindowScale | null = windowScale(wp),
): number {
  const ws = windowRuns(wp, k.perDay);
  const arls = windowArls(wp, k.perDay);
  const rng = createRng(seed);
  const coin = createRng(`${seed}/coin`);
  const keep = Math.max(...ws) + p.reference_runs;
  const chunk = 1_000_000;
  const P = new Int32Array(keep + chunk + 1);
  let alarms = 0;
  let restart = 0;
  let from = 1;
  for (let done = 0; done < k.runs; ) {
    const n = Math.min(chunk + keep + 1 - from, k.runs - done);
    for (let t = from; t < from + n; t++) P[t] = P[t - 1]! + (rng() < k.p0 ? 1 : 0);
    for (let t = from; t < from + n; t++)
      if (windowLookAt(P, t, restart, ws, arls, p, coin(), scale) !== null) {
        alarms++;
        restart = t;
      }
    done += n;
    const end = from + n - 1;
    P.copyWithin(0, end - keep, end + 1);
    restart = Math.max(0, restart - (end - keep));
    from = keep + 1;
  }
  return alarms;
}

/** The least of 3, 5, 10, 15, 20, 30, 50, 100 runs a day at which the prediction reaches `target`; null: none. */
export function runsPerDayFor(
  wp: WindowParams,
  p: SplitParams,
  k: { p0: number; p1: number; days: number },
  target: number,
  reps = 500,
): number | null {
  for (const perDay of [3, 5, 10, 15, 20, 30, 50, 100])
    if (predictedWindowDetection(wp, p, { ...k, perDay }, reps) >= target) return perDay;
  return null;
}

/** The false-alarm rates (per 1,000 steady template-days, the design's 1 scaled) falseAlarmsFor tries, in order. */
export const FALSE_ALARM_GRID = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500];

/**
 * The least false-alarm rate on FALSE_ALARM_GRID at which the prediction at `perDay` runs a day reaches `target` (the
 * budget scaled: every ARL divided by the rate); null: none does.
 */
export function falseAlarmsFor(
  wp: WindowParams,
  p: SplitParams,
  k: { p0: number; p1: number; days: number; perDay: number },
  target: number,
  reps = 500,
): number | null {
  for (const budget of FALSE_ALARM_GRID)
    if (predictedWindowDetection({ ...wp, budget }, p, k, reps) >= target) return budget;
  return null;
}

/**
 * One step of fitting a window mixture's `design_days` to a false-alarm target: alarms scale about as 1/ARL, so the
 * design moves by (measured / target)^1.1 (a little past proportional: the boundary's integer steps damp it).
 */
export const refitDesignDays = (design: number, measuredRate: number, targetRate: number): number =>
  measuredRate > 0 ? design * (measuredRate / targetRate) ** 1.1 : design / 2;
