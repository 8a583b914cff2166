// The one weight normaliser (pure): weights over the keys that take part, divided by their sum.

/**
 * `weights[k] / Σ weights` over `keys` (default: every key of `weights`); `{}` when that sum is not above 0 (no key,
 * all weights 0, a NaN). Which keys take part is the caller's rule: the dimensions with a score, the categories
 * with a score and weight, all of them.
 */
export function normaliseWeights<K extends string>(weights: Readonly<Record<K, number>>, keys: readonly K[] = Object.keys(weights) as K[]): Partial<Record<K, number>> {
  let total = 0;
  for (const k of keys) total += weights[k];
  const out: Partial<Record<K, number>> = {};
  if (!(total > 0)) return out;
  for (const k of keys) out[k] = weights[k] / total;
  return out;
}
