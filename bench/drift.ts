// bench: issue 39's collapse cases, detection by a deadline at 1 false alarm per 1,000 template-days; exact Markov
// chains (lib/stats/chains.ts) where one exists, else seeded simulation with a 95% interval. Asserts the proven optimum.
//   node --import tsx bench/drift.ts [--reps N] [--steady-runs N] [--deadline-only]
import {
  caseRuns,
  type DriftCase,
  FALSE_ALARM_DAYS,
  oracleCusumDetection,
  oracleWindowDetection,
  STEADY_RUNS,
} from '../lib/stats/chains.js';
import {
  detectDrop,
  type WindowParams,
  windowArls,
  windowLookAt,
  windowRuns,
  windowScale,
  windowSteadyAlarms,
} from '../lib/stats/change.js';
import { deadlineDesignDays } from '../lib/stats/deadline.js';
import { createRng } from '../lib/stats/prng.js';
import { wilsonInterval } from '../lib/stats/stats.js';
import defaults from '../config/defaults.json' with { type: 'json' };
import type { Config } from '../lib/schema/types.generated.js';

const args = process.argv.slice(2);
const arg = (name: string, d: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
/** Simulated collapses per cell (each after STEADY_RUNS steady runs). */
const REPS = arg('--reps', 10_000);
/** The shipped detector rescans its kept runs at each look (slow): fewer collapses and steady days. */
const SHIPPED_REPS = arg('--shipped-reps', 2000);
const SHIPPED_STEADY_DAYS = arg('--shipped-days', 50_000);
/** Steady runs per simulated false-alarm rate (about 400 alarms at 10 a day). */
const STEADY = arg('--steady-runs', 4_000_000);
/** Only the deadline detector's row (the oracle, shipped and mixture rows skipped): --deadline-only. */
const DEADLINE_ONLY = args.includes('--deadline-only');

/** Issue 39's cases, its reference values and the proven optimum of any detector (optimal stopping, by the issue). */
const CASES: { k: DriftCase; windows: number[]; optimum: number; exactOptimum: boolean; ref: string }[] = [
  {
    k: { p0: 0.6, p1: 0.15, perDay: 10, days: 2 },
    windows: [18, 19, 20],
    optimum: 0.8452,
    exactOptimum: true,
    ref: '80.1 | 83.9 (20) | 75.3 / 78.5',
  },
  {
    k: { p0: 0.6, p1: 0.15, perDay: 3, days: 4 },
    windows: [10, 11, 12],
    optimum: 0.5705,
    exactOptimum: true,
    ref: '54.4 | 56.7 (11) | 49.5 / 53.6',
  },
  {
    k: { p0: 0.6, p1: 0.4, perDay: 10, days: 7 },
    windows: [50, 60, 70],
    optimum: 0.82,
    exactOptimum: false,
    ref: '65.8 | 68-69 | 51.4 / 56.1',
  },
];

/** A detector seen run by run: prefix sums of passes P (P[t] = passes in the first t runs); true = alarm after run t. */
type Looker = (P: Int32Array, t: number, restart: number, coin: () => number) => boolean;

/** Passes in a window [from, t) and whether the count just entered `count` from above (a fail in, a pass out). */
const passes = (P: Int32Array, from: number, t: number): number => P[t]! - P[from]!;

/** Oracle window count test with a known (c, gamma): <= c passes in the last w runs, c + 1 with probability gamma. */
const oracleWindowLooker =
  (w: number, c: number, gamma: number): Looker =>
  (P, t, restart, coin) => {
    if (t - w < restart) return false;
    const n = passes(P, t - w, t);
    return n <= c || (n === c + 1 && coin() < gamma);
  };

/** Steady alarms per run of a looker at rate p (after an alarm it starts again, its window refilled). */
function alarmRate(look: Looker, p: number, runs: number, seed: string): { alarms: number; runs: number } {
  const rng = createRng(seed);
  const coin = createRng(`${seed}/coin`);
  const P = new Int32Array(runs + 1);
  for (let i = 0; i < runs; i++) P[i + 1] = P[i]! + (rng() < p ? 1 : 0);
  let alarms = 0;
  let restart = 0;
  for (let t = 1; t <= runs; t++)
    if (look(P, t, restart, coin)) {
      alarms++;
      restart = t;
    }
  return { alarms, runs };
}

/** Detections by the deadline among collapses with no alarm in the STEADY_RUNS runs before (the others not counted). */
function detection(look: Looker, k: DriftCase, seed: string, reps = REPS): { hits: number; n: number } {
  const rng = createRng(seed);
  const coin = createRng(`${seed}/coin`);
  const { post } = caseRuns(k);
  const P = new Int32Array(STEADY_RUNS + post + 1);
  let hits = 0;
  let n = 0;
  for (let i = 0; i < reps; i++) {
    for (let j = 0; j < STEADY_RUNS + post; j++) P[j + 1] = P[j]! + (rng() < (j < STEADY_RUNS ? k.p0 : k.p1) ? 1 : 0);
    let at = 0;
    for (let t = 1; t <= STEADY_RUNS + post && at === 0; t++) if (look(P, t, 0, coin)) at = t;
    if (at !== 0 && at <= STEADY_RUNS) continue;
    n++;
    if (at !== 0) hits++;
  }
  return { hits, n };
}

/** Oracle window where no chain is small enough: (c, gamma) from simulated alarm rates (1/ARL linear in gamma). */
function simulatedOracleWindow(
  k: DriftCase,
  w: number,
): { c: number; gamma: number; detection: { hits: number; n: number } } {
  const { arl } = caseRuns(k);
  const rate = (c: number, g: number): number => {
    const r = alarmRate(oracleWindowLooker(w, c, g), k.p0, STEADY, `oracle-window-${w}`);
    return r.alarms / (r.runs - r.alarms * w);
  };
  let c = Math.floor(w * k.p1);
  while (rate(c, 0) > 1 / arl) c--;
  while (rate(c + 1, 0) <= 1 / arl) c++;
  const [r0, r1] = [rate(c, 0), rate(c, 1)];
  const gamma = Math.min(1, Math.max(0, (1 / arl - r0) / (r1 - r0)));
  return { c, gamma, detection: detection(oracleWindowLooker(w, c, gamma), k, `drop-window-${w}`) };
}

const pct = (x: number): string => (100 * x).toFixed(1);
const withInterval = (r: { hits: number; n: number }): string => {
  const i = wilsonInterval(r.hits, r.n)!;
  return `${pct(r.hits / r.n)} [${pct(i.low)}, ${pct(i.high)}]`;
};

/** False alarms per 1,000 template-days from k alarms over `days` steady days, with a 95% interval (Poisson). */
function perThousandDays(k: number, days: number): string {
  const z = 1.96;
  const lo = k === 0 ? 0 : (Math.sqrt(k) - z / 2) ** 2;
  const hi = (Math.sqrt(k + 1) + z / 2) ** 2;
  const f = (x: number): string => ((1000 * x) / days).toFixed(2);
  return `${f(k)} [${f(lo)}, ${f(hi)}] (${k} alarms in ${days} days)`;
}

/** The shipped detector (config default, detectDrop over the kept runs, checked at each day's end). */
function shippedLooker(k: DriftCase): Looker {
  const drop = (defaults as unknown as Config).templates.triggers.drop;
  const g = drop.glr_full_pass;
  const params = { shift: g.min_shift, threshold: g.threshold, window_runs: 0, volume_slope: g.volume_slope };
  const keep = drop.reference_runs + drop.monitor_runs;
  return (P, t, restart) => {
    if (t % Math.round(k.perDay) !== 0) return false;
    const from = Math.max(0, t - keep);
    const xs = new Uint8Array(t - from);
    for (let i = from; i < t; i++) xs[i - from] = P[i + 1]! - P[i]!;
    return detectDrop('glr_full_pass', xs, params, drop, Math.max(0, restart - from), k.perDay)?.alarm === true;
  };
}

/** window_full_pass as configured (p0 from the reference before each window, checked after every run). */
function windowLooker(k: DriftCase, wp: WindowParams): Looker {
  const drop = (defaults as unknown as Config).templates.triggers.drop;
  const ws = windowRuns(wp, k.perDay);
  const arls = windowArls(wp, k.perDay);
  const scale = windowScale(wp);
  return (P, t, restart, coin) => windowLookAt(P, t, restart, ws, arls, drop, coin(), scale) !== null;
}

/** Steady runs for window_full_pass's false-alarm rate (about 200 alarms a case). */
const WINDOW_STEADY = arg('--window-steady-runs', 2_000_000);
/** Steady template-days for the deadline detector's false-alarm rate (about 1,000 alarms a case). */
const DEADLINE_STEADY_DAYS = arg('--deadline-steady-days', 1_000_000);
/** Collapses a case for the deadline row (its first 10,000 the same as at 10,000): +-0.5 points at 95%. */
const DEADLINE_REPS = arg('--deadline-reps', 40_000);
/** Issue 39's realistic bound for a window (rate estimated from 300 runs) and item 2's target, per case. */
const ITEM2 = [
  { bound: 78.5, target: 75.5 },
  { bound: 53.6, target: 50.5 },
  { bound: 56.1, target: 53 },
];

function main(): void {
  const t0 = performance.now();
  console.log(
    `issue 39: a change after ${STEADY_RUNS} steady runs, detected by the deadline and counted only without an earlier false alarm; every detector calibrated to 1 false alarm per ${FALSE_ALARM_DAYS} template-days (ARL ${FALSE_ALARM_DAYS} x runs a day). exact = Markov chain; sim = ${REPS} collapses (95% interval), thresholds from ${STEADY / 1e6}M steady runs`,
  );
  console.log(
    'case | oracle CUSUM (exact) | best window count test | exact optimum | issue reference: CUSUM | window | realistic',
  );
  let bad = 0;
  for (const r of DEADLINE_ONLY ? [] : CASES) {
    const cu = oracleCusumDetection(r.k);
    let best = { text: '', value: 0 };
    for (const w of r.windows) {
      if (w <= 30) {
        const o = oracleWindowDetection(r.k, w);
        if (o.detection > best.value)
          best = {
            value: o.detection,
            text: `${pct(o.detection)} exact (window ${w}, <= ${o.c} passes, ${o.c + 1} with p ${o.gamma.toFixed(2)})`,
          };
      } else {
        const o = simulatedOracleWindow(r.k, w);
        const v = o.detection.hits / o.detection.n;
        if (v > best.value)
          best = {
            value: v,
            text: `${withInterval(o.detection)} sim (window ${w}, <= ${o.c}, ${o.c + 1} with p ${o.gamma.toFixed(2)})`,
          };
      }
    }
    // An exact figure above the proven optimum is a bug in the bench; a simulated one is checked by its interval.
    if (cu.detection > r.optimum || (r.windows[0]! <= 30 && best.value > r.optimum)) bad++;
    const { p0, p1, perDay, days } = r.k;
    console.log(
      [
        `${p0} -> ${p1}, ${perDay}/day, within ${days} days`,
        `${pct(cu.detection)} (h ${cu.h.toFixed(2)})`,
        best.text,
        `${r.exactOptimum ? '' : '<= '}${pct(r.optimum)}`,
        r.ref,
      ].join(' | '),
    );
  }
  console.log(
    '\nglr_full_pass (the default of issue 25, checked at each day end; its threshold from --calibrate of issue 25):',
  );
  for (const r of DEADLINE_ONLY ? [] : CASES) {
    const look = shippedLooker(r.k);
    const steady = alarmRate(look, r.k.p0, SHIPPED_STEADY_DAYS * r.k.perDay, `shipped-steady-${r.k.perDay}`);
    const fa =
      r.k.p1 === 0.4
        ? ''
        : `; false alarms /1,000 days at ${r.k.p0}: ${perThousandDays(steady.alarms, SHIPPED_STEADY_DAYS)}`;
    const det = detection(look, r.k, `shipped-${r.k.perDay}-${r.k.p1}`, SHIPPED_REPS);
    console.log(`${r.k.p0} -> ${r.k.p1}, ${r.k.perDay}/day, within ${r.k.days} days: ${withInterval(det)}${fa}`);
  }
  // The mixture row: the configured windows and shares without the default's deadline.
  const wp: WindowParams = {
    ...(defaults as unknown as Config).templates.triggers.drop.window_full_pass,
    deadline_days: null,
  };
  console.log(
    `\nwindow_full_pass (config: windows ${wp.window_days.join(' + ')} days, >= ${wp.min_window_runs} runs, budget shares ${wp.shares.join(' / ')}, design ${wp.design_days} days; p0 from the 300 runs before each window; after every run). Target (issue 39 item 2): 75.5 / 50.5 / 53:`,
  );
  for (const r of DEADLINE_ONLY ? [] : CASES) {
    const look = windowLooker(r.k, wp);
    const steady = alarmRate(look, r.k.p0, WINDOW_STEADY, `window-steady-${r.k.perDay}`);
    const det = detection(look, r.k, `window-${r.k.perDay}-${r.k.p1}`);
    console.log(
      `${r.k.p0} -> ${r.k.p1}, ${r.k.perDay}/day, within ${r.k.days} days: ${withInterval(det)}; false alarms /1,000 days at ${r.k.p0}: ${perThousandDays(steady.alarms, Math.round(WINDOW_STEADY / r.k.perDay))}`,
    );
  }
  console.log(
    `\nwindow_full_pass by deadline, the default (templates.triggers.drop.window_full_pass.deadline_days: one window of the deadline's days of runs, >= ${wp.min_window_runs} runs, and a backstop window of ${wp.backstop_days} days at ${wp.backstop_share} of the budget when it holds more runs; design_days from lib/stats/deadline.ts, fitted by bench/drift-deadline.ts to 0.95 false alarms per 1,000 days). Each case with its own deadline, ${DEADLINE_REPS} collapses; false alarms on ${DEADLINE_STEADY_DAYS / 1e6}M steady days at 0.6:`,
  );
  let met = 0;
  for (const [i, r] of CASES.entries()) {
    const dwp: WindowParams = { ...wp, deadline_days: r.k.days };
    const look = windowLooker(r.k, dwp);
    const steady = windowSteadyAlarms(
      dwp,
      (defaults as unknown as Config).templates.triggers.drop,
      { p0: r.k.p0, perDay: r.k.perDay, runs: DEADLINE_STEADY_DAYS * r.k.perDay },
      `deadline-steady-${r.k.days}-${r.k.perDay}`,
    );
    const det = detection(look, r.k, `deadline-${r.k.perDay}-${r.k.p1}`, DEADLINE_REPS);
    const { bound, target } = ITEM2[i]!;
    const ok = (100 * det.hits) / det.n >= target && (1000 * steady) / DEADLINE_STEADY_DAYS <= 1;
    if (ok) met++;
    console.log(
      `${r.k.p0} -> ${r.k.p1}, ${r.k.perDay}/day, deadline ${r.k.days} days (window ${windowRuns(dwp, r.k.perDay).join(' + ')} runs, design_days ${deadlineDesignDays(r.k.days, r.k.perDay).toFixed(0)}): ${withInterval(det)} | target ${target}, realistic window bound ${bound}, exact optimum ${r.exactOptimum ? '' : '<= '}${pct(r.optimum)} | false alarms /1,000 days: ${perThousandDays(steady, DEADLINE_STEADY_DAYS)} | ${ok ? 'met' : 'not met'}`,
    );
  }
  console.log(
    `item 2 under the deadline reading (each case its own deadline): ${met} of 3 met. One configuration cannot serve a 2-day and a 7-day deadline at once at 10 runs a day: every mixture of windows and every scan statistic measured (bench/drift-mixtures.ts, bench/drift-scan.ts) stops on a frontier from (75.2, 46.5) to (69.1, 52.8) in those two cases, never (75.5, 53); the config's 2 + 7 row above is one point of it.`,
  );
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  if (bad) {
    console.log(`${bad} exact figure(s) above the proven optimum: the bench is wrong`);
    process.exitCode = 1;
  }
}

main();
