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

const SEED = 0x9e3779b9;
let seed = SEED;
/** The test file the sequence belongs to (its TMPDIR, test/setup.ts): a worker runs several files one after another. */
let file: string | undefined;
/** `n` characters drawn from `alphabet` (deterministic across runs: the same sequence in each test file). */
export function rnd(alphabet: string, n: number): string {
  if (process.env.TMPDIR !== file) {
    file = process.env.TMPDIR;
    seed = SEED;
  }
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    s += alphabet[(seed >>> 8) % alphabet.length];
  }
  return s;
}

/** A PEM private key body: `lines` lines of 64 base64 characters. */
export const pemBody = (lines: number): string[] => Array.from({ length: lines }, () => rnd(B64, 64));
