// collectRun: one run record in, state/feedback/<bead>.json out (checks, baseline, diff, scores, outcome).
import { existsSync } from 'node:fs';
import { resolveCommands, runChecks, emptyChecks } from './checks.js';
import { assertConfigOutside, type Config } from '../config/config.js';
import { UserError, errorMessage } from '../cli/errors.js';
import { diffSnapshot, resolveCommit, setGitTimeout, snapshotWorking, worktreeInfo, worktreeInfoWithRef, worktreeProblem, type WorkingDiff } from '../git/git.js';
import { sweepOrphansOnce } from '../process/process.js';
import { assertSandboxAvailable, collectorSandbox } from '../process/sandbox.js';
import { classifyOutcome, integrityFlags, type ChecksSet, type Integrity } from './outcome.js';
import { readStoredJudgment, summarizeJudgment } from '../store/judgment.js';
import type { LoadedRunRecord } from './run-record.js';
import { orderFeedback } from './record-order.js';
import {
  compositeScore,
  durationSeconds,
  normaliseWeights,
  scoreBuild,
  scoreDiffSize,
  scoreLint,
  scoreSpeed,
  scoreTests,
  scoreTestsByExitCode,
  tallyTests,
  toUnit,
  type Scores,
} from './scoring.js';
import { preloadValidators } from '../store/schema.js';
import type { StateStore } from '../store/store.js';
import type { Baseline, BaselineSummary, Check, Feedback, JudgmentSummary, RaceRun } from '../store/types.generated.js';

export interface CollectContext {
  store: StateStore;
  config: Config;
  /** The full environment for checks (scrubbed of secrets before any check runs). */
  processEnv: NodeJS.ProcessEnv;
  now: () => Date;
  log?: (msg: string) => void;
  version?: string;
  /** Other runs of the same races given in this call, so a batch is scored against its own fastest run. */
  racePeers?: RacePeer[];
}

function runFacts(loaded: LoadedRunRecord): Feedback['run'] {
  const r = loaded.record;
  const run: Feedback['run'] = {
    task_id: r.task.id,
    template: r.template,
    agent: r.agent.slug,
    started_at: r.started_at,
    completed_at: r.completed_at,
    status: r.status,
    failure_reason: r.failure_reason ?? null,
    exit_code: r.exit_code,
    record_path: loaded.file,
    worktree: loaded.worktree,
  };
  if (r.task.type !== undefined) run.task_type = r.task.type;
  if (r.task.complexity !== undefined) run.complexity = r.task.complexity;
  if (r.task.command !== undefined) run.command = r.task.command;
  if (r.task.discipline !== undefined) run.discipline = r.task.discipline;
  if (r.agent.model !== undefined) run.model = r.agent.model;
  if (r.race_id !== undefined) run.race_id = r.race_id;
  if (r.job_id !== undefined) run.job_id = r.job_id;
  if (r.iterations !== undefined) run.iterations = r.iterations;
  if (r.usage !== undefined) run.usage = r.usage;
  return run;
}


/** A run of the same race known before its feedback exists (e.g. given to the same bin/collect call). */
export interface RacePeer {
  raceId: string;
  bead: string;
  seconds: number;
}

/**
 * The fastest known duration among the other runs of the race: the race's run log (last row per bead,
 * infra failures left out) and the peers of this call. Reads one small file, not every feedback record.
 */
function fastestInRace(store: StateStore, raceId: string, bead: string, peers: RacePeer[] = []): number | null {
  const byBead = new Map<string, number | null>();
  for (const row of store.readLines<RaceRun>('race-runs', raceId).rows) byBead.set(row.bead, row.outcome === 'infra_failure' ? null : row.duration_seconds);
  for (const p of peers) if (p.raceId === raceId && !byBead.has(p.bead)) byBead.set(p.bead, p.seconds);
  byBead.delete(bead);
  const known = [...byBead.values()].filter((d): d is number => d !== null);
  return known.length ? Math.min(...known) : null;
}

/** The judge's verdict from state/judgments/<bead>.json (validated); a failed or corrupt judgment is not carried. */
export function readJudgment(store: StateStore, bead: string, notes: string[]): JudgmentSummary | null {
  const { judgment, note } = readStoredJudgment(store, bead);
  if (note) notes.push(note);
  return judgment ? summarizeJudgment(judgment) : null;
}

function summariseBaseline(b: Baseline, notes: string[]): BaselineSummary {
  if (b.setup && b.setup.result.status !== 'passed') {
    const r = b.setup.result;
    const how = r.status === 'timeout' ? 'timed out' : r.status === 'error' ? `could not start (${r.skipped_reason ?? 'spawn error'})` : `failed (exit ${r.exit_code ?? `signal ${r.signal}`})`;
    notes.push(`baseline setup \`${b.setup.command}\` ${how} in the base checkout (state/baselines/${b.key}.json): base checks not run; scored without a baseline`);
    return { key: b.key, commit: b.commit, build_passed: null, tests: null, lint: null, setup_failed: true };
  }
  return {
    key: b.key,
    commit: b.commit,
    build_passed: b.checks.build ? b.checks.build.status === 'passed' : null,
    tests: b.checks.test?.tests ?? null,
    lint: b.checks.lint?.lint ?? null,
  };
}

/** Seed 000's five dimensions (0-100) from the checks; notes say where a fallback was used. */
export function scoreChecks(checks: ChecksSet, baseline: BaselineSummary | null, notes: string[]): Pick<Scores, 'build' | 'tests' | 'lint'> {
  const buildFailed = checks.build !== null && checks.build.status !== 'passed';
  const broken = (c: Check) => c.status === 'timeout' || c.status === 'error' || c.status === 'skipped';
  let tests: number | null = null;
  const t = checks.test;
  if (t) {
    if (buildFailed) tests = 0;
    else if (broken(t)) tests = 0;
    else {
      const tally = t.tests ? tallyTests(t.tests) : null;
      if (tally) {
        const baseTally = baseline?.tests ? tallyTests(baseline.tests) : null;
        if (!baseTally) notes.push('tests scored without a baseline: no new-test bonus, no regression penalty');
        tests = scoreTests(tally, baseTally);
      } else {
        tests = scoreTestsByExitCode(t.exit_code);
        notes.push(`tests scored by exit code alone (${t.exit_code}): the output gave no pass count`);
      }
    }
  }
  let lint: number | null = null;
  const l = checks.lint;
  if (l) {
    if (buildFailed || broken(l)) lint = 0;
    else if (l.lint) {
      if (!baseline?.lint) notes.push('lint scored without a baseline: every issue counts as new');
      lint = scoreLint(l.lint, baseline?.lint ?? null);
    } else {
      lint = scoreTestsByExitCode(l.exit_code);
      notes.push(`lint scored by exit code alone (${l.exit_code}): no counts could be parsed from its output`);
    }
  }
  return { build: checks.build ? scoreBuild(!buildFailed) : null, tests, lint };
}

function unmeasured(loaded: LoadedRunRecord, ctx: CollectContext, reason: string | null): Feedback {
  const commands = resolveCommands(loaded.record, ctx.config.collector);
  const integrity: Integrity = { tests_not_run: false, exit_code_contradicts_counts: false, test_count_below_baseline: false, notes: [] };
  if (reason) integrity.notes.push(reason);
  const { outcome, reason: why } = classifyOutcome({ status: loaded.record.status, failureReason: loaded.record.failure_reason ?? null, infraReason: reason, checks: emptyChecks(), integrity, baselineLint: null });
  return base(loaded, ctx, {
    commands,
    checks: emptyChecks(),
    baseline: null,
    diff: null,
    scores: { build: null, tests: null, lint: null, diff_size: null, speed: null },
    weights_used: {},
    composite: null,
    speed: { basis: 'none', duration_seconds: durationSeconds(loaded.record), reference_seconds: null },
    outcome,
    outcome_reason: why,
    integrity,
  });
}

function base(loaded: LoadedRunRecord, ctx: CollectContext, rest: Omit<Feedback, 'schema_version' | 'bead' | 'run' | 'collected_at' | 'judgment'>): Feedback {
  const fb: Feedback = {
    schema_version: '1.0.0',
    bead: loaded.record.bead,
    run: runFacts(loaded),
    collected_at: ctx.now().toISOString(),
    ...rest,
    judgment: null,
  };
  if (ctx.version) fb.collector_version = ctx.version;
  if (ctx.config.judge.phase >= 2) fb.judgment = readJudgment(ctx.store, loaded.record.bead, fb.integrity.notes);
  return fb;
}

function diffSummary(d: WorkingDiff): NonNullable<Feedback['diff']> {
  return {
    merge_base: d.mergeBase,
    files_changed: d.files.length,
    lines_added: d.files.reduce((s, f) => s + f.added, 0),
    lines_removed: d.files.reduce((s, f) => s + f.removed, 0),
    files: d.files.map((f) => ({ path: f.path, ...(f.oldPath ? { old_path: f.oldPath } : {}), added: f.added, removed: f.removed, binary: f.binary, untracked: f.untracked })),
  };
}

/**
 * Starts loading, without waiting, what a measured run needs later: the parsers, the feedback index, the
 * lock library and the validators of the files written. Errors surface where the module is really used.
 */
function prefetch(store: StateStore, race: boolean, parsers: boolean): void {
  for (const p of [parsers ? import('./parsers/index.js') : null, import('../store/feedback-index.js')]) p?.catch(() => undefined);
  store.prefetchLock();
  // One per event-loop turn, so a git call that ends meanwhile is handled between them.
  const names = race ? ['baseline', 'feedback', 'feedback-index', 'race-run'] : ['baseline', 'feedback', 'feedback-index'];
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
  const needsBaseline = commands.build !== null || commands.test !== null || commands.lint !== null || commands.typecheck !== null;
  const fastP = existsSync(wt) ? worktreeInfoWithRef(wt, r.base_ref) : null;
  // While git runs, load what comes next (modules compile and validators load on this thread meanwhile).
  const baselineMod = needsBaseline ? import('./baseline.js') : null;
  baselineMod?.catch(() => undefined);
  prefetch(store, r.race_id !== undefined, commands.test !== null || commands.lint !== null || r.checks?.test !== undefined || r.checks?.lint !== undefined);
  const fast = fastP ? await fastP : null;
  const info = fast ?? (existsSync(wt) ? await worktreeInfo(wt) : null);
  if (!info) {
    const reason = (await worktreeProblem(wt)) ?? `worktree ${wt} is not a git worktree`;
    ctx.log?.(`${r.bead}: ${reason}`);
    const existing = safeRead(store, r.bead);
    // Never replace a measured record with an unmeasured one (e.g. re-collecting after the worktree was cleaned up).
    if (existing && existing.outcome !== 'infra_failure') {
      throw new UserError(`${loaded.file}: /worktree: ${reason}; state/feedback/${r.bead}.json (already measured) is kept`);
    }
    return write(ctx, unmeasured(loaded, ctx, reason));
  }

  const baseCommit = fast?.refCommit ?? (await resolveCommit(wt, r.base_ref));
  if (!baseCommit) throw new UserError(`${loaded.file}: /base_ref: ${JSON.stringify(r.base_ref)} does not name a commit in ${wt}`);
  // The tree is fixed before any check runs (build outputs never count as the agent's change); the per-file
  // numbers only read git objects, so they are computed while the checks run.
  // The cached baseline is read as soon as the merge base is known, while git still writes the tree.
  let peeked: Promise<Baseline | null> | null = null;
  const snap = await snapshotWorking(wt, baseCommit, info, (mb) => {
    if (!baselineMod) return;
    peeked = baselineMod.then((m) => m.peekBaseline({ store, commit: mb, commands, collector: cfg.collector })).catch(() => null);
  });
  const diffPromise = diffSnapshot(wt, snap, info);
  diffPromise.catch(() => undefined);
  const notes: string[] = [];

  let baseline: BaselineSummary | null = null;
  if (baselineMod) {
    try {
      const cached = peeked ? await (peeked as Promise<Baseline | null>) : null;
      if (cached) baseline = summariseBaseline(cached, notes);
      else {
        // Not cached (or the quick read failed): under the lock, computed once; a corrupt cache file is reported here.
        const { getBaseline } = await baselineMod;
        const res = await getBaseline({ store, repoDir: wt, commit: snap.mergeBase, commands, collector: cfg.collector, env: ctx.processEnv, sandbox, now: ctx.now, log: ctx.log });
        baseline = summariseBaseline(res.baseline, notes);
        if (res.computed) ctx.log?.(`baseline ${res.baseline.key} computed`);
      }
    } catch (e) {
      notes.push(`no baseline: ${errorMessage(e)}`);
    }
  }

  const checks = await runChecks({ cwd: wt, commands, reported: r.checks, collector: cfg.collector, env: ctx.processEnv, sandbox, shortCircuit: true, log: ctx.log });

  const diff = await diffPromise;
  const integrity = integrityFlags(checks.test, baseline?.tests ?? null);
  integrity.notes.push(...notes);
  const partial = scoreChecks(checks, baseline, integrity.notes);

  const dur = durationSeconds(r);
  const fastest = r.race_id ? fastestInRace(store, r.race_id, r.bead, ctx.racePeers) : null;
  const speedRef = fastest !== null ? Math.min(fastest, dur) : cfg.collector.time_budget_seconds;
  const scores: Scores = { ...partial, diff_size: scoreDiffSize({ linesAdded: diff.files.reduce((s, f) => s + f.added, 0), linesRemoved: diff.files.reduce((s, f) => s + f.removed, 0), filesChanged: diff.files.length }), speed: scoreSpeed(dur, speedRef) };
  const weights = cfg.scoring.weights;
  const composite = compositeScore(scores, weights);

  const { outcome, reason } = classifyOutcome({ status: r.status, failureReason: r.failure_reason ?? null, infraReason: null, checks, integrity, baselineLint: baseline?.lint ?? null });
  if (outcome === 'unmeasured') refuseUnmeasuredOverMeasured(store, r.bead, loaded.file);
  const fb = base(loaded, ctx, {
    base: { ref: r.base_ref, commit: baseCommit },
    head: { ref: r.head_ref ?? 'HEAD', commit: diff.headCommit, tree: diff.tree },
    commands,
    checks,
    baseline,
    diff: diffSummary(diff),
    scores: { build: toUnit(scores.build), tests: toUnit(scores.tests), lint: toUnit(scores.lint), diff_size: toUnit(scores.diff_size), speed: toUnit(scores.speed) },
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
    throw new UserError(`${file}: no build, test, lint or typecheck command is configured, but state/feedback/${bead}.json was measured (outcome ${existing.outcome}): kept; collect with the config that measured it`);
  }
}

/** The stored feedback; a file that exists but does not parse counts as measured (it is never overwritten here). */
function safeRead(store: StateStore, bead: string): Pick<Feedback, 'outcome'> | null {
  try {
    return store.read<Feedback>('feedback', bead);
  } catch {
    return { outcome: 'partial_pass' };
  }
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
    const row: RaceRun = { bead: fb.bead, duration_seconds: durationSeconds(fb.run), outcome: fb.outcome, recorded_at: fb.collected_at };
    await store.withLock(`race-runs-${raceId}`, () => store.appendLine('race-runs', raceId, row));
  };
  const index = async () => {
    await (await import('../store/feedback-index.js')).indexFeedback(store, fb);
  };
  const results = await Promise.allSettled([race(), index()]);
  for (const res of results) if (res.status === 'rejected') throw res.reason;
  return fb;
}
