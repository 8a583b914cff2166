// Refinement triggers (seed 003 phase 4): decide which fire, which stay open and which close, with their evidence.
// Pure: state comes in, decisions go out.
import { createHash } from 'node:crypto';
import type { Config, DropInterval, Template, Trigger } from '../schema/types.generated.js';
import { byCompletion, type RecentRun } from './aggregate.js';
import type { BlendWeights } from './formula.js';
import { addMoment, emptyMoments, mean, sampleVariance, t95, tInterval, type Moments } from '../stats/stats.js';
import { changeTest, detectionNote, recoveryTest, seriesValue, type Recovery } from './drop-detect.js';

type TriggerSettings = Config['templates']['triggers'];
type DropEvidence = DropInterval;
type Sample = DropInterval['window'];

export interface TriggerDecision {
  fire: Trigger[];
  /** Open triggers whose condition still holds: checked_at moves on. */
  keep: string[];
  /** Open triggers to close, each with its reason. */
  close: { id: string; reason: string; recovery?: Recovery }[];
}

type Issues = Trigger['evidence']['issues'];

/** Issues reported in at least `min` of the given judged runs, most frequent first. */
export function recurringIssues(runs: RecentRun[], min: number): Issues {
  const seen = new Map<string, { beads: string[]; example: string }>();
  for (const r of [...runs].sort(byCompletion)) {
    for (const i of r.issues) {
      const e = seen.get(i.key) ?? { beads: [], example: i.text };
      if (!e.beads.includes(r.bead)) e.beads.push(r.bead);
      seen.set(i.key, e);
    }
  }
  return [...seen.entries()]
    .filter(([, e]) => e.beads.length >= min)
    .map(([key, e]) => ({ key, runs: e.beads.length, beads: e.beads, example: e.example }))
    .sort((a, b) => b.runs - a.runs || (a.key < b.key ? -1 : 1));
}

/** A file-safe id: readable template slug, kind, time, and a hash of what fired it. */
export function triggerId(template: string, kind: Trigger['kind'], now: string, beads: string[]): string {
  const slug =
    template
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 60) || 'template';
  const stamp = now.replace(/[-:]/g, '').replace(/\.\d+/, '').replace(/Z$/, 'Z');
  const hash = createHash('sha256')
    .update(`${template}\0${kind}\0${beads.join(',')}`)
    .digest('hex')
    .slice(0, 8);
  return `${slug}-${kind}-${stamp}-${hash}`;
}

const round = (x: number): number => Math.round(x * 1e9) / 1e9;

function momentsOf(runs: RecentRun[], blend: BlendWeights | null): Moments {
  const m = emptyMoments();
  for (const r of runs) addMoment(m, seriesValue(r, blend));
  return m;
}

/**
 * n, mean and the 95% t interval (the one score-templates reports for the mechanical score) of consecutive runs.
 * `floorVariance`: the interval uses at least this sample variance (the drop test gives the window the baseline's).
 */
function sampleOf(runs: RecentRun[], blend: BlendWeights | null, floorVariance: number | null = null): Sample {
  const m = momentsOf(runs, blend);
  const mu = mean(m);
  const own = sampleVariance(m);
  let interval = tInterval(m);
  if (mu !== null && own !== null && floorVariance !== null && floorVariance > own) {
    const half = t95(m.n - 1) * Math.sqrt(floorVariance / m.n);
    interval = { low: Math.max(0, mu - half), high: Math.min(1, mu + half), method: 't' };
  }
  return {
    n: m.n,
    mean: mu === null ? null : round(mu),
    interval,
    first_completed_at: runs[0]?.completed_at ?? null,
    last_completed_at: runs[runs.length - 1]?.completed_at ?? null,
    beads: runs.map((r) => r.bead),
  };
}

/**
 * The drop test: the newest `window_runs` scored runs against at most `baseline_runs` runs just before them.
 * Significant when the window's 95% interval lies wholly below the baseline's and the means differ by at least
 * `min_drop`. null when there are too few runs to test.
 */
function dropTest(
  recent: RecentRun[],
  d: TriggerSettings['drop'],
  blend: BlendWeights | null,
): (DropEvidence & { significant: boolean }) | null {
  const runs = [...recent].sort(byCompletion);
  if (runs.length < d.window_runs + d.min_baseline_runs) return null;
  const windowRuns = runs.slice(-d.window_runs);
  const baselineRuns = runs.slice(
    Math.max(0, runs.length - d.window_runs - d.baseline_runs),
    runs.length - d.window_runs,
  );
  // Under "nothing changed" window and baseline are one sample: each interval uses at least the variance of their
  // union, so neither a window of nearly equal values (a run of failures) nor an unusually clean baseline gets a
  // falsely narrow interval from its own variance.
  const pooled = sampleVariance(momentsOf([...baselineRuns, ...windowRuns], blend));
  const baseline = sampleOf(baselineRuns, blend, pooled);
  const window = sampleOf(windowRuns, blend, pooled);
  const drop = round(baseline.mean! - window.mean!);
  const separated =
    window.interval !== null && baseline.interval !== null && window.interval.high < baseline.interval.low;
  return {
    test: 'interval_separation',
    series: blend ? 'blended' : 'mechanical',
    window,
    baseline,
    drop,
    min_drop: d.min_drop,
    significant: separated && drop >= d.min_drop,
  };
}

const fmt = (x: number | null): string => (x === null ? '—' : x.toFixed(3));
const fmtI = (s: Sample): string =>
  s.interval ? `[${fmt(s.interval.low)}, ${fmt(s.interval.high)}]` : '[no interval]';

export interface TriggerInput {
  templates: Template[];
  /** The newest scored runs per template (drop window + baseline), oldest first. */
  recent: (template: string) => RecentRun[];
  /** Recent judged runs per template (empty when judge data is not to be used). */
  recentJudged: (template: string) => RecentRun[];
  /** Triggers not yet closed. */
  open: Trigger[];
  /** When the template's last score_drop trigger closed (the detector starts again after it), or null. */
  lastDropClosed?: (template: string) => string | null;
  settings: TriggerSettings;
  /** Blend weights when the blend is active (the drop test then runs on blended per-run values), else null. */
  blend: BlendWeights | null;
  now: string;
}

function base(
  t: Template,
  kind: Trigger['kind'],
  now: string,
  beads: string[],
  summary: string,
  evidence: Omit<Trigger['evidence'], 'beads'>,
): Trigger {
  return {
    schema_version: '1.0.0',
    id: triggerId(t.template, kind, now, beads),
    template: t.template,
    kind,
    fired_at: now,
    checked_at: now,
    cleared_at: null,
    closed_reason: null,
    summary,
    evidence: { beads, ...evidence },
  };
}

type Recurring = Trigger['evidence']['issues'];

/** A new score_drop trigger when the configured test finds a drop, else null. */
function fireDrop(
  t: Template,
  input: TriggerInput,
  recent: RecentRun[],
  issues: Recurring,
  trend: Template['trend'],
): Trigger | null {
  const d = input.settings.drop;
  if (d.test !== 'interval_separation') {
    const ev = changeTest(recent, d, input.blend, input.lastDropClosed?.(t.template) ?? null);
    if (!ev) return null;
    const stat =
      ev.test === 'fisher_full_pass'
        ? `p ${ev.statistic.toPrecision(2)} < ${ev.threshold}`
        : ev.test === 'window_full_pass'
          ? `${ev.statistic} full passes in a window, boundary ${ev.threshold}${ev.statistic > ev.threshold ? ' + 1 (the run coin)' : ''}`
          : `${fmt(ev.statistic)} > ${fmt(ev.threshold)}`;
    const beads = [...ev.before.beads, ...ev.after.beads];
    const note = detectionNote(ev, d);
    return base(
      t,
      'score_drop',
      input.now,
      beads,
      `${t.template}: ${ev.test} ${stat}: ${ev.series} ${fmt(ev.after.mean)} ${fmtI(ev.after)} over the ${ev.after.n} runs since ${ev.change_day} against ${fmt(ev.before.mean)} ${fmtI(ev.before)} over the ${ev.before.n} runs before.${note === null ? '' : ` ${note}`}`,
      { issues, trend, drop: ev },
    );
  }
  const test = dropTest(recent, d, input.blend);
  if (!test?.significant) return null;
  const { significant: _, ...drop } = test;
  return base(
    t,
    'score_drop',
    input.now,
    [...drop.baseline.beads, ...drop.window.beads],
    `${t.template}: its last ${drop.window.n} runs average ${fmt(drop.window.mean)} ${fmtI(drop.window)} against ${fmt(drop.baseline.mean)} ${fmtI(drop.baseline)} over the ${drop.baseline.n} runs before (95% intervals apart, drop ${fmt(drop.drop)} >= ${drop.min_drop}).`,
    { issues, trend, drop },
  );
}

/**
 * An open score_drop stays open until its template is back. Change detectors: the upward CUSUM to the pre-change
 * level (recoveryTest). interval_separation: the window's mean back inside the baseline interval it fired against.
 */
function holdDrop(o: Trigger, recent: RecentRun[], input: TriggerInput, out: TriggerDecision): void {
  const ref = o.evidence.drop;
  if (!ref) {
    // Written by the halves-of-20 rule before issue 17: no baseline to hold it against.
    out.close.push({
      id: o.id,
      reason:
        'replaced by the window-against-baseline test: this trigger (two halves of the last runs) has no baseline to stay open against',
    });
    return;
  }
  if (ref.test !== 'interval_separation') {
    const r = recoveryTest(ref, recent, input.settings.drop, input.blend);
    if (!r) out.keep.push(o.id);
    else
      out.close.push({
        id: o.id,
        reason: `recovered: ${ref.series} ${fmt(r.level)} over the ${r.n} runs since ${r.since} against ${fmt(r.level_before)} before the change (upward CUSUM ${fmt(r.statistic)} > ${fmt(r.threshold)})`,
        recovery: r,
      });
    return;
  }
  const windowRuns = [...recent].sort(byCompletion).slice(-input.settings.drop.window_runs);
  const now_ = sampleOf(windowRuns, input.blend);
  const low = ref.baseline.interval?.low ?? ref.baseline.mean;
  if (low === null || now_.mean === null || now_.mean < low) out.keep.push(o.id);
  else
    out.close.push({
      id: o.id,
      reason: `recovered: the last ${now_.n} runs average ${fmt(now_.mean)}, back inside the baseline interval ${fmtI(ref.baseline)} it fired against`,
    });
}

/**
 * score_drop: the detector sees a drop and none is open; it stays open until the pre-change level is back (holdDrop).
 * low_full_pass: while the full-pass rate over ≥ level.min_runs runs is below full_pass_below. recurring_issue: while
 * an issue recurs; a newly recurring one supersedes the open one.
 */
export function decideTriggers(input: TriggerInput): TriggerDecision {
  const { settings: s, now } = input;
  const out: TriggerDecision = { fire: [], keep: [], close: [] };
  for (const t of input.templates) {
    const openOf = (kind: Trigger['kind']) => input.open.filter((x) => x.template === t.template && x.kind === kind);
    const recent = input.recent(t.template);
    const recurring = recurringIssues(input.recentJudged(t.template), s.recurring_min_runs);
    const trend = t.trend;

    // score_drop
    const openDrop = openOf('score_drop');
    if (openDrop.length === 0) {
      const fired = fireDrop(t, input, recent, recurring, trend);
      if (fired) out.fire.push(fired);
    } else for (const o of openDrop) holdDrop(o, recent, input, out);

    // low_full_pass
    const lv = s.level;
    const fp = t.full_pass_rate;
    // Fires on evidence (interval test: the whole 95% interval below the threshold), stays open while the rate
    // itself is below it.
    const below = fp.value !== null && fp.n >= lv.min_runs && fp.value < lv.full_pass_below;
    const evident = below && (lv.test === 'point' || (fp.interval !== null && fp.interval.high < lv.full_pass_below));
    const openLow = openOf('low_full_pass');
    const low = openLow.length > 0 ? below : evident;
    if (low && openLow.length === 0) {
      const beads = [...recent].sort(byCompletion).map((r) => r.bead);
      out.fire.push(
        base(
          t,
          'low_full_pass',
          now,
          beads,
          `${t.template}: full-pass rate ${fmt(fp.value)} over ${fp.n} scored runs (95% ${fp.interval ? `[${fmt(fp.interval.low)}, ${fmt(fp.interval.high)}]` : 'no interval'}) is below ${lv.full_pass_below} (at least ${lv.min_runs} runs, ${lv.test} test).`,
          {
            issues: recurring,
            trend,
            level: {
              test: lv.test,
              full_pass_rate: fp.value!,
              n: fp.n,
              interval: fp.interval,
              below: lv.full_pass_below,
              min_runs: lv.min_runs,
            },
          },
        ),
      );
    } else if (low) out.keep.push(...openLow.map((x) => x.id));
    else {
      for (const o of openLow)
        out.close.push({
          id: o.id,
          reason: `full-pass rate ${fmt(fp.value)} over ${fp.n} scored runs is no longer below ${lv.full_pass_below}`,
        });
    }

    // recurring_issue
    const openRec = openOf('recurring_issue');
    const known = new Set(openRec.flatMap((x) => x.evidence.issues.map((i) => i.key)));
    const fresh = recurring.filter((i) => !known.has(i.key));
    if (recurring.length > 0 && fresh.length > 0) {
      const judged = input.recentJudged(t.template);
      const beads = [...new Set(recurring.flatMap((i) => i.beads))];
      const order = new Map(judged.map((r, i) => [r.bead, i]));
      beads.sort((a, b) => order.get(a)! - order.get(b)!);
      out.fire.push(
        base(
          t,
          'recurring_issue',
          now,
          beads,
          `${t.template}: the judge reported ${recurring.map((i) => `${i.key} (${i.runs} runs)`).join(', ')} in its last ${judged.length} judged runs.`,
          { issues: recurring, trend },
        ),
      );
      for (const o of openRec)
        out.close.push({ id: o.id, reason: `superseded: ${fresh.map((i) => i.key).join(', ')} now recur too` });
    } else if (recurring.length > 0) out.keep.push(...openRec.map((x) => x.id));
    else
      for (const o of openRec)
        out.close.push({
          id: o.id,
          reason: `no issue recurs in at least ${s.recurring_min_runs} of the last ${s.recurring_window} judged runs`,
        });
  }
  return out;
}
