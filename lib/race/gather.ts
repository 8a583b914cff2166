// IO: what the evaluation needs from one solution's worktree (git and files) and the judge's criteria.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { git } from '../git/git.js';
import { readStoredJudgment } from '../store/judgment.js';
import { criterionOverSamples } from '../judge/spread.js';
import { StateStore } from '../store/store.js';
import { runCommand } from '../process/runner.js';
import { readTreeFile } from '../git/tree-read.js';
import type { SandboxPolicy } from '../process/sandbox.js';
import type { Feedback } from '../schema/types.generated.js';
import { parseUnifiedDiff } from '../git/diff-parse.js';
import { JUDGE_CRITERIA, type BenchmarkResult, type JudgeCriteria, type SolutionFacts } from './facts.js';
import { changedTexts, formattingOnly, testFileTexts } from '../change/texts.js';
import type { IsTest } from '../change/test-findings.js';
import { TS_JS_FILE } from '../change/ts-metrics.js';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_CONTEXT_FILES = 300;
const MAX_CONTEXT_BYTES = 4 * 1024 * 1024;

/** The judge's optional criteria from state/judgments/<bead>.json (validated against the judgment schema). */
function readJudgeCriteria(stateRoot: string, bead: string): { criteria: JudgeCriteria | null; note: string } {
  const { judgment: j, note } = readStoredJudgment(new StateStore(stateRoot), bead);
  if (note) return { criteria: null, note };
  if (!j) return { criteria: null, note: 'no judgment for this run (judge disabled or not run)' };
  if (j.status !== 'judged') return { criteria: null, note: 'the judgment failed' };
  const criteria: JudgeCriteria = {};
  for (const k of JUDGE_CRITERIA) {
    const c = j.criteria?.[k];
    // Several samples: their mean, and a confidence lowered by how far apart they were (issue 37, item 4).
    const each = (j.sample_replies ?? []).map((r) => r.criteria?.[k]).filter((x) => x !== undefined);
    if (c) criteria[k] = { ...(each.length > 1 ? criterionOverSamples(each) : c), reasoning: c.reasoning };
  }
  return { criteria: Object.keys(criteria).length ? criteria : null, note: 'the judgment has no criteria' };
}

/** Runs the benchmark command with GNU time for peak memory when it is there. */
export async function runBenchmark(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutSeconds: number,
  sandbox?: SandboxPolicy,
): Promise<BenchmarkResult> {
  const gnuTime = existsSync('/usr/bin/time');
  const wrapped = gnuTime ? `/usr/bin/time -f 'JUDGELOOP_MAXRSS_KB=%M' sh -c "$JUDGELOOP_BENCH"` : command;
  const res = await runCommand(wrapped, {
    cwd,
    env: { ...env, JUDGELOOP_BENCH: command },
    timeoutMs: timeoutSeconds * 1000,
    capBytes: 64 * 1024,
    sandbox,
  });
  // The last one: GNU time writes it after the command ended; the command's own output could print one first.
  const m = [...res.output.text.matchAll(/JUDGELOOP_MAXRSS_KB=(\d+)/g)].pop();
  const ok = res.exitCode === 0 && !res.timedOut;
  return {
    ok,
    ms: res.durationMs,
    maxRssKb: m ? Number(m[1]) : null,
    detail: ok ? `${Math.round(res.durationMs)} ms` : res.timedOut ? 'timed out' : `exit ${res.exitCode ?? res.signal}`,
  };
}

export interface GatherOptions {
  stateRoot: string;
  /** The graded run's test files (`gradedPaths` over collector.test_paths): whose literals a special case aims at. */
  isTest: IsTest;
}

/** Everything but the feedback's own figures: the patch, both versions of changed files, clone context, judge criteria. */
export async function gatherFacts(fb: Feedback, worktree: string, opts: GatherOptions): Promise<SolutionFacts> {
  const from = fb.diff!.merge_base;
  const to = fb.head?.tree ?? fb.head!.commit;
  const diffText = await git(worktree, ['diff', '-M', '--no-ext-diff', '--no-textconv', from, to]);
  const patch = parseUnifiedDiff(diffText);
  const files = await changedTexts(worktree, from, to, patch);
  const changed = new Set(patch.map((p) => p.path));
  const cloneContext: { path: string; text: string }[] = [];
  let bytes = 0;
  // The full listing (usually answered already: the seal listed this tree), its paths.
  const all = (await git(worktree, ['ls-tree', '-r', '-z', '--full-tree', to]))
    .split('\0')
    .map((rec) => rec.slice(rec.indexOf('\t') + 1))
    .filter(Boolean);
  const tracked = all.filter((p) => TS_JS_FILE.test(p) && !changed.has(p));
  for (const p of tracked.slice(0, MAX_CONTEXT_FILES)) {
    // Only regular files inside the tree: a FIFO, device or symlink out of it is skipped, never opened or followed.
    const r = readTreeFile(worktree, p, Math.min(MAX_FILE_BYTES, MAX_CONTEXT_BYTES - bytes));
    if (!r.ok) continue;
    bytes += r.bytes;
    cloneContext.push({ path: p, text: r.text });
  }
  const judge = readJudgeCriteria(opts.stateRoot, fb.bead);
  const facts: SolutionFacts = {
    feedback: fb,
    judgment: judge.criteria,
    judgmentNote: judge.note,
    patch,
    files,
    cloneContext,
    formattingOnlyFiles: await (async () => {
      const edited = patch.filter((p) => !p.binary && !p.created && !p.deleted).map((p) => p.path);
      return edited.length ? formattingOnly(worktree, from, to, edited) : [];
    })(),
    benchmark: null, // run by the caller, in a checkout of the candidate
    // The graded tests are the base's: the literals a solution could special-case are theirs.
    testTexts: patch.some((p) => !p.binary && p.added.length) ? await testFileTexts(worktree, from, opts.isTest) : [],
    contentHash: createHash('sha256').update(diffText).digest('hex'),
  };
  if (fb.run.task_type !== undefined) facts.taskType = fb.run.task_type;
  return facts;
}
