// IO: a race end to end — load runs, baseline once, solutions in parallel, evaluate, rank, decide, store.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { errorMessage, UserError } from '../base/errors.js';
import { git, removeWorktree } from '../git/git.js';
import { isWorkTree, resolveCommit } from '../git/worktree.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import { collectorCheckEnv, collectorSandbox, type SandboxPolicy } from '../process/sandbox.js';
import type { StateStore } from '../store/store.js';
import type { Feedback, Race, RaceEvaluation, RaceSolution } from '../schema/types.generated.js';
import { shouldAutoAccept } from './auto-accept.js';
import { collectRun, getBaseline, raceComposite, resolveCommands } from './collector-adapter.js';
import { durationSeconds } from '../collector/scoring.js';
import { assessSolution } from './evaluate.js';
import { totalTokens, type BenchmarkResult, type RaceFacts, type SolutionFacts } from './facts.js';
import { gatherFacts, runBenchmark } from './gather.js';
import { applyAdjustments } from './learning.js';
import { categoryScores, learnedAdjustments, raceConfig, type RaceConfig } from './settings.js';
import { failedConditions } from './gate.js';
import { allAgentsFailed, pairwiseComparisons, rankSolutions, strengthsAndWeaknesses, type Rankable } from './rank.js';
import { caseList, deriveTargets, targetFraction, testCounts } from './targets.js';

export interface RaceContext {
  store: StateStore;
  config: Config;
  processEnv: NodeJS.ProcessEnv;
  now: () => Date;
  log?: (msg: string) => void;
  /**
   * Progress of one solution (its bead) or of `baseline`: a phase begins (`collect`, `judge`, `evaluate`), a step of
   * it (the collector's messages), or it ends (`end`: `done` or `failed`). bin/race shows it (lib/report/progress.ts).
   */
  progress?: (id: string, phase: string, end?: 'done' | 'failed') => void;
  /** Overrides race.concurrency. */
  concurrency?: number;
  /** The race id; default: the runs' shared race_id, else derived from the task and beads. */
  raceId?: string;
  /** Judges a collected run (bin/race passes the judge when it is enabled), before its judge criteria are read. */
  judge?: (run: LoadedRunRecord) => Promise<void>;
  /** Target test ids named for the race (bin/race --target); else derived from the per-test results. */
  targets?: string[];
}

/** Refuses runs that cannot form one race: duplicates, different tasks, different race ids. */
export function checkRaceInput(runs: LoadedRunRecord[]): void {
  if (!runs.length) throw new UserError('no run records given: bin/race <run.json>… or --race ID');
  const beads = new Map<string, string>();
  for (const r of runs) {
    const prev = beads.get(r.record.bead);
    if (prev)
      throw new UserError(
        `${r.file}: /bead: ${JSON.stringify(r.record.bead)} is also the bead of ${prev}; each solution needs its own bead`,
      );
    beads.set(r.record.bead, r.file);
  }
  const task = runs[0]!.record.task.id;
  for (const r of runs.slice(1)) {
    if (r.record.task.id !== task)
      throw new UserError(
        `${r.file}: /task/id: ${JSON.stringify(r.record.task.id)} differs from ${JSON.stringify(task)} in ${runs[0]!.file}; a race compares runs of one task`,
      );
  }
  const ids = new Set(runs.map((r) => r.record.race_id).filter((x): x is string => x !== undefined));
  if (ids.size > 1) throw new UserError(`/race_id: the runs name different races (${[...ids].join(', ')})`);
}

export function deriveRaceId(runs: LoadedRunRecord[]): string {
  const shared = runs[0]!.record.race_id;
  if (shared && runs.every((r) => r.record.race_id === shared)) return shared;
  const task =
    runs[0]!.record.task.id
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 60) || 'race';
  const hash = createHash('sha256')
    .update(
      runs
        .map((r) => r.record.bead)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 8);
  return `${task}-${hash}`;
}

/** Runs `fn` over `items`, at most `limit` at once, results in input order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

interface Collected {
  run: LoadedRunRecord;
  feedback: Feedback | null;
  facts: SolutionFacts | null;
  failure: string | null;
}

/** The base checks once per (base commit, commands) before the solutions run in parallel. */
async function prepareBaselines(runs: LoadedRunRecord[], ctx: RaceContext): Promise<void> {
  const done = new Set<string>();
  for (const r of runs) {
    if (!(await isWorkTree(r.worktree))) continue;
    const commit = await resolveCommit(r.worktree, r.record.base_ref);
    if (!commit) continue;
    const commands = resolveCommands(r.record, ctx.config.collector);
    if (!commands.build && !commands.test && !commands.lint && !commands.typecheck) continue;
    const key = JSON.stringify([commit, commands]);
    if (done.has(key)) continue;
    done.add(key);
    const label = `baseline ${commit.slice(0, 12)}`;
    ctx.progress?.(label, 'checks');
    try {
      const res = await getBaseline({
        store: ctx.store,
        repoDir: r.worktree,
        commit,
        commands,
        collector: ctx.config.collector,
        env: ctx.processEnv,
        sandbox: collectorSandbox(ctx.config.collector, ctx.processEnv, ctx.store.root),
        now: ctx.now,
        ...(ctx.progress ? { log: (m: string) => ctx.progress!(label, m.replace(/^baseline [0-9a-f]+: /, '')) } : {}),
      });
      ctx.progress?.(label, res.computed ? 'checks done' : 'cached', 'done');
    } catch (e) {
      ctx.progress?.(label, 'failed', 'failed');
      ctx.log?.(`baseline for ${commit.slice(0, 12)} failed: ${errorMessage(e)} (each solution records it)`);
    }
  }
}

async function baseBenchmark(
  runs: LoadedRunRecord[],
  command: string,
  rc: RaceConfig,
  env: NodeJS.ProcessEnv,
  sandbox: SandboxPolicy,
): Promise<BenchmarkResult | null> {
  const r = runs.find((x) => x.record.base_ref);
  if (!r || !(await isWorkTree(r.worktree))) return null;
  const commit = await resolveCommit(r.worktree, r.record.base_ref);
  if (!commit) return null;
  const tmp = mkdtempSync(join(tmpdir(), 'judgeloop-bench-'));
  const tree = join(tmp, 'tree');
  try {
    await git(r.worktree, ['worktree', 'add', '--detach', '--quiet', tree, commit]);
    return await runBenchmark(command, tree, env, rc.benchmark.timeout_seconds, sandbox);
  } finally {
    await removeWorktree(r.worktree, tree);
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function collectOne(run: LoadedRunRecord, ctx: RaceContext, env: NodeJS.ProcessEnv): Promise<Collected> {
  const id = run.record.bead;
  const p = ctx.progress;
  // The collector's step messages are progress, labelled by the solution: its checks run beside the others'.
  const log = p ? (m: string) => p(id, m.startsWith(`${id}: `) ? m.slice(id.length + 2) : m) : undefined;
  try {
    p?.(id, 'collect');
    const feedback = await collectRun(run, {
      store: ctx.store,
      config: ctx.config,
      processEnv: ctx.processEnv,
      now: ctx.now,
      ...(log ? { log } : {}),
    });
    if (!feedback.diff || !feedback.head) {
      p?.(id, `not measured (${feedback.outcome})`, 'failed');
      return { run, feedback, facts: null, failure: feedback.outcome_reason || 'the worktree could not be measured' };
    }
    p?.(id, `checks done (${feedback.outcome})`);
    if (ctx.judge) {
      p?.(id, 'judge');
      await ctx.judge(run);
    }
    p?.(id, 'evaluate');
    const rc = raceConfig(ctx.config);
    const facts = await gatherFacts(feedback, run.worktree, {
      stateRoot: ctx.store.root,
      benchmark: {
        command: rc.benchmark.command,
        timeoutSeconds: rc.benchmark.timeout_seconds,
        sandbox: collectorSandbox(ctx.config.collector, ctx.processEnv, ctx.store.root),
      },
      env,
    });
    p?.(id, 'done', 'done');
    return { run, feedback, facts, failure: null };
  } catch (e) {
    p?.(id, 'failed', 'failed');
    return { run, feedback: null, facts: null, failure: errorMessage(e) };
  }
}

export async function runRace(runs: LoadedRunRecord[], ctx: RaceContext): Promise<Race> {
  checkRaceInput(runs);
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

  const evaluated = solutions.filter((s) => s.status === 'evaluated');
  const rankables: Rankable[] = evaluated.map((s) => ({
    id: s.id,
    score: s.score!,
    confidence: s.evaluation!.confidence,
    categories: categoryScores(s.evaluation!),
    mergeable: s.gates.mergeable,
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
  const { sorted, ranking } = rankSolutions(rankables, allFailed);
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
  const bases = new Set(solutions.map((s) => s.base_commit).filter(Boolean));
  if (bases.size > 1)
    notes.push(`solutions start from ${bases.size} different base commits: scores are less comparable`);
  if (raceFacts.targets.source === 'counts') notes.push(`target tests: ${raceFacts.targets.note}`);
  if (raceFacts.targets.source === 'explicit') {
    // A named target no run reported (a typo, another runner's id form) fails every solution: say which.
    const lists = collected
      .filter((c) => c.facts !== null)
      .flatMap((c) => [caseList(testCounts(c.feedback!).solution), caseList(testCounts(c.feedback!).base)])
      .filter((l) => l !== null);
    const unseen = lists.length
      ? raceFacts.targets.fail_to_pass.filter((id) => !lists.some((l) => l!.byId.has(id)))
      : [];
    if (unseen.length) notes.push(`target tests not reported by any run (check the id): ${unseen.join(', ')}`);
  }

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
  if (notes.length) race.notes = notes;
  ctx.store.write('races', raceId, race);
  return race;
}

/** What every solution is measured against: the race's targets, the fastest, fewest tokens, cheapest, base benchmark. */
function raceFactsOf(collected: Collected[], ctx: RaceContext, baseBench: RaceFacts['baseBenchmark']): RaceFacts {
  const rc = raceConfig(ctx.config);
  const ok = collected.filter((c) => c.facts !== null);
  const durations = ok.map((c) => durationSeconds(c.feedback!.run));
  const tokens = ok.map((c) => totalTokens(c.feedback!.run.usage)).filter((x): x is number => x !== null);
  const costs = ok.map((c) => c.feedback!.run.usage?.cost_usd).filter((x): x is number => x !== undefined);
  return {
    // The base's results from the solution first by bead (they share one base unless a note says otherwise).
    targets: deriveTargets(
      ok.length
        ? caseList(
            testCounts([...ok].sort((a, b) => (a.run.record.bead < b.run.record.bead ? -1 : 1))[0]!.feedback!).base,
          )
        : null,
      ok.map((c) => caseList(testCounts(c.feedback!).solution)),
      ctx.targets ?? [],
    ),
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
  });
  const seed000 = raceComposite(
    c.feedback,
    sol.duration_seconds,
    raceFacts.fastestSeconds ?? sol.duration_seconds,
    ctx.config.scoring.weights,
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
  return sol;
}
