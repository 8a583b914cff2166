// The mergeable gate (pure): five named conditions per solution; a failed blocking one (all but target_tests_pass)
// blocks winning, auto-accept and merge.
import type { Feedback, RaceFlag, RaceGateCondition, RaceGates } from '../schema/types.generated.js';
import type { TargetStanding } from './targets.js';
import { describeEvidence, type TestEvidence } from '../evidence/trust.js';
import type { NoOp } from '../change/substance.js';

export interface GateInput {
  build: Feedback['checks']['build'];
  test: Feedback['checks']['test'];
  standing: TargetStanding;
  noOp: NoOp | null;
  flags: RaceFlag[];
  blockingKinds: readonly string[];
  /** The one trust rule's verdict on the graded test run: untrusted evidence is never mergeable. */
  evidence: TestEvidence;
}

const list = (xs: string[], n = 5) =>
  xs.length > n ? `${xs.slice(0, n).join(', ')}, … (${xs.length} in all)` : xs.join(', ');
const at = (f: RaceFlag) => (f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '');

function builds(build: Feedback['checks']['build']): RaceGateCondition {
  if (!build) return { name: 'builds', status: 'unknown', detail: 'no build command configured' };
  if (build.status === 'passed') return { name: 'builds', status: 'pass', detail: 'build passed' };
  if (build.status === 'error')
    return { name: 'builds', status: 'unknown', detail: 'the build command could not be started' };
  return {
    name: 'builds',
    status: 'fail',
    detail: `build ${build.status}${build.exit_code !== null ? ` (exit ${build.exit_code})` : ''}`,
  };
}

function testsRan(test: Feedback['checks']['test']): string | null {
  if (!test) return null;
  if (test.status === 'skipped') return `tests not run: ${test.skipped_reason ?? 'skipped'}`;
  if (test.status === 'timeout') return 'tests timed out';
  if (test.status === 'error') return 'the test command could not be started';
  return null;
}

/** Why the graded test run proves nothing (not run, or evidence the trust rule rejects); null when it can be read. */
function unproven(i: GateInput): string | null {
  const notRun = testsRan(i.test);
  if (notRun) return notRun;
  if (i.evidence.trusted === false) return `test evidence ${describeEvidence(i.evidence)}`;
  if (i.standing.basis === 'none') return `unmeasured: ${i.standing.notes.join('; ') || 'no test results'}`;
  return null;
}

/** Every target passes, on trusted evidence, without gamed passes. Shown, never blocking: it decides who can win. */
function targets(i: GateInput): RaceGateCondition {
  const s = i.standing;
  const name = 'target_tests_pass';
  if (!i.test) return { name, status: 'unknown', detail: 'no test command configured' };
  // Missing or untrusted evidence is never a pass.
  const why = unproven(i);
  if (why) return { name, status: 'fail', detail: why };
  if (!s.target_total)
    return { name, status: 'unknown', detail: 'no target tests: correctness comes from its own tests and the judge' };
  if (s.gamed?.length) return { name, status: 'fail', detail: `passes gamed: ${list(s.gamed)}` };
  const fixed = s.target_passed ?? 0;
  if (s.basis === 'counts') {
    // By counts no test is named: only how many failures and passes the run has against the base.
    return fixed === s.target_total
      ? { name, status: 'pass', detail: s.line }
      : { name, status: 'fail', detail: s.line };
  }
  if (s.hidden && s.hidden.fixed < s.hidden.targets) return { name, status: 'fail', detail: s.hidden.line };
  if (s.target_failing.length)
    return {
      name,
      status: 'fail',
      detail: `fixes ${fixed} of ${s.target_total}; not passing: ${list(s.target_failing)}`,
    };
  return { name, status: 'pass', detail: `all ${s.target_total} target tests pass` };
}

function passToPass(i: GateInput): RaceGateCondition {
  const s = i.standing;
  if (!i.test) return { name: 'pass_to_pass_kept', status: 'unknown', detail: 'no test command configured' };
  const why = unproven(i);
  if (why) return { name: 'pass_to_pass_kept', status: 'fail', detail: why };
  const parts: string[] = [];
  if (s.broke.length) parts.push(`broke ${list(s.broke)}`);
  if (s.disappeared.length) parts.push(`gone ${list(s.disappeared)}`);
  if (s.newly_skipped.length) parts.push(`now skipped ${list(s.newly_skipped)}`);
  if (s.hidden?.broke) parts.push(s.hidden.line);
  const by = s.basis === 'counts' ? ' (per-test results absent: decided by the counts)' : '';
  if (parts.length) return { name: 'pass_to_pass_kept', status: 'fail', detail: `${parts.join('; ')}${by}` };
  // No observer of judgeloop's ran inside this runner: its word alone never makes a solution mergeable (fail closed).
  const t = i.test?.tests;
  if (t?.observer === 'none')
    return {
      name: 'pass_to_pass_kept',
      status: 'fail',
      detail: `no observer of judgeloop's saw the run (${t.runner}: its own word): not mergeable on its evidence alone`,
    };
  if (s.notes.some((n) => /regressions cannot be told/.test(n)) || s.resolved === null)
    return { name: 'pass_to_pass_kept', status: 'unknown', detail: s.notes.join('; ') };
  return {
    name: 'pass_to_pass_kept',
    status: 'pass',
    detail: `every test that passed on the base still passes${by}`,
  };
}

function substantive(noOp: NoOp | null): RaceGateCondition {
  return noOp
    ? { name: 'substantive_change', status: 'fail', detail: noOp.detail }
    : { name: 'substantive_change', status: 'pass', detail: 'the diff changes code' };
}

function blocking(flags: RaceFlag[], kinds: readonly string[]): RaceGateCondition {
  const hits = flags.filter((f) => kinds.includes(f.kind));
  if (!hits.length)
    return {
      name: 'no_blocking_finding',
      status: 'pass',
      detail: `no finding of a blocking kind (${kinds.join(', ') || 'none configured'})`,
    };
  return { name: 'no_blocking_finding', status: 'fail', detail: list(hits.map((f) => `${f.kind} at ${at(f) || '?'}`)) };
}

/** Conditions that do not block merging: they decide who can win (a safe change need not finish the task). */
const NOT_BLOCKING = new Set(['target_tests_pass']);

/** The gate: every condition in a fixed order; mergeable (safe to merge) when no blocking one failed. */
export function evaluateGate(i: GateInput): RaceGates {
  const conditions = [
    builds(i.build),
    targets(i),
    passToPass(i),
    substantive(i.noOp),
    blocking(i.flags, i.blockingKinds),
  ];
  const failed = conditions.filter((c) => c.status === 'fail' && !NOT_BLOCKING.has(c.name));
  const shown = conditions.filter((c) => c.status === 'fail' && NOT_BLOCKING.has(c.name));
  const unknown = conditions.filter((c) => c.status === 'unknown');
  const p2p = conditions[2]!;
  return {
    build_passes: conditions[0]!.status === 'unknown' ? null : conditions[0]!.status === 'pass',
    no_test_regression: p2p.status === 'unknown' ? null : p2p.status === 'pass',
    mergeable: failed.length === 0,
    reasons: [
      ...failed.map((c) => `${c.name} failed: ${c.detail}`),
      ...shown.map((c) => `${c.name} failed (does not block merging): ${c.detail}`),
      ...unknown.map((c) => `${c.name} unknown: ${c.detail}`),
    ],
    conditions,
  };
}

/** The failed blocking conditions in one line (bin/accept, the table). */
export function failedConditions(g: RaceGates): string {
  return (g.conditions ?? [])
    .filter((c) => c.status === 'fail' && !NOT_BLOCKING.has(c.name))
    .map((c) => `${c.name} (${c.detail})`)
    .join('; ');
}
