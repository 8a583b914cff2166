// Shared helpers for building TestCounts consistently.
import type { TestCounts } from './types.js';

export interface RawCounts {
  passed: number | null;
  failed?: number;
  skipped?: number;
  errors?: number;
  xfailed?: number;
  xpassed?: number;
  notes?: string[];
}

/**
 * total = passed + failed + skipped + xfailed + xpassed: every test that ran or was deliberately not run.
 * errors are not in total: they are setup/collection/load/compile problems, not tests with an outcome.
 * total is null whenever passed is null (the output cannot tell it).
 */
export function makeCounts(runner: string, raw: RawCounts): TestCounts {
  const failed = raw.failed ?? 0;
  const skipped = raw.skipped ?? 0;
  const xfailed = raw.xfailed ?? 0;
  const xpassed = raw.xpassed ?? 0;
  const counts: TestCounts = {
    runner,
    passed: raw.passed,
    failed,
    skipped,
    errors: raw.errors ?? 0,
    total: raw.passed === null ? null : raw.passed + failed + skipped + xfailed + xpassed,
  };
  if (xfailed > 0) counts.xfailed = xfailed;
  if (xpassed > 0) counts.xpassed = xpassed;
  if (raw.notes && raw.notes.length > 0) counts.notes = raw.notes;
  return counts;
}

/** Reads `12 passed`-style pairs out of a summary fragment, summing repeated words. */
export function wordCounts(fragment: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const m of fragment.matchAll(/(\d+) ([a-z][a-z ]*?)(?=[,|;)]|$| \(|\s*$)/gi)) {
    const word = (m[2] as string).trim().toLowerCase();
    map.set(word, (map.get(word) ?? 0) + Number(m[1]));
  }
  return map;
}

export function get(map: Map<string, number>, ...words: string[]): number {
  let n = 0;
  for (const w of words) n += map.get(w) ?? 0;
  return n;
}

/** Index of the last line matching re, or -1; scans from the end so a summary is found fast. */
export function lastIndex(lines: readonly string[], re: RegExp): number {
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i] as string)) return i;
  return -1;
}

/** The flags a parser raises; set only when true, so clean counts stay small. */
export interface CountFlags {
  disputed?: string | null;
  crashed?: string | null;
  noTests?: string | null;
  casesDisputed?: string | null;
}

/** Sets the dispute/crash/no-tests/cases-disputed flags on counts, each with its reason as a note. */
export function flag(counts: TestCounts, f: CountFlags): TestCounts {
  const notes = counts.notes ?? [];
  if (f.disputed) {
    counts.counts_disputed = true;
    notes.push(`counts disputed: ${f.disputed}`);
  }
  if (f.crashed) {
    counts.runner_crashed = true;
    notes.push(`runner crashed: ${f.crashed}`);
  }
  if (f.noTests) {
    counts.no_tests_collected = true;
    notes.push(`no tests collected: ${f.noTests}`);
  }
  if (f.casesDisputed && !counts.cases_disputed) {
    counts.cases_disputed = true;
    notes.push(`cases disputed: ${f.casesDisputed}`);
  }
  if (notes.length > 0) counts.notes = notes;
  return counts;
}

/** How favourable a summary is to the agent: passes count, any failure or error outweighs them all. */
export function favour(passed: number, failures: number): number {
  return passed - 1e9 * failures;
}

/**
 * The runner's real summary among several summary-shaped candidates (a test may print one, before or after
 * the real one): of the candidates that agree with the per-test evidence, the least favourable to the agent
 * (`favourOf`; the last one on a tie), else the last one. Printing a summary can then never raise a score.
 * More than one candidate, or none agreeing, is a dispute.
 */
export function pickSummary<T>(
  candidates: readonly T[],
  agrees: (c: T) => boolean,
  what: string,
  favourOf: (c: T) => number = () => 0,
): { chosen: T | null; disputed: string | null } {
  if (candidates.length === 0) return { chosen: null, disputed: null };
  let chosen: T | null = null;
  let best = Infinity;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i] as T;
    if (!agrees(c)) continue;
    const f = favourOf(c);
    if (f < best) {
      best = f;
      chosen = c;
    }
  }
  if (chosen === null) {
    return {
      chosen: candidates[candidates.length - 1] as T,
      disputed: `the ${what} contradicts the per-test results the output shows`,
    };
  }
  const disputed =
    candidates.length > 1
      ? `the output holds ${candidates.length} summaries (${what}; a test printed one?): the least favourable one agreeing with the per-test results was used`
      : null;
  return { chosen, disputed };
}
