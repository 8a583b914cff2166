// What a run broke and whether it did anything (pure but for noOpReason's classifier): tests that passed on the base
// and do not now, by test id, cap the composite below any clean run; a no-op scores 0. docs/design/collector.md.
import type { Outcome, TestCounts } from '../schema/types.generated.js';

/** The highest composite (0-100) of a run that broke a test that passed on the base. */
export const REGRESSION_CAP = 45;

/** The highest composite (0-100) of a run that fixes none of its task's target tests (the task was not done). */
export const UNRESOLVED_CAP = 40;

type Cases = NonNullable<TestCounts['cases']>;
const PASS = new Set(['passed', 'xpass']);

function byId(cases: Cases): Map<string, string> {
  const m = new Map<string, string>();
  for (const c of cases) if (!m.has(c.id) || !PASS.has(c.status)) m.set(c.id, c.status);
  return m;
}

/**
 * Ids that passed on the base and now fail, error, are skipped or are gone (gone only when the run's list is
 * complete); empty when either side has no per-test list.
 */
export function brokenTests(base: TestCounts | null | undefined, now: TestCounts | null | undefined): string[] {
  if (!base?.cases || !now?.cases) return [];
  const after = byId(now.cases);
  const complete = now.cases_complete !== false;
  const out: string[] = [];
  for (const [id, status] of byId(base.cases)) {
    if (!PASS.has(status)) continue;
    const s = after.get(id);
    if (s === undefined ? complete : !PASS.has(s)) out.push(id);
  }
  return out.sort();
}

/**
 * Whether the base's tests behave as on the base: each base test id has its base status (tests the run added do not
 * count); without per-test lists, the same failures, errors and skips.
 */
export function sameResults(base: TestCounts | null | undefined, now: TestCounts | null | undefined): boolean {
  if (!base || !now) return false;
  if (base.cases && now.cases) {
    const b = byId(now.cases);
    return [...byId(base.cases)].every(([id, s]) => b.get(id) === s);
  }
  return base.failed === now.failed && base.errors === now.errors && base.skipped === now.skipped;
}

/** Whether the tests show the run behaving otherwise than the base: both sides measured, and not the same results. */
export function behaviourChanged(base: TestCounts | null | undefined, now: TestCounts | null | undefined): boolean {
  return !!base && !!now && !sameResults(base, now);
}

/**
 * The no-op rule, one for the collector and the race: an empty diff does nothing; any other change does nothing when
 * `classify` finds nothing executable in it (it returns what kind of nothing) and the tests do not show it behaving
 * otherwise than the base (a docstring a test reads, a version a test checks). `classify` runs only when it decides.
 */
export function noOpVerdict<T>(
  emptyDiff: boolean,
  base: TestCounts | null | undefined,
  now: TestCounts | null | undefined,
  classify: () => T,
): T | null {
  return emptyDiff || !behaviourChanged(base, now) ? classify() : null;
}

/** Why the change is a no-op (noOpVerdict), or null. Without a classifier nothing is called a no-op. */
export async function noOpReason(
  base: TestCounts | null | undefined,
  now: TestCounts | null | undefined,
  filesChanged: number,
  classify: (() => Promise<string | null>) | undefined,
): Promise<string | null> {
  if (!classify) return null;
  const empty = filesChanged === 0;
  return await noOpVerdict(empty, base, now, empty ? async () => 'the diff is empty' : classify);
}

/**
 * The composite after the verdict: 0 for a no-op, at most REGRESSION_CAP for a run that broke or gamed the tests, at
 * most UNRESOLVED_CAP for one that fixes none of its targets.
 */
export function verdictComposite(
  composite: number | null,
  broke: number,
  noOp: boolean,
  gamed = false,
  fixesNothing = false,
): number | null {
  if (composite === null) return null;
  if (noOp) return 0;
  let out = broke > 0 || gamed ? Math.min(composite, REGRESSION_CAP) : composite;
  if (fixesNothing) out = Math.min(out, UNRESOLVED_CAP);
  return out;
}

const NO_OP_REASON = 'the change does nothing';
const GAMED_REASON = 'the tests pass through code that games them';
const UNRESOLVED_REASON = 'the task is not done';

/**
 * A no-op, a change whose code games the graded tests (`gaming`: findings, one line each), or one that fixes none of
 * its task's targets (`fixesNothing`: the resolution's line) is never a pass of any kind: agent_failure, saying what
 * kind of nothing it is, the first finding, or how many targets it fixes.
 */
export function verdictOutcome(
  o: { outcome: Outcome; reason: string },
  noOp: string | null,
  gaming: readonly string[] = [],
  fixesNothing: string | null = null,
  ownCrash: string | null = null,
): { outcome: Outcome; reason: string } {
  if (o.outcome !== 'full_pass' && o.outcome !== 'partial_pass') return o;
  if (noOp) return { outcome: 'agent_failure', reason: `${NO_OP_REASON}: ${noOp}` };
  const more = gaming.length > 1 ? ` (and ${gaming.length - 1} more finding${gaming.length > 2 ? 's' : ''})` : '';
  if (gaming.length) return { outcome: 'agent_failure', reason: `${GAMED_REASON}: ${gaming[0]}${more}` };
  if (fixesNothing) return { outcome: 'agent_failure', reason: `${UNRESOLVED_REASON}: ${fixesNothing}` };
  // Merging a test that crashes its runner leaves the suite red: never a full pass.
  if (ownCrash && o.outcome === 'full_pass') return { outcome: 'partial_pass', reason: ownCrash };
  return o;
}

/**
 * Why the agent's own tests leave the suite red, else null (they ran apart, in its checkout): their runner killed by a
 * signal, or a test in a file the agent added or edited failing. Merging them would leave the suite red.
 */
export function ownTestsCrash(
  own:
    | {
        files?: string[];
        check: { signal?: string | null; tests?: { cases?: { id: string; status: string }[] } | null } | null;
      }
    | null
    | undefined,
): string | null {
  const signal = own?.check?.signal;
  if (signal) return `a test the agent added or edited crashed its runner (${signal})`;
  const files = new Set(own?.files ?? []);
  const failing = (own?.check?.tests?.cases ?? [])
    .filter((c) => (c.status === 'failed' || c.status === 'error') && files.has(c.id.split('::')[0]!))
    .map((c) => c.id);
  return failing.length ? `a test the agent added or edited fails: ${names(failing)}` : null;
}

/** The test's own name at the end of its id (`tests/t.py::T::test_x` → test_x, `a.test.mjs::s > x` → x). */
function shortName(id: string): string {
  const parts = id.split(/::| > /);
  return parts[parts.length - 1]!.trim();
}

const names = (ids: string[]) =>
  ids.slice(0, 3).map(shortName).join(', ') + (ids.length > 3 ? `, … (${ids.length})` : '');

/**
 * Why a run's line reads as it does: that it does nothing or games the tests, else whether it did the task (the
 * resolution's line, naming what it broke); without a resolution, what it broke; null when there is nothing to say.
 */
export function verdictLine(
  broke: string[],
  outcomeReason: string,
  resolution?: { line: string; broke: string[]; basis: string } | null,
): string | null {
  if (outcomeReason.startsWith(`${NO_OP_REASON}:`)) return `no-op: ${outcomeReason.slice(NO_OP_REASON.length + 2)}`;
  if (outcomeReason.startsWith(`${GAMED_REASON}:`)) return `gamed: ${outcomeReason.slice(GAMED_REASON.length + 2)}`;
  if (resolution) {
    const ids = resolution.basis === 'per_test' ? resolution.broke : [];
    const more = resolution.basis === 'counts' && resolution.broke.length ? `: ${resolution.broke.join('; ')}` : '';
    return `${resolution.line}${ids.length ? `: ${names(ids)}` : more}`;
  }
  if (!broke.length) return null;
  return `broke ${broke.length} test${broke.length === 1 ? '' : 's'} that passed on the base: ${names(broke)}`;
}
