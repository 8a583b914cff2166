// Learning from the user's choices (seed 001's EvaluationLearning.categoryWeightAdjustments), bounded (pure).
import { normaliseWeights } from '../stats/weights.js';
import type { RaceCategoryAdjustments, RaceCategoryWeights, RaceChoice } from '../schema/types.generated.js';
import { CATEGORIES } from './categories.js';

export interface LearningOptions {
  /** Weight moved per overriding choice and category. */
  rate: number;
  /** Bound on the total adjustment of one category. */
  maxAdjustment: number;
}

export interface Learned {
  adjustments: RaceCategoryAdjustments;
  /** Choices that overrode the recommendation and could be compared. */
  basedOn: number;
}

const zero = (): RaceCategoryAdjustments => ({ correctness: 0, quality: 0, efficiency: 0, completeness: 0, safety: 0 });

/** A choice overrode the winner when the user picked a solution other than the recommended one. */
function overrodeWinner(c: RaceChoice): boolean {
  return (
    c.chosen_solution_id !== null &&
    c.recommended_solution_id !== null &&
    c.chosen_solution_id !== c.recommended_solution_id &&
    c.categories !== null
  );
}

/**
 * Each overriding choice moves every category's weight by `rate` towards what the user preferred: up where the
 * chosen solution scored higher than the recommended one, down where lower (scaled by the difference, full step at
 * a 0.1 difference); totals are clamped to ±maxAdjustment.
 */
export function learnAdjustments(choices: RaceChoice[], opts: LearningOptions): Learned {
  const adj = zero();
  let basedOn = 0;
  for (const c of choices) {
    if (!overrodeWinner(c)) continue;
    basedOn++;
    for (const cat of CATEGORIES) {
      const a = c.categories!.chosen[cat];
      const b = c.categories!.recommended[cat];
      if (a === null || b === null) continue;
      adj[cat] += opts.rate * Math.max(-1, Math.min(1, (a - b) / 0.1));
    }
  }
  for (const cat of CATEGORIES) adj[cat] = Math.max(-opts.maxAdjustment, Math.min(opts.maxAdjustment, adj[cat]));
  return { adjustments: adj, basedOn };
}

/** Configured weights plus the adjustments, floored at minWeight and re-normalised to sum to 1. */
export function applyAdjustments(
  weights: RaceCategoryWeights,
  adj: RaceCategoryAdjustments,
  minWeight: number,
): RaceCategoryWeights {
  const raw = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.max(minWeight, weights[c] + adj[c])]),
  ) as unknown as RaceCategoryWeights;
  return normaliseWeights(raw, CATEGORIES) as RaceCategoryWeights;
}
