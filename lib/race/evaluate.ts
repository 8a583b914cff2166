// One solution's measurements → seed 001's criteria, the five categories, flags, gates and raw metrics (pure).
import type { Feedback, RaceCategory, RaceCategoryWeights, RaceEvaluation, RaceFlag, RaceGates, RaceSolution } from '../store/types.generated.js';
import { assembleEvaluation, measured, notApplicable, unmeasured, type CriterionResult } from './categories.js';
import { detectClones } from './clones.js';
import { commentFigures, commentScore, MIN_CODE_LINES, type CommentFigures } from './comments.js';
import type { FilePatch } from '../git/diff-parse.js';
import { booleanToScore, inverseScore, ratioToScore } from './rubric.js';
import { durationSeconds } from '../collector/scoring.js';
import { findingToFlag, scanAddedLines } from './scan.js';
import { API_FILE, compareLangApi } from './lang-api.js';
import { langFunctionMetrics, langMetricsKnown } from './lang-metrics.js';
import { compareApi, functionMetrics, TS_JS_FILE, type ApiChange, type FunctionMetric } from './ts-metrics.js';
import { evaluateGate } from './gate.js';
import { noOpChange } from './substance.js';
import { TEST_FILE, specialCaseFindings, targetTestEdits, testFindings, testLiterals } from './test-findings.js';
import { targetFraction, targetStanding, testCounts, type RaceTargets, type TargetStanding } from './targets.js';

/** The judge's optional per-criterion assessments (state/judgments/<bead>.json `criteria`), each 0-1. */
export interface JudgeCriterion {
  score: number;
  confidence: number;
  reasoning: string;
}
export const JUDGE_CRITERIA = ['requirement_coverage', 'edge_cases', 'naming', 'pattern_adherence', 'error_handling', 'security', 'algorithmic_complexity'] as const;
export type JudgeCriterionName = (typeof JUDGE_CRITERIA)[number];
export type JudgeCriteria = Partial<Record<JudgeCriterionName, JudgeCriterion>>;

export interface FileText {
  path: string;
  /** Text in the solution (null when deleted or binary). */
  head: string | null;
  /** Text at the merge base (null when created or binary). */
  base: string | null;
}

export interface BenchmarkResult {
  ok: boolean;
  ms: number;
  maxRssKb: number | null;
  detail: string;
}

/** What the IO layer gathered about one solution. */
export interface SolutionFacts {
  feedback: Feedback;
  judgment: JudgeCriteria | null;
  /** Why there is no judgment with criteria, when there is none. */
  judgmentNote?: string;
  patch: FilePatch[];
  /** Changed text files, both versions. */
  files: FileText[];
  /** Other files of the solution's tree given to the clone detector as context (path and text). */
  cloneContext: { path: string; text: string }[];
  /** Changed files whose change vanishes when whitespace is ignored. */
  formattingOnlyFiles: string[];
  benchmark: BenchmarkResult | null;
  taskType?: string;
  /** Texts of the tree's test files, or their lines that hold literals (special-casing is checked against them). */
  testTexts: string[];
  /** sha256 (hex) of the diff text: the ranking's last tie-break. */
  contentHash?: string;
}

/** Figures across the race that some criteria are relative to. */
export interface RaceFacts {
  fastestSeconds: number | null;
  fewestTokens: number | null;
  cheapestUsd: number | null;
  baseBenchmark: BenchmarkResult | null;
  benchmarkConfigured: boolean;
  /** The race's target tests. */
  targets: RaceTargets;
}

export interface EvaluateOptions {
  weights: RaceCategoryWeights;
  cloneMinTokens: number;
  /** Comment lines per added code line that earns comment coverage its full score (race.comment_target_ratio). */
  commentTargetRatio: number;
  /** Finding kinds that fail the gate (race.gate.blocking_findings). */
  blockingFindings: readonly string[];
  /** Weight of target_tests within correctness (race.target_weight); the other criteria weigh 1. */
  targetWeight: number;
}

export interface SolutionAssessment {
  evaluation: RaceEvaluation;
  flags: RaceFlag[];
  gates: RaceGates;
  metrics: RaceSolution['metrics'];
  standing: TargetStanding;
}

export { TEST_FILE };
export const CHANGELOG_FILE = /(^|\/)(CHANGELOG|CHANGES|HISTORY|NEWS)(\.[A-Za-z]+)?$/i;
export const DOC_FILE = /(^|\/)(docs?\/|README)|\.(md|mdx|rst|adoc|txt)$/i;
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|scala|sh|sql|ex|exs)$/;
const MIGRATION_FILE = /(^|\/)migrat|\.sql$/i;

export function totalTokens(usage: Feedback['run']['usage']): number | null {
  if (!usage) return null;
  if (usage.total_tokens !== undefined) return usage.total_tokens;
  if (usage.input_tokens !== undefined && usage.output_tokens !== undefined) return usage.input_tokens + usage.output_tokens;
  return null;
}

export { durationSeconds };

const r2 = (x: number) => Math.round(x * 100) / 100;

function judgeCriterion(name: string, key: JudgeCriterionName, facts: SolutionFacts): CriterionResult {
  const c = facts.judgment?.[key];
  if (!c) return unmeasured(name, facts.judgment ? `the judgment has no ${key} criterion` : (facts.judgmentNote ?? 'no judgment with criteria for this run'));
  return measured(name, c.score, `judge: ${c.reasoning}`.slice(0, 400), 'judge', c.confidence);
}

interface TestFacts {
  passed: number | null;
  total: number | null;
  basePassed: number | null;
  baseTotal: number | null;
}

function testFacts(fb: Feedback): TestFacts {
  const t = fb.checks.test?.tests ?? null;
  const b = fb.baseline?.tests ?? null;
  return { passed: t?.passed ?? null, total: t?.total ?? null, basePassed: b?.passed ?? null, baseTotal: b?.total ?? null };
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
      return /build/i.test(check.skipped_reason ?? '') ? measured(name, 0, `${what} not run: ${check.skipped_reason}`) : unmeasured(name, `${what} not run: ${check.skipped_reason ?? 'skipped'}`);
    case 'error':
      return unmeasured(name, `${what} could not be started`);
  }
}

function targetCriterion(st: TargetStanding, test: Feedback['checks']['test']): CriterionResult {
  if (!test) return unmeasured('target_tests', 'no test command configured');
  if (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error') return measured('target_tests', 0, `tests did not run (${test.status})`);
  const frac = targetFraction(st);
  if (st.basis === 'none') return unmeasured('target_tests', st.notes.join('; ') || 'no test results');
  if (frac === null) {
    if (st.basis === 'counts') return st.target_failing.length ? measured('target_tests', 0, `${st.target_failing.join('; ')} (by counts)`, 'mechanical', 0.5) : notApplicable('target_tests', 'no test fails on the base (per-test results absent)');
    return notApplicable('target_tests', 'no target test: none fails on the base and none was added');
  }
  const failing = st.target_failing.length ? `; failing: ${st.target_failing.slice(0, 3).join(', ')}${st.target_failing.length > 3 ? ', …' : ''}` : '';
  return st.basis === 'counts'
    ? measured('target_tests', frac, `${st.target_passed} of the base's ${st.target_total} failing tests fixed (by counts: per-test results absent)`, 'mechanical', 0.5)
    : measured('target_tests', frac, `${st.target_passed}/${st.target_total} target tests pass${failing}`);
}

function correctness(facts: SolutionFacts, api: ApiChange[] | null, apiNote: string, st: TargetStanding, specialCases: number): CriterionResult[] {
  const fb = facts.feedback;
  const t = testFacts(fb);
  const out: CriterionResult[] = [targetCriterion(st, fb.checks.test)];
  const test = fb.checks.test;
  if (!test) out.push(unmeasured('tests_pass', 'no test command configured'));
  else if (test.status === 'skipped' || test.status === 'error' || test.status === 'timeout') out.push(checkCriterion('tests_pass', test, 'tests'));
  else if (fb.integrity.tests_not_run) out.push(measured('tests_pass', 0, 'a test command is configured but no test ran'));
  else if (t.passed !== null && test.tests) {
    const ran = t.passed + test.tests.failed + test.tests.errors;
    out.push(ran > 0 ? measured('tests_pass', t.passed / ran, `${t.passed}/${ran} tests pass`) : measured('tests_pass', 0, 'no test ran'));
  } else out.push(measured('tests_pass', booleanToScore(test.status === 'passed'), `no counts parsed; by exit code ${test.exit_code}`, 'mechanical', 0.5));
  out.push(checkCriterion('typecheck', fb.checks.typecheck, 'type check'));
  out.push(checkCriterion('lint_clean', fb.checks.lint, 'lint'));
  out.push(checkCriterion('build', fb.checks.build, 'build'));
  // Pass-to-pass: any test that passed on the base and now fails, is gone or is skipped scores 0 (not a ratio: one
  // broken test of 600 is a regression, not 99.8% of one).
  if (test && (test.status === 'skipped' || test.status === 'timeout' || test.status === 'error') && t.basePassed) {
    out.push(measured('no_regressions', 0, `tests could not run; base passed ${t.basePassed}`));
  } else if (st.basis === 'none' || (st.basis === 'counts' && !fb.baseline?.tests)) {
    out.push(unmeasured('no_regressions', fb.baseline ? 'test results missing for the solution or the base' : 'no baseline'));
  } else {
    const lost = [...st.broke.map((x) => `broke ${x}`), ...st.disappeared.map((x) => `gone ${x}`), ...st.newly_skipped.map((x) => `skipped ${x}`)];
    const by = st.basis === 'counts' ? ' (by counts)' : '';
    out.push(measured('no_regressions', booleanToScore(lost.length === 0), lost.length ? `${lost.slice(0, 3).join('; ')}${lost.length > 3 ? '; …' : ''}${by}` : `every test that passed on the base still passes${by}`));
  }
  out.push(measured('no_special_casing', booleanToScore(specialCases === 0), specialCases ? `${specialCases} added comparisons against the tests' literal inputs` : "no comparison against the tests' literals added"));
  out.push(judgeCriterion('requirement_coverage', 'requirement_coverage', facts));
  out.push(judgeCriterion('edge_cases', 'edge_cases', facts));
  if (api === null) out.push(apiNote === 'no source file changed' ? notApplicable('api_compatible', apiNote) : unmeasured('api_compatible', apiNote));
  else {
    const breaks = api.filter((c) => c.change !== 'added');
    out.push(measured('api_compatible', booleanToScore(breaks.length === 0), breaks.length ? breaks.map((b) => b.detail).join('; ') : 'no exported signature removed or changed'));
  }
  return out;
}

/** Where complexity and function length are measured (for the notes). */
const METRICS_LANGUAGES = 'measured for TS/JS, Python, Go, Rust, Java, C/C++, C#, Kotlin, Swift, Scala, PHP and Dart';

interface QualityFigures {
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
  if (c.files === 0) return unmeasured('comment_coverage', `comment syntax not known for ${c.unknown.slice(0, 3).join(', ')}`);
  if (c.codeLines < MIN_CODE_LINES) return notApplicable('comment_coverage', `${c.codeLines} added code line${c.codeLines === 1 ? '' : 's'}: too few for a comment ratio (at least ${MIN_CODE_LINES})`);
  const also = c.unknown.length ? `; not counted (comment syntax not known): ${c.unknown.slice(0, 3).join(', ')}` : '';
  return measured('comment_coverage', commentScore(c.commentLines, c.codeLines, target), `${c.commentLines} comment lines for ${c.codeLines} added code lines (ratio ${r2(c.commentLines / c.codeLines)}; target ${target})${also}`);
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
export function touchedFunctionScores(fns: TouchedFunction[]): { complexity: { score: number; detail: string }; length: { score: number; detail: string } } {
  let c = { score: 1, detail: '' };
  let l = { score: 1, detail: '' };
  for (const f of fns) {
    const cs = f.before ? inverseScore(f.complexity - f.before.complexity, 2, 10) : inverseScore(f.complexity, 10, 20);
    const ls = f.before ? inverseScore(f.lines - f.before.lines, 20, 80) : inverseScore(f.lines, 50, 150);
    const where = `${f.name} (${f.path}:${f.startLine})`;
    if (!c.detail || cs < c.score) c = { score: cs, detail: f.before ? `${where}: complexity ${f.before.complexity} → ${f.complexity} (${signed(f.complexity - f.before.complexity)}); ideal ≤ +2` : `${where}: new, complexity ${f.complexity}; ideal < 10` };
    if (!l.detail || ls < l.score) l = { score: ls, detail: f.before ? `${where}: ${f.before.lines} → ${f.lines} lines (${signed(f.lines - f.before.lines)}); ideal ≤ +20` : `${where}: new, ${f.lines} lines; ideal < 50` };
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

function quality(facts: SolutionFacts, figs: QualityFigures, clones: ReturnType<typeof detectClones>, sourceNote: string | null, comments: CommentFigures | null, commentTarget: number): CriterionResult[] {
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
      ? measured('file_size', inverseScore(figs.maxFileGrowth, 500, 1500), `largest growth of a changed file +${figs.maxFileGrowth} lines (largest file ${figs.maxFileLines} lines); ideal < 500`)
      : notApplicable('file_size', 'no text file changed'),
  );
  const d = facts.feedback.diff;
  const ds = facts.feedback.scores.diff_size;
  out.push(ds !== null && d ? measured('change_size', ds, `+${d.lines_added} -${d.lines_removed} in ${d.files_changed} files (seed 000 diff-size score)`) : unmeasured('change_size', 'the diff could not be measured'));
  if (clones.addedTokens === 0) out.push(notApplicable('duplication', 'no code added'));
  else {
    const pct = clones.duplicatedTokens / clones.addedTokens;
    out.push(measured('duplication', 1 - pct, `${(pct * 100).toFixed(1)}% of ${clones.addedTokens} added tokens are in a clone`));
  }
  out.push(commentCoverage(comments, commentTarget));
  out.push(judgeCriterion('naming', 'naming', facts), judgeCriterion('pattern_adherence', 'pattern_adherence', facts), judgeCriterion('error_handling', 'error_handling', facts));
  return out;
}

function relative(name: string, mine: number | null, best: number | null, unit: string, missing: string): CriterionResult {
  if (mine === null) return unmeasured(name, missing);
  if (best === null || mine <= 0) return measured(name, 1, `${r2(mine)} ${unit} (best in race)`);
  return measured(name, ratioToScore(best, mine), `${r2(mine)} ${unit}; best in race ${r2(best)}`);
}

function efficiency(facts: SolutionFacts, race: RaceFacts): CriterionResult[] {
  const run = facts.feedback.run;
  const out: CriterionResult[] = [
    relative('duration', durationSeconds(run), race.fastestSeconds, 's', 'no duration'),
    relative('tokens', totalTokens(run.usage), race.fewestTokens, 'tokens', 'the run record reports no token usage'),
    relative('cost', run.usage?.cost_usd ?? null, race.cheapestUsd, 'USD', 'the run record reports no cost'),
  ];
  if (!race.benchmarkConfigured) {
    out.push(notApplicable('runtime', 'no benchmark command configured'), notApplicable('memory', 'no benchmark command configured'));
  } else if (!race.baseBenchmark?.ok) {
    out.push(unmeasured('runtime', `benchmark failed on the base: ${race.baseBenchmark?.detail ?? 'not run'}`), unmeasured('memory', 'benchmark failed on the base'));
  } else if (!facts.benchmark) {
    out.push(unmeasured('runtime', 'benchmark not run'), unmeasured('memory', 'benchmark not run'));
  } else if (!facts.benchmark.ok) {
    out.push(measured('runtime', 0, `benchmark failed: ${facts.benchmark.detail}`), unmeasured('memory', 'benchmark failed'));
  } else {
    const b = race.baseBenchmark;
    out.push(measured('runtime', ratioToScore(b.ms, facts.benchmark.ms), `${Math.round(facts.benchmark.ms)} ms; base ${Math.round(b.ms)} ms`));
    out.push(b.maxRssKb && facts.benchmark.maxRssKb ? measured('memory', ratioToScore(b.maxRssKb, facts.benchmark.maxRssKb), `peak ${facts.benchmark.maxRssKb} KB; base ${b.maxRssKb} KB`) : unmeasured('memory', 'peak memory not measured'));
  }
  out.push(judgeCriterion('algorithmic_complexity', 'algorithmic_complexity', facts));
  return out;
}

function completeness(facts: SolutionFacts, api: ApiChange[] | null, stubs: number, st: TargetStanding): CriterionResult[] {
  const out: CriterionResult[] = [judgeCriterion('requirements_met', 'requirement_coverage', facts)];
  const changed = facts.patch.filter((f) => !f.binary);
  const codeAdded = changed.filter((f) => SOURCE_FILE.test(f.path) && !TEST_FILE.test(f.path)).reduce((s, f) => s + f.added.length, 0);
  const testLinesAdded = changed.filter((f) => TEST_FILE.test(f.path)).reduce((s, f) => s + f.added.length, 0);
  const t = testFacts(facts.feedback);
  // Nothing added scores 0, not "not applicable": a change without a test earns no credit for tests.
  if (st.basis === 'per-test') out.push(measured('tests_added', ratioToScore(st.added.length, 1), `${st.added.length} new tests${st.added.length ? ` (${st.added.slice(0, 3).join(', ')}${st.added.length > 3 ? ', …' : ''})` : ''} for ${codeAdded} added code lines`));
  else if (t.total !== null && t.baseTotal !== null) out.push(measured('tests_added', ratioToScore(t.total - t.baseTotal, 1), `${Math.max(0, t.total - t.baseTotal)} new tests for ${codeAdded} added code lines (by counts)`));
  else out.push(measured('tests_added', booleanToScore(testLinesAdded > 0), `${testLinesAdded} test lines added (no test counts)`, 'mechanical', 0.5));
  const userVisible = api !== null ? api.length > 0 : facts.taskType === 'feature' ? true : null;
  const docs = changed.some((f) => DOC_FILE.test(f.path) && !CHANGELOG_FILE.test(f.path));
  const changelog = changed.some((f) => CHANGELOG_FILE.test(f.path));
  if (userVisible === null) {
    out.push(unmeasured('documentation_updated', 'cannot tell whether the change is user-visible'), unmeasured('changelog_updated', 'cannot tell whether the change is user-visible'));
  } else if (!userVisible) {
    out.push(notApplicable('documentation_updated', 'the exported API did not change'), notApplicable('changelog_updated', 'the exported API did not change'));
  } else {
    out.push(measured('documentation_updated', booleanToScore(docs), docs ? 'documentation changed' : 'user-visible change without documentation'));
    out.push(measured('changelog_updated', booleanToScore(changelog), changelog ? 'changelog changed' : 'user-visible change without a changelog entry'));
  }
  out.push(measured('no_stubs', booleanToScore(stubs === 0), stubs ? `${stubs} TODO/not-implemented markers added` : 'no TODO or not-implemented marker added'));
  return out;
}

function safety(facts: SolutionFacts, counts: Record<'dangerous_op' | 'disabled_check' | 'secret', number>, at: Record<'dangerous_op' | 'disabled_check', string[]>): CriterionResult[] {
  const where = (xs: string[]) => (xs.length ? ` (${xs.slice(0, 3).join(', ')}${xs.length > 3 ? ', …' : ''})` : '');
  const out: CriterionResult[] = [
    measured('no_dangerous_ops', booleanToScore(counts.dangerous_op === 0), counts.dangerous_op ? `${counts.dangerous_op} dangerous operations added${where(at.dangerous_op)}` : 'no dangerous operation added'),
    measured('no_disabled_checks', booleanToScore(counts.disabled_check === 0), counts.disabled_check ? `${counts.disabled_check} checks disabled, tests skipped, deleted or weakened${where(at.disabled_check)}` : 'no check disabled, no test skipped, deleted or weakened'),
    measured('no_secrets', booleanToScore(counts.secret === 0), counts.secret ? `${counts.secret} secrets added` : 'no secret found in added lines'),
    judgeCriterion('security', 'security', facts),
  ];
  const files = facts.patch;
  if (!files.length) out.push(notApplicable('revertability', 'nothing changed'));
  else {
    const risky = files.filter((f) => f.deleted || f.binary || MIGRATION_FILE.test(f.path));
    out.push(measured('revertability', 1 - risky.length / files.length, risky.length ? `${risky.length} of ${files.length} files are deletions, binaries or migrations` : `${files.length} text edits, none a deletion, binary or migration`));
  }
  return out;
}

function addedLineSet(f: FilePatch | undefined): Set<number> {
  return new Set(f?.added.map((a) => a.line) ?? []);
}

export function assessSolution(facts: SolutionFacts, race: RaceFacts, opts: EvaluateOptions): SolutionAssessment {
  const fb = facts.feedback;
  const flags: RaceFlag[] = [];
  const metrics: RaceSolution['metrics'] = {};
  const patchByPath = new Map(facts.patch.map((p) => [p.path, p]));

  // API surface: the compiler for TS/JS, lang-api for Python and Go; other languages leave it unmeasured.
  const apiFiles = facts.files.filter((f) => (TS_JS_FILE.test(f.path) || API_FILE.test(f.path)) && !TEST_FILE.test(f.path));
  const otherSource = facts.patch.filter((f) => SOURCE_FILE.test(f.path) && !TS_JS_FILE.test(f.path) && !API_FILE.test(f.path)).map((f) => f.path);
  const anySource = facts.patch.some((f) => SOURCE_FILE.test(f.path));
  let api: ApiChange[] | null = null;
  let apiNote = 'no source file changed';
  if (apiFiles.length) {
    api = apiFiles.flatMap((f) => (TS_JS_FILE.test(f.path) ? compareApi(f.path, f.base, f.head) : (compareLangApi(f.path, f.base, f.head) ?? [])));
  } else if (anySource) apiNote = `API compatibility is checked for TypeScript/JavaScript, Python and Go only (changed: ${otherSource.slice(0, 3).join(', ')})`;
  for (const c of api ?? []) if (c.change !== 'added') flags.push({ kind: 'api_break', detail: c.detail });

  // Functions the solution touched: the compiler for TS/JS, token heuristics for the languages lang-metrics knows.
  const metricsOf = (path: string, text: string | null) => (text === null ? [] : TS_JS_FILE.test(path) ? functionMetrics(path, text) : langMetricsKnown(path) ? (langFunctionMetrics(path, text) ?? []) : []);
  const touched: TouchedFunction[] = facts.files.flatMap((f) => {
    if (f.head === null) return [];
    const fns = metricsOf(f.path, f.head);
    const before = matchFunctions(fns, metricsOf(f.path, f.base));
    const added = addedLineSet(patchByPath.get(f.path));
    // A function is touched when a line was added in it, or lines were removed from it (matched on the base).
    const removedFrom = new Set(before.filter((b, i) => b && (patchByPath.get(f.path)?.removedLines ?? []).some((r) => r.line >= b.startLine && r.line <= b.endLine) && fns[i]).map((b) => b!));
    return fns
      .map((fn, i) => ({ ...fn, path: f.path, before: before[i] ?? null }))
      .filter((fn) => [...added].some((l) => l >= fn.startLine && l <= fn.endLine) || (fn.before !== null && removedFrom.has(fn.before)));
  });
  const figs: QualityFigures = {};
  if (touched.length) {
    figs.functionsMeasured = touched.length;
    figs.maxComplexity = Math.max(...touched.map((f) => f.complexity));
    figs.meanComplexity = touched.reduce((s, f) => s + f.complexity, 0) / touched.length;
    figs.maxFunctionLines = Math.max(...touched.map((f) => f.lines));
    Object.assign(figs, touchedFunctionScores(touched));
    Object.assign(metrics, { max_complexity: figs.maxComplexity, mean_complexity: figs.meanComplexity, max_function_lines: figs.maxFunctionLines, functions_measured: touched.length });
  }
  const heads = facts.files.filter((f) => f.head !== null);
  if (heads.length) {
    const lines = (t: string) => t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
    figs.maxFileLines = Math.max(...heads.map((f) => lines(f.head!)));
    figs.maxFileGrowth = Math.max(0, ...heads.map((f) => lines(f.head!) - (f.base === null ? 0 : lines(f.base))));
    metrics.max_file_lines = figs.maxFileLines;
  }
  const unmeasurable = facts.patch.filter((f) => SOURCE_FILE.test(f.path) && !TS_JS_FILE.test(f.path) && !langMetricsKnown(f.path)).map((f) => f.path);
  const measurable = facts.patch.some((f) => TS_JS_FILE.test(f.path) || langMetricsKnown(f.path));
  const sourceNote = touched.length || !unmeasurable.length || measurable ? null : `complexity and function length are not measured for ${unmeasurable.slice(0, 3).join(', ')} (${METRICS_LANGUAGES})`;
  figs.heuristic = [...new Set(touched.filter((f) => !TS_JS_FILE.test(f.path)).map((f) => f.path.slice(f.path.lastIndexOf('.') + 1)))];

  const clones = detectClones(
    [...heads.map((f) => ({ path: f.path, text: f.head!, addedLines: addedLineSet(patchByPath.get(f.path)) })), ...facts.cloneContext.map((c) => ({ ...c, addedLines: new Set<number>() }))],
    opts.cloneMinTokens,
  );
  metrics.added_tokens = clones.addedTokens;
  metrics.duplicated_tokens = clones.duplicatedTokens;
  for (const c of clones.clones.slice(0, 10)) flags.push({ kind: 'duplication', detail: `${c.tokens}+ tokens duplicated from ${c.otherFile}:${c.otherLine}`, file: c.file, line: c.line });

  // Comment coverage over the added lines of non-test source files (null: none added).
  const sourceHeads = heads.filter((f) => SOURCE_FILE.test(f.path) && !TEST_FILE.test(f.path)).map((f) => ({ path: f.path, text: f.head!, addedLines: addedLineSet(patchByPath.get(f.path)) })).filter((f) => f.addedLines.size > 0);
  const comments = sourceHeads.length ? commentFigures(sourceHeads) : null;
  if (comments && comments.files > 0) {
    metrics.comment_lines = comments.commentLines;
    metrics.code_lines = comments.codeLines;
  }

  // Findings with file:line: pattern scans of added lines, tests deleted/skipped/weakened, special-casing.
  const baseTexts = new Map(facts.files.filter((f) => f.base !== null).map((f) => [f.path, f.base!]));
  const literals = testLiterals([...facts.testTexts, ...facts.files.filter((f) => TEST_FILE.test(f.path)).map((f) => f.head ?? f.base ?? '')]);
  const findings = [
    ...scanAddedLines(facts.patch),
    ...testFindings(facts.patch),
    ...targetTestEdits(facts.patch, baseTexts, race.targets.fail_to_pass),
    ...specialCaseFindings(facts.patch, literals, baseTexts),
  ];
  const counts = { dangerous_op: 0, disabled_check: 0, secret: 0 };
  const at = { dangerous_op: [] as string[], disabled_check: [] as string[] };
  let stubs = 0;
  let specialCases = 0;
  for (const f of findings) {
    flags.push(findingToFlag(f));
    const kind = f.kind === 'test_skipped' || f.kind === 'test_deleted' || f.kind === 'test_weakened' || f.kind === 'test_modified' ? 'disabled_check' : f.kind;
    if (kind === 'stub') stubs++;
    else if (kind === 'special_case') specialCases++;
    else if (kind in counts) counts[kind as keyof typeof counts]++;
    if (kind === 'dangerous_op' || kind === 'disabled_check') at[kind].push(`${f.file}:${f.line}`);
  }
  metrics.formatting_only_files = facts.formattingOnlyFiles.length;
  if (facts.formattingOnlyFiles.length) {
    flags.push({ kind: 'formatting_churn', detail: `${facts.formattingOnlyFiles.length} files changed only in whitespace: ${facts.formattingOnlyFiles.slice(0, 5).join(', ')}${facts.formattingOnlyFiles.length > 5 ? ', …' : ''}` });
  }
  if (facts.benchmark?.ok) {
    metrics.benchmark_ms = facts.benchmark.ms;
    if (facts.benchmark.maxRssKb !== null) metrics.benchmark_max_rss_kb = facts.benchmark.maxRssKb;
  }

  // Check-derived flags.
  const t = testFacts(fb);
  const build = fb.checks.build;
  const buildFailed = build !== null && build !== undefined && build.status !== 'passed' && build.status !== 'skipped' && build.status !== 'error';
  if (buildFailed) flags.push({ kind: 'build_failed', detail: `build ${build.status}${build.exit_code !== null ? ` (exit ${build.exit_code})` : ''}` });
  const tc = fb.checks.test?.tests;
  if (tc && tc.failed + tc.errors > 0) flags.push({ kind: 'tests_failed', detail: `${tc.failed} failed, ${tc.errors} errors` });
  if (fb.checks.typecheck?.status === 'failed') flags.push({ kind: 'typecheck_failed', detail: 'type check failed' });
  const lc = fb.checks.lint?.lint;
  if (lc && lc.errors > 0) flags.push({ kind: 'lint_errors', detail: `${lc.errors} lint errors (base ${fb.baseline?.lint?.errors ?? 'unknown'})` });

  // Target tests and pass-to-pass, then the gate.
  const tcs = testCounts(fb);
  const standing = targetStanding(race.targets, tcs.solution, tcs.base);
  const names = (xs: string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? `, … (${xs.length})` : ''}`;
  if (standing.target_failing.length) flags.push({ kind: 'target_failing', detail: `target tests not passing: ${names(standing.target_failing)}` });
  if (standing.broke.length) flags.push({ kind: 'pass_to_pass_broken', detail: `broke: ${names(standing.broke)}` });
  if (standing.disappeared.length) flags.push({ kind: 'tests_removed', detail: `gone: ${names(standing.disappeared)}` });
  if (standing.newly_skipped.length) flags.push({ kind: 'pass_to_pass_broken', detail: `now skipped: ${names(standing.newly_skipped)}` });
  if (t.passed !== null && t.basePassed !== null && t.passed < t.basePassed && !standing.broke.length) flags.push({ kind: 'test_regression', detail: `${t.passed} tests pass, ${t.basePassed} passed on the base` });
  if (fb.integrity.test_count_below_baseline && !flags.some((f) => f.kind === 'tests_removed')) flags.push({ kind: 'tests_removed', detail: 'fewer tests ran than on the base commit' });
  const noOp = noOpChange({ patch: facts.patch, files: facts.files, formattingOnlyFiles: facts.formattingOnlyFiles, ...(facts.taskType !== undefined ? { taskType: facts.taskType } : {}) });
  if (noOp) flags.push({ kind: 'no_op', detail: noOp.detail });
  const gates = evaluateGate({ build, test: fb.checks.test, standing, noOp, flags, blockingKinds: opts.blockingFindings });

  const results: Record<RaceCategory, CriterionResult[]> = {
    correctness: correctness(facts, api, apiNote, standing, specialCases),
    quality: quality(facts, figs, clones, sourceNote, comments, opts.commentTargetRatio),
    efficiency: efficiency(facts, race),
    completeness: completeness(facts, api, stubs, standing),
    safety: safety(facts, counts, at),
  };
  // Doing nothing scores nothing, in every category; code that does not build earns no quality or safety credit.
  const overrides: Partial<Record<RaceCategory, string>> = {};
  if (noOp) for (const c of ['correctness', 'quality', 'efficiency', 'completeness', 'safety'] as const) overrides[c] = `no credit: ${noOp.detail}`;
  else if (buildFailed) overrides.quality = overrides.safety = 'no credit: the code does not build';
  // Code that moves none of the race's failing tests to passing did not reach them: nothing done for the task.
  const raceTargets = race.targets.fail_to_pass.length ? race.targets.fail_to_pass.length : standing.basis === 'counts' ? (standing.target_total ?? 0) : 0;
  const reached = standing.basis === 'counts' ? (standing.target_passed ?? 0) : race.targets.fail_to_pass.filter((id) => !standing.target_failing.includes(id)).length;
  if (!noOp && raceTargets > 0 && reached === 0 && standing.basis !== 'none') overrides.correctness = `no credit: none of the ${raceTargets} target tests passes (the change does not reach them)`;
  return { evaluation: assembleEvaluation(results, opts.weights, { target_tests: opts.targetWeight }, overrides), flags, gates, metrics, standing };
}
