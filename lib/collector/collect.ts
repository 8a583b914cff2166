// collectRun: one run record in, state/feedback/<bead>.json out (checks, baseline, diff, scores, outcome).
import { readFeedback as readFeedbackFile } from '../store/feedback-read.js';
import { existsSync } from 'node:fs';
import { resolveCommands } from './checks.js';
import { assertConfigOutside } from '../config/config.js';
import { UserError, errorMessage } from '../base/errors.js';
import { setGitTimeout } from '../git/git.js';
import { diffSnapshot, snapshotWorking } from '../git/snapshot.js';
import { worktreeInfo, worktreeInfoWithRef, worktreeProblem } from '../git/worktree.js';
import { sealRun } from './candidate.js';
import { changedExpectations, describeChanged } from './expectations.js';
import { measureOwnTests, measureSealed, recordedBase, type MeasureOptions } from './measure.js';
import { testEvidence } from '../evidence/trust.js';
import { sweepOrphansOnce } from '../process/process.js';
import { assertSandboxAvailable, collectorSandbox } from '../process/sandbox.js';
import { classifyOutcome, integrityFlags } from './outcome.js';
import { runVerdict, verdictComposite, verdictOutcome } from './regressions.js';
import type { LoadedRunRecord } from './run-record.js';
import { base, diffSummary, fastestInRace, scoreChecks, summariseBaseline, unmeasured } from './feedback-parts.js';
import type { CollectContext } from './context.js';
import {
  compositeScore,
  durationSeconds,
  normaliseWeights,
  scoreDiffSize,
  scoreSpeed,
  toUnit,
  type Scores,
} from './scoring.js';
import { preloadValidators } from '../schema/schema.js';
import { orderFeedback } from './record-order.js';
import type { StateStore } from '../store/store.js';
import type { BaselineSummary, Feedback, RaceRun } from '../schema/types.generated.js';

/**
 * Starts loading, without waiting, what a measured run needs later: the parsers, the feedback index, the
 * lock library and the validators of the files written. Errors surface where the module is really used.
 */
function prefetch(store: StateStore, race: boolean, parsers: boolean): void {
  for (const p of [parsers ? import('./parsers/index.js') : null, import('../store/feedback-index.js')])
    p?.catch(() => undefined);
  store.prefetchLock();
  // One per event-loop turn, so a git call that ends meanwhile is handled between them.
  const names = race
    ? ['baseline', 'feedback', 'feedback-index', 'race-run']
    : ['baseline', 'feedback', 'feedback-index'];
  const next = () => {
    const n = names.shift();
    if (n === undefined) return;
    preloadValidators([n]);
    setImmediate(next);
  };
  setImmediate(next);
}

/** Measures one run and writes state/feedback/<bead>.json; returns what it wrote. */
export async function collectRun(loaded: LoadedRunRecord, ctx: CollectContext): Promise<Feedback> {
  const r = loaded.record;
  const { store } = ctx;
  const cfg = ctx.config;

  if (r.status === 'infra_failure') return write(ctx, unmeasured(loaded, ctx, null));

  const wt = loaded.worktree;
  assertConfigOutside(cfg, wt, store.root);
  const commands = resolveCommands(r, cfg.collector);
  setGitTimeout((cfg.collector.git_timeout_seconds ?? 120) * 1000);
  sweepOrphansOnce();
  const sandbox = collectorSandbox(cfg.collector, ctx.processEnv, store.root);
  assertSandboxAvailable(sandbox);
  const needsBaseline =
    commands.build !== null || commands.test !== null || commands.lint !== null || commands.typecheck !== null;
  const fastP = existsSync(wt) ? worktreeInfoWithRef(wt, r.base_ref) : null;
  // While git runs, load what comes next (modules compile and validators load on this thread meanwhile).
  const baselineMod = needsBaseline ? import('./baseline.js') : null;
  baselineMod?.catch(() => undefined);
  prefetch(
    store,
    r.race_id !== undefined,
    commands.test !== null || commands.lint !== null || r.checks?.test !== undefined || r.checks?.lint !== undefined,
  );
  const fast = fastP ? await fastP : null;
  const info = fast ?? (existsSync(wt) ? await worktreeInfo(wt) : null);
  if (!info) {
    const reason = (await worktreeProblem(wt)) ?? `worktree ${wt} is not a git worktree`;
    ctx.log?.(`${r.bead}: ${reason}`);
    const existing = safeRead(store, r.bead);
    // Never replace a measured record with an unmeasured one (e.g. re-collecting after the worktree was cleaned up).
    if (existing && existing.outcome !== 'infra_failure') {
      throw new UserError(
        `${loaded.file}: /worktree: ${reason}; state/feedback/${r.bead}.json (already measured) is kept`,
      );
    }
    return write(ctx, unmeasured(loaded, ctx, reason));
  }

  const baseCommit = await recordedBase(wt, r, fast?.refCommit ?? null, loaded.file);
  // The tree is fixed before any check runs (build outputs never count as the agent's change), then sealed as a
  // commit; every check runs in a fresh checkout of the graded commit, never in the agent's worktree.
  const snap = await snapshotWorking(wt, baseCommit, info);
  const diffPromise = diffSnapshot(wt, snap, info);
  diffPromise.catch(() => undefined);
  const sealed = await sealRun(wt, snap, r, cfg.collector, loaded.file);
  const notes: string[] = [];
  if (sealed.candidate.tests_from.source === 'tests_ref')
    notes.push(`graded tests from the task's test revision ${sealed.candidate.tests_from.ref}`);

  let baseline: BaselineSummary | null = null;
  if (baselineMod) {
    try {
      const { getBaseline } = await baselineMod;
      const res = await getBaseline({
        store,
        repoDir: wt,
        commit: sealed.gradedBase,
        commands,
        collector: cfg.collector,
        env: ctx.processEnv,
        sandbox,
        now: ctx.now,
        log: ctx.log,
      });
      baseline = summariseBaseline(res.baseline, notes);
      if (res.computed) ctx.log?.(`baseline ${res.baseline.key} computed`);
    } catch (e) {
      notes.push(`no baseline: ${errorMessage(e)}`);
    }
  }

  const keepCases = new Set([...(baseline?.tests?.cases ?? []).map((c) => c.id), ...(r.task.target_tests ?? [])]);
  const measure: MeasureOptions = { wt, commands, reported: r.checks, cfg, ctx, sandbox, keepCases };
  const checks = await measureSealed(sealed.candidate.graded_commit, measure, `${r.bead} graded`, notes);
  const own = await measureOwnTests(sealed, measure, `${r.bead} own tests`);
  const changed = changedExpectations(checks.test, own?.check ?? null, sealed.candidate.replaced);
  const changedTexts = changed.length ? await describeChanged(wt, sealed, changed) : [];

  const diff = await diffPromise;
  const integrity = integrityFlags(checks.test, baseline?.tests ?? null);
  integrity.test_evidence = testEvidence(checks.test);
  integrity.notes.push(...notes);
  const partial = scoreChecks(checks, baseline, integrity.notes, integrity.test_evidence);

  const dur = durationSeconds(r);
  const fastest = r.race_id ? fastestInRace(store, r.race_id, r.bead, ctx.racePeers) : null;
  const speedRef = fastest !== null ? Math.min(fastest, dur) : cfg.collector.time_budget_seconds;
  const scores: Scores = {
    ...partial,
    diff_size: scoreDiffSize({
      linesAdded: diff.files.reduce((s, f) => s + f.added, 0),
      linesRemoved: diff.files.reduce((s, f) => s + f.removed, 0),
      filesChanged: diff.files.length,
    }),
    speed: scoreSpeed(dur, speedRef),
  };
  const weights = cfg.scoring.weights;
  // Regressions by test id cap the composite; a change that does nothing scores 0 (regressions.ts).
  const classify = ctx.classifyNoOp && (() => ctx.classifyNoOp!(wt, snap.mergeBase, diff.tree));
  const v = await runVerdict(baseline?.tests, checks.test?.tests, diff.files.length, classify);
  if (v.noOp && scores.tests !== null) scores.tests = 0;
  const composite = verdictComposite(compositeScore(scores, weights), v.broke.length, v.noOp !== null);
  const inputs = { status: r.status, failureReason: r.failure_reason ?? null, infraReason: null, checks, integrity };
  const { outcome, reason } = verdictOutcome(
    classifyOutcome({ ...inputs, baselineLint: baseline?.lint ?? null }),
    v.noOp,
  );
  if (outcome === 'unmeasured') refuseUnmeasuredOverMeasured(store, r.bead, loaded.file);
  const fb = base(loaded, ctx, {
    base: { ref: r.base_ref, commit: baseCommit },
    head: { ref: r.head_ref ?? 'HEAD', commit: diff.headCommit, tree: diff.tree },
    candidate: sealed.candidate,
    ...(own ? { own_tests: own } : {}),
    ...(changedTexts.length ? { changed_expectations: changedTexts } : {}),
    commands,
    checks,
    baseline,
    diff: diffSummary(diff),
    scores: {
      build: toUnit(scores.build),
      tests: toUnit(scores.tests),
      lint: toUnit(scores.lint),
      diff_size: toUnit(scores.diff_size),
      speed: toUnit(scores.speed),
    },
    weights_used: normaliseWeights(weights, scores),
    // Diff size and speed alone are not a measure of the work: an unmeasured run has no composite.
    composite: outcome === 'unmeasured' ? null : toUnit(composite),
    speed: { basis: fastest !== null ? 'race' : 'budget', duration_seconds: dur, reference_seconds: speedRef },
    outcome,
    outcome_reason: reason,
    integrity,
  });
  return write(ctx, fb);
}

/** A measured record is never replaced by an unmeasured one (re-collecting without the config that measured it). */
function refuseUnmeasuredOverMeasured(store: StateStore, bead: string, file: string): void {
  const existing = safeRead(store, bead);
  if (existing && existing.outcome !== 'unmeasured' && existing.outcome !== 'infra_failure') {
    throw new UserError(
      `${file}: no build, test, lint or typecheck command is configured, but state/feedback/${bead}.json was measured (outcome ${existing.outcome}): kept; collect with the config that measured it`,
    );
  }
}

/** The stored feedback; a file that exists but does not parse counts as measured (it is never overwritten here). */
function safeRead(store: StateStore, bead: string): Pick<Feedback, 'outcome'> | null {
  const r = readFeedbackFile(store, bead);
  return r.status === 'ok' ? r.feedback : r.status === 'missing' ? null : { outcome: 'partial_pass' };
}

/** Writes the feedback record, then the rows that let later reads skip scanning every feedback file. */
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
