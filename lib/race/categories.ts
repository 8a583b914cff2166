// Seed 001's five categories: criteria → category overall → weighted overall and the evaluation's confidence.
import { normaliseWeights, weightedMean } from '../stats/weights.js';
import type {
  RaceAbsentCriterion,
  RaceCategory,
  RaceCategoryScore,
  RaceCategoryWeights,
  RaceCriterion,
  RaceEvaluation,
} from '../schema/types.generated.js';

export const CATEGORIES: readonly RaceCategory[] = ['correctness', 'quality', 'efficiency', 'completeness', 'safety'];

export const DEFAULT_CATEGORY_WEIGHTS: RaceCategoryWeights = {
  correctness: 0.4,
  quality: 0.25,
  efficiency: 0.15,
  completeness: 0.1,
  safety: 0.1,
};

/** A criterion's outcome: a score, or absent with why. */
export type CriterionResult = RaceCriterion | (RaceAbsentCriterion & { absent: true });

export function measured(
  name: string,
  score: number,
  detail: string,
  source: RaceCriterion['source'] = 'mechanical',
  confidence = 1,
): RaceCriterion {
  if (!Number.isFinite(score) || score < 0 || score > 1)
    throw new Error(`criterion ${name}: score ${score} is outside 0-1`);
  return { name, score, source, confidence, detail };
}

export function unmeasured(name: string, detail: string): RaceAbsentCriterion & { absent: true } {
  return { name, reason: 'unmeasured', detail, absent: true };
}

export function notApplicable(name: string, detail: string): RaceAbsentCriterion & { absent: true } {
  return { name, reason: 'not_applicable', detail, absent: true };
}

function isAbsent(c: CriterionResult): c is RaceAbsentCriterion & { absent: true } {
  return 'absent' in c;
}

/**
 * A category from its criteria: overall is the weighted mean of the scored ones (weight 1 unless `criterionWeights`
 * names it: seed 001 gives none; target_tests weighs more, race.target_weight); coverage is the confidence-weighted share of the applicable criteria that were scored.
 */
export function assembleCategory(
  results: CriterionResult[],
  criterionWeights: Readonly<Record<string, number>> = {},
  override?: string,
): RaceCategoryScore {
  const criteria = results.filter((c): c is RaceCriterion => !isAbsent(c));
  const absent = results.filter(isAbsent).map(({ name, reason, detail }) => ({ name, reason, detail }));
  const applicable = criteria.length + absent.filter((a) => a.reason === 'unmeasured').length;
  const w = (c: RaceCriterion) => criterionWeights[c.name] ?? 1;
  let overall = weightedMean(criteria.map((c) => [c.score, w(c)] as const));
  const coverage = applicable ? criteria.reduce((s, c) => s + c.confidence, 0) / applicable : 0;
  if (override !== undefined) overall = 0;
  return override !== undefined
    ? { overall, coverage, criteria, absent, override }
    : { overall, coverage, criteria, absent };
}

/** Weights of the categories that have a score, re-normalised to sum to 1 (empty when none has). */
export function presentWeights(
  categories: Record<RaceCategory, { overall: number | null }>,
  weights: RaceCategoryWeights,
): Partial<RaceCategoryWeights> {
  return normaliseWeights(
    weights,
    CATEGORIES.filter((c) => categories[c].overall !== null && weights[c] > 0),
  );
}

/** Seed 001's calculateOverallScore, with the weights re-normalised over the categories that could be scored. */
export function overallScore(
  categories: Record<RaceCategory, { overall: number | null }>,
  weights: RaceCategoryWeights,
): number | null {
  const w = presentWeights(categories, weights);
  const cats = Object.keys(w) as RaceCategory[];
  if (!cats.length) return null;
  return cats.reduce((s, c) => s + categories[c].overall! * w[c]!, 0);
}

/**
 * The evaluation's confidence: the configured category weights times each category's coverage. A category with
 * nothing applicable (every criterion not applicable) is left out and the rest re-normalised.
 */
function evaluationConfidence(
  categories: Record<RaceCategory, RaceCategoryScore>,
  weights: RaceCategoryWeights,
): number {
  const applicable = (cat: RaceCategoryScore) =>
    cat.criteria.length + cat.absent.filter((a) => a.reason === 'unmeasured').length;
  return (
    weightedMean(
      CATEGORIES.filter((c) => applicable(categories[c]) > 0).map((c) => [categories[c].coverage, weights[c]] as const),
    ) ?? 0
  );
}

/** A gamed solution keeps this share of its overall (after correctness and safety are 0): half at most. */
const GAMED_FACTOR = 0.5;

/**
 * The overall of a solution flagged for gaming (special-casing, tampering): its correctness and safety are already 0,
 * and what is left is halved — a hack never scores near the fix whose passes it imitates.
 */
export function gamedOverall(overall: number | null): number | null {
  return overall === null ? null : overall * GAMED_FACTOR;
}

/**
 * The five categories and the overall score. `overrides` set a category's overall to 0 with the reason (a change
 * that does nothing, code that does not build): its criteria stay listed, but earn nothing, and the category is not
 * dropped from the weights. `gamed` (why) halves the overall.
 */
export function assembleEvaluation(
  results: Record<RaceCategory, CriterionResult[]>,
  weights: RaceCategoryWeights,
  criterionWeights: Readonly<Record<string, number>> = {},
  overrides: Partial<Record<RaceCategory, string>> = {},
  gamed?: string,
): RaceEvaluation {
  const categories = Object.fromEntries(
    CATEGORIES.map((c) => [c, assembleCategory(results[c], criterionWeights, overrides[c])]),
  ) as Record<RaceCategory, RaceCategoryScore>;
  const overall = overallScore(categories, weights);
  return {
    categories,
    overall: gamed ? gamedOverall(overall) : overall,
    confidence: evaluationConfidence(categories, weights),
    ...(gamed ? { gamed: `${gamed}: correctness and safety 0, overall halved` } : {}),
  };
}
