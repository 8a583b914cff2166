// bench: issue 39 item 2's untried detectors (scan statistics over window lengths, one threshold, no budget split),
// calibrated and counted as bench/drift-mixtures.ts does.   node --import tsx bench/drift-scan.ts [--only a,b]
import { STEADY_RUNS } from '../lib/stats/chains.js';
import { createRng } from '../lib/stats/prng.js';
import { wilsonInterval } from '../lib/stats/stats.js';
import {
  conditionalLowerTail,
  plugInLowerTail,
  predictiveLowerTail,
  windowGlrScore,
} from '../lib/stats/window-scores.js';

const args = process.argv.slice(2);
const arg = (name: string, d: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
/** Collapses per case, steady runs per fit and per check (each fit's false alarms within about 20%). */
const REPS = arg('--reps', 2000);
const STEADY = arg('--steady-runs', 1_000_000);
const PER_THOUSAND = arg('--per-thousand', 1);
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : null;
const REFERENCE = 300;
const MIN_REFERENCE = 80;

/** A window's score per count x = 0..w given the reference's k passes in n runs: alarm when score <= alpha. */
type Scorer = (w: number, n: number, k: number) => Float64Array;
const SCORERS: Record<string, Scorer> = {
  binom: plugInLowerTail,
  betabin: predictiveLowerTail,
  fisher: conditionalLowerTail,
  glr: windowGlrScore,
};

const CACHE = new Map<string, Float64Array>();
function table(name: string, w: number, n: number, k: number): Float64Array {
  const key = `${name}/${w}/${n}/${k}`;
  let t = CACHE.get(key);
  if (!t) {
    t = SCORERS[name]!(w, n, k);
    CACHE.set(key, t);
  }
  return t;
}

interface Candidate {
  label: string;
  scorer: string;
  /** Windows in days and each one's weight on alpha (alarm when score <= alpha x weight). */
  days: number[];
  weights: number[];
}

const windowsAt = (c: Candidate, perDay: number): number[] => c.days.map((d) => Math.max(12, Math.round(d * perDay)));

/** Score of window w after run t (P prefix sums), 2 when it has no reference or starts before `restart`. */
function score(name: string, P: Int32Array, t: number, w: number, restart: number): number {
  const w0 = t - w;
  if (w0 < restart || w0 < MIN_REFERENCE) return 2;
  const r0 = Math.max(0, w0 - REFERENCE);
  return table(name, w, w0 - r0, P[w0]! - P[r0]!)[P[t]! - P[w0]!]!;
}

/** Steady scores per window (restart 0), so alpha can be bisected cheaply; restarts applied in `alarmsAt`. */
function steadyScores(c: Candidate, perDay: number, seed: string): { P: Int32Array; s: Float32Array[]; ws: number[] } {
  const rng = createRng(seed);
  const P = new Int32Array(STEADY + 1);
  for (let i = 0; i < STEADY; i++) P[i + 1] = P[i]! + (rng() < 0.6 ? 1 : 0);
  const ws = windowsAt(c, perDay);
  const s = ws.map((w) => {
    const a = new Float32Array(STEADY + 1);
    for (let t = 1; t <= STEADY; t++) a[t] = score(c.scorer, P, t, w, 0);
    return a;
  });
  return { P, s, ws };
}

/** Alarms per run at alpha, restarting after each (a window counts only when it starts at or after the restart). */
function alarmsAt(st: { s: Float32Array[]; ws: number[] }, weights: number[], alpha: number): number {
  let alarms = 0;
  let restart = 0;
  const lim = weights.map((x) => Math.fround(alpha * x));
  for (let t = 1; t <= STEADY; t++)
    for (let i = 0; i < st.ws.length; i++)
      if (t - st.ws[i]! >= restart && st.s[i]![t]! <= lim[i]!) {
        alarms++;
        restart = t;
        break;
      }
  return alarms / STEADY;
}

/** alpha for the target rate on one steady sequence (bisection on ln alpha), and the rate on a fresh one. */
function calibrate(c: Candidate, perDay: number): { alpha: number; perThousand: number } {
  const target = PER_THOUSAND / (1000 * perDay);
  const st = steadyScores(c, perDay, `scan-fit-${perDay}`);
  let [lo, hi] = [Math.log(1e-9), Math.log(0.5)];
  for (let i = 0; i < 30; i++) {
    const m = (lo + hi) / 2;
    if (alarmsAt(st, c.weights, Math.exp(m)) > target) hi = m;
    else lo = m;
  }
  const alpha = Math.exp(lo);
  const check = steadyScores(c, perDay, `scan-check-${perDay}`);
  return { alpha, perThousand: 1000 * perDay * alarmsAt(check, c.weights, alpha) };
}

function detection(c: Candidate, alpha: number, k: { p1: number; perDay: number; days: number }, seed: string) {
  const ws = windowsAt(c, k.perDay);
  const lim = c.weights.map((x) => alpha * x);
  const rng = createRng(seed);
  const n = STEADY_RUNS + Math.round(k.days * k.perDay);
  const P = new Int32Array(n + 1);
  let hits = 0;
  let counted = 0;
  for (let r = 0; r < REPS; r++) {
    for (let j = 0; j < n; j++) P[j + 1] = P[j]! + (rng() < (j < STEADY_RUNS ? 0.6 : k.p1) ? 1 : 0);
    let at = 0;
    for (let t = 1; t <= n && at === 0; t++)
      for (let i = 0; i < ws.length; i++)
        if (score(c.scorer, P, t, ws[i]!, 0) <= lim[i]!) {
          at = t;
          break;
        }
    if (at !== 0 && at <= STEADY_RUNS) continue;
    counted++;
    if (at !== 0) hits++;
  }
  return { hits, n: counted };
}

const pct = (r: { hits: number; n: number }): string => {
  const i = wilsonInterval(r.hits, r.n)!;
  return `${((100 * r.hits) / r.n).toFixed(1)} [${(100 * i.low).toFixed(1)}, ${(100 * i.high).toFixed(1)}]`;
};

const CANDIDATES: Candidate[] = [
  { label: 'plug-in 2 + 7 (1 : 0.18)', scorer: 'binom', days: [2, 7], weights: [1, 0.18] },
  { label: 'scan plug-in 2 + 7', scorer: 'binom', days: [2, 7], weights: [1, 1] },
  { label: 'scan predictive 2 + 7', scorer: 'betabin', days: [2, 7], weights: [1, 1] },
  { label: 'scan Fisher 2 + 7', scorer: 'fisher', days: [2, 7], weights: [1, 1] },
  { label: 'scan GLR 2 + 7', scorer: 'glr', days: [2, 7], weights: [1, 1] },
  { label: 'scan predictive 2 + 4 + 7', scorer: 'betabin', days: [2, 4, 7], weights: [1, 1, 1] },
  { label: 'scan GLR 1.5..10', scorer: 'glr', days: [1.5, 2, 3, 4, 5, 7, 10], weights: [1, 1, 1, 1, 1, 1, 1] },
  { label: 'predictive 2 + 7 (1 : 2)', scorer: 'betabin', days: [2, 7], weights: [1, 2] },
  { label: 'predictive 2 + 7 (1 : 4)', scorer: 'betabin', days: [2, 7], weights: [1, 4] },
  { label: 'GLR 2 + 7 (1 : 3)', scorer: 'glr', days: [2, 7], weights: [1, 3] },
  { label: 'plug-in 2 + 5 (1 : 0.5)', scorer: 'binom', days: [2, 5], weights: [1, 0.5] },
  { label: 'plug-in 2 + 10 (1 : 0.5)', scorer: 'binom', days: [2, 10], weights: [1, 0.5] },
  { label: 'predictive 2 + 6 + 8 (1 : 1.5 : 1.5)', scorer: 'betabin', days: [2, 6, 8], weights: [1, 1.5, 1.5] },
];

function main(): void {
  const t0 = performance.now();
  console.log(
    `scan detectors: alpha fitted to ${PER_THOUSAND} false alarm(s) per 1,000 days per run rate on ${STEADY / 1e6}M steady runs at 0.6 (checked on a fresh ${STEADY / 1e6}M); ${REPS} collapses a case after ${STEADY_RUNS} steady runs. Target 75.5 / 50.5 / 53.`,
  );
  console.log(
    'candidate | alpha 10/day, 3/day (false alarms /1,000 days) | 0.45, 10/day, 2 d | 0.45, 3/day, 4 d | 0.2, 10/day, 7 d | all three',
  );
  for (const c of CANDIDATES) {
    if (ONLY && !ONLY.some((o) => c.label.includes(o))) continue;
    const f10 = calibrate(c, 10);
    const f3 = calibrate(c, 3);
    const d1 = detection(c, f10.alpha, { p1: 0.15, perDay: 10, days: 2 }, 'mix-d1');
    const d2 = detection(c, f3.alpha, { p1: 0.15, perDay: 3, days: 4 }, 'mix-d2');
    const d3 = detection(c, f10.alpha, { p1: 0.4, perDay: 10, days: 7 }, 'mix-d3');
    const met = d1.hits / d1.n >= 0.755 && d2.hits / d2.n >= 0.505 && d3.hits / d3.n >= 0.53;
    console.log(
      [
        c.label,
        `${f10.alpha.toExponential(2)} (${f10.perThousand.toFixed(2)}), ${f3.alpha.toExponential(2)} (${f3.perThousand.toFixed(2)})`,
        pct(d1),
        pct(d2),
        pct(d3),
        met ? 'met' : 'no',
      ].join(' | '),
    );
  }
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

main();
