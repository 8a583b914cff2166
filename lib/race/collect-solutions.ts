// Collecting the solutions of a race: the baselines once, the base benchmark, each solution's checks (and judge)
// and the facts its evaluation reads.
import { errorMessage } from '../base/errors.js';
import { isWorkTree, measurableWithRef, resolveCommit } from '../git/worktree.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import { collectorSandbox, type SandboxPolicy } from '../process/sandbox.js';
import type { Feedback } from '../schema/types.generated.js';
import { collectRun, getBaseline, resolveCommands, withCheckout } from './collector-adapter.js';
import type { BenchmarkResult, SolutionFacts } from './facts.js';
import { gatherFacts, runBenchmark } from './gather.js';
import { raceConfig, type RaceConfig } from './settings.js';
import { currentFeedback } from './reuse.js';
import type { RaceContext } from './context.js';
import { gradedPaths } from '../change/test-findings.js';

export interface Collected {
  run: LoadedRunRecord;
  feedback: Feedback | null;
  facts: SolutionFacts | null;
  failure: string | null;
}

/** The run's base commit when its worktree is one (one git call when the worktree is measurable as it is), else null. */
async function baseOf(r: LoadedRunRecord): Promise<string | null> {
  const fast = r.record.base_commit === undefined ? await measurableWithRef(r.worktree, r.record.base_ref) : null;
  if (fast) return fast;
  if (!(await isWorkTree(r.worktree))) return null;
  return r.record.base_commit ?? (await resolveCommit(r.worktree, r.record.base_ref));
}

/** The base checks once per (base commit, commands) before the solutions run in parallel. */
export async function prepareBaselines(runs: LoadedRunRecord[], ctx: RaceContext): Promise<void> {
  const done = new Set<string>();
  for (const r of runs) {
    // A task with its own test revision has its baseline on a graded base: the collector computes that one.
    if (r.record.task.tests_ref !== undefined) continue;
    const commit = await baseOf(r);
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

export async function baseBenchmark(
  runs: LoadedRunRecord[],
  command: string,
  rc: RaceConfig,
  env: NodeJS.ProcessEnv,
  sandbox: SandboxPolicy,
): Promise<BenchmarkResult | null> {
  const r = runs.find((x) => x.record.base_ref);
  const commit = r ? await baseOf(r) : null;
  if (!r || !commit) return null;
  // The collector's temporary checkout: adds serialised and retried, removed on abort, swept when abandoned.
  return withCheckout(r.worktree, commit, (tree) =>
    runBenchmark(command, tree, env, rc.benchmark.timeout_seconds, sandbox),
  );
}

export async function collectOne(run: LoadedRunRecord, ctx: RaceContext, env: NodeJS.ProcessEnv): Promise<Collected> {
  const id = run.record.bead;
  const p = ctx.progress;
  // The collector's step messages are progress, labelled by the solution: its checks run beside the others'.
  const log = p ? (m: string) => p(id, m.startsWith(`${id}: `) ? m.slice(id.length + 2) : m) : undefined;
  try {
    const reused = ctx.recollect ? null : await currentFeedback(ctx.store, run, ctx.config.collector);
    p?.(id, reused ? 'feedback current (same candidate, commands and configuration): checks not run again' : 'collect');
    const feedback =
      reused ??
      (await collectRun(run, {
        store: ctx.store,
        config: ctx.config,
        processEnv: ctx.processEnv,
        now: ctx.now,
        ...(log ? { log } : {}),
      }));
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
    const { isTest } = gradedPaths(ctx.config.collector.test_paths ?? [], ctx.config.collector.test_infra_paths ?? []);
    const facts = await gatherFacts(feedback, run.worktree, { stateRoot: ctx.store.root, isTest });
    const bench = rc.benchmark.command;
    // In a fresh checkout of the sealed candidate, as the checks: the worktree's ignored files are not the solution.
    if (bench && feedback.candidate) {
      const sandbox = collectorSandbox(ctx.config.collector, ctx.processEnv, ctx.store.root);
      facts.benchmark = await withCheckout(
        run.worktree,
        feedback.candidate.commit,
        (tree) => runBenchmark(bench, tree, env, rc.benchmark.timeout_seconds, sandbox),
        'sealed',
      );
    }
    p?.(id, 'done', 'done');
    return { run, feedback, facts, failure: null };
  } catch (e) {
    p?.(id, 'failed', 'failed');
    return { run, feedback: null, facts: null, failure: errorMessage(e) };
  }
}
