// What the judge is shown of a run: its worktree's diff against the base (the collector's snapshot when it is
// still there), the test and lint output, and run facts without ids or clock times (so identical work shares a key).
import { tmpdir } from 'node:os';
import { readFeedback as readFeedbackFile } from '../store/feedback-read.js';
import type { Config } from '../config/config.js';
import { UserError } from '../base/errors.js';
import { diffPatch, measuredOrFreshDiff } from '../git/snapshot.js';
import { measurableWithRef, resolveCommit, worktreeProblem } from '../git/worktree.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { StateStore } from '../store/store.js';
import type { Feedback, Judgment } from '../schema/types.generated.js';
import { loadSecretTable } from '../secrets/load.js';
import { readStoredJudgment } from '../store/judgment.js';
import { feedbackIsCurrent } from '../evidence/currency.js';
import { assembleContext, type AssembledContext } from './context.js';

export function readFeedback(store: StateStore, bead: string, log: (m: string) => void): Feedback | null {
  const r = readFeedbackFile(store, bead);
  if (r.status === 'corrupt') log(`warning: ${r.error.message}; judging without it`);
  return r.status === 'ok' ? r.feedback : null;
}

export function readJudgment(store: StateStore, bead: string): Judgment | null {
  return readStoredJudgment(store, bead).judgment;
}

/** The stored feedback measured this very run record (its hash; the times for a record from before the hash). */
export const isCurrent = (fb: Feedback, loaded: LoadedRunRecord): boolean => feedbackIsCurrent(fb, loaded.record);

/** Run facts for the judge (no bead id and no clock times, so identical work shares a cache key). */
function runMetadata(loaded: LoadedRunRecord, fb: Feedback | null): Record<string, unknown> {
  const r = loaded.record;
  const duration = (Date.parse(r.completed_at) - Date.parse(r.started_at)) / 1000;
  const meta: Record<string, unknown> = {
    agent: r.agent.slug,
    agent_model: r.agent.model ?? null,
    template: r.template,
    task_id: r.task.id,
    task_type: r.task.type ?? null,
    complexity: r.task.complexity ?? null,
    duration_seconds: duration,
    exit_code: r.exit_code,
    status: r.status,
    failure_reason: r.failure_reason ?? null,
    iterations: r.iterations ?? null,
  };
  // Measured facts only: derived scores (composite, speed) change when the run is re-collected (the race's
  // fastest run moves), and what changes the context changes the cache key.
  if (fb) {
    meta.mechanical = {
      outcome: fb.outcome,
      outcome_reason: fb.outcome_reason,
      build: fb.checks.build?.status ?? null,
      tests: fb.checks.test?.tests ?? null,
      lint: fb.checks.lint?.lint ?? null,
      integrity: {
        tests_not_run: fb.integrity.tests_not_run,
        exit_code_contradicts_counts: fb.integrity.exit_code_contradicts_counts,
        test_count_below_baseline: fb.integrity.test_count_below_baseline,
      },
    };
    // Only when there is something to say, so a clean run's context (and its cache key) stays as it was.
    const m = meta.mechanical as Record<string, unknown>;
    const ev = fb.integrity.test_evidence;
    if (ev?.trusted === false) m.test_evidence_not_trusted = ev.reasons;
    // A base test the agent rewrote: the judge weighs both versions (the task may really change the behaviour).
    if (fb.changed_expectations?.length) m.changed_expectations = fb.changed_expectations;
    if (fb.candidate?.infra_changed?.length) m.test_infrastructure_changed = fb.candidate.infra_changed;
  }
  return meta;
}

export interface Gathered {
  context: AssembledContext;
  feedback: Feedback | null;
  headTree?: string;
}

export async function gather(
  loaded: LoadedRunRecord,
  config: Config,
  feedback: Feedback | null,
  sources: string[],
): Promise<Gathered> {
  const r = loaded.record;
  const wt = loaded.worktree;
  const measured = [feedback?.head?.tree, feedback?.diff?.merge_base].filter((x): x is string => !!x);
  // One git call when all is well (the worktree, the base, the measured trees); else each question alone.
  let base = await measurableWithRef(wt, r.base_ref, measured);
  if (!base) {
    const problem = await worktreeProblem(wt);
    if (problem) throw new UserError(`${loaded.file}: /worktree: refused: ${problem}`);
    base = await resolveCommit(wt, r.base_ref);
  }
  if (!base)
    throw new UserError(`${loaded.file}: /base_ref: ${JSON.stringify(r.base_ref)} does not name a commit in ${wt}`);
  // The judge sees exactly what the collector measured (its snapshot tree) when that tree is still there;
  // otherwise the same snapshot function makes one now.
  const wd = await measuredOrFreshDiff(wt, base, feedback);
  const diff = await diffPatch(wt, wd.mergeBase, wd.tree);
  const testOut = feedback?.checks.test?.output?.text ?? r.checks?.test?.output ?? null;
  const lintOut = feedback?.checks.lint?.output?.text ?? r.checks?.lint?.output ?? null;
  if (feedback?.checks.test?.output) sources.push('test output: captured by the collector');
  else if (r.checks?.test) sources.push('test output: reported in the run record');
  else sources.push('test output: none (no test command ran)');
  if (feedback?.checks.lint?.output) sources.push('lint output: captured by the collector');
  else if (r.checks?.lint) sources.push('lint output: reported in the run record');
  else sources.push('lint output: none (no lint command ran)');
  const context = assembleContext(
    {
      prompt: r.task.prompt,
      diff,
      testOutput: testOut,
      lintOutput: lintOut,
      metadata: runMetadata(loaded, feedback),
      sources,
      tempRoots: [tmpdir()],
    },
    contextBudget(config),
    loadSecretTable(),
  );
  return { context, feedback, headTree: wd.tree };
}

/** The context budget the judge configuration sets (tokens per part, lines of test output, chars per token). */
export function contextBudget(config: Config): Parameters<typeof assembleContext>[1] {
  const j = config.judge;
  return {
    contextTokens: j.context_budget_tokens,
    diffTokens: j.diff_budget_tokens,
    promptTokens: j.prompt_budget_tokens,
    testTokens: j.test_output_budget_tokens,
    lintTokens: j.lint_output_budget_tokens,
    testMaxLines: j.test_output_max_lines,
    charsPerToken: j.chars_per_token,
  };
}
