// A window's evidence of a drop against the reference runs before it, per pass count (pure): lower tails and the
// two-sample GLR that issue 39's scan statistics compare to one threshold (bench/drift-scan.ts).
import { bernoulliMaxLl, fisherLowerP } from './change.js';

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Gamma(x) for x > 0 (Lanczos, g = 7: about 15 digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0]!;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

const lnChoose = (n: number, k: number): number => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);

const cumulative = (pmf: Float64Array): Float64Array => {
  for (let x = 1; x < pmf.length; x++) pmf[x]! += pmf[x - 1]!;
  return pmf.map((v) => Math.min(1, v));
};

/** Plug-in: P(Bin(w, p) <= x) for x = 0..w, p the reference's k/n kept within [1/(2n), 1 - 1/(2n)]. */
export function plugInLowerTail(w: number, n: number, k: number): Float64Array {
  const p = Math.min(1 - 0.5 / n, Math.max(0.5 / n, k / n));
  return cumulative(
    Float64Array.from({ length: w + 1 }, (_, x) =>
      Math.exp(lnChoose(w, x) + x * Math.log(p) + (w - x) * Math.log(1 - p)),
    ),
  );
}

/**
 * Predictive (the reference rate's uncertainty): P(X <= x) for X beta-binomial(w, k + 1/2, n - k + 1/2), the window's
 * count when the rate is only known through k passes in n runs (Jeffreys prior).
 */
export function predictiveLowerTail(w: number, n: number, k: number): Float64Array {
  const a = k + 0.5;
  const b = n - k + 0.5;
  const lnB = lnGamma(a) + lnGamma(b) - lnGamma(a + b);
  return cumulative(
    Float64Array.from({ length: w + 1 }, (_, x) =>
      Math.exp(lnChoose(w, x) + lnGamma(x + a) + lnGamma(w - x + b) - lnGamma(w + a + b) - lnB),
    ),
  );
}

/** Conditional: Fisher's one-sided P(X <= x) given the k + x passes of reference and window together. */
export const conditionalLowerTail = (w: number, n: number, k: number): Float64Array =>
  Float64Array.from({ length: w + 1 }, (_, x) => fisherLowerP(k, n, x, w));

/**
 * Two-sample Bernoulli GLR of a window of w runs with x passes against a reference of n runs with k, as exp(-log LR)
 * so that smaller is stronger like the tails; 1 unless the window's rate is below the reference's.
 */
export const windowGlrScore = (w: number, n: number, k: number): Float64Array =>
  Float64Array.from({ length: w + 1 }, (_, x) =>
    x * n >= k * w ? 1 : Math.exp(-(bernoulliMaxLl(x, w) + bernoulliMaxLl(k, n) - bernoulliMaxLl(x + k, w + n))),
  );
