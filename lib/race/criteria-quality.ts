// Seed 001's quality criteria: complexity and length of the touched functions, file size, duplication, comment
// coverage, the judge's quality (pure).
import { measured, notApplicable, unmeasured, type CriterionResult } from './categories.js';
import type { detectClones } from '../change/clones.js';
import { commentScore, MIN_CODE_LINES, type CommentFigures } from '../change/comments.js';
import { inverseScore } from './rubric.js';
import type { FunctionMetric } from '../change/ts-metrics.js';
import type { SolutionFacts } from './facts.js';

import { judgeCriterion, r2 } from './criteria.js';

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
