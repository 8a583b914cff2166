// One solution's measurements → seed 001's criteria, the five categories, flags, gates and raw metrics (pure).
// The facts it reads are in facts.ts, the per-category criteria in criteria.ts.
import { average } from '../stats/stats.js';
import type { RaceCategory, RaceEvaluation, RaceFlag, RaceGates, RaceSolution } from '../schema/types.generated.js';
import { assembleEvaluation, type CriterionResult } from './categories.js';
import { detectClones } from '../change/clones.js';
import { commentFigures } from '../change/comments.js';
import { findingToFlag, scanAddedLines } from '../change/scan.js';
import { API_FILE, compareLangApi } from '../change/lang-api.js';
import { langFunctionMetrics, langMetricsKnown } from '../change/lang-metrics.js';
import { compareApi, functionMetrics, TS_JS_FILE, type ApiChange } from '../change/ts-metrics.js';
import { evaluateGate } from './gate.js';
import { describeEvidence, feedbackEvidence } from '../evidence/trust.js';
import { noOpChange, type NoOp } from '../change/substance.js';
import { noOpVerdict, ownTestsCrash } from '../collector/regressions.js';
import { gradedPaths, type IsTest, targetTestEdits, testFindings, trivialTests } from '../change/test-findings.js';
import { specialCaseFindings, testLiterals } from '../change/special-case.js';
import { tamperFindings } from '../change/tamper.js';
import { testInfraFindings } from '../change/test-infra.js';
import type { PathMatcher } from '../git/test-paths.js';
import { isPass, targetStanding, testCounts, withHidden, type TargetStanding } from './targets.js';
import { SOURCE_FILE } from '../change/files.js';
import type { EvaluateOptions, RaceFacts, SolutionFacts } from './facts.js';
import { addedLineSet, completeness, efficiency, safety, testFacts } from './criteria.js';
import { correctness } from './criteria-correctness.js';
import {
  matchFunctions,
  METRICS_LANGUAGES,
  quality,
  touchedFunctionScores,
  type QualityFigures,
  type TouchedFunction,
} from './criteria-quality.js';

export interface SolutionAssessment {
  evaluation: RaceEvaluation;
  flags: RaceFlag[];
  gates: RaceGates;
  metrics: RaceSolution['metrics'];
  standing: TargetStanding;
  /** What kind of nothing the change is (the collector's no-op rule), or null when it does something. */
  noOp: NoOp | null;
}

/** Everything one solution's assessment collects on the way, shared by its phases. */
interface Acc {
  facts: SolutionFacts;
  flags: RaceFlag[];
  metrics: RaceSolution['metrics'];
  patchByPath: Map<string, SolutionFacts['patch'][number]>;
}

export function assessSolution(facts: SolutionFacts, race: RaceFacts, opts: EvaluateOptions): SolutionAssessment {
  const fb = facts.feedback;
  const acc: Acc = { facts, flags: [], metrics: {}, patchByPath: new Map(facts.patch.map((p) => [p.path, p])) };
  const { flags, metrics } = acc;
  // Test files as the graded run has them (collector.test_paths), so a file the graded run uses as the candidate's
  // code is scanned as code whatever its name.
  const { isTest, isInfra, isTrusted } = gradedPaths(opts.testPaths, opts.testInfraPaths);
  const { api, apiNote } = apiSurface(acc, isTest);
  const { figs, heads, sourceNote } = codeFigures(acc);
  const clones = cloneFigures(acc, heads, opts);
  const comments = commentCoverage(acc, heads, isTest);
  const { counts, at, stubs, specialCases, gaming } = tallyFindings(acc, race, isInfra, isTest, isTrusted);
  miscFigures(acc);
  const { t, build, buildFailed } = checkFlags(acc);
  const { standing, noOp } = targetFlags(acc, race, t, isTrusted, gaming);
  const evidence = feedbackEvidence(fb);
  const gates = evaluateGate({
    build,
    test: fb.checks.test,
    standing,
    noOp,
    flags,
    blockingKinds: opts.blockingFindings,
    evidence,
  });

  const results: Record<RaceCategory, CriterionResult[]> = {
    correctness: correctness(facts, api, apiNote, standing, specialCases),
    quality: quality(facts, figs, clones, sourceNote, comments, opts.commentTargetRatio),
    efficiency: efficiency(facts, race),
    completeness: completeness(facts, api, stubs, standing, isTest),
    safety: safety(facts, counts, at),
  };
  // Doing nothing scores nothing, in every category; code that does not build earns no quality or safety credit.
  const overrides: Partial<Record<RaceCategory, string>> = {};
  if (noOp)
    for (const c of ['correctness', 'quality', 'efficiency', 'completeness', 'safety'] as const)
      overrides[c] = `no credit: ${noOp.detail}`;
  else if (buildFailed) overrides.quality = overrides.safety = 'no credit: the code does not build';
  // A change that fixes none of the task's targets did not do the task: no correctness credit. By counts nothing is
  // said of a particular test: only how many targets the counts show fixed.
  const total = standing.target_total ?? 0;
  if (!noOp && total > 0 && standing.target_passed === 0 && standing.basis !== 'none')
    overrides.correctness = `no credit: ${standing.line}`;
  // A special-case or tamper finding: the passes are gamed, so no correctness and no safety, and the score is halved.
  const gamed = gaming.length
    ? `passes gamed: ${gaming.slice(0, 3).join(', ')}${gaming.length > 3 ? ', …' : ''}`
    : undefined;
  if (!noOp && gamed) overrides.correctness = overrides.safety = `no credit: ${gamed}`;
  // What untrusted evidence says passed is not credit (as the collector scores its tests 0).
  if (!noOp && evidence.trusted === false) overrides.correctness = `no credit: ${describeEvidence(evidence)}`;
  return {
    evaluation: assembleEvaluation(results, opts.weights, { target_tests: opts.targetWeight }, overrides, gamed),
    flags,
    gates,
    metrics,
    standing,
    noOp,
  };
}

/** API surface: the compiler for TS/JS, lang-api for Python and Go; other languages leave it unmeasured. */
function apiSurface(acc: Acc, isTest: IsTest): { api: ApiChange[] | null; apiNote: string } {
  const { facts, flags } = acc;
  const apiFiles = facts.files.filter((f) => (TS_JS_FILE.test(f.path) || API_FILE.test(f.path)) && !isTest(f.path));
  const otherSource = facts.patch
    .filter((f) => SOURCE_FILE.test(f.path) && !TS_JS_FILE.test(f.path) && !API_FILE.test(f.path))
    .map((f) => f.path);
  const anySource = facts.patch.some((f) => SOURCE_FILE.test(f.path));
  let api: ApiChange[] | null = null;
  let apiNote = 'no source file changed';
  if (apiFiles.length) {
    api = apiFiles.flatMap((f) =>
      TS_JS_FILE.test(f.path) ? compareApi(f.path, f.base, f.head) : (compareLangApi(f.path, f.base, f.head) ?? []),
    );
  } else if (anySource)
    apiNote = `API compatibility is checked for TypeScript/JavaScript, Python and Go only (changed: ${otherSource.slice(0, 3).join(', ')})`;
  for (const c of api ?? []) if (c.change !== 'added') flags.push({ kind: 'api_break', detail: c.detail });

  return { api, apiNote };
}

/** Functions the solution touched (complexity, length) and file sizes. */
function codeFigures(acc: Acc): { figs: QualityFigures; heads: SolutionFacts['files']; sourceNote: string | null } {
  const { facts, metrics, patchByPath } = acc;
  // Functions the solution touched: the compiler for TS/JS, token heuristics for the languages lang-metrics knows.
  const metricsOf = (path: string, text: string | null) =>
    text === null
      ? []
      : TS_JS_FILE.test(path)
        ? functionMetrics(path, text)
        : langMetricsKnown(path)
          ? (langFunctionMetrics(path, text) ?? [])
          : [];
  const touched: TouchedFunction[] = facts.files.flatMap((f) => {
    if (f.head === null) return [];
    const fns = metricsOf(f.path, f.head);
    const before = matchFunctions(fns, metricsOf(f.path, f.base));
    const added = addedLineSet(patchByPath.get(f.path));
    // A function is touched when a line was added in it, or lines were removed from it (matched on the base).
    const removedFrom = new Set(
      before
        .filter(
          (b, i) =>
            b &&
            (patchByPath.get(f.path)?.removedLines ?? []).some((r) => r.line >= b.startLine && r.line <= b.endLine) &&
            fns[i],
        )
        .map((b) => b!),
    );
    return fns
      .map((fn, i) => ({ ...fn, path: f.path, before: before[i] ?? null }))
      .filter(
        (fn) =>
          [...added].some((l) => l >= fn.startLine && l <= fn.endLine) ||
          (fn.before !== null && removedFrom.has(fn.before)),
      );
  });
  const figs: QualityFigures = {};
  if (touched.length) {
    figs.functionsMeasured = touched.length;
    figs.maxComplexity = Math.max(...touched.map((f) => f.complexity));
    figs.meanComplexity = average(touched.map((f) => f.complexity))!;
    figs.maxFunctionLines = Math.max(...touched.map((f) => f.lines));
    Object.assign(figs, touchedFunctionScores(touched));
    Object.assign(metrics, {
      max_complexity: figs.maxComplexity,
      mean_complexity: figs.meanComplexity,
      max_function_lines: figs.maxFunctionLines,
      functions_measured: touched.length,
    });
  }
  const heads = facts.files.filter((f) => f.head !== null);
  if (heads.length) {
    const lines = (t: string) => t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
    figs.maxFileLines = Math.max(...heads.map((f) => lines(f.head!)));
    figs.maxFileGrowth = Math.max(0, ...heads.map((f) => lines(f.head!) - (f.base === null ? 0 : lines(f.base))));
    metrics.max_file_lines = figs.maxFileLines;
  }
  const unmeasurable = facts.patch
    .filter((f) => SOURCE_FILE.test(f.path) && !TS_JS_FILE.test(f.path) && !langMetricsKnown(f.path))
    .map((f) => f.path);
  const measurable = facts.patch.some((f) => TS_JS_FILE.test(f.path) || langMetricsKnown(f.path));
  const sourceNote =
    touched.length || !unmeasurable.length || measurable
      ? null
      : `complexity and function length are not measured for ${unmeasurable.slice(0, 3).join(', ')} (${METRICS_LANGUAGES})`;
  figs.heuristic = [
    ...new Set(touched.filter((f) => !TS_JS_FILE.test(f.path)).map((f) => f.path.slice(f.path.lastIndexOf('.') + 1))),
  ];

  return { figs, heads, sourceNote };
}

function cloneFigures(acc: Acc, heads: SolutionFacts['files'], opts: EvaluateOptions): ReturnType<typeof detectClones> {
  const { facts, flags, metrics, patchByPath } = acc;
  const clones = detectClones(
    [
      ...heads.map((f) => ({ path: f.path, text: f.head!, addedLines: addedLineSet(patchByPath.get(f.path)) })),
      ...facts.cloneContext.map((c) => ({ ...c, addedLines: new Set<number>() })),
    ],
    opts.cloneMinTokens,
  );
  metrics.added_tokens = clones.addedTokens;
  metrics.duplicated_tokens = clones.duplicatedTokens;
  for (const c of clones.clones.slice(0, 10))
    flags.push({
      kind: 'duplication',
      detail: `${c.tokens}+ tokens duplicated from ${c.otherFile}:${c.otherLine}`,
      file: c.file,
      line: c.line,
    });

  return clones;
}

/** Comment coverage over the added lines of non-test source files (null: none added). */
function commentCoverage(
  acc: Acc,
  heads: SolutionFacts['files'],
  isTest: IsTest,
): ReturnType<typeof commentFigures> | null {
  const { metrics, patchByPath } = acc;
  const sourceHeads = heads
    .filter((f) => SOURCE_FILE.test(f.path) && !isTest(f.path))
    .map((f) => ({ path: f.path, text: f.head!, addedLines: addedLineSet(patchByPath.get(f.path)) }))
    .filter((f) => f.addedLines.size > 0);
  const comments = sourceHeads.length ? commentFigures(sourceHeads) : null;
  if (comments && comments.files > 0) {
    metrics.comment_lines = comments.commentLines;
    metrics.code_lines = comments.codeLines;
  }

  return comments;
}

/** Findings with file:line: pattern scans of added lines, tests deleted/skipped/weakened, special-casing. */
function tallyFindings(acc: Acc, race: RaceFacts, isInfra: PathMatcher, isTest: PathMatcher, isTrusted: PathMatcher) {
  const { facts, flags } = acc;
  const baseTexts = new Map(facts.files.filter((f) => f.base !== null).map((f) => [f.path, f.base!]));
  // The graded tests' literals: the trusted revision's test files (facts.testTexts), not the solution's own edits.
  const literals = testLiterals(facts.testTexts);
  // Special-casing and tampering game the graded passes: they count against the targets, not only as findings.
  const games = [
    ...specialCaseFindings(facts.patch, facts.files, literals, isTest),
    ...tamperFindings(facts.patch, facts.files, isTrusted),
  ];
  const gaming = games.map((f) => `${f.kind} at ${f.file}:${f.line}`);
  const findings = [
    ...scanAddedLines(facts.patch),
    ...testFindings(facts.patch, isTest),
    ...trivialTests(facts.patch, facts.files, isTest),
    ...testInfraFindings(facts.patch, facts.files, isInfra),
    ...targetTestEdits(facts.patch, baseTexts, race.targets.fail_to_pass, isTest),
    ...games,
  ];
  const counts = { dangerous_op: 0, disabled_check: 0, secret: 0 };
  const at = { dangerous_op: [] as string[], disabled_check: [] as string[] };
  let stubs = 0;
  let specialCases = 0;
  for (const f of findings) {
    flags.push(findingToFlag(f));
    const kind =
      f.kind === 'test_skipped' ||
      f.kind === 'test_deleted' ||
      f.kind === 'test_weakened' ||
      f.kind === 'test_modified' ||
      f.kind === 'test_trivial' ||
      f.kind === 'test_infra_changed'
        ? 'disabled_check'
        : f.kind;
    if (kind === 'stub') stubs++;
    else if (kind === 'special_case') specialCases++;
    else if (kind in counts) counts[kind as keyof typeof counts]++;
    if (kind === 'dangerous_op' || kind === 'disabled_check') at[kind].push(`${f.file}:${f.line}`);
  }
  return { counts, at, stubs, specialCases, gaming };
}

function miscFigures(acc: Acc): void {
  const { facts, flags, metrics } = acc;
  metrics.formatting_only_files = facts.formattingOnlyFiles.length;
  if (facts.formattingOnlyFiles.length) {
    flags.push({
      kind: 'formatting_churn',
      detail: `${facts.formattingOnlyFiles.length} files changed only in whitespace: ${facts.formattingOnlyFiles.slice(0, 5).join(', ')}${facts.formattingOnlyFiles.length > 5 ? ', …' : ''}`,
    });
  }
  if (facts.benchmark?.ok) {
    metrics.benchmark_ms = facts.benchmark.ms;
    if (facts.benchmark.maxRssKb !== null) metrics.benchmark_max_rss_kb = facts.benchmark.maxRssKb;
  }
}

/** Check-derived flags. */
function checkFlags(acc: Acc) {
  const { facts, flags } = acc;
  const fb = facts.feedback;
  const t = testFacts(fb);
  const build = fb.checks.build;
  const buildFailed =
    build !== null &&
    build !== undefined &&
    build.status !== 'passed' &&
    build.status !== 'skipped' &&
    build.status !== 'error';
  if (buildFailed)
    flags.push({
      kind: 'build_failed',
      detail: `build ${build.status}${build.exit_code !== null ? ` (exit ${build.exit_code})` : ''}`,
    });
  const tc = fb.checks.test?.tests;
  if (tc && tc.failed + tc.errors > 0)
    flags.push({ kind: 'tests_failed', detail: `${tc.failed} failed, ${tc.errors} errors` });
  if (fb.checks.typecheck?.status === 'failed') flags.push({ kind: 'typecheck_failed', detail: 'type check failed' });
  const lc = fb.checks.lint?.lint;
  if (lc && lc.errors > 0)
    flags.push({
      kind: 'lint_errors',
      detail: `${lc.errors} lint errors (base ${fb.baseline?.lint?.errors ?? 'unknown'})`,
    });

  return { t, build, buildFailed };
}

/** Target tests and pass-to-pass, and the no-op check. */
function targetFlags(
  acc: Acc,
  race: RaceFacts,
  t: ReturnType<typeof testFacts>,
  trusted: PathMatcher,
  gaming: readonly string[],
) {
  const { facts, flags } = acc;
  const fb = facts.feedback;
  const tcs = testCounts(fb);
  const changed = fb.changed_expectations ?? [];
  const standing = targetStanding(
    race.targets,
    tcs.solution,
    tcs.base,
    changed.map((c) => c.test),
    gaming,
  );
  withHidden(standing, fb.hidden);
  // The tests it added are evidence of testing, read from its own tests' run (they are not in the graded one).
  const own = fb.own_tests?.check?.tests?.cases;
  if (own && tcs.base?.cases) {
    const onBase = new Set(tcs.base.cases.map((c) => c.id));
    standing.added = own
      .filter((c) => !onBase.has(c.id) && isPass(c.status))
      .map((c) => c.id)
      .sort();
  }
  // A test of its own that fails or crashes its runner: merging it leaves the suite red (the collector's one rule);
  // not when the code does not build (its tests fail for that, and build_failed already blocks).
  const ownRed = flags.some((f) => f.kind === 'build_failed') ? null : ownTestsCrash(fb.own_tests);
  const ownFile = fb.own_tests?.files?.[0];
  if (ownRed) flags.push({ kind: 'own_test_failing', detail: ownRed, ...(ownFile ? { file: ownFile } : {}) });
  for (const c of changed)
    flags.push({
      kind: 'changed_expectation',
      detail: `${c.test}: ${c.detail}`,
      file: c.file,
      ...(c.line ? { line: c.line } : {}),
    });
  // The sealed candidate's record of infrastructure changes, for files the diff's own findings did not name.
  const named = new Set(flags.filter((f) => f.kind === 'test_infra_changed').map((f) => f.file));
  for (const c of fb.candidate?.infra_changed ?? [])
    if (!named.has(c.file))
      flags.push({ kind: 'test_infra_changed', detail: c.detail, file: c.file, ...(c.line ? { line: c.line } : {}) });
  const names = (xs: string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? `, … (${xs.length})` : ''}`;
  if (standing.target_failing.length)
    flags.push({ kind: 'target_failing', detail: `target tests not passing: ${names(standing.target_failing)}` });
  if (standing.broke.length) flags.push({ kind: 'pass_to_pass_broken', detail: `broke: ${names(standing.broke)}` });
  // The hidden tests by counts only: a flag's words may reach the judge.
  const h = fb.hidden;
  if (h && h.fixed.length < h.targets)
    flags.push({
      kind: 'target_failing',
      detail: `${h.line}: ${h.targets - h.fixed.length} hidden target(s) not passing`,
    });
  if (h?.broke.length)
    flags.push({
      kind: 'pass_to_pass_broken',
      detail: `${h.line}: ${h.broke.length} hidden test(s) that passed on the base broke`,
    });
  if (standing.disappeared.length)
    flags.push({ kind: 'tests_removed', detail: `gone: ${names(standing.disappeared)}` });
  if (standing.newly_skipped.length)
    flags.push({ kind: 'pass_to_pass_broken', detail: `now skipped: ${names(standing.newly_skipped)}` });
  if (t.passed !== null && t.basePassed !== null && t.passed < t.basePassed && !standing.broke.length)
    flags.push({ kind: 'test_regression', detail: `${t.passed} tests pass, ${t.basePassed} passed on the base` });
  if (fb.integrity.test_count_below_baseline && !flags.some((f) => f.kind === 'tests_removed'))
    flags.push({ kind: 'tests_removed', detail: 'fewer tests ran than on the base commit' });
  // The collector's no-op rule: nothing executable changed, and the graded tests behave as on the base.
  const noOp = noOpVerdict(facts.patch.length === 0, fb.baseline?.tests, fb.checks.test?.tests, () =>
    noOpChange({
      patch: facts.patch,
      files: facts.files,
      formattingOnlyFiles: facts.formattingOnlyFiles,
      ...(facts.taskType !== undefined ? { taskType: facts.taskType } : {}),
      isTest: trusted,
    }),
  );
  if (noOp) flags.push({ kind: 'no_op', detail: noOp.detail });
  return { standing, noOp };
}
