// Cohen's kappa of two raters over a square confusion table, with its large-sample 95% interval. Pure.
const Z95 = 1.959963984540054;

export interface Kappa {
  n: number;
  /** Observed agreement: the diagonal's share. */
  observed: number;
  /** Agreement expected by chance from the two raters' margins. */
  expected: number;
  /** (observed - expected) / (1 - expected); null when expected is 1 (both raters used one category only). */
  kappa: number | null;
  /** sqrt(po (1 - po) / (n (1 - pe)^2)); null with kappa. */
  se: number | null;
  low: number | null;
  high: number | null;
}

/**
 * Cohen's kappa of `table[i][j]` (rater A said category i, rater B said j): po, pe from the margins, kappa, and
 * kappa ± 1.96 SE with SE = sqrt(po(1 − po) / (n(1 − pe)²)), clamped to [−1, 1]; null for an empty table.
 */
export function cohensKappa(table: readonly (readonly number[])[]): Kappa | null {
  const k = table.length;
  if (table.some((row) => row.length !== k)) throw new Error('cohensKappa: the table must be square');
  let n = 0;
  let diag = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const c = table[i]![j]!;
      n += c;
      rows[i]! += c;
      cols[j]! += c;
      if (i === j) diag += c;
    }
  if (n === 0) return null;
  const po = diag / n;
  let pe = 0;
  for (let i = 0; i < k; i++) pe += (rows[i]! / n) * (cols[i]! / n);
  if (pe >= 1) return { n, observed: po, expected: pe, kappa: null, se: null, low: null, high: null };
  const kappa = (po - pe) / (1 - pe);
  const se = Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  const clamp = (x: number) => Math.min(1, Math.max(-1, x));
  return { n, observed: po, expected: pe, kappa, se, low: clamp(kappa - Z95 * se), high: clamp(kappa + Z95 * se) };
}
