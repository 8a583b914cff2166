// The race's target tests and each solution's standing against them (pure): one definition of targets and of
// "resolved", lib/evidence/resolution.ts; here the race's words, the pass-to-pass split and gamed passes.
import {
  isFixTask,
  resolutionLine,
  resolveRun,
  taskTargets,
  type TargetSet,
  type TargetSource,
} from '../evidence/resolution.js';
import type { Feedback, TestCounts } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

export type CaseStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'xfail' | 'xpass';

export const isPass = (s: string | undefined): boolean => s === 'passed' || s === 'xpass';

/** The solution's and the base's test counts (feedback.checks.test.tests and feedback.baseline.tests). */
export function testCounts(fb: Feedback): { solution: TestCounts | null; base: TestCounts | null } {
  return { solution: fb.checks.test?.tests ?? null, base: fb.baseline?.tests ?? null };
}

export interface RaceTargets {
  source: TargetSource;
  /** Target ids, sorted; empty when the base's failures are known by counts only. */
  fail_to_pass: string[];
  /** How many targets. */
  count: number;
  /** Why the targets are what they are, one sentence. */
  note: string;
  /** Targets no solution fixes that fail the same way everywhere (set by the race once every solution is known). */
  unfixed_by_all?: string[];
}

export interface TargetInput {
  /** The run records' task.target_tests. */
  task: readonly string[];
  /** race --target. */
  race: readonly string[];
  /** Whether the graded base carries the task's test revision (task.tests_ref). */
  testsRef: boolean;
  taskType: string | null | undefined;
  base: TestCounts | null | undefined;
}

/** The race's targets, first found (resolution.ts taskTargets), with why in one sentence. */
export function raceTargets(i: TargetInput): RaceTargets {
  const t = taskTargets({ task: i.task, race: i.race, testsRef: i.testsRef, taskType: i.taskType, base: i.base });
  const n = plural(t.count, 'target test');
  const note = {
    task: `${n} named by the task (the run records' task.target_tests)`,
    race: `${n} named with --target`,
    tests_ref: `the ${n} failing with the task's test revision (task.tests_ref)`,
    base_failing: `the ${plural(t.count, 'test')} failing on the base (the default for a task that fixes something${t.ids === null ? '; per-test results absent: known by the counts only' : ''}); --target names the real ones when some are unrelated`,
    none: !isFixTask(i.taskType)
      ? `no target tests: a ${i.taskType} task's base failures are context, not obligations (--target names targets); correctness comes from the agent's own tests and the judge`
      : i.base == null
        ? 'no target tests known: the base gave no test results (its setup or tests did not run), so nothing is known to fail there; --target names the targets'
        : "no target tests: the task names none and nothing fails on the base; correctness comes from the agent's own tests and the judge",
  }[t.source];
  return { source: t.source, fail_to_pass: t.ids ?? [], count: t.count, note };
}

/** The race's targets back as the resolution's input. */
function targetSet(t: RaceTargets): TargetSet {
  return { source: t.source, ids: t.count > 0 && t.fail_to_pass.length === 0 ? null : t.fail_to_pass, count: t.count };
}

/** One solution against the targets and the base's passing tests. Lists are sorted and hold test ids. */
export interface TargetStanding {
  /** The race's target ids (empty when known by counts only). */
  targets: string[];
  /** Targets fixed (measured, even when gamed). */
  target_passed: number | null;
  target_total: number | null;
  /** Target ids failing, skipped or missing (per-test only). */
  target_failing: string[];
  /** Tests this solution added (per-test ids not on the base). */
  added: string[];
  /** Tests that passed on the base and now fail or error (by counts: one sentence with the number). */
  broke: string[];
  /** Tests that passed on the base and are gone. */
  disappeared: string[];
  /** Tests that passed on the base and are now skipped. */
  newly_skipped: string[];
  /** Base tests the agent rewrote that fail graded and pass in its version (changed expectations; not regressions). */
  changed?: string[];
  /** Every target passes, nothing broke, nothing gamed; null when it cannot be told. */
  resolved: boolean | null;
  /** Special-case or tamper findings: the passes are gamed and no target counts as passing. */
  gamed?: string[];
  /** The task's hidden tests in counts (feedback.hidden): resolved requires them too. */
  hidden?: { line: string; targets: number; fixed: number; broke: number; resolved: boolean | null };
  /** The verdict in words. */
  line: string;
  /** per-test: decided by test id; counts: decided by the counts (per-test results absent). */
  basis: 'per-test' | 'counts' | 'none';
  /** What could not be told, one sentence each. */
  notes: string[];
}

const worst = (cases: NonNullable<TestCounts['cases']>): Map<string, string> => {
  const m = new Map<string, string>();
  for (const c of cases) if (!m.has(c.id) || !isPass(c.status)) m.set(c.id, c.status);
  return m;
};

/**
 * One solution's standing: resolveRun's verdict, its breaks split into failing / gone / skipped (by counts: fewer
 * tests or more skipped than the base count too), and no credit for a target whose pass was gamed.
 */
export function targetStanding(
  targets: RaceTargets,
  sol: TestCounts | null,
  base: TestCounts | null,
  changed: readonly string[] = [],
  gamed: readonly string[] = [],
): TargetStanding {
  const r = resolveRun(targetSet(targets), base, sol, changed);
  const st: TargetStanding = {
    targets: targets.fail_to_pass,
    target_passed: r.basis === 'none' ? null : r.fixed,
    target_total: targets.count,
    target_failing: r.basis === 'per_test' ? r.unfixed : [],
    added: [],
    broke: [],
    disappeared: [],
    newly_skipped: [],
    changed: [],
    resolved: r.resolved,
    line: resolutionLine(r),
    basis: r.basis === 'per_test' ? 'per-test' : r.basis,
    notes: [],
  };
  if (!sol) {
    st.notes.push('no test counts for the solution');
    return st;
  }
  if (r.basis === 'per_test' && sol.cases && base?.cases) {
    const now = worst(sol.cases);
    const before = worst(base.cases);
    st.added = [...now.keys()].filter((id) => !before.has(id)).sort();
    for (const id of r.broke) {
      const s = now.get(id);
      (s === undefined ? st.disappeared : s === 'skipped' ? st.newly_skipped : st.broke).push(id);
    }
    st.changed = changed.filter((id) => isPass(before.get(id))).sort();
  } else {
    st.notes.push('per-test results absent: decided by the counts, no test named');
    st.broke.push(...r.broke);
    if (base) {
      if (sol.total !== null && base.total !== null && sol.total < base.total)
        st.disappeared.push(`${base.total - sol.total} fewer tests (${sol.total}, base ${base.total})`);
      if (sol.skipped > base.skipped)
        st.newly_skipped.push(`${sol.skipped - base.skipped} more skipped (${sol.skipped}, base ${base.skipped})`);
      if (sol.passed === null || base.passed === null)
        st.notes.push(
          'no pass count: a failing test that is gone cannot be told from one fixed, so none counts as fixed',
        );
    } else st.notes.push('no base test counts: regressions cannot be told');
    if (st.disappeared.length || st.newly_skipped.length) st.resolved = st.resolved === null ? null : false;
  }
  if (gamed.length) {
    st.gamed = [...gamed];
    st.resolved = false;
    // Gamed passes fix nothing: the line says 0, as bin/collect's does for a gamed run, never "resolved".
    st.line = `${resolutionLine({ ...r, resolved: false, fixed: 0 })}; passes gamed (${gamed.slice(0, 3).join(', ')}): no target counts as fixed`;
  }
  return st;
}

/** Targets credited as fixed: none when the passes were gamed. */
function creditedFixed(st: TargetStanding): number | null {
  return st.gamed?.length ? 0 : st.target_passed;
}

/** Share of targets fixed and credited, 0-1; null when there are none or it could not be told. */
export function targetFraction(st: TargetStanding): number | null {
  const fixed = creditedFixed(st);
  if (!st.target_total || fixed === null) return null;
  return fixed / st.target_total;
}

/** What a target's outcome looks like in one graded run: its status and its message. */
function outcome(counts: TestCounts | null, id: string): string | null {
  const c = counts?.cases?.find((x) => x.id === id);
  // Paths (each checkout has its own) and timings differ between runs of one failure: they are not its message.
  const message = (c?.excerpt ?? '')
    .replace(/(?:[A-Za-z]:)?[\\/][^\s:'"()]+/g, '<path>')
    .replace(/\d+(?:\.\d+)?\s*m?s\b/g, '<time>');
  return c ? `${c.status}\u0000${message}` : null;
}

/**
 * Targets no solution fixes and that fail the same way (status and message) in every solution and on the base:
 * plainly outside what any solution touched. Needs per-test results on every side; named, never dropped.
 */
export function unfixedByAll(
  targets: RaceTargets,
  base: TestCounts | null,
  solutions: { counts: TestCounts | null; standing: TargetStanding }[],
): string[] {
  if (!targets.fail_to_pass.length || !solutions.length || !base?.cases) return [];
  return targets.fail_to_pass.filter((id) => {
    const was = outcome(base, id);
    return (
      was !== null &&
      !isPass(base.cases?.find((c) => c.id === id)?.status) &&
      solutions.every((s) => s.standing.basis === 'per-test' && outcome(s.counts, id) === was)
    );
  });
}

/**
 * The standing with the task's hidden tests (feedback.hidden): resolved only when they pass too (null when they could
 * not be told). Counts only, never their names: the race's words may reach the judge.
 */
export function withHidden(st: TargetStanding, h: Feedback['hidden']): void {
  if (!h) return;
  st.hidden = { line: h.line, targets: h.targets, fixed: h.fixed.length, broke: h.broke.length, resolved: h.resolved };
  if (st.resolved === true && h.resolved !== true) {
    st.resolved = h.resolved;
    st.line = st.line.replace(/^resolved: /, '');
  }
  st.line = `${st.line}; ${h.line}`;
}
