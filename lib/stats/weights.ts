// The one weight normaliser (pure): weights over the keys that take part, divided by their sum.

/**
 * `weights[k] / Σ weights` over `keys` (default: every key of `weights`); `{}` when that sum is not above 0 (no key,
 * all weights 0, a NaN). Which keys take part is the caller's rule: the dimensions with a score, the categories
 * with a score and weight, all of them.
 */
export function normaliseWeights<K extends string>(
  weights: Readonly<Record<K, number>>,
  keys: readonly K[] = Object.keys(weights) as K[],
): Partial<Record<K, number>> {
  let total = 0;
  for (const k of keys) total += weights[k];
  const out: Partial<Record<K, number>> = {};
  if (!(total > 0)) return out;
  for (const k of keys) out[k] = weights[k] / total;
  return out;
}

/**
 * Σ value·weight / Σ weight over the pairs given (summed with the raw weights, so integer inputs give exact
 * results); null when the weights do not sum above 0 (no pair, all weights 0, a NaN).
 */
export function weightedMean(pairs: Iterable<readonly [value: number, weight: number]>): number | null {
  let sum = 0;
  let weight = 0;
  for (const [v, w] of pairs) {
    sum += v * w;
    weight += w;
  }
  return weight > 0 ? sum / weight : null;
}
