// collectRun: one run record in, state/feedback/<bead>.json out, in four steps: read, measure, assemble (pure), write.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, UserError } from '../base/errors.js';
import { assertConfigOutside, type Config } from '../config/config.js';
import { gradedPaths } from '../change/test-findings.js';
import { testEvidence, type TestEvidence } from '../evidence/trust.js';
import { resolutionLine, resolutionRecord, resolveRun, taskTargets, type Resolution } from '../evidence/resolution.js';
import { git, setGitTimeout } from '../git/git.js';
import { diffSnapshot, snapshotWorking, type WorkingDiff } from '../git/snapshot.js';
import { worktreeInfo, worktreeInfoWithRef, worktreeProblem, type WorktreeInfo } from '../git/worktree.js';
import { sweepOrphansOnce } from '../process/process.js';
import { assertSandboxAvailable, collectorSandbox, startSandboxProbe, type SandboxPolicy } from '../process/sandbox.js';
import type { Baseline, BaselineSummary, CommandsUsed, Feedback, RaceRun } from '../schema/types.generated.js';
import { collectorConfigHash } from '../evidence/currency.js';
import { sealRun, type Sealed } from './candidate.js';
import { resolveCommands } from './checks.js';
import type { CollectContext } from './context.js';
import { changedExpectations, describeChanged } from './expectations.js';
import { base, diffSummary, scoreRun, unmeasured, type Stamp } from './feedback-parts.js';
import {
  type CarriedJudgment,
  fastestInRace,
  judgmentOfTree,
  nothingToMeasure,
  readJudgment,
  recordedBase,
  storedOutcome,
} from './inputs.js';
import { infraCause } from './blame.js';
import { measureBaseline, measureOwnTests, measureSealed, type MeasureOptions, type Seen } from './measure.js';
import { classifyOutcome, integrityFlags, type ChecksSet } from './outcome.js';
import { orderFeedback } from './record-order.js';
import { noOpReason, ownTestsCrash, verdictOutcome } from './regressions.js';
import type { LoadedRunRecord } from './run-record.js';
import { durationSeconds } from './scoring.js';
import { plural } from '../base/plural.js';

/** Everything a run's feedback is made from besides its measurements, read before anything is measured. */
interface Inputs {
  loaded: LoadedRunRecord;
  config: Config;
  commands: CommandsUsed;
  /** What measuring needs; null when the run cannot be measured (`unmeasurable` says why). */
  run: { info: WorktreeInfo; baseCommit: string; sandbox: SandboxPolicy } | null;
  /** Why the worktree cannot be measured; null when it can, or when the orchestrator reported an infra failure. */
  unmeasurable: string | null;
  /** The stored record's outcome, read only when this run may record nothing measured (null: none, or not read). */
  stored: Pick<Feedback, 'outcome'> | null;
  judgment: CarriedJudgment | null;
  version?: string | undefined;
  /** The fastest other run of the race (race-runs log and peers), when the run belongs to a race. */
  fastest: number | null;
}

/** What the seal, the checks and the diff found. */
interface Measured {
  diff: WorkingDiff;
  sealed: Sealed;
  baseline: BaselineSummary | null;
  checks: ChecksSet;
  own: Feedback['own_tests'] | null;
  /** The task's hidden tests, run apart (hidden.ts); null when the task has none. */
  hidden: Feedback['hidden'] | null;
  changed: NonNullable<Feedback['changed_expectations']>;
  noOp: string | null;
  /** Code that games the graded tests (lib/change/gaming-check.ts), one line each. */
  gaming: string[];
  notes: string[];
  /** Why the failure is the environment's, not the agent's (blame.ts); null when it is not. */
  infra: string | null;
  /** The graded checkout's fetch and setup, as they ran (absent when none is configured). */
  setup: Baseline['setup'] | null;
  /** How long each step took (collectRun adds the inputs and the total). */
  steps: Steps;
}

type Steps = NonNullable<Feedback['steps']>;

const since = (t: number) => Math.round(performance.now() - t);

/** Measures one run and writes state/feedback/<bead>.json; returns what it wrote. */
export async function collectRun(loaded: LoadedRunRecord, ctx: CollectContext): Promise<Feedback> {
  const started = performance.now();
  const inputs = await readInputs(loaded, ctx);
  const inputsMs = since(started);
  const measured = inputs.run ? await measure(inputs, inputs.run, ctx) : null;
  if (measured) measured.steps = { inputs_ms: inputsMs, ...measured.steps, total_ms: since(started) };
  return write(ctx, assemble(inputs, measured, ctx.now()));
}

/** Step 1: the record's commands, the worktree and base commit (git), and the store's reads; nothing is measured. */
async function readInputs(loaded: LoadedRunRecord, ctx: CollectContext): Promise<Inputs> {
  const r = loaded.record;
  const { store, config: cfg } = ctx;
  const commands = resolveCommands(r, cfg.collector);
  const judgment = () => readJudgment(store, r.bead, cfg.judge.phase);
  const given = { loaded, config: cfg, commands, version: ctx.version, fastest: null, run: null };
  if (r.status === 'infra_failure') return { ...given, unmeasurable: null, stored: null, judgment: judgment() };

  const wt = loaded.worktree;
  assertConfigOutside(cfg, wt, store.root);
  const sandbox = collectorSandbox(cfg.collector, ctx.processEnv, store.root);
  assertSandboxAvailable(sandbox);
  startSandboxProbe(sandbox, join(store.root, 'cache', 'sandbox-probe.json'));
  setGitTimeout((cfg.collector.git_timeout_seconds ?? 120) * 1000);
  const fastP = existsSync(wt) ? worktreeInfoWithRef(wt, r.base_ref) : null;
  // While git answers (it runs nothing of the agent's); before any check or setup runs.
  sweepOrphansOnce();
  const fast = fastP ? await fastP : null;
  const info = fast ?? (existsSync(wt) ? await worktreeInfo(wt) : null);
  if (!info) {
    const reason = (await worktreeProblem(wt)) ?? `worktree ${wt} is not a git worktree`;
    ctx.log?.(`${r.bead}: ${reason}`);
    return { ...given, unmeasurable: reason, stored: storedOutcome(store, r.bead), judgment: judgment() };
  }
  const baseCommit = await recordedBase(wt, r, fast?.refCommit ?? null, loaded.file);
  return {
    ...given,
    run: { info, baseCommit, sandbox },
    unmeasurable: null,
    stored: nothingToMeasure(r, commands) ? storedOutcome(store, r.bead) : null,
    judgment: judgment(),
    fastest: r.race_id ? fastestInRace(store, r.race_id, r.bead, ctx.racePeers) : null,
  };
}

/**
 * Step 2: fixes the tree and seals it as a commit (build outputs never count as the agent's change), then runs the
 * checks on the base and in fresh checkouts of the graded commit, never in the agent's worktree.
 */
async function measure(inputs: Inputs, run: NonNullable<Inputs['run']>, ctx: CollectContext): Promise<Measured> {
  const { loaded, commands, config: cfg } = inputs;
  const r = loaded.record;
  const wt = loaded.worktree;
  let t = performance.now();
  const steps: Steps = { total_ms: 0 };
  const snap = await snapshotWorking(wt, run.baseCommit, run.info);
  const diffP = diffSnapshot(wt, snap, run.info);
  diffP.catch(() => undefined);
  const sealed = await sealRun(wt, snap, r, cfg.collector, loaded.file, ctx.now(), commands.test);
  const hiddenMod = r.task.hidden_tests !== undefined ? await import('./hidden.js') : null;
  const hiddenTests = hiddenMod
    ? await hiddenMod.loadHiddenTests(wt, r.task.hidden_tests!, snap.mergeBase, cfg.collector, loaded.file)
    : null;
  const notes: string[] = [];
  if (sealed.pruned.beads.length || sealed.pruned.error)
    ctx.log?.(
      sealed.pruned.error
        ? `could not prune old candidate refs: ${sealed.pruned.error}`
        : `pruned ${plural(sealed.pruned.beads.length, 'candidate ref')} older than ${cfg.collector.candidate_ref_max_age_days} days: ${sealed.pruned.beads.join(', ')}`,
    );
  // Read from git alone, while the checks run; a failure is a note, never a lost collection.
  const gamingP = import('../change/gaming-check.js')
    .then((g) => g.gamingFindings(wt, sealed.gradedBase, sealed.candidate.graded_commit, cfg.collector))
    .catch((e: unknown) => {
      notes.push(`the gaming check failed: ${errorMessage(e)}`);
      return [] as string[];
    });
  if (sealed.candidate.tests_from.source === 'tests_ref')
    notes.push(`graded tests from the task's test revision ${sealed.candidate.tests_from.ref}`);
  const env = { wt, commands, cfg, ctx, sandbox: run.sandbox };
  const seen: Seen = { baseline: null, gradedSetup: null };
  steps.seal_ms = since(t);
  t = performance.now();
  const baseline = await measureBaseline(sealed.gradedBase, env, notes, seen);
  steps.baseline_ms = since(t);
  if (seen.baselineComputed !== undefined) steps.baseline_cached = !seen.baselineComputed;
  const keepCases = new Set([...(baseline?.tests?.cases ?? []).map((c) => c.id), ...(r.task.target_tests ?? [])]);
  const o: MeasureOptions = { ...env, reported: r.checks, keepCases };
  t = performance.now();
  const checks = await measureSealed(sealed.candidate.graded_commit, o, `${r.bead} graded`, notes, seen);
  Object.assign(steps, gradedSteps(since(t), seen.gradedSetup ?? null, checks));
  t = performance.now();
  const own = await measureOwnTests(sealed, o, `${r.bead} own tests`);
  if (own?.check) steps.own_tests_ms = since(t);
  t = performance.now();
  const hidden =
    hiddenMod && hiddenTests
      ? await hiddenMod.measureHidden(sealed.gradedBase, sealed.candidate.graded_commit, o, hiddenTests, r.bead)
      : null;
  if (hidden) ctx.log?.(`${r.bead}: ${hidden.line}`);
  const changedIds = changedExpectations(checks.test, own?.check ?? null, sealed.candidate.replaced);
  const changed = changedIds.length ? await describeChanged(wt, sealed, changedIds) : [];
  const diff = await diffP;
  // Classified is what the graded run runs: the graded base to the graded commit (an edit to a test or
  // test-infrastructure path is replaced there). Nothing graded changed: say so rather than "the diff is empty".
  // The classifier is loaded only when a change may be nothing (the base's tests behave as before).
  const classify = async () =>
    (await git(wt, ['rev-parse', `${sealed.gradedBase}^{tree}`])).trim() === sealed.candidate.graded_tree
      ? 'only tests and test infrastructure changed, which the graded run takes from the trusted revision'
      : (await import('../change/no-op-check.js')).changeNoOp(
          wt,
          sealed.gradedBase,
          sealed.candidate.graded_commit,
          gradedPaths(cfg.collector.test_paths ?? [], cfg.collector.test_infra_paths ?? []).isTest,
        );
  const noOp = await noOpReason(baseline?.tests, checks.test?.tests, diff.files.length, classify);
  const gaming = await gamingP;
  const infra = infraCause({ baseline: seen.baseline, gradedSetup: seen.gradedSetup ?? null, checks });
  steps.rest_ms = since(t);
  const setup = seen.gradedSetup ?? null;
  return { diff, sealed, baseline, checks, own, hidden, changed, noOp, gaming, notes, infra, setup, steps };
}

/** The graded checkout's parts: its fetch and setup (from their records), its checks summed. Pure. */
function gradedSteps(ms: number, setup: Baseline['setup'] | null, checks: ChecksSet): Partial<Steps> {
  const out: Partial<Steps> = { graded_ms: ms };
  const fetch = setup?.fetch;
  if (fetch?.result.duration_ms != null) out.fetch_ms = fetch.result.duration_ms;
  // Fetch alone (or a failed fetch): the setup's record is the fetch's.
  if (setup && setup.result !== fetch?.result && setup.result.duration_ms != null)
    out.setup_ms = setup.result.duration_ms;
  const ran = Object.values(checks).filter((c) => c?.source === 'collector' && c.duration_ms != null);
  if (ran.length) out.checks_ms = ran.reduce((a, c) => a + c!.duration_ms!, 0);
  return out;
}

/** Step 3 (pure): outcome, scores and the feedback record from what was read and measured, stamped `at`. */
function assemble(inputs: Inputs, m: Measured | null, at: Date): Feedback {
  const { loaded, commands, config: cfg, stored } = inputs;
  const r = loaded.record;
  const stamp: Stamp = {
    at,
    version: inputs.version,
    configHash: collectorConfigHash(cfg.collector),
    // A verdict about another tree than the one measured now is not carried (the work changed).
    judgment: judgmentOfTree(inputs.judgment, m?.diff.tree ?? null),
  };
  if (!m) {
    // Never replace a measured record with an unmeasured one (e.g. re-collecting after the worktree was cleaned up).
    if (inputs.unmeasurable !== null && stored && stored.outcome !== 'infra_failure')
      throw new UserError(
        `${loaded.file}: /worktree: ${inputs.unmeasurable}; state/feedback/${r.bead}.json (already measured) is kept`,
      );
    return unmeasured(loaded, commands, inputs.unmeasurable, stamp);
  }
  const { baseline, checks, noOp } = m;
  const evidence = testEvidence(checks.test);
  const resolution = resolve(r, m, evidence);
  const integrity = integrityFlags(checks.test, baseline?.tests ?? null);
  integrity.test_evidence = evidence;
  integrity.notes.push(...m.notes);
  const facts = { status: r.status, failureReason: r.failure_reason ?? null, infraReason: m.infra, checks, integrity };
  const { outcome, reason } = classifyOutcome({
    ...facts,
    baselineLint: baseline?.lint ?? null,
    resolution,
    baselineTests: baseline?.tests ?? null,
  });
  // A change that does nothing, or whose code games the graded tests, is never a pass (regressions.ts).
  const fixesNothing =
    resolution && resolution.target_total > 0 && resolution.basis !== 'none' && resolution.fixed === 0
      ? resolutionLine(resolution)
      : null;
  const ownCrash = ownTestsCrash(m.own);
  const verdict = verdictOutcome({ outcome, reason }, noOp, m.gaming, fixesNothing, ownCrash);
  if (ownCrash) integrity.notes.push(ownCrash);
  if (m.hidden && m.hidden.resolved !== true)
    integrity.notes.push(
      `not resolved by the hidden tests: ${m.hidden.line}${m.hidden.note ? ` (${m.hidden.note})` : ''}`,
    );
  integrity.notes.push(...m.gaming.slice(0, 10).map((g) => `games the graded tests: ${g}`));
  if (verdict.outcome === 'unmeasured' && stored && !['unmeasured', 'infra_failure'].includes(stored.outcome))
    throw new UserError(
      `${loaded.file}: no build, test, lint or typecheck command is configured, but state/feedback/${r.bead}.json was measured (outcome ${stored.outcome}): kept; collect with the config that measured it`,
    );
  const scored = scoreRun({ ...m, resolution }, integrity, r, {
    fastest: inputs.fastest,
    config: cfg,
    outcome: verdict.outcome,
  });
  return base(loaded, stamp, {
    base: { ref: r.base_ref, commit: inputs.run!.baseCommit },
    head: { ref: r.head_ref ?? 'HEAD', commit: m.diff.headCommit, tree: m.diff.tree },
    candidate: m.sealed.candidate,
    ...(m.own ? { own_tests: m.own } : {}),
    ...(m.hidden ? { hidden: m.hidden } : {}),
    ...(m.setup ? { setup: m.setup } : {}),
    steps: m.steps,
    ...(m.changed.length ? { changed_expectations: m.changed } : {}),
    commands,
    checks,
    baseline,
    diff: diffSummary(m.diff),
    ...scored,
    outcome: verdict.outcome,
    outcome_reason: verdict.reason,
    ...(resolution ? { resolution: resolutionRecord(resolution) } : {}),
    integrity,
  });
}

/**
 * Whether the run did its task: its targets (lib/evidence/resolution.ts) against the graded base and the graded run.
 * Passes through code that games the tests, or that a no-op leaves, fix nothing; null when the tests were not run.
 */
function resolve(r: LoadedRunRecord['record'], m: Measured, evidence: TestEvidence): Resolution | null {
  const test = m.checks.test;
  if (!test || test.status === 'skipped' || test.status === 'error' || !test.tests) return null;
  const targets = taskTargets({
    task: r.task.target_tests,
    testsRef: m.sealed.candidate.tests_from.source === 'tests_ref',
    taskType: r.task.type,
    base: m.baseline?.tests,
  });
  const res = resolveRun(targets, m.baseline?.tests, test.tests);
  // Gamed, unbelievable or unchanged passes are not the task done; gamed or unchanged ones fix nothing.
  if (m.gaming.length || m.noOp || evidence.trusted === false) res.resolved = false;
  // Hidden tests are targets too: the task is done only when they pass as well (null: it cannot be told).
  if (m.hidden && res.resolved === true) res.resolved = m.hidden.resolved;
  if (m.gaming.length || m.noOp) {
    res.unfixed = targets.ids ?? res.unfixed;
    res.fixed = 0;
  }
  return res;
}

/** Step 4: the feedback record, then the rows that let later reads skip scanning every feedback file. */
async function write(ctx: CollectContext, measured: Feedback): Promise<Feedback> {
  const { store } = ctx;
  const fb = orderFeedback(measured); // summary first, raw output last, floats to 4 places: what is stored is returned
  store.write('feedback', fb.bead, fb);
  // The two rows go to different files under different locks: written concurrently, both awaited.
  const raceId = fb.run.race_id;
  const race = async () => {
    if (raceId === undefined) return;
    const row: RaceRun = {
      bead: fb.bead,
      duration_seconds: durationSeconds(fb.run),
      outcome: fb.outcome,
      recorded_at: fb.collected_at,
    };
    await store.withLock(`race-runs-${raceId}`, () => store.appendLine('race-runs', raceId, row));
  };
  const index = async () => {
    await (await import('../store/feedback-index.js')).indexFeedback(store, fb);
  };
  const results = await Promise.allSettled([race(), index()]);
  for (const res of results) if (res.status === 'rejected') throw res.reason;
  return fb;
}
