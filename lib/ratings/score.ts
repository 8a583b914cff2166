import type { RatingsBudget } from '../schema/types.generated.js';

// Seed 002 §6: the run score from quality and the cost, time and iteration penalties against budgets.

interface RunScoreWeights {
  quality: number;
  cost: number;
  time: number;
  iterations: number;
}

/** One complexity bucket's budget: US dollars, seconds, retries (schema: agent-run-rating#/definitions/budgetConfig). */
export type RunBudget = RatingsBudget;

export interface RunScoreInput {
  /** Reviewer or judge quality, 0-10. */
  quality: number;
  /** Total cost, US dollars; null when neither tokens with a price nor a recorded cost exist. */
  totalCost: number | null;
  durationSeconds: number | null;
  /** Retries after the first attempt; null when the run record does not say. */
  iterations: number | null;
  budget: RunBudget;
  weights: RunScoreWeights;
}

export interface RunScore {
  /** 0-10. */
  score: number;
  /** Quality normalised, 0-1. */
  q: number;
  norms: { cost: number | null; time: number | null; iterations: number | null };
  /** Penalty weights actually applied: a missing signal's weight is spread over the present penalties. */
  weights_used: RunScoreWeights;
  /** The value inside the clamp, before clamping (can be below 0). */
  unclamped: number;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** min(1, value / budget); a non-positive budget makes any positive value a full penalty. */
export function normalise(value: number, budget: number): number {
  if (value <= 0) return 0;
  if (budget <= 0) return 1;
  return Math.min(1, value / budget);
}

/**
 * score = 10 · clamp(w_q·Q − w_c·cost_norm − w_t·time_norm − w_i·iter_norm, 0, 1).
 * A missing penalty signal is not a zero penalty (that would reward agents that report no usage):
 * the present penalty weights are scaled up so they sum to the configured penalty total.
 */
export function computeRunScore(input: RunScoreInput): RunScore {
  if (!(input.quality >= 0 && input.quality <= 10)) throw new RangeError(`quality must be 0-10, got ${input.quality}`);
  const q = input.quality / 10;
  const norms = {
    cost: input.totalCost === null ? null : normalise(input.totalCost, input.budget.cost_usd),
    time: input.durationSeconds === null ? null : normalise(input.durationSeconds, input.budget.duration_seconds),
    iterations: input.iterations === null ? null : normalise(Math.max(0, input.iterations), input.budget.iterations),
  };
  const w = input.weights;
  const configured = w.cost + w.time + w.iterations;
  const present =
    (norms.cost === null ? 0 : w.cost) +
    (norms.time === null ? 0 : w.time) +
    (norms.iterations === null ? 0 : w.iterations);
  const scale = present > 0 ? configured / present : 0;
  const weights_used: RunScoreWeights = {
    quality: w.quality,
    cost: norms.cost === null ? 0 : w.cost * scale,
    time: norms.time === null ? 0 : w.time * scale,
    iterations: norms.iterations === null ? 0 : w.iterations * scale,
  };
  const unclamped =
    weights_used.quality * q -
    weights_used.cost * (norms.cost ?? 0) -
    weights_used.time * (norms.time ?? 0) -
    weights_used.iterations * (norms.iterations ?? 0);
  return { score: 10 * clamp(unclamped, 0, 1), q, norms, weights_used, unclamped };
}

/** Seed 002 §5.5: tokens × price per million, else the recorded cost, else missing. */
export function computeTotalCost(
  tokensTotal: number | null,
  costPerMillion: number | null,
  recordedCost: number | null,
): { total_cost: number | null; source: 'tokens_x_price' | 'recorded' | null } {
  if (tokensTotal !== null && costPerMillion !== null)
    return { total_cost: (tokensTotal * costPerMillion) / 1_000_000, source: 'tokens_x_price' };
  if (recordedCost !== null) return { total_cost: recordedCost, source: 'recorded' };
  return { total_cost: null, source: null };
}
