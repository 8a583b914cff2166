// Seed 002 §6.3: the rating is an exponential moving average of run scores.

/** alpha = 2 / (N + 1); N = 50 gives 2/51 ≈ 0.0392. */
export function emaAlpha(n: number): number {
  if (!(n >= 1)) throw new RangeError(`EMA N must be at least 1, got ${n}`);
  return 2 / (n + 1);
}

/** rating_old + alpha · (score − rating_old); an agent with no rating yet starts at its first score. */
export function emaUpdate(old: number | null, score: number, alpha: number): number {
  if (old === null) return score;
  return old + alpha * (score - old);
}
