// Exact run-length figures of change detectors on 0/1 runs as Markov chains (pure): the integer-score CUSUM and the
// moving-window count test; average run length, detection by a deadline, thresholds calibrated to an exact ARL.

/**
 * A detector as a chain on its states: after a fail (pass) state i moves to `fail[i]` (`pass[i]`), -1 = alarm; on
 * entering state j it alarms with probability 1 - stay[j] (a randomised boundary, so any ARL can be met exactly).
 */
export interface DetectorChain {
  fail: Int32Array;
  pass: Int32Array;
  stay: Float64Array;
  /** The state it starts in (before any run). */
  start: number;
}

/** One run at pass rate p: the survival mass of v moved into out (cleared first). */
function stepMass(c: DetectorChain, v: Float64Array, out: Float64Array, p: number, alarms: boolean): void {
  out.fill(0);
  for (let i = 0; i < v.length; i++) {
    const m = v[i]!;
    if (m === 0) continue;
    const f = c.fail[i]!;
    const s = c.pass[i]!;
    if (f >= 0) out[f]! += m * (1 - p) * (alarms ? c.stay[f]! : 1);
    if (s >= 0) out[s]! += m * p * (alarms ? c.stay[s]! : 1);
  }
}

const total = (v: Float64Array): number => v.reduce((a, b) => a + b, 0);

/** The start distribution after `warm` runs at rate p that cannot alarm (a moving window filled with history). */
function warmed(c: DetectorChain, p: number, warm: number): Float64Array<ArrayBuffer> {
  let v = new Float64Array(c.fail.length);
  let w = new Float64Array(c.fail.length);
  v[c.start] = 1;
  for (let t = 0; t < warm; t++) {
    stepMass(c, v, w, p, false);
    [v, w] = [w, v];
  }
  return v;
}

/**
 * Average run length at pass rate p: sum over t of P(no alarm in the first t runs), iterated until the survival's
 * ratio from one run to the next settles (the chain's quasi-stationary decay) and the geometric tail added exactly.
 */
export function averageRunLength(c: DetectorChain, p: number, warm = 0, maxSteps = 1_000_000): number {
  let v = warmed(c, p, warm);
  let w = new Float64Array(v.length);
  let sum = 0;
  let prev = total(v);
  let prevRatio = Number.NaN;
  for (let t = 0; t < maxSteps; t++) {
    sum += prev;
    stepMass(c, v, w, p, true);
    [v, w] = [w, v];
    const s = total(v);
    const ratio = s / prev;
    if (t > 20 && ratio < 1 && Math.abs(ratio - prevRatio) < 1e-9 * (1 - ratio)) return sum + s / (1 - ratio);
    prevRatio = ratio;
    prev = s;
    if (s === 0) return sum;
  }
  return sum;
}

/**
 * P(alarm within the first `post` runs at rate p1 | no alarm in the `pre` runs at rate p0 before them): the
 * detection of a change after `pre` steady runs, counted only without an earlier false alarm.
 */
export function detectionWithin(c: DetectorChain, p0: number, p1: number, pre: number, post: number, warm = 0): number {
  let v = warmed(c, p0, warm);
  let w = new Float64Array(v.length);
  for (let t = 0; t < pre; t++) {
    stepMass(c, v, w, p0, true);
    [v, w] = [w, v];
  }
  const alive = total(v);
  for (let t = 0; t < post; t++) {
    stepMass(c, v, w, p1, true);
    [v, w] = [w, v];
  }
  return (alive - total(v)) / alive;
}

/**
 * The integer-score CUSUM S = max(0, S + a) after a fail, max(0, S - b) after a pass; alarms when S > h, and with
 * probability gamma when S = h. a, b > 0 integers (log-likelihood ratios on a grid).
 */
export function cusumChain(a: number, b: number, h: number, gamma: number): DetectorChain {
  const n = h + 1;
  const fail = new Int32Array(n);
  const pass = new Int32Array(n);
  const stay = new Float64Array(n).fill(1);
  for (let s = 0; s < n; s++) {
    fail[s] = s + a > h ? -1 : s + a;
    pass[s] = Math.max(0, s - b);
  }
  stay[h] = 1 - gamma;
  return { fail, pass, stay, start: 0 };
}

/** The grid steps of the Bernoulli CUSUM of p0 against p1 < p0: a fail adds ln((1-p1)/(1-p0)), a pass ln(p1/p0). */
export function cusumSteps(p0: number, p1: number, grid: number): { a: number; b: number; unit: number } {
  const up = Math.log((1 - p1) / (1 - p0));
  const down = -Math.log(p1 / p0);
  // Equal steps (p1 = 1 - p0) are one unit each: exact, no grid.
  if (Math.abs(up - down) < 1e-12) return { a: 1, b: 1, unit: up };
  const unit = Math.min(up, down) / grid;
  return { a: Math.round(up / unit), b: Math.round(down / unit), unit };
}

const popcount = (x: number): number => {
  let n = 0;
  for (let m = x; m; m &= m - 1) n++;
  return n;
};
/** The mask without its highest set bits beyond the k lowest (the k most recent passes). */
function keepLowest(m: number, k: number): number {
  let x = m;
  while (popcount(x) > k) x &= ~(1 << (31 - Math.clz32(x)));
  return x;
}

/**
 * The moving-window count test: alarm when the last w runs hold at most c passes, and with probability gamma when
 * they hold c + 1. State: the positions of the c + 2 most recent passes in the window (bit i = the run i runs ago),
 * the least that decides every future alarm; w <= 30.
 */
export function windowChain(w: number, c: number, gamma: number): DetectorChain {
  if (w > 30 || w < 1) throw new RangeError(`window ${w}: 1-30 runs`);
  const full = w === 31 ? 0x7fffffff : (1 << w) - 1;
  const k = c + 2;
  const index = new Map<number, number>([[0, 0]]);
  const masks = [0];
  const fail: number[] = [];
  const pass: number[] = [];
  for (let i = 0; i < masks.length; i++) {
    const m = masks[i]!;
    for (const [bit, out] of [
      [0, fail],
      [1, pass],
    ] as const) {
      const next = keepLowest(((m << 1) | bit) & full, k);
      let j = index.get(next);
      if (j === undefined) {
        j = masks.length;
        index.set(next, j);
        masks.push(next);
      }
      out.push(j);
    }
  }
  const stay = Float64Array.from(masks, (m) => {
    const n = popcount(m);
    return n <= c ? 0 : n === c + 1 ? 1 - gamma : 1;
  });
  return { fail: Int32Array.from(fail), pass: Int32Array.from(pass), stay, start: 0 };
}

export interface Calibrated {
  /** The integer threshold (CUSUM h in grid units, window c) and the boundary's alarm probability. */
  threshold: number;
  gamma: number;
  arl: number;
  chain: DetectorChain;
}

/**
 * The boundary probability gamma at which the ARL at rate p0 is exactly `target`, given ARL(0) >= target >= ARL(1):
 * regula falsi (Illinois) on 1/ARL, nearly linear in gamma.
 */
function calibrateGamma(make: (gamma: number) => DetectorChain, p0: number, target: number, warm: number) {
  const f = (g: number): number => 1 / averageRunLength(make(g), p0, warm) - 1 / target;
  let [g0, g1] = [0, 1];
  let [f0, f1] = [f(0), f(1)];
  let side = 0;
  let g = 0;
  for (let i = 0; i < 60 && f0 < 0 && f1 > 0; i++) {
    g = (g0 * f1 - g1 * f0) / (f1 - f0);
    const fg = f(g);
    if (Math.abs(fg) * target < 1e-10) break;
    if (fg < 0) {
      [g0, f0] = [g, fg];
      if (side === -1) f1 /= 2;
      side = -1;
    } else {
      [g1, f1] = [g, fg];
      if (side === 1) f0 /= 2;
      side = 1;
    }
  }
  return f1 <= 0 ? 1 : f0 >= 0 ? 0 : g;
}

function calibrated(
  make: (t: number, gamma: number) => DetectorChain,
  t: number,
  p0: number,
  target: number,
  warm: number,
): Calibrated {
  const gamma = calibrateGamma((g) => make(t, g), p0, target, warm);
  const chain = make(t, gamma);
  return { threshold: t, gamma, arl: averageRunLength(chain, p0, warm), chain };
}

/**
 * The Bernoulli CUSUM of p0 against p1 (steps on a grid of `grid` units for the smaller one) whose ARL at p0 is
 * exactly `target`: the least h whose ARL reaches it, then the boundary probability.
 */
function calibrateCusum(p0: number, p1: number, target: number, grid = 100): Calibrated & { unit: number } {
  const { a, b, unit } = cusumSteps(p0, p1, grid);
  const make = (h: number, g: number): DetectorChain => cusumChain(a, b, h, g);
  let lo = 0;
  let hi = Math.max(a, b);
  while (averageRunLength(make(hi, 0), p0) < target) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const m = Math.floor((lo + hi) / 2);
    if (averageRunLength(make(m, 0), p0) >= target) hi = m;
    else lo = m;
  }
  return { ...calibrated(make, hi, p0, target, 0), unit };
}

/**
 * The window count test on the last w runs (filled with steady runs before it looks) whose ARL at p0 is exactly
 * `target`: the largest c whose ARL reaches it (counted up from 0: each step's chain is larger), then gamma.
 */
export function calibrateWindow(w: number, p0: number, target: number): Calibrated {
  let c = 0;
  while (c + 1 < w && averageRunLength(windowChain(w, c, 1), p0, w) >= target) c++;
  return calibrated((t, g) => windowChain(w, t, g), c, p0, target, w);
}

/** A collapse the drop detector should catch: pass rate p0 -> p1 at `perDay` runs a day, caught within `days`. */
export interface DriftCase {
  p0: number;
  p1: number;
  perDay: number;
  days: number;
}

/** Steady runs before the change (the detector's state is then its steady one; issue 39's reference). */
export const STEADY_RUNS = 300;
/** Template-days between false alarms the detectors are calibrated to. */
export const FALSE_ALARM_DAYS = 1000;

/** A case's run-length terms: the ARL that is 1 false alarm per FALSE_ALARM_DAYS and the runs by the deadline. */
export const caseRuns = (k: DriftCase): { arl: number; post: number } => ({
  arl: FALSE_ALARM_DAYS * k.perDay,
  post: Math.round(k.days * k.perDay),
});

/** The oracle CUSUM (p0 and p1 known, ARL exactly 1,000 days): P(alarm by the deadline | none before). */
export function oracleCusumDetection(k: DriftCase, grid = 100): { detection: number; h: number; gamma: number } {
  const { arl, post } = caseRuns(k);
  const c = calibrateCusum(k.p0, k.p1, arl, grid);
  return {
    detection: detectionWithin(c.chain, k.p0, k.p1, STEADY_RUNS, post),
    h: c.threshold * c.unit,
    gamma: c.gamma,
  };
}

/** The oracle window count test on the last w runs (p0 known, ARL exactly 1,000 days): detection by the deadline. */
export function oracleWindowDetection(k: DriftCase, w: number): { detection: number; c: number; gamma: number } {
  const { arl, post } = caseRuns(k);
  const c = calibrateWindow(w, k.p0, arl);
  return { detection: detectionWithin(c.chain, k.p0, k.p1, STEADY_RUNS, post, w), c: c.threshold, gamma: c.gamma };
}
