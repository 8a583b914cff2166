// The parts of a feedback record (pure): the run's facts, the baseline's summary, the check scores, the diff's
// summary, the judge's verdict as merged, and the record of a run that could not be measured.
import { describeEvidence, type TestEvidence } from '../evidence/trust.js';
import { runRecordHash } from '../evidence/currency.js';
import { emptyChecks } from './checks.js';
import type { WorkingDiff } from '../git/snapshot.js';
import { classifyOutcome, type ChecksSet, type Integrity } from './outcome.js';
import type { LoadedRunRecord } from './run-record.js';
import { verdictComposite } from './regressions.js';
import { setupHow } from './blame.js';
import type { Resolution } from '../evidence/resolution.js';
import {
  compositeScore,
  durationSeconds,
  normaliseWeights,
  scoreBuild,
  scoreDiffSize,
  scoreSpeed,
  toUnit,
  scoreLint,
  scoreTests,
  scoreTestsByExitCode,
  scoreTestsResolved,
  tallyTests,
  type Scores,
} from './scoring.js';
import type { Config } from '../config/config.js';
import type {
  Baseline,
  BaselineSummary,
  Check,
  CommandsUsed,
  Feedback,
  Judgment,
  JudgmentSummary,
  Outcome,
  RunRecord,
} from '../schema/types.generated.js';

/** What every record carries besides its measurements: when, by which version, the judgment read for it (phase ≥ 2). */
export interface Stamp {
  at: Date;
  version?: string | undefined;
  /** collectorConfigHash of the config measured with: a race reuses feedback only under the same one. */
  configHash: string;
  judgment: { summary: JudgmentSummary | null; note: string | null } | null;
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
    record_hash: runRecordHash(r),
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

export function summariseBaseline(b: Baseline, notes: string[]): BaselineSummary {
  if (b.setup && b.setup.result.status !== 'passed') {
    const how = setupHow(b.setup.result);
    notes.push(
      `baseline setup \`${b.setup.command}\` ${how} in the base checkout (not cached: retried at the next collect): base checks not run; scored without a baseline`,
    );
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
function scoreChecks(
  checks: ChecksSet,
  baseline: BaselineSummary | null,
  notes: string[],
  evidence: TestEvidence = { trusted: null, reasons: [] },
  resolution: Resolution | null = null,
): Pick<Scores, 'build' | 'tests' | 'lint'> {
  const buildFailed = checks.build !== null && checks.build.status !== 'passed';
  const broken = (c: Check) => c.status === 'timeout' || c.status === 'error' || c.status === 'skipped';
  let tests: number | null = null;
  const t = checks.test;
  if (t) {
    if (buildFailed) tests = 0;
    else if (broken(t)) tests = 0;
    else if (evidence.trusted === false) {
      // Evidence that cannot be believed is unmeasured, never a pass (the one trust rule, trust.ts).
      tests = 0;
      notes.push(`tests scored 0: ${describeEvidence(evidence)}`);
    } else {
      const tally = t.tests ? tallyTests(t.tests) : null;
      if (tally && resolution && resolution.target_total > 0 && resolution.basis !== 'none') {
        // The task names what to fix: scored against the base (targets fixed, passing tests kept), not the pass rate.
        tests = scoreTestsResolved({
          fixed: resolution.fixed,
          targets: resolution.target_total,
          broke: resolution.broke_count,
          basePassing: resolution.base_passing,
        });
      } else if (tally) {
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

/** What scoreRun reads of a measured run. */
export interface RunMeasures {
  checks: ChecksSet;
  baseline: BaselineSummary | null;
  diff: WorkingDiff;
  noOp: string | null;
  /** Code that games the graded tests, one line per finding. */
  gaming: readonly string[];
  /** Whether the task was done (lib/evidence/resolution.ts); null when the tests were not measured. */
  resolution: Resolution | null;
}

/**
 * Seed 000's five dimensions (stored /100), the weights used, the composite after the verdict (regressions and gaming
 * cap it, a no-op scores 0, an unmeasured run has none) and the speed reference: the race's fastest run, else the time budget.
 */
export function scoreRun(
  m: RunMeasures,
  integrity: Integrity,
  r: RunRecord,
  o: { fastest: number | null; config: Config; outcome: Outcome },
): Pick<Feedback, 'scores' | 'weights_used' | 'composite' | 'speed'> {
  const partial = scoreChecks(m.checks, m.baseline, integrity.notes, integrity.test_evidence, m.resolution);
  const dur = durationSeconds(r);
  const speedRef = o.fastest !== null ? Math.min(o.fastest, dur) : o.config.collector.time_budget_seconds;
  const files = m.diff.files;
  const scores: Scores = {
    ...partial,
    diff_size: scoreDiffSize({
      linesAdded: files.reduce((s, f) => s + f.added, 0),
      linesRemoved: files.reduce((s, f) => s + f.removed, 0),
      filesChanged: files.length,
    }),
    speed: scoreSpeed(dur, speedRef),
  };
  // Tests that pass through a special case or a patched runner earn nothing, as tests a no-op leaves passing.
  if ((m.noOp || m.gaming.length) && scores.tests !== null) scores.tests = 0;
  const weights = o.config.scoring.weights;
  const res = m.resolution;
  const composite = verdictComposite(
    compositeScore(scores, weights),
    res?.broke_count ?? 0,
    m.noOp !== null,
    m.gaming.length > 0,
    res !== null && res.target_total > 0 && res.basis !== 'none' && res.fixed === 0,
  );
  return {
    scores: {
      build: toUnit(scores.build),
      tests: toUnit(scores.tests),
      lint: toUnit(scores.lint),
      diff_size: toUnit(scores.diff_size),
      speed: toUnit(scores.speed),
    },
    weights_used: normaliseWeights(weights, scores),
    // Diff size and speed alone are not a measure of the work: an unmeasured run has no composite.
    composite: o.outcome === 'unmeasured' ? null : toUnit(composite),
    speed: { basis: o.fastest !== null ? 'race' : 'budget', duration_seconds: dur, reference_seconds: speedRef },
  };
}

export function unmeasured(
  loaded: LoadedRunRecord,
  commands: CommandsUsed,
  reason: string | null,
  stamp: Stamp,
): Feedback {
  const integrity: Integrity = {
    tests_not_run: false,
    exit_code_contradicts_counts: false,
    test_count_below_baseline: false,
    notes: [],
  };
  if (reason) integrity.notes.push(reason);
  const { outcome, reason: why } = classifyOutcome({
    status: loaded.record.status,
    failureReason: loaded.record.failure_reason ?? null,
    infraReason: reason,
    checks: emptyChecks(),
    integrity,
    baselineLint: null,
  });
  return base(loaded, stamp, {
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

export function base(
  loaded: LoadedRunRecord,
  stamp: Stamp,
  rest: Omit<Feedback, 'schema_version' | 'bead' | 'run' | 'collected_at' | 'judgment'>,
): Feedback {
  const fb: Feedback = {
    schema_version: '1.0.0',
    bead: loaded.record.bead,
    run: runFacts(loaded),
    collected_at: stamp.at.toISOString(),
    ...rest,
    judgment: null,
  };
  if (stamp.version) fb.collector_version = stamp.version;
  fb.collector_config_hash = stamp.configHash;
  if (stamp.judgment) {
    fb.judgment = stamp.judgment.summary;
    if (stamp.judgment.note) fb.integrity.notes.push(stamp.judgment.note);
  }
  return fb;
}

export function diffSummary(d: WorkingDiff): NonNullable<Feedback['diff']> {
  return {
    merge_base: d.mergeBase,
    files_changed: d.files.length,
    lines_added: d.files.reduce((s, f) => s + f.added, 0),
    lines_removed: d.files.reduce((s, f) => s + f.removed, 0),
    files: d.files.map((f) => ({
      path: f.path,
      ...(f.oldPath ? { old_path: f.oldPath } : {}),
      added: f.added,
      removed: f.removed,
      binary: f.binary,
      untracked: f.untracked,
    })),
  };
}

/** The verdict as merged into feedback; null unless the judge succeeded (a failed judgment has no score). */
export function summarizeJudgment(j: Judgment): JudgmentSummary | null {
  if (j.status !== 'judged' || j.verdict === null || j.score === null || j.dimensions === null) return null;
  return {
    verdict: j.verdict,
    // Several samples: the templates blend their mean composite (issue 37); one sample: the same number.
    score: j.spread?.score_mean ?? j.score,
    // ... and widen their interval by the samples' variance (docs/design/templates.md).
    ...((j.samples ?? 1) > 1 && j.spread?.score_variance !== undefined
      ? { samples: j.samples!, score_variance: j.spread.score_variance }
      : {}),
    dimensions: j.dimensions,
    issues: j.issues,
    model: j.model,
    judged_at: j.judged_at,
  };
}
