// Was the task done (pure): a run is resolved when every target test passes and no test that passed on the base
// broke (SWE-bench's FAIL_TO_PASS / PASS_TO_PASS). The collector, the race, templates and ratings read this verdict.
import type { TestCounts } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

/** Where a task's targets came from, first found (docs/design/collector.md, "Targets"). */
export type TargetSource = 'task' | 'race' | 'tests_ref' | 'base_failing' | 'none';

export interface TargetSet {
  source: TargetSource;
  /** Target test ids (sorted); null when the base's failures are known by counts only (`count` says how many). */
  ids: string[] | null;
  /** How many targets: ids.length, or the base's failures by counts. */
  count: number;
}

/** Task types that do not fix something: their base failures are context, not obligations. */
const NOT_A_FIX =
  /^(?:feat(?:ure)?s?|refactor(?:ing)?|chore|docs?|documentation|perf(?:ormance)?|style|tests?|build|ci|planning|architecture|research)$/i;

/** Whether a task of this type fixes something (a bug fix; an unnamed type counts as one: its failing tests are the task). */
export function isFixTask(type: string | null | undefined): boolean {
  if (!type) return true;
  return !NOT_A_FIX.test(type.trim().replace(/[\s_-]+/g, ''));
}

type Cases = NonNullable<TestCounts['cases']>;
const PASS = new Set(['passed', 'xpass']);
const FAIL = new Set(['failed', 'error']);

/** Each id's worst status (a test reported twice keeps the worse). */
function statuses(cases: Cases): Map<string, string> {
  const m = new Map<string, string>();
  for (const c of cases) if (!m.has(c.id) || !PASS.has(c.status)) m.set(c.id, c.status);
  return m;
}

/** The ids failing (or erroring) in a per-test list, sorted; null without one. */
export function failingIds(counts: TestCounts | null | undefined): string[] | null {
  if (!counts?.cases) return null;
  return [...statuses(counts.cases)]
    .filter(([, s]) => FAIL.has(s))
    .map(([id]) => id)
    .sort();
}

export interface TargetInput {
  /** task.target_tests (`record --target`). */
  task?: readonly string[] | undefined;
  /** race --target. */
  race?: readonly string[] | undefined;
  /** Whether the graded base carries the task's test revision (task.tests_ref): its failures are the task's. */
  testsRef: boolean;
  /** The run record's task type. */
  taskType?: string | null | undefined;
  /** The graded base's test results. */
  base: TestCounts | null | undefined;
}

/**
 * A task's targets, first found: the task's named tests, the race's, the tests failing with the task's test revision,
 * else — for a task that fixes something — the tests failing on the base; a feature or refactor has none.
 */
export function taskTargets(i: TargetInput): TargetSet {
  const named = (ids: readonly string[]) => [...new Set(ids)].sort();
  if (i.task?.length) return { source: 'task', ids: named(i.task), count: named(i.task).length };
  if (i.race?.length) return { source: 'race', ids: named(i.race), count: named(i.race).length };
  const source: TargetSource | null = i.testsRef ? 'tests_ref' : isFixTask(i.taskType) ? 'base_failing' : null;
  if (!source || !i.base) return { source: 'none', ids: [], count: 0 };
  const ids = failingIds(i.base);
  if (ids) return ids.length ? { source, ids, count: ids.length } : { source: 'none', ids: [], count: 0 };
  const n = i.base.failed + i.base.errors;
  return n > 0 ? { source, ids: null, count: n } : { source: 'none', ids: [], count: 0 };
}

export interface Resolution {
  targets_source: TargetSource;
  /** per_test: decided by test id; counts: by the counts (per-test results absent on a side); none: no test results. */
  basis: 'per_test' | 'counts' | 'none';
  target_total: number;
  /** Targets passing now (by counts: an estimate that never credits a failure that merely disappeared). */
  fixed: number;
  /** Target ids still failing, skipped or missing (per_test only). */
  unfixed: string[];
  /** Tests that passed on the base and now fail, error, are skipped or are gone (per_test: ids). */
  broke: string[];
  /** How many base-passing tests broke (by counts: fewer passes than the base plus the targets fixed). */
  broke_count: number;
  /** Tests that passed on the base. */
  base_passing: number | null;
  /** Every target passes and nothing that passed broke; null when it cannot be told. */
  resolved: boolean | null;
}

/**
 * One run against its targets and the base: per test id when both sides list their tests, else by the counts — a
 * failure that is gone counts as fixed only with one more pass, and fewer passes than the base is a regression.
 */
export function resolveRun(
  targets: TargetSet,
  base: TestCounts | null | undefined,
  now: TestCounts | null | undefined,
  /** Base tests whose expectation the agent rewrote (feedback.changed_expectations): shown, not regressions. */
  changed: readonly string[] = [],
): Resolution {
  const out: Resolution = {
    targets_source: targets.source,
    basis: 'none',
    target_total: targets.count,
    fixed: 0,
    unfixed: [],
    broke: [],
    broke_count: 0,
    base_passing: null,
    resolved: null,
  };
  if (!now) return out;
  if (now.cases && targets.ids && (base?.cases || !base)) {
    const after = statuses(now.cases);
    const complete = now.cases_complete !== false;
    out.basis = base?.cases ? 'per_test' : 'counts';
    out.unfixed = targets.ids.filter((id) => !PASS.has(after.get(id) ?? ''));
    out.fixed = targets.ids.length - out.unfixed.length;
    if (base?.cases) {
      const before = statuses(base.cases);
      // Sets: a base with thousands of failing targets and passing tests stays linear.
      const aside = new Set([...targets.ids, ...changed]);
      const passing = [...before].filter(([id, s]) => PASS.has(s) && !aside.has(id));
      out.base_passing = passing.length;
      for (const [id] of passing) {
        const s = after.get(id);
        if (s === undefined ? complete : !PASS.has(s)) out.broke.push(id);
      }
      out.broke.sort();
      out.broke_count = out.broke.length;
      out.resolved = out.unfixed.length === 0 && out.broke_count === 0;
    }
    return out;
  }
  // By counts: a target fixed is one fewer failure and one more pass; deleting or skipping it gives only the first.
  out.basis = 'counts';
  if (!base) return out;
  const baseFail = base.failed + base.errors;
  const nowFail = now.failed + now.errors;
  const gained = now.passed !== null && base.passed !== null ? Math.max(0, now.passed - base.passed) : 0;
  out.fixed = Math.max(0, Math.min(targets.count, baseFail - nowFail, gained));
  if (base.passed !== null) {
    out.base_passing = base.passed;
    if (now.passed !== null) out.broke_count = Math.max(0, base.passed + out.fixed - now.passed);
  }
  if (out.broke_count > 0) out.broke.push(`by counts, ${now.passed} pass against ${base.passed} on the base`);
  const told = now.passed !== null && base.passed !== null;
  out.resolved = told
    ? out.fixed === targets.count && out.broke_count === 0 && nowFail <= Math.max(0, baseFail - targets.count)
    : null;
  return out;
}

/** The share of targets fixed, 0-1; null without targets. */
export function fixedShare(r: Resolution): number | null {
  return r.target_total > 0 ? r.fixed / r.target_total : null;
}

/** "fixes 1 of 2 target tests", "resolved", or where correctness comes from when there are no targets. */
export function resolutionLine(r: Resolution): string {
  const by = r.basis === 'counts' ? ' (by counts)' : '';
  const broke = r.broke_count ? `; broke ${plural(r.broke_count, 'test')} that passed on the base` : '';
  if (r.target_total === 0)
    return `no target tests (the task names none and ${r.targets_source === 'none' ? 'it fixes nothing that fails on the base' : 'none fails'}): correctness comes from the agent's own tests and the judge${broke}`;
  if (r.resolved) return `resolved: fixes ${r.fixed} of ${plural(r.target_total, 'target test')}${by}`;
  return `fixes ${r.fixed} of ${plural(r.target_total, 'target test')}${by}${broke}`;
}

/** The feedback record's `resolution`: the verdict and its line. */
export function resolutionRecord(r: Resolution): Resolution & { line: string } {
  return { ...r, line: resolutionLine(r) };
}
