// Seed 001's shouldAutoAccept, rule for rule and in its order, then seed 000's auto_merge_minimum (pure).
import type { Config, RaceAutoAcceptDecision, RaceCategory } from '../schema/types.generated.js';
import { CATEGORIES } from './categories.js';

export type AutoAcceptConfig = NonNullable<Config['race']>['auto_accept'];

export interface AutoAcceptInput {
  winner: {
    id: string;
    score: number;
    confidence: number;
    categories: Record<RaceCategory, number | null>;
    composite: number | null;
  } | null;
  /** Score of #2, when there is one. */
  secondScore: number | null;
  solutionCount: number;
}

export function shouldAutoAccept(
  input: AutoAcceptInput,
  config: AutoAcceptConfig,
  autoMergeMinimum: number,
): RaceAutoAcceptDecision {
  const no = (reason: string): RaceAutoAcceptDecision => ({
    enabled: config.enabled,
    accept: false,
    reason,
    solution: null,
  });
  if (!config.enabled) return no('Auto-acceptance disabled');
  const w = input.winner;
  if (!w) return no('No clear winner');
  if (w.score < config.min_score) return no(`Score ${w.score.toFixed(2)} below threshold ${config.min_score}`);
  if (w.confidence < config.min_confidence)
    return no(`Confidence ${w.confidence.toFixed(2)} below threshold ${config.min_confidence}`);
  for (const cat of CATEGORIES) {
    const minimum = config.category_minimums[cat];
    const score = w.categories[cat];
    // A floor that cannot be checked is not met: accepting unseen is what the floors exist to prevent.
    if (score === null) return no(`${cat} could not be measured (minimum ${minimum})`);
    if (score < minimum) return no(`${cat} score ${score.toFixed(2)} below minimum ${minimum}`);
  }
  if (input.solutionCount > 1 && input.secondScore !== null) {
    const gap = w.score - input.secondScore;
    if (gap < config.min_score_gap) return no(`Score gap ${gap.toFixed(2)} below minimum ${config.min_score_gap}`);
  }
  if (w.composite === null) return no(`Composite could not be computed (auto_merge_minimum ${autoMergeMinimum})`);
  if (!(w.composite * 100 > autoMergeMinimum))
    return no(`Composite ${(w.composite * 100).toFixed(1)} not above auto_merge_minimum ${autoMergeMinimum}`);
  return { enabled: true, accept: true, reason: 'All criteria met', solution: w.id };
}
