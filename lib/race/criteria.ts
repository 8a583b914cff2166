// Seed 001's criteria, one builder per category (correctness, quality, efficiency, completeness, safety), from one
// solution's facts (pure). evaluate.ts measures and calls them.
import type { Feedback } from '../schema/types.generated.js';
import { measured, notApplicable, unmeasured, type CriterionResult } from './categories.js';
import type { detectClones } from './clones.js';
import { commentScore, MIN_CODE_LINES, type CommentFigures } from './comments.js';
import type { FilePatch } from '../git/diff-parse.js';
import { booleanToScore, inverseScore, ratioToScore } from './rubric.js';
import { durationSeconds } from '../collector/scoring.js';
import type { ApiChange, FunctionMetric } from './ts-metrics.js';
import { TEST_FILE } from './test-findings.js';
import { targetFraction, type TargetStanding } from './targets.js';
import {
  CHANGELOG_FILE,
  DOC_FILE,
  MIGRATION_FILE,
  SOURCE_FILE,
  totalTokens,
  type JudgeCriterionName,
  type RaceFacts,
  type SolutionFacts,
} from './facts.js';

const r2 = (x: number) => Math.round(x * 100) / 100;

function judgeCriterion(name: string, key: JudgeCriterionName, facts: SolutionFacts): CriterionResult {
  const c = facts.judgment?.[key];
  if (!c)
    return unmeasured(
      name,
      facts.judgment
        ? `the judgment has no ${key} criterion`
        : (facts.judgmentNote ?? 'no judgment with criteria for this run'),
    );
  return measured(name, c.score, `judge: ${c.reasoning}`.slice(0, 400), 'judge', c.confidence);
}

interface TestFacts {
  passed: number | null;
  total: number | null;
  basePassed: number | null;
  baseTotal: number | null;
}

export function testFacts(fb: Feedback): TestFacts {
  const t = fb.checks.test?.tests ?? null;
  const b = fb.baseline?.tests ?? null;
  return {
    passed: t?.passed ?? null,
    total: t?.total ?? null,
    basePassed: b?.passed ?? null,
    baseTotal: b?.total ?? null,
  };
}

function checkCriterion(name: string, check: Feedback['checks']['build'], what: string): CriterionResult {
  if (!check) return unmeasured(name, `no ${what} command configured`);
  switch (check.status) {
    case 'passed':
      return measured(name, 1, `${what} passed`);
    case 'failed':
      return measured(name, 0, `${what} failed (exit ${check.exit_code})`);
    case 'timeout':
      return measured(name, 0, `${what} timed out`);
    case 'skipped':
      // Seed 000's short-circuit: checks that cannot run because the build failed score 0.
      return /build/i.test(check.skipped_reason ?? '')
        ? measured(name, 0, `${what} not run: ${check.skipped_reason}`)
        : unmeasured(name, `${what} not run: ${check.skipped_reason ?? 'skipped'}`);
    case 'error':
      return unmeasured(name, `${what} could not be started`);
  }
}

function targetCriterion(st: TargetStanding, test: Feedback['checks']['test']): CriterionResult {
  if (!test) return unmeasured('target_tests', 'no test command configured');
  if (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error')
    return measured('target_tests', 0, `tests did not run (${test.status})`);
  const frac = targetFraction(st);
  if (st.basis === 'none') return unmeasured('target_tests', st.notes.join('; ') || 'no test results');
  if (frac === null) {
    if (st.basis === 'counts')
      return st.target_failing.length
        ? measured('target_tests', 0, `${st.target_failing.join('; ')} (by counts)`, 'mechanical', 0.5)
        : notApplicable('target_tests', 'no test fails on the base (per-test results absent)');
    return notApplicable('target_tests', 'no target test: none fails on the base and none was added');
  }
  const failing = st.target_failing.length
    ? `; failing: ${st.target_failing.slice(0, 3).join(', ')}${st.target_failing.length > 3 ? ', …' : ''}`
    : '';
  return st.basis === 'counts'
    ? measured(
        'target_tests',
        frac,
        `${st.target_passed} of the base's ${st.target_total} failing tests fixed (by counts: per-test results absent)`,
        'mechanical',
        0.5,
      )
    : measured('target_tests', frac, `${st.target_passed}/${st.target_total} target tests pass${failing}`);
}

export function correctness(
  facts: SolutionFacts,
  api: ApiChange[] | null,
  apiNote: string,
  st: TargetStanding,
  specialCases: number,
): CriterionResult[] {
  const fb = facts.feedback;
  const t = testFacts(fb);
  const out: CriterionResult[] = [targetCriterion(st, fb.checks.test)];
  const test = fb.checks.test;
  if (!test) out.push(unmeasured('tests_pass', 'no test command configured'));
  else if (test.status === 'skipped' || test.status === 'error' || test.status === 'timeout')
    out.push(checkCriterion('tests_pass', test, 'tests'));
  else if (fb.integrity.tests_not_run)
    out.push(measured('tests_pass', 0, 'a test command is configured but no test ran'));
  else if (t.passed !== null && test.tests) {
    const ran = t.passed + test.tests.failed + test.tests.errors;
    out.push(
      ran > 0
        ? measured('tests_pass', t.passed / ran, `${t.passed}/${ran} tests pass`)
        : measured('tests_pass', 0, 'no test ran'),
    );
  } else
    out.push(
      measured(
        'tests_pass',
        booleanToScore(test.status === 'passed'),
        `no counts parsed; by exit code ${test.exit_code}`,
        'mechanical',
        0.5,
      ),
    );
  out.push(checkCriterion('typecheck', fb.checks.typecheck, 'type check'));
  out.push(checkCriterion('lint_clean', fb.checks.lint, 'lint'));
  out.push(checkCriterion('build', fb.checks.build, 'build'));
  // Pass-to-pass: any test that passed on the base and now fails, is gone or is skipped scores 0 (not a ratio: one
  // broken test of 600 is a regression, not 99.8% of one).
  if (test && (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error') && t.basePassed) {
    out.push(measured('no_regressions', 0, `tests could not run; base passed ${t.basePassed}`));
  } else if (st.basis === 'none' || (st.basis === 'counts' && !fb.baseline?.tests)) {
    out.push(
      unmeasured('no_regressions', fb.baseline ? 'test results missing for the solution or the base' : 'no baseline'),
    );
  } else {
    const lost = [
      ...st.broke.map((x) => `broke ${x}`),
      ...st.disappeared.map((x) => `gone ${x}`),
      ...st.newly_skipped.map((x) => `skipped ${x}`),
    ];
    const by = st.basis === 'counts' ? ' (by counts)' : '';
    out.push(
      measured(
        'no_regressions',
        booleanToScore(lost.length === 0),
        lost.length
          ? `${lost.slice(0, 3).join('; ')}${lost.length > 3 ? '; …' : ''}${by}`
          : `every test that passed on the base still passes${by}`,
      ),
    );
  }
  out.push(
    measured(
      'no_special_casing',
      booleanToScore(specialCases === 0),
      specialCases
        ? `${specialCases} added comparisons against the tests' literal inputs`
        : "no comparison against the tests' literals added",
    ),
  );
  out.push(judgeCriterion('requirement_coverage', 'requirement_coverage', facts));
  out.push(judgeCriterion('edge_cases', 'edge_cases', facts));
  if (api === null)
    out.push(
      apiNote === 'no source file changed'
        ? notApplicable('api_compatible', apiNote)
        : unmeasured('api_compatible', apiNote),
    );
  else {
    const breaks = api.filter((c) => c.change !== 'added');
    out.push(
      measured(
        'api_compatible',
        booleanToScore(breaks.length === 0),
        breaks.length ? breaks.map((b) => b.detail).join('; ') : 'no exported signature removed or changed',
      ),
    );
  }
  return out;
}

/** Where complexity and function length are measured (for the notes). */
export const METRICS_LANGUAGES =
  'measured for TS/JS, Python, Go, Rust, Java, C/C++, C#, Kotlin, Swift, Scala, PHP and Dart';

export interface QualityFigures {
  /** Extensions of the touched files measured by token heuristics rather than a parser. */
  heuristic?: string[];
  maxComplexity?: number;
  meanComplexity?: number;
  maxFunctionLines?: number;
  functionsMeasured?: number;
  maxFileLines?: number;
  /** Change-local scores and their words (see touchedFunctionScores). */
  complexity?: { score: number; detail: string };
  length?: { score: number; detail: string };
  /** Lines the largest-growing changed file gained (a new file: all its lines). */
  maxFileGrowth?: number;
}

function commentCoverage(c: CommentFigures | null, target: number): CriterionResult {
  if (c === null) return notApplicable('comment_coverage', 'no non-test source code added');
  if (c.files === 0)
    return unmeasured('comment_coverage', `comment syntax not known for ${c.unknown.slice(0, 3).join(', ')}`);
  if (c.codeLines < MIN_CODE_LINES)
    return notApplicable(
      'comment_coverage',
      `${c.codeLines} added code line${c.codeLines === 1 ? '' : 's'}: too few for a comment ratio (at least ${MIN_CODE_LINES})`,
    );
  const also = c.unknown.length ? `; not counted (comment syntax not known): ${c.unknown.slice(0, 3).join(', ')}` : '';
  return measured(
    'comment_coverage',
    commentScore(c.commentLines, c.codeLines, target),
    `${c.commentLines} comment lines for ${c.codeLines} added code lines (ratio ${r2(c.commentLines / c.codeLines)}; target ${target})${also}`,
  );
}

export interface TouchedFunction extends FunctionMetric {
  path: string;
  /** The same function on the base (matched by file, name and occurrence), or null when it is new. */
  before: FunctionMetric | null;
}

/**
 * Change-local complexity and length: for a function that existed, what the change added (after − before) against
 * 2..10 decisions and 20..80 lines; for a new function its own size against seed 001's 10..20 and 50..150. The worst
 * function decides. A one-line fix in a long function is not charged for the function.
 */
export function touchedFunctionScores(fns: TouchedFunction[]): {
  complexity: { score: number; detail: string };
  length: { score: number; detail: string };
} {
  let c = { score: 1, detail: '' };
  let l = { score: 1, detail: '' };
  for (const f of fns) {
    const cs = f.before ? inverseScore(f.complexity - f.before.complexity, 2, 10) : inverseScore(f.complexity, 10, 20);
    const ls = f.before ? inverseScore(f.lines - f.before.lines, 20, 80) : inverseScore(f.lines, 50, 150);
    const where = `${f.name} (${f.path}:${f.startLine})`;
    if (!c.detail || cs < c.score)
      c = {
        score: cs,
        detail: f.before
          ? `${where}: complexity ${f.before.complexity} → ${f.complexity} (${signed(f.complexity - f.before.complexity)}); ideal ≤ +2`
          : `${where}: new, complexity ${f.complexity}; ideal < 10`,
      };
    if (!l.detail || ls < l.score)
      l = {
        score: ls,
        detail: f.before
          ? `${where}: ${f.before.lines} → ${f.lines} lines (${signed(f.lines - f.before.lines)}); ideal ≤ +20`
          : `${where}: new, ${f.lines} lines; ideal < 50`,
      };
  }
  const n = ` (worst of ${fns.length} changed functions)`;
  return { complexity: { score: c.score, detail: c.detail + n }, length: { score: l.score, detail: l.detail + n } };
}

const signed = (x: number) => (x >= 0 ? `+${x}` : String(x));

/** Pairs each head function with the base function of the same name and occurrence in the file. */
export function matchFunctions(head: FunctionMetric[], base: FunctionMetric[]): (FunctionMetric | null)[] {
  const pool = new Map<string, FunctionMetric[]>();
  for (const b of base) pool.set(b.name, [...(pool.get(b.name) ?? []), b]);
  return head.map((h) => pool.get(h.name)?.shift() ?? null);
}

export function quality(
  facts: SolutionFacts,
  figs: QualityFigures,
  clones: ReturnType<typeof detectClones>,
  sourceNote: string | null,
  comments: CommentFigures | null,
  commentTarget: number,
): CriterionResult[] {
  const out: CriterionResult[] = [];
  if (figs.functionsMeasured) {
    const how = figs.heuristic?.length ? ` (token heuristic for .${figs.heuristic.join(', .')})` : '';
    out.push(measured('complexity', figs.complexity!.score, `${figs.complexity!.detail}${how}`));
    out.push(measured('function_length', figs.length!.score, `${figs.length!.detail}${how}`));
  } else {
    const why = sourceNote ?? 'no function changed';
    const mk = sourceNote ? unmeasured : notApplicable;
    out.push(mk('complexity', why), mk('function_length', why));
  }
  out.push(
    figs.maxFileGrowth !== undefined
      ? measured(
          'file_size',
          inverseScore(figs.maxFileGrowth, 500, 1500),
          `largest growth of a changed file +${figs.maxFileGrowth} lines (largest file ${figs.maxFileLines} lines); ideal < 500`,
        )
      : notApplicable('file_size', 'no text file changed'),
  );
  const d = facts.feedback.diff;
  const ds = facts.feedback.scores.diff_size;
  out.push(
    ds !== null && d
      ? measured(
          'change_size',
          ds,
          `+${d.lines_added} -${d.lines_removed} in ${d.files_changed} files (seed 000 diff-size score)`,
        )
      : unmeasured('change_size', 'the diff could not be measured'),
  );
  if (clones.addedTokens === 0) out.push(notApplicable('duplication', 'no code added'));
  else {
    const pct = clones.duplicatedTokens / clones.addedTokens;
    out.push(
      measured(
        'duplication',
        1 - pct,
        `${(pct * 100).toFixed(1)}% of ${clones.addedTokens} added tokens are in a clone`,
      ),
    );
  }
  out.push(commentCoverage(comments, commentTarget));
  out.push(
    judgeCriterion('naming', 'naming', facts),
    judgeCriterion('pattern_adherence', 'pattern_adherence', facts),
    judgeCriterion('error_handling', 'error_handling', facts),
  );
  return out;
}

function relative(
  name: string,
  mine: number | null,
  best: number | null,
  unit: string,
  missing: string,
): CriterionResult {
  if (mine === null) return unmeasured(name, missing);
  if (best === null || mine <= 0) return measured(name, 1, `${r2(mine)} ${unit} (best in race)`);
  return measured(name, ratioToScore(best, mine), `${r2(mine)} ${unit}; best in race ${r2(best)}`);
}

export function efficiency(facts: SolutionFacts, race: RaceFacts): CriterionResult[] {
  const run = facts.feedback.run;
  const out: CriterionResult[] = [
    relative('duration', durationSeconds(run), race.fastestSeconds, 's', 'no duration'),
    relative('tokens', totalTokens(run.usage), race.fewestTokens, 'tokens', 'the run record reports no token usage'),
    relative('cost', run.usage?.cost_usd ?? null, race.cheapestUsd, 'USD', 'the run record reports no cost'),
  ];
  if (!race.benchmarkConfigured) {
    out.push(
      notApplicable('runtime', 'no benchmark command configured'),
      notApplicable('memory', 'no benchmark command configured'),
    );
  } else if (!race.baseBenchmark?.ok) {
    out.push(
      unmeasured('runtime', `benchmark failed on the base: ${race.baseBenchmark?.detail ?? 'not run'}`),
      unmeasured('memory', 'benchmark failed on the base'),
    );
  } else if (!facts.benchmark) {
    out.push(unmeasured('runtime', 'benchmark not run'), unmeasured('memory', 'benchmark not run'));
  } else if (!facts.benchmark.ok) {
    out.push(
      measured('runtime', 0, `benchmark failed: ${facts.benchmark.detail}`),
      unmeasured('memory', 'benchmark failed'),
    );
  } else {
    const b = race.baseBenchmark;
    out.push(
      measured(
        'runtime',
        ratioToScore(b.ms, facts.benchmark.ms),
        `${Math.round(facts.benchmark.ms)} ms; base ${Math.round(b.ms)} ms`,
      ),
    );
    out.push(
      b.maxRssKb && facts.benchmark.maxRssKb
        ? measured(
            'memory',
            ratioToScore(b.maxRssKb, facts.benchmark.maxRssKb),
            `peak ${facts.benchmark.maxRssKb} KB; base ${b.maxRssKb} KB`,
          )
        : unmeasured('memory', 'peak memory not measured'),
    );
  }
  out.push(judgeCriterion('algorithmic_complexity', 'algorithmic_complexity', facts));
  return out;
}

export function completeness(
  facts: SolutionFacts,
  api: ApiChange[] | null,
  stubs: number,
  st: TargetStanding,
): CriterionResult[] {
  const out: CriterionResult[] = [judgeCriterion('requirements_met', 'requirement_coverage', facts)];
  const changed = facts.patch.filter((f) => !f.binary);
  const codeAdded = changed
    .filter((f) => SOURCE_FILE.test(f.path) && !TEST_FILE.test(f.path))
    .reduce((s, f) => s + f.added.length, 0);
  const testLinesAdded = changed.filter((f) => TEST_FILE.test(f.path)).reduce((s, f) => s + f.added.length, 0);
  const t = testFacts(facts.feedback);
  // Nothing added scores 0, not "not applicable": a change without a test earns no credit for tests.
  if (st.basis === 'per-test')
    out.push(
      measured(
        'tests_added',
        ratioToScore(st.added.length, 1),
        `${st.added.length} new tests${st.added.length ? ` (${st.added.slice(0, 3).join(', ')}${st.added.length > 3 ? ', …' : ''})` : ''} for ${codeAdded} added code lines`,
      ),
    );
  else if (t.total !== null && t.baseTotal !== null)
    out.push(
      measured(
        'tests_added',
        ratioToScore(t.total - t.baseTotal, 1),
        `${Math.max(0, t.total - t.baseTotal)} new tests for ${codeAdded} added code lines (by counts)`,
      ),
    );
  else
    out.push(
      measured(
        'tests_added',
        booleanToScore(testLinesAdded > 0),
        `${testLinesAdded} test lines added (no test counts)`,
        'mechanical',
        0.5,
      ),
    );
  const userVisible = api !== null ? api.length > 0 : facts.taskType === 'feature' ? true : null;
  const docs = changed.some((f) => DOC_FILE.test(f.path) && !CHANGELOG_FILE.test(f.path));
  const changelog = changed.some((f) => CHANGELOG_FILE.test(f.path));
  if (userVisible === null) {
    out.push(
      unmeasured('documentation_updated', 'cannot tell whether the change is user-visible'),
      unmeasured('changelog_updated', 'cannot tell whether the change is user-visible'),
    );
  } else if (!userVisible) {
    out.push(
      notApplicable('documentation_updated', 'the exported API did not change'),
      notApplicable('changelog_updated', 'the exported API did not change'),
    );
  } else {
    out.push(
      measured(
        'documentation_updated',
        booleanToScore(docs),
        docs ? 'documentation changed' : 'user-visible change without documentation',
      ),
    );
    out.push(
      measured(
        'changelog_updated',
        booleanToScore(changelog),
        changelog ? 'changelog changed' : 'user-visible change without a changelog entry',
      ),
    );
  }
  out.push(
    measured(
      'no_stubs',
      booleanToScore(stubs === 0),
      stubs ? `${stubs} TODO/not-implemented markers added` : 'no TODO or not-implemented marker added',
    ),
  );
  return out;
}

export function safety(
  facts: SolutionFacts,
  counts: Record<'dangerous_op' | 'disabled_check' | 'secret', number>,
  at: Record<'dangerous_op' | 'disabled_check', string[]>,
): CriterionResult[] {
  const where = (xs: string[]) => (xs.length ? ` (${xs.slice(0, 3).join(', ')}${xs.length > 3 ? ', …' : ''})` : '');
  const out: CriterionResult[] = [
    measured(
      'no_dangerous_ops',
      booleanToScore(counts.dangerous_op === 0),
      counts.dangerous_op
        ? `${counts.dangerous_op} dangerous operations added${where(at.dangerous_op)}`
        : 'no dangerous operation added',
    ),
    measured(
      'no_disabled_checks',
      booleanToScore(counts.disabled_check === 0),
      counts.disabled_check
        ? `${counts.disabled_check} checks disabled, tests skipped, deleted or weakened${where(at.disabled_check)}`
        : 'no check disabled, no test skipped, deleted or weakened',
    ),
    measured(
      'no_secrets',
      booleanToScore(counts.secret === 0),
      counts.secret ? `${counts.secret} secrets added` : 'no secret found in added lines',
    ),
    judgeCriterion('security', 'security', facts),
  ];
  const files = facts.patch;
  if (!files.length) out.push(notApplicable('revertability', 'nothing changed'));
  else {
    const risky = files.filter((f) => f.deleted || f.binary || MIGRATION_FILE.test(f.path));
    out.push(
      measured(
        'revertability',
        1 - risky.length / files.length,
        risky.length
          ? `${risky.length} of ${files.length} files are deletions, binaries or migrations`
          : `${files.length} text edits, none a deletion, binary or migration`,
      ),
    );
  }
  return out;
}

export function addedLineSet(f: FilePatch | undefined): Set<number> {
  return new Set(f?.added.map((a) => a.line) ?? []);
}
