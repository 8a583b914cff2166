// Refinement triggers (seed 003 phase 4): decide which fire and which clear. Pure: state comes in, decisions go out.
import { createHash } from 'node:crypto';
import type { Template, Trigger } from '../types.generated.js';
import { byCompletion, type RecentRun } from './aggregate.js';

export interface TriggerSettings {
  score_drop: number;
  min_runs: number;
  recurring_min_runs: number;
  recurring_window: number;
}

export interface TriggerDecision {
  fire: Trigger[];
  /** Ids of open triggers whose condition no longer holds (or that a new trigger supersedes). */
  clear: string[];
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
  const slug = template.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '').slice(0, 60) || 'template';
  const stamp = now.replace(/[-:]/g, '').replace(/\.\d+/, '').replace(/Z$/, 'Z');
  const hash = createHash('sha256').update(`${template}\0${kind}\0${beads.join(',')}`).digest('hex').slice(0, 8);
  return `${slug}-${kind}-${stamp}-${hash}`;
}

export interface TriggerInput {
  templates: Template[];
  /** Recent judged runs per template (empty when judge data is not to be used). */
  recentJudged: (template: string) => RecentRun[];
  /** Triggers not yet cleared. */
  open: Trigger[];
  settings: TriggerSettings;
  now: string;
}

/**
 * A trigger fires when its condition starts to hold and no open trigger of the same template and kind exists; it
 * clears when the condition is gone, so it can fire again on the next change. A recurring-issue trigger also fires
 * again (superseding the open one) when an issue recurs that the open one did not list.
 */
export function decideTriggers(input: TriggerInput): TriggerDecision {
  const { settings: s, now } = input;
  const fire: Trigger[] = [];
  const clear: string[] = [];
  for (const t of input.templates) {
    const openOf = (kind: Trigger['kind']) => input.open.filter((x) => x.template === t.template && x.kind === kind);
    const recurring = recurringIssues(input.recentJudged(t.template), s.recurring_min_runs);
    const trend = t.trend;

    const change = trend.change;
    const dropped = trend.runs.length >= s.min_runs && change !== null && -change > s.score_drop;
    const openDrop = openOf('score_drop');
    if (dropped && openDrop.length === 0) {
      const beads = trend.runs.map((r) => r.bead);
      fire.push({
        schema_version: '1.0.0',
        id: triggerId(t.template, 'score_drop', now, beads),
        template: t.template,
        kind: 'score_drop',
        fired_at: now,
        cleared_at: null,
        summary: `${t.template}: ${t.basis} score fell from ${trend.earlier!.toFixed(3)} to ${trend.later!.toFixed(3)} over its last ${trend.runs.length} runs (threshold ${s.score_drop}).`,
        evidence: { beads, issues: recurring, trend },
      });
    } else if (!dropped) clear.push(...openDrop.map((x) => x.id));

    const openRec = openOf('recurring_issue');
    const known = new Set(openRec.flatMap((x) => x.evidence.issues.map((i) => i.key)));
    const fresh = recurring.some((i) => !known.has(i.key));
    if (recurring.length > 0 && fresh) {
      const beads = [...new Set(recurring.flatMap((i) => i.beads))];
      const order = new Map(input.recentJudged(t.template).map((r, i) => [r.bead, i]));
      beads.sort((a, b) => order.get(a)! - order.get(b)!);
      fire.push({
        schema_version: '1.0.0',
        id: triggerId(t.template, 'recurring_issue', now, beads),
        template: t.template,
        kind: 'recurring_issue',
        fired_at: now,
        cleared_at: null,
        summary: `${t.template}: the judge reported ${recurring.map((i) => `${i.key} (${i.runs} runs)`).join(', ')} in its last ${input.recentJudged(t.template).length} judged runs.`,
        evidence: { beads, issues: recurring, trend },
      });
      clear.push(...openRec.map((x) => x.id));
    } else if (recurring.length === 0) clear.push(...openRec.map((x) => x.id));
  }
  return { fire, clear };
}
