// From configuration to the settings the template modules take. Pure.
import type { Config } from '../schema/types.generated.js';
import { UserError } from '../base/errors.js';
import type { ScoreSettings } from './aggregate.js';
import { mechanicalSetProblem } from './formula.js';

export type TemplatesConfig = Config['templates'];

export function templatesConfig(cfg: Config): TemplatesConfig {
  if (!(cfg.templates.weights.mechanical + cfg.templates.weights.judge > 0)) {
    throw new UserError('configuration: /templates/weights: mechanical + judge must be above 0');
  }
  const problem = mechanicalSetProblem(cfg.templates.mechanical);
  if (problem)
    throw new UserError(
      `configuration: /templates/mechanical (${JSON.stringify(cfg.templates.mechanical.name)}): ${problem}`,
    );
  return cfg.templates;
}

/** Newest scored runs kept per template for the drop trigger: what any of its tests looks at. */
export function recentRunsKept(d: TemplatesConfig['triggers']['drop']): number {
  const windowed = Math.max(d.fisher_full_pass.window_runs, d.welch_score.window_runs);
  return Math.max(d.window_runs + d.baseline_runs, d.reference_runs + Math.max(d.monitor_runs, windowed));
}

/** Blend from `fromPhase` on (3 for scoring, 4 for selection) and only with the judge enabled. */
export function scoreSettings(cfg: Config, fromPhase: 3 | 4): ScoreSettings {
  const t = templatesConfig(cfg);
  const blend = cfg.judge.enabled && cfg.judge.phase >= fromPhase;
  const blendOffReason = !cfg.judge.enabled
    ? 'judge disabled (JUDGE_ENABLED=false): mechanical only'
    : `phase ${cfg.judge.phase} (blend from phase ${fromPhase}): mechanical only`;
  return {
    weights: t.weights,
    mechanical: t.mechanical,
    trendWindow: t.trend_window,
    recurringWindow: t.triggers.recurring_window,
    recentSize: recentRunsKept(t.triggers.drop),
    blend,
    blendOffReason,
  };
}
