// Seed 001's ranking: order, ranking confidence, winner (confidence ≥ 0.6), pairwise comparisons,
// strengths and weaknesses; seed 000's "all agents failed" (pure).
import { average } from '../stats/stats.js';
import type { RaceCategory, RaceComparison, RaceEvaluation, RaceRanking } from '../schema/types.generated.js';
import { CATEGORIES } from './categories.js';

export interface Rankable {
  id: string;
  /** The score ranked by, 0-1. */
  score: number;
  /** The evaluation's confidence, 0-1. */
  confidence: number;
  /** Category scores, 0-1; null when a category could not be measured. */
  categories: Record<RaceCategory, number | null>;
  /** Passes the mergeable gate. */
  mergeable: boolean;
  /** The task is done: every target passes, nothing broke, nothing gamed; null when it cannot be told. */
  resolved: boolean | null;
  /** Share of the targets fixed (gamed passes credit none), 0-1; null when there are none or it could not be told. */
  target: number | null;
  /** sha256 of the solution's diff: the last tie-break (then the id, for identical diffs). */
  hash: string;
  /** The gate's failed conditions in words (for the no-mergeable-solution reason). */
  gateFailures?: string;
}

/** The ordering rule, stored with every ranking. */
export const TIE_BREAK =
  'mergeable gate first, then resolved, then share of target tests fixed, then score, then the sha256 of the diff (then the id)';

export const WINNER_MIN_CONFIDENCE = 0.6;
const GAP_FOR_FULL_CONFIDENCE = 0.1;
const TIE_EPSILON = 0.005;

/** Share of the five categories where `first` strictly beats `second` (a category either lacks counts as no win). */
export function categoryConsistency(first: Rankable, second: Rankable): number {
  let wins = 0;
  for (const c of CATEGORIES) {
    const a = first.categories[c];
    const b = second.categories[c];
    if (a !== null && b !== null && a > b) wins++;
  }
  return wins / CATEGORIES.length;
}

export interface RankingConfidence {
  confidence: number;
  factors: RaceRanking['factors'];
}

/** Seed 001's calculateRankingConfidence over solutions sorted best first. */
export function rankingConfidence(sorted: Rankable[]): RankingConfidence {
  const none = { gap: null, gap_confidence: null, mean_evaluation_confidence: null, consistency: null };
  if (sorted.length === 0) return { confidence: 0, factors: none };
  if (sorted.length === 1) return { confidence: 1, factors: none };
  const gap = sorted[0]!.score - sorted[1]!.score;
  // The gate, the verdict or the targets fixed separating #1 from #2 is a decisive gap, whatever their scores.
  const gapConfidence =
    compareVerdicts(sorted[0]!, sorted[1]!) < 0 ? 1 : Math.max(0, Math.min(1, gap / GAP_FOR_FULL_CONFIDENCE));
  const mean = average(sorted.map((x) => x.confidence))!;
  const consistency = categoryConsistency(sorted[0]!, sorted[1]!);
  return {
    confidence: gapConfidence * 0.4 + mean * 0.3 + consistency * 0.3,
    factors: { gap, gap_confidence: gapConfidence, mean_evaluation_confidence: mean, consistency },
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The verdict part of TIE_BREAK: mergeable, then resolved, then the share of targets fixed (unknown last). */
function compareVerdicts(a: Rankable, b: Rankable): number {
  if (a.mergeable !== b.mergeable) return a.mergeable ? -1 : 1;
  if ((a.resolved === true) !== (b.resolved === true)) return a.resolved === true ? -1 : 1;
  return (b.target ?? -1) - (a.target ?? -1);
}

/** TIE_BREAK as a comparator: the order depends on the solutions, never on the order they were given in. */
export function compareRankables(a: Rankable, b: Rankable): number {
  const v = compareVerdicts(a, b);
  if (v !== 0) return v;
  if (a.score !== b.score) return b.score - a.score;
  return cmp(a.hash, b.hash) || cmp(a.id, b.id);
}

/** #1 and #2 cannot be told apart: same gate, verdict and target share, scores within TIE_EPSILON. */
function topTied(sorted: Rankable[]): boolean {
  if (sorted.length < 2) return false;
  const [a, b] = [sorted[0]!, sorted[1]!];
  return compareVerdicts(a, b) === 0 && Math.abs(a.score - b.score) < TIE_EPSILON;
}

/** Fixes at least one target (credited: gamed passes fix nothing). */
const fixesSome = (r: Rankable) => (r.target ?? 0) > 0;

export interface RankResult {
  sorted: Rankable[];
  ranking: RaceRanking;
}

/**
 * Ranks the solutions that could be scored. `allFailed` comes from seed 000's fail_maximum (see allAgentsFailed);
 * when it holds there is no winner, whatever the confidence. `targets`: how many target tests the race has; when it
 * has any, a winner must fix at least one (a safe change that does not do the task never wins).
 */
export function rankSolutions(items: Rankable[], allFailed: boolean, targets = 0): RankResult {
  const sorted = [...items].sort(compareRankables);
  const rc = rankingConfidence(sorted);
  const tied = topTied(sorted);
  // A tie at the top is no ranking: the confidence is held just below the winner threshold.
  const confidence = tied ? Math.min(rc.confidence, WINNER_MIN_CONFIDENCE - 0.01) : rc.confidence;
  let winner: string | null = null;
  let reason: string;
  let outcome: RaceRanking['outcome'];
  if (!sorted.length) [outcome, reason] = ['nothing_evaluated', 'No solution could be evaluated'];
  else if (targets > 0 && !sorted.some(fixesSome)) {
    outcome = 'no_fix';
    reason = `No solution fixes the task: none makes one of the ${targets} target tests pass`;
  } else if (allFailed) [outcome, reason] = ['all_failed', 'All agents failed: no solution reaches the fail threshold'];
  else if (!sorted[0]!.mergeable) {
    outcome = 'no_mergeable_solution';
    reason = `No mergeable solution: ${sorted.map((s) => `${s.id} fails ${s.gateFailures ?? 'the gate'}`).join('; ')}`;
  } else if (targets > 0 && !fixesSome(sorted[0]!)) {
    outcome = 'no_mergeable_solution';
    reason = `No mergeable solution fixes the task: ${sorted
      .filter(fixesSome)
      .map(
        (s) =>
          `${s.id} fixes ${Math.round((s.target ?? 0) * targets)} of ${targets} but fails ${s.gateFailures ?? 'the gate'}`,
      )
      .join('; ')}`;
  } else if (confidence < WINNER_MIN_CONFIDENCE) {
    outcome = 'low_confidence';
    reason = tied
      ? `${sorted[0]!.id} and ${sorted[1]!.id} are tied (same gate, target tests and score within ${TIE_EPSILON}): no clear winner`
      : `Ranking confidence ${confidence.toFixed(2)} below ${WINNER_MIN_CONFIDENCE}: no clear winner`;
  } else {
    outcome = 'winner';
    winner = sorted[0]!.id;
    reason =
      sorted.length === 1
        ? 'Only one solution'
        : `Ranking confidence ${confidence.toFixed(2)} ≥ ${WINNER_MIN_CONFIDENCE}`;
  }
  return {
    sorted,
    ranking: {
      order: sorted.map((s) => s.id),
      winner,
      winner_reason: reason,
      confidence,
      factors: rc.factors,
      all_failed: allFailed,
      outcome,
      tie_break: TIE_BREAK,
      tied,
    },
  };
}

/** Seed 000: "all agents failed" when every composite (0-100) is below fail_maximum; a missing composite counts as failed. */
export function allAgentsFailed(composites: (number | null)[], failMaximum: number): boolean {
  return composites.length > 0 && composites.every((c) => c === null || c * 100 < failMaximum);
}

/** The criteria that differ most between two evaluations of one category, in words. */
function criteriaDifference(
  a: RaceEvaluation | null,
  b: RaceEvaluation | null,
  cat: RaceCategory,
  idA: string,
  idB: string,
): string {
  if (!a || !b) return '';
  const bm = new Map(b.categories[cat].criteria.map((c) => [c.name, c]));
  const diffs = a.categories[cat].criteria
    .filter((c) => bm.has(c.name))
    .map((c) => ({ name: c.name, d: c.score - bm.get(c.name)!.score, a: c, b: bm.get(c.name)! }))
    .filter((x) => Math.abs(x.d) >= TIE_EPSILON)
    .sort((x, y) => Math.abs(y.d) - Math.abs(x.d))
    .slice(0, 2);
  const onlyA = a.categories[cat].criteria.filter((c) => !bm.has(c.name)).map((c) => c.name);
  const parts = diffs.map(
    (x) =>
      `${x.name}: ${idA} ${x.a.score.toFixed(2)} (${x.a.detail}) vs ${idB} ${x.b.score.toFixed(2)} (${x.b.detail})`,
  );
  if (onlyA.length) parts.push(`measured for ${idA} only: ${onlyA.join(', ')}`);
  return parts.join('; ');
}

/** Seed 001's pairwise comparisons: every pair of ranked solutions, per category both have a score for. */
export function pairwiseComparisons(
  sorted: Rankable[],
  evaluations: Map<string, RaceEvaluation | null>,
): RaceComparison[] {
  const out: RaceComparison[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      for (const cat of CATEGORIES) {
        const sa = a.categories[cat];
        const sb = b.categories[cat];
        if (sa === null || sb === null) continue;
        const diff = sa - sb;
        const winner = Math.abs(diff) < TIE_EPSILON ? 'tie' : diff > 0 ? a.id : b.id;
        const why = criteriaDifference(evaluations.get(a.id) ?? null, evaluations.get(b.id) ?? null, cat, a.id, b.id);
        const head =
          winner === 'tie'
            ? `${cat} tied at ${sa.toFixed(2)}`
            : `${winner} is better on ${cat} (${Math.max(sa, sb).toFixed(2)} vs ${Math.min(sa, sb).toFixed(2)})`;
        out.push({
          solution_a: a.id,
          solution_b: b.id,
          category: cat,
          winner,
          score_diff: diff,
          reasoning: why ? `${head}: ${why}` : head,
        });
      }
    }
  }
  return out;
}

const STRONG = 0.85;
const WEAK = 0.6;

/** Strengths and weaknesses in words: strong and weak categories with their deciding criteria, and where it leads or trails the field. */
export function strengthsAndWeaknesses(
  id: string,
  evaluation: RaceEvaluation,
  all: Rankable[],
): { strengths: string[]; weaknesses: string[] } {
  const strengths: string[] = [];
  const weaknesses: string[] = [];
  for (const cat of CATEGORIES) {
    const c = evaluation.categories[cat];
    if (c.overall === null) continue;
    const others = all
      .filter((x) => x.id !== id)
      .map((x) => x.categories[cat])
      .filter((v): v is number => v !== null);
    const best = others.length > 0 && others.every((v) => c.overall! > v + TIE_EPSILON);
    const worst = others.length > 0 && others.every((v) => c.overall! < v - TIE_EPSILON);
    if (c.overall >= STRONG || best) {
      const top = c.criteria
        .filter((x) => x.score >= 0.99)
        .slice(0, 3)
        .map((x) => x.detail);
      strengths.push(
        `${cat} ${c.overall.toFixed(2)}${best ? ' (best of the race)' : ''}${top.length ? `: ${top.join('; ')}` : ''}`,
      );
    }
    if (c.overall < WEAK || worst) {
      const low = [...c.criteria]
        .sort((x, y) => x.score - y.score)
        .filter((x) => x.score < 0.99)
        .slice(0, 3)
        .map((x) => `${x.name} ${x.score.toFixed(2)} (${x.detail})`);
      weaknesses.push(
        `${cat} ${c.overall.toFixed(2)}${worst ? ' (worst of the race)' : ''}${low.length ? `: ${low.join('; ')}` : ''}`,
      );
    }
  }
  return { strengths, weaknesses };
}
