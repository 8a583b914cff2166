// Tests the agent never saw (task.hidden_tests), graded like targets (pure): a hidden test failing on the base and
// passing now is fixed, one that passed on the base and fails now is broken; reported apart, never to the judge.
import type { TestCounts } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';
import { failingIds, resolveRun } from './resolution.js';

type Cases = NonNullable<TestCounts['cases']>;

/** Whether a test id names one of the hidden files (`path::test`, `path > suite > test`, the path alone). */
export function namesHiddenFile(id: string, files: readonly string[]): boolean {
  return files.some((f) => id === f || (id.startsWith(f) && /^[^A-Za-z0-9_.-]/.test(id.slice(f.length))));
}

/** The hidden files' part of a run's results, its counts recounted from the cases; null without per-test results. */
export function hiddenPart(counts: TestCounts | null | undefined, files: readonly string[]): TestCounts | null {
  if (!counts?.cases) return null;
  const cases: Cases = counts.cases.filter((c) => namesHiddenFile(c.id, files));
  const n = (...s: string[]) => cases.filter((c) => s.includes(c.status)).length;
  return {
    runner: counts.runner,
    passed: n('passed', 'xpass'),
    failed: n('failed'),
    skipped: n('skipped'),
    errors: n('error'),
    total: cases.length,
    cases,
  };
}

export interface HiddenStanding {
  /** Hidden tests run on the candidate, and how many pass. */
  total: number;
  passed: number;
  /** Hidden tests failing on the base: the hidden targets. */
  targets: number;
  /** Hidden targets passing now. */
  fixed: string[];
  /** Hidden targets still failing, skipped or missing. */
  unfixed: string[];
  /** Hidden tests that passed on the base and fail, error, are skipped or are gone now. */
  broke: string[];
  /** Every hidden target passes and no hidden test broke; null when it cannot be told (no per-test results). */
  resolved: boolean | null;
}

/** The candidate's hidden results against the base's (both already cut to the hidden files by hiddenPart). */
export function hiddenStanding(base: TestCounts | null, now: TestCounts | null): HiddenStanding {
  const targets = failingIds(base) ?? [];
  const out: HiddenStanding = {
    total: now?.total ?? 0,
    passed: now?.passed ?? 0,
    targets: targets.length,
    fixed: [],
    unfixed: [...targets],
    broke: [],
    resolved: null,
  };
  if (!base?.cases || !now?.cases) return out;
  const r = resolveRun({ source: 'task', ids: targets, count: targets.length }, base, now);
  out.unfixed = r.unfixed;
  out.fixed = targets.filter((id) => !r.unfixed.includes(id));
  out.broke = r.broke;
  // No hidden test ran on the candidate: nothing was checked, which is not a pass.
  out.resolved = now.total === 0 ? false : r.resolved;
  return out;
}

/** "hidden tests: 3/3 pass (fixes 2 of 2 hidden targets)", for collect's and the race's text. */
export function hiddenLine(h: HiddenStanding): string {
  const fixes = h.targets ? `; fixes ${h.fixed.length} of ${plural(h.targets, 'hidden target')}` : '';
  const broke = h.broke.length ? `; broke ${plural(h.broke.length, 'hidden test')} that passed on the base` : '';
  const none = h.total === 0 ? ' (none ran)' : '';
  return `hidden tests: ${h.passed}/${h.total} pass${none}${fixes}${broke}`;
}
