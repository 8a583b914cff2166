// Target tests of a race and each solution's standing against them (pure), by the per-test results of the
// feedback records; when a side has none, decided by the counts, and said so (docs/design/race.md).
import type { Feedback } from '../schema/types.generated.js';

export type CaseStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'xfail' | 'xpass';

interface TestCase {
  id: string;
  status: CaseStatus;
  excerpt?: string;
}

/** Counts as the feedback record carries them, with the optional per-test list of the contract. */
export interface CountsWithCases {
  passed: number | null;
  failed: number;
  errors: number;
  skipped: number;
  total: number | null;
  cases?: TestCase[];
  cases_complete?: boolean;
}

export interface CaseList {
  byId: Map<string, CaseStatus>;
  /** False when the list was capped: a passed test missing from it may still exist. */
  complete: boolean;
}

/** The per-test list of a counts object, or null when per-test results are unknown. */
export function caseList(counts: CountsWithCases | null | undefined): CaseList | null {
  if (!counts || !Array.isArray(counts.cases)) return null;
  const byId = new Map<string, CaseStatus>();
  for (const c of counts.cases) {
    // A test reported twice (retries, parametrised ids that collapse): its worst status stands.
    const prev = byId.get(c.id);
    byId.set(c.id, prev === undefined ? c.status : worse(prev, c.status));
  }
  return { byId, complete: counts.cases_complete !== false };
}

const RANK: Record<CaseStatus, number> = { error: 0, failed: 1, skipped: 2, xfail: 3, xpass: 4, passed: 5 };
function worse(a: CaseStatus, b: CaseStatus): CaseStatus {
  return RANK[a] <= RANK[b] ? a : b;
}

export const isPass = (s: CaseStatus | undefined): boolean => s === 'passed' || s === 'xpass';
const isFail = (s: CaseStatus | undefined): boolean => s === 'failed' || s === 'error';

/** The solution's and the base's test counts (feedback.checks.test.tests and feedback.baseline.tests). */
export function testCounts(fb: Feedback): { solution: CountsWithCases | null; base: CountsWithCases | null } {
  return {
    solution: (fb.checks.test?.tests as CountsWithCases | undefined) ?? null,
    base: (fb.baseline?.tests as CountsWithCases | undefined) ?? null,
  };
}

export interface RaceTargets {
  /**
   * explicit: named by the race (--target); derived: failing on the base and passing in a solution; base_failing: no
   * solution makes a base failure pass, so every base failure is a target; counts: per-test results absent; none:
   * nothing fails on the base (each solution's targets are the tests it adds).
   */
  source: 'explicit' | 'derived' | 'base_failing' | 'counts' | 'none';
  /** Tests every solution must make pass (fail-to-pass), sorted. */
  fail_to_pass: string[];
  /** Why the targets are what they are, one sentence. */
  note: string;
}

/**
 * The race's fail-to-pass tests: named ones, else those failing (or missing) on the base that pass in at least one
 * solution whose evaluation succeeded. Without the base's per-test results nothing can be derived: `counts`.
 */
export function deriveTargets(
  base: CaseList | null,
  solutions: (CaseList | null)[],
  explicit: string[] = [],
): RaceTargets {
  if (explicit.length)
    return {
      source: 'explicit',
      fail_to_pass: [...new Set(explicit)].sort(),
      note: `${explicit.length} target tests named for the race`,
    };
  const known = solutions.filter((s): s is CaseList => s !== null);
  if (!base || !known.length) {
    return {
      source: 'counts',
      fail_to_pass: [],
      note: 'per-test results are absent (base or solutions): target tests cannot be named; the counts stand in (a solution must end with no failing test)',
    };
  }
  const out = new Set<string>();
  for (const [id, status] of base.byId) if (isFail(status) && known.some((s) => isPass(s.byId.get(id)))) out.add(id);
  const list = [...out].sort();
  const failing = [...base.byId]
    .filter(([, st]) => isFail(st))
    .map(([id]) => id)
    .sort();
  if (!list.length) {
    // Nobody fixed anything: the base's failures stay the task (a solution that leaves them failing did not do it).
    if (failing.length)
      return {
        source: 'base_failing',
        fail_to_pass: failing,
        note: `no solution makes one of the ${failing.length} tests failing on the base pass: all of them are targets (name the targets with --target when some are unrelated)`,
      };
    return {
      source: 'none',
      fail_to_pass: [],
      note: 'every test passes on the base and the task names none (--target, task.target_tests): no target; the gate holds each solution to the base tests',
    };
  }
  return {
    source: 'derived',
    fail_to_pass: list,
    note: `${list.length} tests fail on the base and pass in at least one solution`,
  };
}

/** One solution against the targets and the base's passing tests. Lists are sorted and hold test ids. */
export interface TargetStanding {
  /** The task's tests this solution is held to: named fail-to-pass, else the base failures it fixed (never its own tests). */
  targets: string[];
  /** Targets passing in this solution. */
  target_passed: number | null;
  target_total: number | null;
  /** Targets failing, skipped or missing in this solution. */
  target_failing: string[];
  /** Tests this solution added (per-test ids not on the base). */
  added: string[];
  /** Tests that passed on the base and now fail or error. */
  broke: string[];
  /** Tests that passed on the base and are gone. */
  disappeared: string[];
  /** Tests that passed on the base and are now skipped. */
  newly_skipped: string[];
  /** Base tests the agent rewrote that fail graded and pass in its version (changed expectations; not regressions). */
  changed?: string[];
  /** Without named targets: the base's failing tests this solution fixed, of how many (credit, not a gate). */
  credit?: { fixed: number; base_failing: number };
  /** per-test: decided by test id; counts: decided by the counts (per-test results absent). */
  basis: 'per-test' | 'counts' | 'none';
  /** What could not be told, one sentence each. */
  notes: string[];
}

const failing = (n: number) => (n === 1 ? '1 test fails' : `${n} tests fail`);

/** Stands in for the pass-to-pass and target decisions when per-test results are absent. */
function fromCounts(sol: CountsWithCases | null, base: CountsWithCases | null): TargetStanding {
  const st: TargetStanding = {
    targets: [],
    target_passed: null,
    target_total: null,
    target_failing: [],
    added: [],
    broke: [],
    disappeared: [],
    newly_skipped: [],
    changed: [],
    basis: 'counts',
    notes: [],
  };
  if (!sol) {
    st.basis = 'none';
    st.notes.push('no test counts for the solution');
    return st;
  }
  st.notes.push('per-test results absent: decided by the counts');
  if (base) {
    const baseFail = base.failed + base.errors;
    const solFail = sol.failed + sol.errors;
    if (baseFail > 0) {
      // A failing test fixed is one fewer failure AND one more pass: deleting or skipping it gives only the first.
      // Without a pass count (plain `go test`) a failure that is gone is never taken as fixed.
      const gained =
        sol.passed !== null && base.passed !== null
          ? Math.max(0, sol.passed - base.passed)
          : sol.total !== null && base.total !== null && sol.total >= base.total
            ? baseFail
            : 0;
      if (sol.passed === null || base.passed === null)
        st.notes.push(
          'no pass count: a failing test that is gone cannot be told from one fixed, so none counts as fixed',
        );
      st.target_total = baseFail;
      st.target_passed = Math.max(0, Math.min(baseFail, baseFail - solFail, gained));
      if (st.target_passed < baseFail)
        st.target_failing.push(
          // Counts cannot tell which tests pass: a target fixed while two others broke reads as none fixed.
          `${baseFail - st.target_passed} of the base's ${baseFail} failing tests not shown fixed by the counts (${solFail} fail; ${sol.passed ?? '?'} pass, base ${base.passed ?? '?'})`,
        );
    } else if (solFail > 0) st.target_failing.push(failing(solFail));
    if (sol.passed !== null && base.passed !== null && sol.passed < base.passed)
      st.broke.push(`${base.passed - sol.passed} fewer tests pass (${sol.passed}, base ${base.passed})`);
    if (sol.total !== null && base.total !== null && sol.total < base.total)
      st.disappeared.push(`${base.total - sol.total} fewer tests (${sol.total}, base ${base.total})`);
    if (sol.skipped > base.skipped)
      st.newly_skipped.push(`${sol.skipped - base.skipped} more skipped (${sol.skipped}, base ${base.skipped})`);
  } else {
    st.notes.push('no base test counts: regressions cannot be told');
    if (sol.failed + sol.errors > 0) st.target_failing.push(failing(sol.failed + sol.errors));
  }
  return st;
}

export function targetStanding(
  targets: RaceTargets,
  sol: CountsWithCases | null,
  base: CountsWithCases | null,
  changed: readonly string[] = [],
): TargetStanding {
  const s = caseList(sol);
  const b = caseList(base);
  if (!s || (!b && targets.source !== 'explicit')) return fromCounts(sol, base);
  const added = b ? [...s.byId.keys()].filter((id) => !b.byId.has(id)).sort() : [];
  // Targets belong to the task: named ones are obligations; otherwise a solution's targets are the base failures
  // its own graded run makes pass (credit, never another solution's obligation). Tests it adds are not targets.
  const baseFailing = b ? [...b.byId].filter(([, st]) => isFail(st)).map(([id]) => id) : [];
  const mine =
    targets.source === 'explicit' ? targets.fail_to_pass : baseFailing.filter((id) => isPass(s.byId.get(id))).sort();
  // The gate's tests are never capped out of the list: a target missing from the graded run is a failure.
  const failing = mine.filter((id) => !isPass(s.byId.get(id)));
  const st: TargetStanding = {
    targets: mine,
    target_passed: mine.length - failing.length,
    target_total: mine.length,
    target_failing: failing,
    added,
    broke: [],
    disappeared: [],
    newly_skipped: [],
    changed: [],
    basis: 'per-test',
    notes: [],
  };
  if (targets.source !== 'explicit' && baseFailing.length)
    st.credit = { fixed: mine.length, base_failing: baseFailing.length };
  if (!b) {
    st.notes.push('no per-test results for the base: pass-to-pass tests decided by the counts');
    const c = fromCounts(sol, base);
    Object.assign(st, { broke: c.broke, disappeared: c.disappeared, newly_skipped: c.newly_skipped });
    return st;
  }
  const expectation = new Set(changed);
  for (const [id, status] of b.byId) {
    if (!isPass(status)) continue;
    const now = s.byId.get(id);
    if (expectation.has(id)) st.changed!.push(id);
    else if (now === undefined) st.disappeared.push(id);
    else if (isFail(now)) st.broke.push(id);
    else if (now === 'skipped') st.newly_skipped.push(id);
  }
  st.broke.sort();
  st.disappeared.sort();
  st.newly_skipped.sort();
  st.changed!.sort();
  return st;
}

/** Share of the solution's targets that pass, 0-1; null when there are none or they could not be told. */
export function targetFraction(st: TargetStanding): number | null {
  if (st.credit) return st.credit.fixed / st.credit.base_failing;
  if (st.target_total === null || st.target_total === 0 || st.target_passed === null) return null;
  return st.target_passed / st.target_total;
}
