// IO: a race end to end — load runs, baseline once, solutions in parallel, evaluate, rank, decide, store.
import { keepCompiledIn } from '../change/typescript.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import { collectorCheckEnv, collectorSandbox } from '../process/sandbox.js';
import type { Race, RaceEvaluation, RaceSolution } from '../schema/types.generated.js';
import { shouldAutoAccept } from './auto-accept.js';
import { raceComposite } from './collector-adapter.js';
import { raceScore } from './present.js';
import { brokenTests } from '../collector/regressions.js';
import { durationSeconds } from '../collector/scoring.js';
import { assessSolution } from './evaluate.js';
import { totalTokens, type RaceFacts } from './facts.js';
import { applyAdjustments } from './learning.js';
import { categoryScores, learnedAdjustments, raceConfig } from './settings.js';
import { failedConditions } from './gate.js';
import { allAgentsFailed, pairwiseComparisons, rankSolutions, strengthsAndWeaknesses, type Rankable } from './rank.js';
import { raceTargets, targetFraction, testCounts, unfixedByAll } from './targets.js';
import type { RaceContext } from './context.js';
import { checkRaceInput, deriveRaceId, pool } from './race-input.js';
import { baseBenchmark, collectOne, prepareBaselines, type Collected } from './collect-solutions.js';
import { pairwiseIfClose, reviewContrastive, reviewDepsOf } from './judge-review.js';

export async function runRace(runs: LoadedRunRecord[], ctx: RaceContext): Promise<Race> {
  checkRaceInput(runs);
  keepCompiledIn(ctx.store.root);
  const started = performance.now();
  const rc = raceConfig(ctx.config);
  const raceId = ctx.raceId ?? deriveRaceId(runs);
  const concurrency = ctx.concurrency ?? rc.concurrency;
  const env = collectorCheckEnv(ctx.config.collector, ctx.processEnv);
  const notes: string[] = [];

  const learned = learnedAdjustments(ctx.store, rc);
  const weights = rc.learning.apply
    ? applyAdjustments(rc.weights, learned.adjustments, rc.learning.min_weight)
    : rc.weights;
  if (rc.learning.apply && learned.basedOn)
    notes.push(`category weights adjusted from ${learned.basedOn} choices that overrode the winner`);

  await prepareBaselines(runs, ctx);
  const baseBench = rc.benchmark.command
    ? await baseBenchmark(
        runs,
        rc.benchmark.command,
        rc,
        env,
        collectorSandbox(ctx.config.collector, ctx.processEnv, ctx.store.root),
      )
    : null;
  const collected = await pool(runs, concurrency, (r) => collectOne(r, ctx, env));

  const raceFacts = raceFactsOf(collected, ctx, baseBench);
  const solutions: RaceSolution[] = collected.map((c) => solutionOf(c, raceFacts, weights, ctx));

  // The judge's contrastive question, one per solution with the others' diffs: before the gate is read below.
  const patches = new Map(collected.filter((c) => c.facts).map((c) => [c.run.record.bead, c.facts!.patch]));
  const reviewDeps = reviewDepsOf(ctx, runs[0]!.record.task.prompt);
  const review = reviewDeps ? await reviewContrastive(solutions, patches, reviewDeps) : null;
  const evaluated = solutions.filter((s) => s.status === 'evaluated');
  // Targets no solution fixes, failing the same way everywhere: named with how to exclude them, never dropped.
  const outside = outsideTargets(raceFacts, collected, evaluated);
  if (outside.length) raceFacts.targets.unfixed_by_all = outside;
  const rankables: Rankable[] = evaluated.map((s) => ({
    id: s.id,
    score: s.score!,
    confidence: s.evaluation!.confidence,
    categories: categoryScores(s.evaluation!),
    mergeable: s.gates.mergeable,
    resolved: s.target_tests?.resolved ?? null,
    target: s.target_tests ? targetFraction(s.target_tests) : null,
    hash: s.content_hash ?? '',
    gateFailures: s.gates.conditions
      .filter((c) => c.status === 'fail')
      .map((c) => c.name)
      .join(', '),
  }));
  const allFailed = allAgentsFailed(
    solutions.map((s) => s.composite),
    ctx.config.scoring.thresholds.fail_maximum,
  );
  const { sorted, ranking } = rankSolutions(rankables, allFailed, raceFacts.targets.count);
  const pairwise = reviewDeps ? await pairwiseIfClose(sorted, ranking, patches, reviewDeps, notes) : null;
  const evals = new Map<string, RaceEvaluation | null>(evaluated.map((s) => [s.id, s.evaluation]));
  sorted.forEach((r, i) => {
    const s = solutions.find((x) => x.id === r.id)!;
    s.rank = i + 1;
    Object.assign(s, strengthsAndWeaknesses(s.id, s.evaluation!, rankables));
    for (const f of s.flags)
      if (!s.weaknesses.some((w) => w.includes(f.detail)))
        s.weaknesses.push(`${f.kind}: ${f.detail}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : ''}`);
  });
  const byId = new Map(solutions.map((s) => [s.id, s]));
  // Unranked (failed) solutions last, by id: nothing depends on the order the runs were given in.
  const ordered = [
    ...sorted.map((r) => byId.get(r.id)!),
    ...solutions.filter((s) => s.rank === null).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  ];
  const w = ranking.winner ? byId.get(ranking.winner)! : null;
  const autoAccept = shouldAutoAccept(
    {
      winner: w
        ? {
            id: w.id,
            score: w.score!,
            confidence: w.evaluation!.confidence,
            categories: categoryScores(w.evaluation!),
            composite: w.composite,
          }
        : null,
      secondScore: sorted[1]?.score ?? null,
      solutionCount: sorted.length,
    },
    rc.auto_accept,
    ctx.config.scoring.thresholds.auto_merge_minimum,
  );
  if (autoAccept.accept && w && !w.gates.mergeable) {
    autoAccept.accept = false;
    autoAccept.solution = null;
    autoAccept.reason = `Winner is not mergeable: ${failedConditions(w.gates)}`;
  }
  const changedIn = w?.target_tests?.changed ?? [];
  if (autoAccept.accept && changedIn.length) {
    // The task may really change tested behaviour: a person decides, with both versions in front of them.
    autoAccept.accept = false;
    autoAccept.solution = null;
    autoAccept.reason = `Winner rewrote what a base test expects (${changedIn.join(', ')}): a person decides`;
  }
  const bases = new Map<string, string[]>();
  for (const s of solutions) if (s.base_commit) bases.set(s.base_commit, [...(bases.get(s.base_commit) ?? []), s.id]);
  if (bases.size > 1)
    notes.push(
      `solutions start from ${bases.size} different base commits: ${[...bases].map(([c, ids]) => `${c.slice(0, 12)} (${ids.join(', ')})`).join('; ')}: scores are less comparable`,
    );
  notes.push(...targetNotes(raceFacts.targets, ctx, collected));

  const race: Race = {
    schema_version: '1.0.0',
    race_id: raceId,
    task_id: runs[0]!.record.task.id,
    task_prompt: runs[0]!.record.task.prompt,
    created_at: ctx.now().toISOString(),
    settings: {
      rank_by: rc.rank_by,
      category_weights: weights,
      learning_adjustments: rc.learning.apply ? learned.adjustments : null,
      composite_weights: ctx.config.scoring.weights,
      fail_maximum: ctx.config.scoring.thresholds.fail_maximum,
      auto_merge_minimum: ctx.config.scoring.thresholds.auto_merge_minimum,
    },
    solutions: ordered,
    targets: raceFacts.targets,
    ranking,
    comparisons: pairwiseComparisons(sorted, evals),
    auto_accept: autoAccept,
    timing: { wall_ms: performance.now() - started, concurrency },
  };
  if (review) race.judge_review = { ...review, pairwise };
  if (notes.length) race.notes = notes;
  ctx.store.write('races', raceId, race);
  return race;
}

/** What the race says about its targets: counts only, an unused --target, a named target no run reported. */
function targetNotes(t: RaceFacts['targets'], ctx: RaceContext, collected: Collected[]): string[] {
  const notes: string[] = [];
  if (t.count > 0 && !t.fail_to_pass.length) notes.push(`target tests: ${t.note}`);
  if (ctx.targets?.length && t.source === 'task')
    notes.push(
      `--target ${ctx.targets.join(', ')} not used: the run records name the task's targets (task.target_tests)`,
    );
  if (t.source === 'task' || t.source === 'race') {
    // A named target no run reported (a typo, another runner's id form) fails every solution: say which.
    const lists = collected
      .filter((c) => c.facts !== null)
      .flatMap((c) => [testCounts(c.feedback!).solution?.cases, testCounts(c.feedback!).base?.cases])
      .filter((l) => l !== undefined);
    const unseen = lists.length ? t.fail_to_pass.filter((id) => !lists.some((l) => l.some((c) => c.id === id))) : [];
    if (unseen.length) notes.push(`target tests not reported by any run (check the id): ${unseen.join(', ')}`);
  }
  return notes;
}

/** Targets no evaluated solution fixes that fail the same way in each of them and on the base. */
function outsideTargets(raceFacts: RaceFacts, collected: Collected[], evaluated: RaceSolution[]): string[] {
  return unfixedByAll(
    raceFacts.targets,
    raceBase(collected),
    evaluated.map((s) => ({
      counts: testCounts(collected.find((c) => c.run.record.bead === s.id)!.feedback!).solution,
      standing: s.target_tests!,
    })),
  );
}

/** The base's test results: from the solution first by bead (they share one base unless a note says otherwise). */
function raceBase(collected: Collected[]) {
  const ok = collected.filter((c) => c.facts !== null);
  if (!ok.length) return null;
  return testCounts([...ok].sort((a, b) => (a.run.record.bead < b.run.record.bead ? -1 : 1))[0]!.feedback!).base;
}

/** What every solution is measured against: the race's targets, the fastest, fewest tokens, cheapest, base benchmark. */
function raceFactsOf(collected: Collected[], ctx: RaceContext, baseBench: RaceFacts['baseBenchmark']): RaceFacts {
  const rc = raceConfig(ctx.config);
  const ok = collected.filter((c) => c.facts !== null);
  const durations = ok.map((c) => durationSeconds(c.feedback!.run));
  const tokens = ok.map((c) => totalTokens(c.feedback!.run.usage)).filter((x): x is number => x !== null);
  const costs = ok.map((c) => c.feedback!.run.usage?.cost_usd).filter((x): x is number => x !== undefined);
  return {
    // One definition of targets (lib/evidence/resolution.ts): the task's, --target, the test revision's failures,
    // else a fix task's base failures.
    targets: raceTargets({
      task: [...new Set(ok.flatMap((c) => c.run.record.task.target_tests ?? []))],
      race: ctx.targets ?? [],
      testsRef: ok.some((c) => c.feedback?.candidate?.tests_from.source === 'tests_ref'),
      taskType: collected[0]?.run.record.task.type,
      base: raceBase(collected),
    }),
    fastestSeconds: durations.length ? Math.min(...durations) : null,
    fewestTokens: tokens.length ? Math.min(...tokens) : null,
    cheapestUsd: costs.length ? Math.min(...costs) : null,
    baseBenchmark: baseBench,
    benchmarkConfigured: rc.benchmark.command !== null,
  };
}

/** One solution's entry: failed with its reason, or assessed, scored and gated. */
function solutionOf(
  c: Collected,
  raceFacts: RaceFacts,
  weights: Parameters<typeof assessSolution>[2]['weights'],
  ctx: RaceContext,
): RaceSolution {
  const rc = raceConfig(ctx.config);
  const r = c.run.record;
  const sol: RaceSolution = {
    id: r.bead,
    agent: r.agent.slug,
    template: r.template,
    status: 'failed',
    failure: c.failure,
    run_record: c.run.file,
    worktree: c.run.worktree,
    branch: r.head_ref ?? null,
    base_commit: c.feedback?.base?.commit ?? null,
    duration_seconds: Math.max(0, (Date.parse(r.completed_at) - Date.parse(r.started_at)) / 1000),
    breakdown: { build: null, tests: null, lint: null, diff_size: null, speed: null },
    composite: null,
    evaluation: null,
    gates: {
      build_passes: null,
      no_test_regression: null,
      mergeable: false,
      reasons: [`evaluation failed: ${c.failure}`],
      conditions: [],
    },
    content_hash: c.facts?.contentHash ?? null,
    target_tests: null,
    flags: c.failure ? [{ kind: 'evaluation_failed', detail: c.failure }] : [],
    metrics: {},
    rank: null,
    score: null,
    race_score: null,
    strengths: [],
    weaknesses: [],
  };
  if (!c.facts || !c.feedback) return sol;
  const a = assessSolution(c.facts, raceFacts, {
    weights,
    cloneMinTokens: rc.clone_min_tokens,
    commentTargetRatio: rc.comment_target_ratio,
    blockingFindings: rc.gate.blocking_findings,
    targetWeight: rc.target_weight,
    testInfraPaths: ctx.config.collector.test_infra_paths ?? [],
    testPaths: ctx.config.collector.test_paths ?? [],
  });
  const seed000 = raceComposite(
    c.feedback,
    sol.duration_seconds,
    raceFacts.fastestSeconds ?? sol.duration_seconds,
    ctx.config.scoring.weights,
    // The collector's verdict: broke by test id (as bin/collect counts it), no-op by the shared rule, gamed passes,
    // and a run that fixes none of the race's targets (gamed passes fix none).
    {
      broke: brokenTests(c.feedback.baseline?.tests, c.feedback.checks.test?.tests).length,
      noOp: a.noOp !== null,
      gamed: (a.standing.gamed?.length ?? 0) > 0,
      fixesNothing:
        a.standing.basis !== 'none' &&
        (a.standing.target_total ?? 0) > 0 &&
        (a.standing.target_passed === 0 || (a.standing.gamed?.length ?? 0) > 0),
    },
  );
  Object.assign(sol, {
    status: 'evaluated',
    failure: null,
    evaluation: a.evaluation,
    flags: a.flags,
    gates: a.gates,
    metrics: a.metrics,
    breakdown: seed000.breakdown,
    composite: seed000.composite,
    target_tests: a.standing,
  });
  const score = rc.rank_by === 'composite' ? seed000.composite : a.evaluation.overall;
  if (score === null) {
    sol.status = 'failed';
    sol.failure = 'nothing could be scored';
    sol.gates.mergeable = false;
  }
  sol.score = score;
  sol.race_score = raceScore(score);
  return sol;
}
