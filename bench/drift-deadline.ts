// bench: fits window_full_pass's design_days for a deadline (one window of that many days, the whole budget) so the
// real false-alarm rate, p0 estimated from 300 runs, is 0.95 per 1,000 template-days.   node --import tsx bench/drift-deadline.ts
import { type WindowParams, windowRuns, windowSteadyAlarms } from '../lib/stats/change.js';
import { DEADLINE_DAYS, DEADLINE_PER_DAY } from '../lib/stats/deadline.js';

const args = process.argv.slice(2);
const arg = (name: string, d: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
/** The false alarms per 1,000 template-days fitted to (a little under the target 1) and the p0 of the steady runs. */
const TARGET = arg('--per-thousand', 0.95);
const P0 = arg('--p0', 0.6);
/** Expected alarms of each fitting round (the design from all rounds pooled), then of the check on fresh seeds. */
const ROUNDS = [300, 1000, 2000];
const CHECK = arg('--check-alarms', 1000);
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

function main(): void {
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
}

main();
