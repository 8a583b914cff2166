// Fake secrets for tests, built at run time from a seeded generator: random enough to pass entropy checks,
// and no literal token sits in the repository.
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const B64 = ALNUM + '+/';
export const URLSAFE = ALNUM + '_-';

let seed = 0x9e3779b9;
/** `n` characters drawn from `alphabet` (deterministic across runs). */
export function rnd(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    s += alphabet[(seed >>> 8) % alphabet.length];
  }
  return s;
}

/** A PEM private key body: `lines` lines of 64 base64 characters. */
export const pemBody = (lines: number): string[] => Array.from({ length: lines }, () => rnd(B64, 64));
