// Streams feedback summary rows into per-template statistics and finishes them into the scores file's entries.
// Pure: memory per template is bounded by the trend and recurring windows, not by the number of runs.
import type { FeedbackIndexRow, Interval, Outcome, Template, Trend } from '../schema/types.generated.js';
import {
  blendScore,
  judgeVarianceWithSamples,
  countedOutcome,
  mechanicalComposite,
  normaliseWeights,
  runMechanicalValue,
  type BlendWeights,
  type MechanicalParams,
} from './formula.js';
import {
  addMoment,
  average,
  emptyMoments,
  mean,
  sampleVariance,
  t95,
  tInterval,
  wilsonInterval,
  type Moments,
} from '../stats/stats.js';
import { plural } from '../base/plural.js';

export interface ScoreSettings {
  weights: BlendWeights;
  mechanical: MechanicalParams;
  trendWindow: number;
  recurringWindow: number;
  /** Newest scored runs kept per template for the triggers (drop window + baseline); at least trendWindow. */
  recentSize?: number;
  /** Blend judged templates (phase >= 3 with the judge enabled for score-templates; phase 4 for selection). */
  blend: boolean;
  /** Why the blend is off, for basis_reason. */
  blendOffReason: string;
}

/** One scored run as kept in the recent windows. */
export interface RecentRun {
  bead: string;
  completed_at: string;
  ms: number;
  outcome: Outcome;
  mechanical: number;
  judge: number | null;
  issues: { key: string; text: string }[];
}

interface Acc {
  template: string;
  outcomes: Record<Outcome, number>;
  /** Scored runs counted by their resolved verdict, passes it lowered, runs counted by outcome alone. */
  resolution: { counted: number; not_passes: number; by_outcome: number };
  retried: number;
  retryKnown: number;
  retrySum: number;
  m: Moments;
  composite: Moments;
  j: Moments;
  /** Over judged runs: sum of their mechanical values and of mechanical x judge, for the blend's covariance. */
  mJudged: Moments;
  sumMJ: number;
  /** Over judged runs: the sum of each one's samples' variance over their count (0 when judged once). */
  within: number;
  issues: Map<string, number>;
  recent: RecentRun[];
  recentJudged: RecentRun[];
}

const OUTCOMES: Outcome[] = ['full_pass', 'partial_pass', 'agent_failure', 'infra_failure', 'timeout', 'unmeasured'];

/** Newest last; ties on time broken by bead id only so the order is stable. */
export function byCompletion(a: { ms: number; bead: string }, b: { ms: number; bead: string }): number {
  return a.ms - b.ms || (a.bead < b.bead ? -1 : a.bead > b.bead ? 1 : 0);
}

/** Keeps the newest `size` runs by completion time; trims lazily so each push is O(1) amortised. */
function pushRecent(list: RecentRun[], run: RecentRun, size: number): void {
  list.push(run);
  if (list.length >= size * 2) {
    list.sort(byCompletion);
    list.splice(0, list.length - size);
  }
}

function newest(list: RecentRun[], size: number): RecentRun[] {
  return [...list].sort(byCompletion).slice(-size);
}

export class TemplateAggregator {
  private readonly accs = new Map<string, Acc>();
  private readonly keep: number;
  constructor(readonly settings: ScoreSettings) {
    this.keep = Math.max(settings.trendWindow, settings.recentSize ?? 0);
  }

  add(row: FeedbackIndexRow): void {
    let a = this.accs.get(row.template);
    if (!a) {
      a = {
        template: row.template,
        outcomes: { full_pass: 0, partial_pass: 0, agent_failure: 0, infra_failure: 0, timeout: 0, unmeasured: 0 },
        resolution: { counted: 0, not_passes: 0, by_outcome: 0 },
        retried: 0,
        retryKnown: 0,
        retrySum: 0,
        m: emptyMoments(),
        composite: emptyMoments(),
        j: emptyMoments(),
        mJudged: emptyMoments(),
        sumMJ: 0,
        within: 0,
        issues: new Map(),
        recent: [],
        recentJudged: [],
      };
      this.accs.set(row.template, a);
    }
    // Only a resolved run is a pass (countedOutcome); every figure below reads the outcome as counted.
    const counted = countedOutcome(row);
    const outcome = counted.outcome;
    a.outcomes[outcome] += 1;
    const m = runMechanicalValue(outcome, row.retries, this.settings.mechanical);
    if (m === null) return; // infra failure or nothing measured: counted as a run, never scored
    if (counted.by === 'resolution') a.resolution.counted += 1;
    else a.resolution.by_outcome += 1;
    if (counted.lowered) a.resolution.not_passes += 1;
    addMoment(a.m, m);
    if (row.retries !== null) {
      a.retryKnown += 1;
      a.retrySum += row.retries;
      if (row.retries > 0) a.retried += 1;
    }
    if (row.composite !== null) addMoment(a.composite, row.composite);
    const judge = row.judge?.score ?? null;
    if (judge !== null) {
      addMoment(a.j, judge);
      addMoment(a.mJudged, m);
      a.sumMJ += m * judge;
      const k = row.judge!.samples;
      if (k !== undefined && k > 1) a.within += (row.judge!.variance ?? 0) / k;
      for (const key of new Set(row.judge!.issues.map((i) => i.key))) a.issues.set(key, (a.issues.get(key) ?? 0) + 1);
    }
    const run: RecentRun = {
      bead: row.bead,
      completed_at: row.completed_at,
      ms: Date.parse(row.completed_at),
      outcome,
      mechanical: m,
      judge,
      issues: row.judge ? row.judge.issues.map((i) => ({ key: i.key, text: i.text })) : [],
    };
    pushRecent(a.recent, run, this.keep);
    if (judge !== null) pushRecent(a.recentJudged, run, this.settings.recurringWindow);
  }

  /** The newest scored runs of a template (up to recentSize), oldest first. */
  recent(template: string): RecentRun[] {
    const a = this.accs.get(template);
    return a ? newest(a.recent, this.keep) : [];
  }

  templates(): string[] {
    return [...this.accs.keys()].sort();
  }

  /** The newest judged runs of a template (for recurring-issue triggers), oldest first. */
  recentJudged(template: string): RecentRun[] {
    const a = this.accs.get(template);
    return a ? newest(a.recentJudged, this.settings.recurringWindow) : [];
  }

  /** Every template's entry, best score first (null scores last), ties by name. */
  finish(): Template[] {
    const out = [...this.accs.values()].map((a) => finishTemplate(a, this.settings));
    return out.sort((x, y) => (y.score ?? -1) - (x.score ?? -1) || (x.template < y.template ? -1 : 1));
  }
}

function rate(k: number, n: number) {
  return { value: n > 0 ? k / n : null, n, interval: wilsonInterval(k, n) };
}

/** Interval of w_m x mean(m) + w_j x mean(j) where the judged runs are a subset of the scored ones. */
export function blendInterval(
  center: number,
  m: Moments,
  j: Moments,
  mJudged: Moments,
  sumMJ: number,
  w: BlendWeights,
  within = 0,
): Interval {
  const vm = sampleVariance(m);
  const runs = sampleVariance(j);
  if (vm === null || runs === null) return null;
  // Judged several times (JUDGE_SAMPLES): the samples' own variance widens the judge's.
  const vj = judgeVarianceWithSamples(runs, within, j.n);
  const nw = normaliseWeights(w);
  // Cov(mean m, mean j) = Cov(m_i, j_i) / n_m over the shared (judged) runs.
  const cov = (sumMJ - (mJudged.sum * j.sum) / j.n) / (j.n - 1);
  const variance = Math.max(
    0,
    nw.mechanical ** 2 * (vm / m.n) + nw.judge ** 2 * (vj / j.n) + (2 * nw.mechanical * nw.judge * cov) / m.n,
  );
  const half = t95(Math.min(m.n, j.n) - 1) * Math.sqrt(variance);
  return { low: Math.max(0, center - half), high: Math.min(1, center + half), method: 'delta_t' };
}

/** The score formula over a handful of runs (a trend half): blend of the mean values when judged, else mechanical. */
function scoreOfRuns(runs: RecentRun[], s: ScoreSettings): number | null {
  if (runs.length === 0) return null;
  const mech = Math.min(1, Math.max(0, average(runs.map((r) => r.mechanical))!));
  const judged = runs.filter((r) => r.judge !== null);
  if (!s.blend || judged.length === 0) return mech;
  return blendScore(mech, average(judged.map((r) => r.judge!)), s.weights);
}

/** A run's value in the score's per-run form: mechanical, or the blend of mechanical and judge when judged. */
function perRun(r: RecentRun, s: ScoreSettings): number {
  if (!s.blend || r.judge === null) return r.mechanical;
  const w = normaliseWeights(s.weights);
  return w.mechanical * r.mechanical + w.judge * r.judge;
}

/**
 * 95% interval of later - earlier: two-sample t with the pooled variance of the two halves' per-run values (under
 * "no trend" they are one sample), centred on the change; null below 2 runs a half.
 */
export function trendInterval(
  earlier: number[],
  later: number[],
  change: number | null,
): NonNullable<Trend['interval']> | null {
  if (change === null || earlier.length < 2 || later.length < 2) return null;
  const a = emptyMoments();
  const b = emptyMoments();
  for (const x of earlier) addMoment(a, x);
  for (const x of later) addMoment(b, x);
  const pooled = ((a.n - 1) * sampleVariance(a)! + (b.n - 1) * sampleVariance(b)!) / (a.n + b.n - 2);
  const half = t95(a.n + b.n - 2) * Math.sqrt(pooled * (1 / a.n + 1 / b.n));
  return { low: Math.max(-1, change - half), high: Math.min(1, change + half), method: 't' };
}

function trendOf(runs: RecentRun[], s: ScoreSettings): Trend {
  const half = Math.floor(runs.length / 2);
  const earlier = half > 0 ? scoreOfRuns(runs.slice(0, half), s) : null;
  const later = half > 0 ? scoreOfRuns(runs.slice(runs.length - half), s) : null;
  const round = (x: number) => Math.round(x * 1e9) / 1e9;
  const change = earlier !== null && later !== null ? round(later - earlier) : null;
  const interval = trendInterval(
    runs.slice(0, half).map((r) => perRun(r, s)),
    runs.slice(runs.length - half).map((r) => perRun(r, s)),
    change,
  );
  return {
    window: s.trendWindow,
    runs: runs.map((r) => ({
      bead: r.bead,
      completed_at: r.completed_at,
      outcome: r.outcome,
      mechanical: round(r.mechanical),
      judge: r.judge,
    })),
    earlier,
    later,
    change,
    interval,
    distinguishable: interval === null ? null : interval.low > 0 || interval.high < 0,
  };
}

function finishTemplate(a: Acc, s: ScoreSettings): Template {
  const o = a.outcomes;
  const runs = OUTCOMES.reduce((t, k) => t + o[k], 0);
  const scored = runs - o.infra_failure - o.unmeasured;
  const mechanical = mechanicalComposite(
    {
      full_pass: o.full_pass,
      partial_pass: o.partial_pass,
      timeout: o.timeout,
      scored,
      retried: a.retried,
      retry_known: a.retryKnown,
    },
    s.mechanical,
  );
  const judge = mean(a.j);
  const blended = s.blend ? blendScore(mechanical, judge, s.weights) : null;
  let basisReason: string;
  if (mechanical === null)
    basisReason =
      o.unmeasured > 0
        ? `no scored runs (infra failures, and ${plural(o.unmeasured, 'unmeasured run')}: no check configured)`
        : 'no scored runs (only infra failures)';
  else if (blended !== null) basisReason = `blend of mechanical and judge over ${plural(a.j.n, 'judged run')}`;
  else if (!s.blend) basisReason = s.blendOffReason;
  else basisReason = 'no judged runs: mechanical kept';
  const topIssues = [...a.issues.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 5)
    .map(([key, n]) => ({ key, runs: n, share: n / a.j.n }));
  return {
    template: a.template,
    runs,
    outcomes: { ...o },
    scored_runs: scored,
    resolution: { ...a.resolution },
    full_pass_rate: rate(o.full_pass, scored),
    pass_rate: rate(o.full_pass + o.partial_pass, scored),
    retry_rate: rate(a.retried, a.retryKnown),
    timeout_rate: rate(o.timeout, scored),
    mean_retries: a.retryKnown > 0 ? a.retrySum / a.retryKnown : null,
    run_composite: { value: mean(a.composite), n: a.composite.n, interval: tInterval(a.composite) },
    mechanical: { value: mechanical, n: scored, interval: tInterval(a.m, mechanical) },
    judge: { value: judge, n: a.j.n, interval: tInterval(a.j) },
    blended: {
      value: blended,
      interval: blended === null ? null : blendInterval(blended, a.m, a.j, a.mJudged, a.sumMJ, s.weights, a.within),
    },
    score: blended ?? mechanical,
    basis: blended !== null ? 'blended' : 'mechanical',
    basis_reason: basisReason,
    top_issues: topIssues,
    trend: trendOf(newest(a.recent, s.trendWindow), s),
  };
}
