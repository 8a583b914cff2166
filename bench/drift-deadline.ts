// bench: fits window_full_pass's design_days for a deadline (one window of that many days, the whole budget) so the
// real false-alarm rate, p0 estimated from 300 runs, is 0.95 per 1,000 template-days.   node --import tsx bench/drift-deadline.ts
import { type WindowParams, type WindowScale, windowRuns, windowSteadyAlarms } from '../lib/stats/change.js';
import {
  DEADLINE_DAYS,
  DEADLINE_PER_DAY,
  deadlineFactor,
  FACTOR_LEVEL,
  FACTOR_REFERENCE,
  FACTOR_WINDOW,
} from '../lib/stats/deadline.js';

const args = process.argv.slice(2);
const arg = (name: string, d: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
/** The false alarms per 1,000 template-days fitted to (a little under the target 1) and the p0 of the steady runs. */
const TARGET = arg('--per-thousand', 0.95);
const P0 = arg('--p0', 0.6);
/** Expected alarms of each fitting round (the design from all rounds pooled), then of the check on fresh seeds. */
const ROUNDS = [300, 1000, 2000];
const CHECK = arg('--check-alarms', 1000);
/** Only these cells (runs a day:deadline days, comma-separated), e.g. --cells 3:4,3:5; the factor fit skipped. */
const CELLS = args.includes('--cells') ? args[args.indexOf('--cells') + 1]!.split(',') : null;
const sp = { reference_runs: 300, min_reference_runs: 80, monitor_runs: 300 };
/** Alarms scale about as design_days^-BETA (refitDesignDays' 1.1 inverted). */
const BETA = 1 / 1.1;

const steadyAlarms = (wp: WindowParams, perDay: number, runs: number, seed: string): number =>
  windowSteadyAlarms(wp, sp, { p0: P0, perDay, runs }, seed);

/** design_days at `perDay` for one window of `days` days: rounds pooled (alarms ~ A x design^-BETA, A from all). */
function fitDesign(days: number, perDay: number, start: number): WindowParams {
  const target = TARGET / (1000 * perDay);
  let wp: WindowParams = { window_days: [days], shares: [1], min_window_runs: 12, design_days: start, volume_slope: 0 };
  let alarms = 0;
  let weighted = 0;
  for (const [i, expected] of ROUNDS.entries()) {
    const runs = Math.round(expected / target);
    alarms += steadyAlarms(wp, perDay, runs, `deadline-fit-${days}-${perDay}-${i}`);
    weighted += runs * wp.design_days ** -BETA;
    wp = { ...wp, design_days: (alarms / weighted / target) ** (1 / BETA) };
  }
  return wp;
}

/** The factor fit: the deadline's window at the run rate it is fitted at (12 runs: 2 days at 6 a day). */
const FACTOR_AT: Record<number, { perDay: number; days: number }> = {
  12: { perDay: 6, days: 2 },
  20: { perDay: 10, days: 2 },
  70: { perDay: 10, days: 7 },
};
const FACTOR_TARGET = arg('--factor-per-thousand', 0.9);
const FACTOR_ROUNDS = [100, 200];
/** Expected alarms of the refit with the interpolated table (the factor is read at the estimated level), then the check. */
const FACTOR_REFINE = arg('--factor-refine-alarms', 200);
const FACTOR_CHECK = arg('--factor-check-alarms', 250);

const factorWindow = (w: number): { wp: WindowParams; perDay: number } => {
  const { perDay, days } = FACTOR_AT[w]!;
  const wp = {
    window_days: [days],
    shares: [1],
    min_window_runs: 12,
    design_days: 1,
    volume_slope: 0,
    deadline_days: days,
  };
  return { wp, perDay };
};

/** Steady alarms of a cell (the reference always exactly n runs at level p0) over `expected` alarms' worth of runs. */
function cellAlarms(w: number, n: number, p0: number, expected: number, seed: string, scale: WindowScale) {
  const { wp, perDay } = factorWindow(w);
  const runs = Math.round((expected * 1000 * perDay) / FACTOR_TARGET);
  const sp = { reference_runs: n, min_reference_runs: n, monitor_runs: 300 };
  return { alarms: windowSteadyAlarms(wp, sp, { p0, perDay, runs }, seed, scale), days: runs / perDay };
}

/** The factor on the design ARL for one cell, a constant factor: rounds pooled as fitDesign. */
function fitFactor(w: number, n: number, p0: number, start: number): number {
  let f = start;
  let alarms = 0;
  let weighted = 0;
  for (const [i, expected] of FACTOR_ROUNDS.entries()) {
    const scale = f;
    const r = cellAlarms(w, n, p0, expected, `factor-fit-${w}-${n}-${p0}-${i}`, () => scale);
    alarms += r.alarms;
    weighted += r.days * f ** -BETA;
    f = ((1000 * alarms) / weighted / FACTOR_TARGET) ** (1 / BETA);
  }
  return f;
}

/**
 * Fits DEADLINE_FACTOR plane by plane (a window's): each cell with a constant factor, then one refit of every cell with
 * the plane interpolated at the estimated level, then checked so on fresh seeds at every grid point.
 */
function fitFactors(): void {
  const t0 = performance.now();
  console.log(
    `\nfactor on the deadline window's design ARL by window, reference runs (held fixed) and level, fitted to ${FACTOR_TARGET} false alarms per 1,000 days (refits of ${FACTOR_ROUNDS.join(', ')} expected alarms, then ${FACTOR_REFINE} with the table interpolated at the estimated level), checked so on ${FACTOR_CHECK} expected alarms, fresh seeds`,
  );
  console.log('window (runs) | runs a day | reference runs | level | factor | false alarms /1,000 days [95%] (alarms)');
  const table: number[][][] = FACTOR_WINDOW.map(() => FACTOR_REFERENCE.map(() => FACTOR_LEVEL.map(() => 1)));
  const interpolated: WindowScale = (w, n, level) => deadlineFactor(w, n, level, table);
  const worst: number[] = [];
  for (const [a, w] of FACTOR_WINDOW.entries()) {
    for (const [b, n] of FACTOR_REFERENCE.entries()) {
      let f = 1;
      for (const [c, p0] of FACTOR_LEVEL.entries()) table[a]![b]![c] = f = fitFactor(w, n, p0, f);
    }
    const refit = FACTOR_REFERENCE.map((n) =>
      FACTOR_LEVEL.map((p0) => cellAlarms(w, n, p0, FACTOR_REFINE, `factor-refine-${w}-${n}-${p0}`, interpolated)),
    );
    for (const [b] of FACTOR_REFERENCE.entries())
      for (const [c] of FACTOR_LEVEL.entries()) {
        const r = refit[b]![c]!;
        const rate = Math.max(r.alarms, 1) / r.days;
        table[a]![b]![c] = Number((table[a]![b]![c]! * ((1000 * rate) / FACTOR_TARGET) ** (1 / BETA)).toPrecision(3));
      }
    for (const [b, n] of FACTOR_REFERENCE.entries())
      for (const [c, p0] of FACTOR_LEVEL.entries()) {
        const { alarms: k, days: d } = cellAlarms(w, n, p0, FACTOR_CHECK, `factor-check-${w}-${n}-${p0}`, interpolated);
        const f = (x: number): string => ((1000 * x) / d).toFixed(2);
        worst.push((1000 * k) / d);
        console.log(
          `${w} | ${FACTOR_AT[w]!.perDay} | ${n} | ${p0} | ${table[a]![b]![c]} | ${f(k)} [${f((Math.sqrt(k) - 0.98) ** 2)}, ${f((Math.sqrt(k + 1) + 0.98) ** 2)}] (${k})`,
        );
      }
    console.log(`window ${w}: ${JSON.stringify(table[a])} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log(`DEADLINE_FACTOR = ${JSON.stringify(table)}`);
  console.log(
    `checked: ${Math.min(...worst).toFixed(2)}-${Math.max(...worst).toFixed(2)} false alarms per 1,000 days (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

function main(): void {
  if (args.includes('--factor-only')) {
    fitFactors();
    return;
  }
  const t0 = performance.now();
  console.log(
    `design_days for a deadline: one window of the deadline's days (at least 12 runs), fitted to ${TARGET} false alarms per 1,000 days at p0 ${P0} (refits of ${ROUNDS.join(', ')} expected alarms, then ${CHECK} on fresh seeds)`,
  );
  console.log('deadline (days) | runs a day | window (runs) | design_days | false alarms /1,000 days [95%] (alarms)');
  const table: number[][] = [];
  for (const perDay of DEADLINE_PER_DAY) {
    const row: number[] = [];
    const byWindow = new Map<number, { design: number; check: string }>();
    let design = 1500;
    for (const days of DEADLINE_DAYS) {
      if (CELLS !== null && !CELLS.includes(`${perDay}:${days}`)) continue;
      const w = windowRuns(
        { window_days: [days], shares: [1], min_window_runs: 12, design_days: 1, volume_slope: 0 },
        perDay,
      )[0]!;
      let cell = byWindow.get(w);
      if (cell === undefined) {
        const wp = fitDesign(days, perDay, design);
        const runs = Math.round((CHECK * 1000 * perDay) / TARGET);
        const k = steadyAlarms(wp, perDay, runs, `deadline-check-${days}-${perDay}`);
        const d = runs / perDay;
        const f = (x: number): string => ((1000 * x) / d).toFixed(3);
        cell = {
          design: Math.round(wp.design_days),
          check: `${f(k)} [${f((Math.sqrt(k) - 0.98) ** 2)}, ${f((Math.sqrt(k + 1) + 0.98) ** 2)}] (${k})`,
        };
        byWindow.set(w, cell);
      }
      design = cell.design;
      row.push(design);
      console.log(`${days} | ${perDay} | ${w} | ${design} | ${cell.check}`);
    }
    table.push(row);
  }
  console.log(`DEADLINE_DESIGN = ${JSON.stringify(table)}`);
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  if (CELLS === null) fitFactors();
}

main();
