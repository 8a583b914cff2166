// Outcome class and integrity flags of one run (definitions: docs/design/collector.md). Pure.
import type { Check, LintCounts, Outcome, RunRecord, TestCounts } from '../schema/types.generated.js';
import { describeEvidence, type TestEvidence } from '../evidence/trust.js';
import { failingIds, resolutionLine, type Resolution } from '../evidence/resolution.js';
import { plural } from '../base/plural.js';

export interface ChecksSet {
  build: Check | null;
  test: Check | null;
  lint: Check | null;
  typecheck: Check | null;
}

export interface Integrity {
  tests_not_run: boolean;
  exit_code_contradicts_counts: boolean;
  test_count_below_baseline: boolean;
  counts_disputed?: boolean;
  runner_crashed?: boolean;
  no_tests_collected?: boolean;
  test_evidence?: TestEvidence;
  notes: string[];
}

const NO_TESTS =
  /\bno tests? (?:found|ran|to run|were found|collected)\b|\bcollected 0 items\b|\b0 tests? (?:ran|collected|executed)\b|\bno test files? found\b|\bno test suite found\b/i;

/** Tests that ran to a verdict (not skipped); null when the counts cannot tell. */
function ranCount(c: TestCounts): number | null {
  if (c.passed === null) return c.total === null ? null : Math.max(0, c.total - c.skipped);
  return c.passed + c.failed + (c.xfailed ?? 0) + (c.xpassed ?? 0);
}

/** The parser's dispute, crash and empty-run flags, carried into the record's integrity with one note each. */
function countFlags(test: Check, counts: TestCounts | null, out: Integrity): void {
  const code = test.exit_code;
  // A runner killed by a signal (sh reports 128+N) crashed even when nothing could be parsed (jest dies silently).
  const bySignal = Boolean(test.signal) || (code !== null && code > 128 && code < 160);
  out.counts_disputed = counts?.counts_disputed === true;
  out.runner_crashed = counts?.runner_crashed === true || (test.status !== 'timeout' && bySignal);
  out.no_tests_collected = counts?.no_tests_collected === true;
  if (out.counts_disputed)
    out.notes.push('test counts disputed: more than one summary, or the summary, per-test lines and report disagree');
  if (out.runner_crashed) out.notes.push('the test runner or a test process crashed: some results are missing');
  if (out.no_tests_collected) {
    out.notes.push('no tests found: the runner collected no test');
    if (!out.tests_not_run) {
      out.tests_not_run = true;
    }
  }
}

/** The three integrity flags for a test check, with a note per raised flag. */
export function integrityFlags(test: Check | null, baseline: TestCounts | null): Integrity {
  const out: Integrity = {
    tests_not_run: false,
    exit_code_contradicts_counts: false,
    test_count_below_baseline: false,
    counts_disputed: false,
    runner_crashed: false,
    no_tests_collected: false,
    notes: [],
  };
  // Not configured, or skipped on purpose (the build failed): nothing to distrust.
  if (!test || test.status === 'skipped') return out;
  const counts = test.tests ?? null;
  const text = test.output?.text ?? '';
  const notRun = (why: string) => {
    out.tests_not_run = true;
    out.notes.push(`tests did not run: ${why}`);
  };
  if (test.status === 'error') notRun('the test command could not be started');
  else if (test.status === 'timeout') notRun('the test command was killed at its timeout');
  else if (test.signal) notRun(`the test runner was killed by ${test.signal}`);
  else if (counts === null) notRun('no test counts could be parsed from the output');
  else if (ranCount(counts) === 0)
    notRun(counts.errors > 0 ? `zero tests ran (${plural(counts.errors, 'error')} before any test)` : 'zero tests ran');
  else if (NO_TESTS.test(text)) notRun('the runner reported that no tests were found');
  countFlags(test, counts, out);

  if (counts && test.exit_code !== null && test.status !== 'timeout') {
    const failures = counts.failed + counts.errors;
    if (test.exit_code !== 0 && failures === 0) {
      out.exit_code_contradicts_counts = true;
      out.notes.push(
        `the test command exited ${test.exit_code} but no failure or error was parsed (crash after the summary, or counts missed)`,
      );
    } else if (test.exit_code === 0 && failures > 0) {
      out.exit_code_contradicts_counts = true;
      out.notes.push(
        `the test command exited 0 but ${plural(failures, 'failure or error', 'failures or errors')} ${failures === 1 ? 'was' : 'were'} parsed`,
      );
    }
  }

  if (counts && baseline) {
    const agentTotal = counts.total;
    const baseTotal = baseline.total;
    const agentRan = ranCount(counts);
    const baseRan = ranCount(baseline);
    if (agentTotal !== null && baseTotal !== null && agentTotal < baseTotal) {
      out.test_count_below_baseline = true;
      out.notes.push(`${agentTotal} tests counted against ${baseTotal} on the base commit (tests deleted?)`);
    } else if (agentRan !== null && baseRan !== null && agentRan < baseRan) {
      out.test_count_below_baseline = true;
      out.notes.push(`${agentRan} tests ran against ${baseRan} on the base commit (tests skipped?)`);
    }
  }
  return out;
}

export interface OutcomeInput {
  status: RunRecord['status'];
  failureReason: string | null;
  /** Set when the collector could not measure the run at all (e.g. worktree missing). */
  infraReason: string | null;
  checks: ChecksSet;
  integrity: Integrity;
  baselineLint: LintCounts | null;
  /** Whether the task was done; absent or null when the tests were not measured. */
  resolution?: Resolution | null;
  /** The base's test counts: failures that fail there too and are not targets are context, not the run's. */
  baselineTests?: TestCounts | null;
}

/** Tests failing now that are neither targets nor failing on the base (per-test lists on both sides), or null. */
function newFailures(now: TestCounts | null, base: TestCounts | null | undefined, r: Resolution): string[] | null {
  const after = failingIds(now);
  const before = failingIds(base);
  if (!after || !before || r.basis !== 'per_test') return null;
  const known = new Set([...before, ...r.unfixed, ...r.broke]);
  return after.filter((id) => !known.has(id));
}

function lintClean(c: Check, base: LintCounts | null): boolean {
  if (c.status !== 'passed' && c.status !== 'failed') return false;
  // Pre-existing issues make many linters exit non-zero: what counts is no new error against the base.
  if (c.lint) return c.lint.errors <= (base?.errors ?? 0);
  return c.status === 'passed';
}

const UNMEASURED = 'no build, test, lint or typecheck command is configured: nothing was measured (not a pass)';

/**
 * Precedence: infra_failure > timeout > agent_failure > unmeasured (no check configured) > full_pass > partial_pass.
 * Returns the class and the reason, one sentence.
 */
export function classifyOutcome(i: OutcomeInput): { outcome: Outcome; reason: string } {
  const { checks } = i;
  if (i.status === 'infra_failure')
    return {
      outcome: 'infra_failure',
      reason: `the orchestrator reported an infrastructure failure${i.failureReason ? `: ${i.failureReason}` : ''}`,
    };
  if (i.infraReason) return { outcome: 'infra_failure', reason: i.infraReason };
  const named = (['build', 'test', 'lint', 'typecheck'] as const).map((k) => [k, checks[k]] as const);
  const errored = named.find(([, c]) => c?.status === 'error');
  if (errored) return { outcome: 'infra_failure', reason: `the ${errored[0]} command could not be started` };
  if (i.status === 'timeout')
    return { outcome: 'timeout', reason: `the agent run timed out${i.failureReason ? `: ${i.failureReason}` : ''}` };
  const timedOut = named.find(([, c]) => c?.status === 'timeout');
  if (timedOut) return { outcome: 'timeout', reason: `the ${timedOut[0]} check was killed at its timeout` };

  if (i.status === 'failed')
    return { outcome: 'agent_failure', reason: `the agent run failed${i.failureReason ? `: ${i.failureReason}` : ''}` };
  if (named.every(([, c]) => c === null)) return { outcome: 'unmeasured', reason: UNMEASURED };
  if (checks.build && checks.build.status !== 'passed') return { outcome: 'agent_failure', reason: 'the build failed' };
  const t = checks.test;
  if (t) {
    const counts = t.tests ?? null;
    const unparsedButGreen = counts === null && t.status === 'passed' && !t.signal;
    if (i.integrity.no_tests_collected)
      return { outcome: 'agent_failure', reason: 'no tests found: the test runner collected no test' };
    if (i.integrity.tests_not_run && !unparsedButGreen)
      return {
        outcome: 'agent_failure',
        reason: i.integrity.notes.find((n) => n.startsWith('tests did not run')) ?? 'tests did not run',
      };
    if (counts && counts.passed === 0 && (counts.xfailed ?? 0) + (counts.xpassed ?? 0) === 0)
      return { outcome: 'agent_failure', reason: 'no test passed' };
  }

  const short: string[] = [];
  if (t) {
    const c = t.tests ?? null;
    const r = i.resolution;
    const fresh = r ? newFailures(c, i.baselineTests, r) : null;
    if (c === null) short.push('the test counts could not be parsed (exit 0 alone cannot confirm the tests passed)');
    if (r && r.resolved === false) short.push(resolutionLine(r));
    if (fresh) {
      // Per test: failures the base has too and the task does not name are context (not the run's); others count.
      if (fresh.length) short.push(`${plural(fresh.length, 'other test')} failed`);
    } else {
      if (t.status !== 'passed') short.push(`the tests exited ${t.exit_code}`);
      if (c && c.failed + c.errors > 0)
        short.push(`${plural(c.failed, 'test')} failed and ${plural(c.errors, 'error')}`);
    }
    if (i.integrity.exit_code_contradicts_counts) short.push('the exit code contradicts the parsed counts');
    if (i.integrity.test_count_below_baseline) short.push('fewer tests than on the base commit');
    if (i.integrity.counts_disputed)
      short.push('the test counts are disputed (a second summary, or report and console disagree)');
    if (i.integrity.runner_crashed) short.push('the test runner crashed');
    const ev = i.integrity.test_evidence;
    if (ev?.trusted === false) short.push(`the test evidence is ${describeEvidence(ev)}`);
  }
  if (checks.lint && !lintClean(checks.lint, i.baselineLint)) short.push('lint reports new errors');
  if (checks.typecheck && checks.typecheck.status !== 'passed') short.push('the type check failed');
  if (short.length)
    return { outcome: 'partial_pass', reason: `not every check passed: ${[...new Set(short)].join('; ')}` };
  const ran = named.filter(([, c]) => c).map(([k]) => k);
  return { outcome: 'full_pass', reason: `every configured check passed (${ran.join(', ')})` };
}
