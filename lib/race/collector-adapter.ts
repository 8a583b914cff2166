// The race's calls of the collector's check runner, baseline cache and seed 000 formulas (0-100).
import { getBaseline } from '../collector/baseline.js';
import { resolveCommands } from '../collector/checks.js';
import { withCheckout } from '../collector/checkout.js';
import { collectRun } from '../collector/collect.js';
import { verdictComposite } from '../collector/regressions.js';
import {
  compositeScore,
  DIMENSIONS,
  normaliseWeights,
  scoreSpeed,
  type Scores,
  type Weights,
} from '../collector/scoring.js';
import type { Feedback, RaceBreakdown } from '../schema/types.generated.js';

export { collectRun, getBaseline, resolveCommands, withCheckout };

/**
 * Seed 000 breakdown and composite for a race: the collector's build/tests/lint/diff-size scores, speed re-scored
 * against the race's fastest run (the collector's own speed may have seen only the runs collected before it), and
 * the collector's verdict: a no-op scores 0, a run that broke a base test or gamed the tests is capped, one that
 * fixes none of its targets is capped lower (regressions.ts), as bin/collect caps it.
 */
export function raceComposite(
  fb: Feedback,
  durationSeconds: number,
  fastestSeconds: number,
  weights: Weights,
  verdict: { broke: number; noOp: boolean; gamed?: boolean; fixesNothing?: boolean } = { broke: 0, noOp: false },
): { breakdown: RaceBreakdown; composite: number | null; weightsUsed: Partial<Weights> } {
  const scores: Scores = { build: null, tests: null, lint: null, diff_size: null, speed: null };
  for (const d of DIMENSIONS) if (d !== 'speed') scores[d] = fb.scores[d] === null ? null : fb.scores[d]! * 100;
  scores.speed = scoreSpeed(durationSeconds, fastestSeconds);
  const composite = verdictComposite(
    compositeScore(scores, weights),
    verdict.broke,
    verdict.noOp,
    verdict.gamed ?? false,
    verdict.fixesNothing ?? false,
  );
  const breakdown = Object.fromEntries(
    DIMENSIONS.map((d) => [d, scores[d] === null ? null : scores[d]! / 100]),
  ) as unknown as RaceBreakdown;
  return {
    breakdown,
    composite: composite === null ? null : composite / 100,
    weightsUsed: normaliseWeights(weights, scores),
  };
}

/** Seed 000's composite on its own scale (0-100), for the worked example. */
export function seed000Composite(scores: Scores, weights: Weights): number | null {
  return compositeScore(scores, weights);
}
