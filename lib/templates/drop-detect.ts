// The score_drop trigger's change detector on a template's recent runs (issue 25): what it saw when it fires, and
// the upward CUSUM that closes it once the level is back. Pure.
import type { Config, DropChange, Trigger } from '../schema/types.generated.js';
import {
  detectDrop,
  falseAlarmsFor,
  predictedWindowDetection,
  recoveryStatistic,
  runsPerDayFor,
  runsPerDay,
  scaledThreshold,
  type DetectorName,
  type DetectorParams,
} from '../stats/change.js';
import { deadlineDesignDays } from '../stats/deadline.js';
import { isNoteTableFor, tableNote } from '../stats/drift-note.js';
import { createRng } from '../stats/prng.js';
import { addMoment, emptyMoments, mean, tInterval, wilsonInterval } from '../stats/stats.js';
import { byCompletion, type RecentRun } from './aggregate.js';
import { normaliseWeights, type BlendWeights } from './formula.js';

type DropSettings = Config['templates']['triggers']['drop'];
type Sample = DropChange['before'];
export type Recovery = NonNullable<Trigger['evidence']['recovery']>;

const round = (x: number): number => Math.round(x * 1e9) / 1e9;
const binary = (name: DetectorName): boolean => name.endsWith('full_pass');

/**
 * One run's value in the tested series: its mechanical value, or, when the blend is active and the run was judged,
 * w_m x mechanical + w_j x judge (the per-run form of the blended score).
 */
export function seriesValue(r: RecentRun, blend: BlendWeights | null): number {
  if (blend === null || r.judge === null) return r.mechanical;
  const w = normaliseWeights(blend);
  return w.mechanical * r.mechanical + w.judge * r.judge;
}

/** The per-run series a detector watches: 1/0 for a full pass, else the run's score (mechanical or blended). */
function seriesOf(name: DetectorName, runs: RecentRun[], blend: BlendWeights | null): number[] {
  return runs.map((r) => (binary(name) ? (r.outcome === 'full_pass' ? 1 : 0) : seriesValue(r, blend)));
}

function paramsOf(name: DetectorName, d: DropSettings): DetectorParams {
  if (name === 'window_full_pass') {
    const wp = d.window_full_pass;
    // By deadline the configured design is the fitted table's at 10 runs a day (the evidence's reference rate).
    const design = wp.deadline_days === null ? wp.design_days : deadlineDesignDays(wp.deadline_days, 10);
    return { shift: 0, threshold: Math.round(design), window_runs: 0, windows: wp };
  }
  if (name === 'glr_full_pass') {
    const g = d.glr_full_pass;
    return { shift: g.min_shift, threshold: g.threshold, window_runs: 0, volume_slope: g.volume_slope };
  }
  const c = name === 'cusum_full_pass' ? d.cusum_full_pass : name === 'cusum_score' ? d.cusum_score : null;
  const w = name === 'fisher_full_pass' ? d.fisher_full_pass : name === 'welch_score' ? d.welch_score : null;
  return { shift: c?.shift ?? 0, threshold: (c ?? w)!.threshold, window_runs: w?.window_runs ?? 0 };
}

/** n, mean and 95% interval (Wilson for 0/1 values, t otherwise) of consecutive runs. */
function changeSample(runs: RecentRun[], xs: number[], isBinary: boolean): Sample {
  const m = emptyMoments();
  for (const x of xs) addMoment(m, x);
  const mu = mean(m);
  return {
    n: m.n,
    mean: mu === null ? null : round(mu),
    interval: isBinary ? wilsonInterval(m.sum, m.n) : tInterval(m),
    first_completed_at: runs[0]?.completed_at ?? null,
    last_completed_at: runs[runs.length - 1]?.completed_at ?? null,
    beads: runs.map((r) => r.bead),
  };
}

const perDayOf = (runs: RecentRun[]): number =>
  runsPerDay(runs.length, runs[0]?.ms ?? 0, runs[runs.length - 1]?.ms ?? 0);

/**
 * Runs the configured detector over the template's recent runs (those completed after `restartAfter` only monitored).
 * Returns the evidence when it fires, else null.
 */
export function changeTest(
  recent: RecentRun[],
  d: DropSettings,
  blend: BlendWeights | null,
  restartAfter: string | null,
): DropChange | null {
  const name = d.test as DetectorName;
  const runs = [...recent].sort(byCompletion);
  const xs = seriesOf(name, runs, blend);
  const since = restartAfter === null ? Number.NEGATIVE_INFINITY : Date.parse(restartAfter);
  const restart = runs.findIndex((r) => r.ms > since);
  const perDay = perDayOf(runs);
  const p = paramsOf(name, d);
  // The window test's boundary coin: the first draw seeded by the run's bead id (the same on every re-score).
  const coins = name === 'window_full_pass' ? runs.map((r) => createRng(r.bead)()) : null;
  const det = detectDrop(name, xs, p, d, restart < 0 ? runs.length : restart, perDay, coins);
  if (!det?.alarm) return null;
  const at = det.changeIndex;
  return {
    test: name,
    series: binary(name) ? 'full_pass' : blend ? 'blended' : 'mechanical',
    statistic: round(det.statistic),
    threshold: round(det.threshold),
    configured_threshold: p.threshold,
    runs_per_day: round(perDay),
    shift: name.startsWith('cusum') || name === 'glr_full_pass' ? p.shift : null,
    reference_level: round(det.level),
    reference_sd: det.sd === null ? null : round(det.sd),
    change_at: runs[at]!.completed_at,
    change_day: new Date(runs[at]!.ms).toISOString().slice(0, 10),
    before: changeSample(runs.slice(det.referenceStart, at), xs.slice(det.referenceStart, at), binary(name)),
    after: changeSample(runs.slice(at), xs.slice(at), binary(name)),
  };
}

/**
 * Whether an open change trigger's template is back at its pre-change level: the upward CUSUM from the dropped level
 * (pre-change - shift) to the pre-change level over the runs since the change exceeds the series' CUSUM threshold.
 */
export function recoveryTest(
  ev: DropChange,
  recent: RecentRun[],
  d: DropSettings,
  blend: BlendWeights | null,
): Recovery | null {
  const name = ev.test as DetectorName;
  const cusum: DetectorName = binary(name) ? 'cusum_full_pass' : 'cusum_score';
  const p = paramsOf(cusum, d);
  const runs = [...recent].sort(byCompletion);
  const after = runs.filter((r) => r.ms >= Date.parse(ev.change_at));
  const level = ev.before.mean;
  if (after.length === 0 || level === null) return null;
  const xs = seriesOf(name, after, blend);
  const c = recoveryStatistic(xs, binary(name), level, ev.reference_sd, p.shift);
  const h = scaledThreshold(cusum, p.threshold, perDayOf(runs));
  if (!(c.value > h)) return null;
  const back = xs.slice(c.start);
  return {
    statistic: round(c.value),
    threshold: round(h),
    since: after[c.start]!.completed_at,
    n: back.length,
    level: back.length ? round(back.reduce((a, b) => a + b, 0) / back.length) : null,
    level_before: level,
  };
}

/**
 * What window_full_pass can catch at this template's own runs a day and reference level p0: a collapse to p0/4 within
 * 2 days and a fall to 2/3 of p0 within 7 (by a deadline: both within it); for each, the runs a day and the false alarms
 * per 1,000 steady days at this rate that reach 90%. Default settings: bench/drift-note-table.ts's table (tableNote);
 * others: seeded simulation as bench/drift.ts (p0 to 0.01, the rate to 0.1 a day, memoised).
 */
export function detectionNote(ev: DropChange, d: DropSettings): string | null {
  const p0 = Math.round(100 * (ev.before.mean ?? 0)) / 100;
  if (ev.test !== 'window_full_pass' || p0 <= 0) return null;
  const perDay = Math.max(0.1, Math.round(10 * ev.runs_per_day) / 10);
  const wp = d.window_full_pass;
  const deadline = wp.deadline_days;
  const pct = (x: number): string => `${Math.round(100 * x)}%`;
  // The default settings read the simulated table (interpolated; both falls within the deadline); others simulate.
  const table = isNoteTableFor(wp, d);
  const parts = [
    { p1: p0 / 4, days: deadline ?? 2, what: `a fall to ${fmt2(p0 / 4)}` },
    { p1: (2 * p0) / 3, days: deadline ?? 7, what: `a fall to ${fmt2((2 * p0) / 3)}` },
  ].map(({ p1, days, what }, fall) => {
    const k = { p0, p1, days };
    const { now, need, alarms } = table
      ? tableNote(fall, p0, perDay)
      : {
          now: predictedWindowDetection(wp, d, { ...k, perDay }),
          need: runsPerDayFor(wp, d, k, 0.9),
          alarms: falseAlarmsFor(wp, d, { ...k, perDay }, 0.9),
        };
    const rate = need === null ? 'more than 100 runs a day' : `about ${need} runs a day`;
    const fa = alarms === null ? 'more than 500' : `~${alarms}`;
    return `${what} within ${fmt2(days)} days ${table ? 'about ' : ''}${pct(now)} (90% at ${rate}, or at ${fmt2(perDay)} a day with ${fa} false alarms per 1,000 days)`;
  });
  const back =
    wp.backstop_days !== null && wp.backstop_share > 0 && wp.backstop_days > (deadline ?? 0)
      ? `, a backstop of ${fmt2(wp.backstop_days)} days at ${fmt2(100 * wp.backstop_share)}% of the budget`
      : '';
  const by =
    deadline === null
      ? ''
      : ` (configured deadline ${fmt2(deadline)} days: one window of ${fmt2(deadline)} days${back})`;
  return `At ${fmt2(perDay)} runs a day from ${fmt2(p0)} this detector${by} flags ${parts.join(', ')}; 1 false alarm per 1,000 steady days (${table ? 'bench/drift-note-table.ts, 500 seeded collapses a cell' : 'bench/drift.ts, 500 seeded collapses each'}).`;
}

const fmt2 = (x: number): string => (Math.round(x * 100) / 100).toString();
