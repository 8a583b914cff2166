// Phase 4 template selection: keep the incumbent unless a challenger clearly beats it, a configured share of
// exploration. Pure (the draw comes in).
import type { Config, Interval } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

export interface Candidate {
  template: string;
  score: number | null;
  scored_runs: number;
  /** 95% interval of the score (null with fewer than 2 runs). */
  interval?: Interval;
}

export type MarginSettings = Config['templates']['selection'];

interface Margin {
  rule: MarginSettings['rule'];
  min_gap: number;
  /** The template chosen last time by score for this task type; null when none. */
  incumbent: string | null;
  /** The best-scoring candidate, when it is not the incumbent. */
  challenger: string | null;
  decision: 'no_incumbent' | 'incumbent_best' | 'kept' | 'switched';
  detail: string;
}

export interface Selection {
  mode: 'exploit' | 'explore' | 'only_candidate' | 'cold_start';
  chosen: string;
  draw: number | null;
  reason: string;
  margin: Margin | null;
}

const describe = (c: Candidate): string =>
  c.score === null
    ? `${c.template} (no scored runs)`
    : `${c.template} (score ${c.score.toFixed(3)}${c.interval ? ` [${c.interval.low.toFixed(3)}, ${c.interval.high.toFixed(3)}]` : ''} over ${plural(c.scored_runs, 'run')})`;

/** Best score first; equal scores prefer the one with fewer runs (it has more to tell), then the id. */
function better(a: Candidate, b: Candidate): number {
  return (b.score ?? -1) - (a.score ?? -1) || a.scored_runs - b.scored_runs || (a.template < b.template ? -1 : 1);
}

/** Whether the challenger clearly beats the incumbent under the rule, and why, in words. */
function clears(ch: Candidate, inc: Candidate, m: MarginSettings): { clear: boolean; detail: string } {
  const byInterval = ch.interval != null && inc.interval != null && ch.interval.low > inc.interval.high;
  const gap = ch.score !== null && inc.score !== null ? ch.score - inc.score : null;
  const byGap = gap !== null && gap >= m.min_gap - 1e-12;
  const intervalText =
    ch.interval != null && inc.interval != null
      ? `challenger's interval low ${ch.interval.low.toFixed(3)} ${byInterval ? '>' : '<='} incumbent's high ${inc.interval.high.toFixed(3)}`
      : 'an interval is missing (fewer than 2 runs)';
  const gapText = gap === null ? 'no gap' : `gap ${gap.toFixed(3)} ${byGap ? '>=' : '<'} ${m.min_gap}`;
  if (m.rule === 'interval') return { clear: byInterval, detail: intervalText };
  if (m.rule === 'min_gap') return { clear: byGap, detail: gapText };
  return { clear: byInterval || byGap, detail: `${intervalText}; ${gapText}` };
}

/**
 * The choice by score: the incumbent (the last choice by score) stays unless the best challenger clears it by the
 * margin rule; without an incumbent among the candidates, the best score.
 */
function exploitChoice(
  sorted: Candidate[],
  incumbent: string | null,
  m: MarginSettings,
): { pick: Candidate; margin: Margin } {
  const best = sorted[0]!;
  const inc = incumbent === null ? undefined : sorted.find((c) => c.template === incumbent);
  const base = { rule: m.rule, min_gap: m.min_gap, incumbent: inc ? inc.template : null };
  if (!inc || inc.score === null) {
    return {
      pick: best,
      margin: {
        ...base,
        challenger: null,
        decision: 'no_incumbent',
        detail: inc
          ? `incumbent ${inc.template} has no score here`
          : incumbent
            ? `incumbent ${incumbent} is not a candidate`
            : 'no earlier choice for this task type',
      },
    };
  }
  if (best.template === inc.template || (best.score ?? -1) <= inc.score) {
    return {
      pick: inc,
      margin: {
        ...base,
        challenger: null,
        decision: 'incumbent_best',
        detail: `incumbent ${inc.template} has the best score`,
      },
    };
  }
  const c = clears(best, inc, m);
  return c.clear
    ? { pick: best, margin: { ...base, challenger: best.template, decision: 'switched', detail: c.detail } }
    : { pick: inc, margin: { ...base, challenger: best.template, decision: 'kept', detail: c.detail } };
}

/**
 * With probability `share` explore: a uniform pick among every candidate but the one exploitation would take
 * (unscored ones included, so new templates get runs); otherwise exploit (exploitChoice). `random` yields uniform
 * draws in [0, 1).
 */
export function selectTemplate(
  candidates: Candidate[],
  share: number,
  random: () => number,
  margin: { settings: MarginSettings; incumbent: string | null } = {
    settings: { rule: 'interval', min_gap: 0.1 },
    incumbent: null,
  },
): Selection {
  if (candidates.length === 0) throw new Error('selectTemplate: no candidates');
  const sorted = [...candidates].sort(better);
  if (sorted.length === 1)
    return {
      mode: 'only_candidate',
      chosen: sorted[0]!.template,
      draw: null,
      reason: `only candidate: ${describe(sorted[0]!)}`,
      margin: null,
    };
  if (sorted.every((c) => c.score === null)) {
    const draw = random();
    const pick = sorted[Math.min(sorted.length - 1, Math.floor(draw * sorted.length))]!;
    return {
      mode: 'cold_start',
      chosen: pick.template,
      draw,
      reason: `no candidate has a score yet: uniform pick among ${sorted.length}`,
      margin: null,
    };
  }
  // Only a template with enough measured runs is chosen on its score; the others only by exploration.
  const minRuns = margin.settings.min_runs ?? 1;
  const evidenced = sorted.filter((c) => c.score !== null && c.scored_runs >= minRuns);
  if (evidenced.length === 0) {
    const draw = random();
    const pick = sorted[Math.min(sorted.length - 1, Math.floor(draw * sorted.length))]!;
    return {
      mode: 'explore',
      chosen: pick.template,
      draw,
      reason: `exploring: no template has the ${minRuns} measured runs a choice by score needs (templates.selection.min_runs): uniform pick ${describe(pick)} among ${sorted.length}`,
      margin: null,
    };
  }
  const { pick: best, margin: m } = exploitChoice(evidenced, margin.incumbent, margin.settings);
  const draw = random();
  if (draw < share) {
    const others = sorted.filter((c) => c !== best);
    const pick = others[Math.min(others.length - 1, Math.floor(random() * others.length))]!;
    return {
      mode: 'explore',
      chosen: pick.template,
      draw,
      reason: `exploring (draw ${draw.toFixed(4)} < share ${share}): ${describe(pick)} instead of ${describe(best)}`,
      margin: m,
    };
  }
  const why =
    m.decision === 'kept'
      ? `kept the incumbent ${describe(best)}: challenger ${describe(evidenced[0]!)} does not clear it (${m.rule}: ${m.detail})`
      : m.decision === 'switched'
        ? `switched to ${describe(best)} from incumbent ${m.incumbent} (${m.rule}: ${m.detail})`
        : `best score: ${describe(best)}${m.decision === 'incumbent_best' ? ' (the incumbent)' : ''}`;
  const thin = sorted.filter((c) => c.score !== null && c.scored_runs < minRuns && (c.score ?? 0) > (best.score ?? 0));
  const passed = thin.length
    ? `; passed over for too few measured runs (< ${minRuns}): ${thin.map((c) => `${c.template} (${c.scored_runs})`).join(', ')}`
    : '';
  return {
    mode: 'exploit',
    chosen: best.template,
    draw,
    reason: `${why} (draw ${draw.toFixed(4)} >= share ${share})${passed}`,
    margin: m,
  };
}
