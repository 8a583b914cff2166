// The template score formulas (seed 003, "Integration"): mechanical composite, blend. Pure.
import { normaliseWeights as normaliseOver } from '../stats/weights.js';
import type { Config, Outcome } from '../schema/types.generated.js';

/** A named coefficient set as configured. */
export type MechanicalSet = Config['templates']['mechanical'];
/** The coefficients the formulas take. */
export type MechanicalParams = Pick<MechanicalSet, 'partial_credit' | 'retry_penalty' | 'timeout_penalty'>;
export type BlendWeights = Config['templates']['weights'];

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * The learning-loop's composite, which seed 003 builds on ("Current: composite from pass rates + retry + timeout
 * penalties"): score = full_pass_rate x 1.0 + partial_pass_rate x 0.4 - retry_rate x 0.2 - timeout_rate x 0.3,
 * clamped to 0-1, infra failures excluded. The default; any other set needs another name and a reason.
 */
export const LEARNING_LOOP: Readonly<MechanicalParams & { name: string }> = {
  name: 'learning-loop',
  partial_credit: 0.4,
  retry_penalty: 0.2,
  timeout_penalty: 0.3,
};

/** Why a coefficient set cannot be used (null when it can): the learning-loop name is kept for its own numbers. */
export function mechanicalSetProblem(p: MechanicalSet): string | null {
  const same =
    p.partial_credit === LEARNING_LOOP.partial_credit &&
    p.retry_penalty === LEARNING_LOOP.retry_penalty &&
    p.timeout_penalty === LEARNING_LOOP.timeout_penalty;
  if (p.name === LEARNING_LOOP.name && !same) {
    return `coefficients ${p.partial_credit}/${p.retry_penalty}/${p.timeout_penalty} are not the learning-loop's (0.4/0.2/0.3): give this set its own name and reason`;
  }
  if (p.name !== LEARNING_LOOP.name && same)
    return `coefficients 0.4/0.2/0.3 are the learning-loop's: name them learning-loop`;
  if (p.reason.trim() === '') return 'reason: say why this set is used';
  return null;
}

/** Outcome counts of a template with infra failures already left out of `scored`. */
export interface MechanicalInputs {
  full_pass: number;
  partial_pass: number;
  timeout: number;
  /** Runs that are not infra failures: the denominator of the pass and timeout rates. */
  scored: number;
  /** Scored runs that needed at least one retry. */
  retried: number;
  /** Scored runs that report their retries: the retry rate's denominator. */
  retry_known: number;
}

/**
 * Seed 003's "composite from pass rates + retry + timeout penalties":
 *   full_rate + partial_credit x partial_rate - retry_penalty x retry_rate - timeout_penalty x timeout_rate, clamped to 0-1.
 * null when no run counts (all infra failures, or none). A retry rate nobody reported is missing: its term drops.
 */
export function mechanicalComposite(c: MechanicalInputs, p: MechanicalParams): number | null {
  if (c.scored <= 0) return null;
  const pass = (c.full_pass + p.partial_credit * c.partial_pass) / c.scored;
  const retryRate = c.retry_known > 0 ? c.retried / c.retry_known : 0;
  return clamp01(pass - p.retry_penalty * retryRate - p.timeout_penalty * (c.timeout / c.scored));
}

/** What of a run's verdict the template scores read (a feedback index row). */
interface RunVerdict {
  outcome: Outcome;
  /** feedback.resolution.resolved; undefined or null: not known (old record, or it cannot be told). */
  resolved?: boolean | null | undefined;
  /** feedback.resolution.fixed: target tests passing now; null or undefined without a resolution. */
  targets_fixed?: number | null | undefined;
}

/**
 * The outcome a template counts (issue 34, "only resolved runs count as passes"): a full or partial pass whose
 * resolution says the task is not resolved is partial_pass when it fixed a target, else agent_failure; every other
 * outcome, and a run whose verdict is unknown (no resolution: counted by its outcome), stays as it is.
 */
export function countedOutcome(r: RunVerdict): { outcome: Outcome; by: 'resolution' | 'outcome'; lowered: boolean } {
  const known = r.resolved === true || r.resolved === false;
  if (!known || (r.outcome !== 'full_pass' && r.outcome !== 'partial_pass'))
    return { outcome: r.outcome, by: known ? 'resolution' : 'outcome', lowered: false };
  if (r.resolved) return { outcome: r.outcome, by: 'resolution', lowered: false };
  const outcome: Outcome = (r.targets_fixed ?? 0) > 0 ? 'partial_pass' : 'agent_failure';
  return { outcome, by: 'resolution', lowered: outcome !== r.outcome };
}

/**
 * One run's share of the same formula (credit minus its own penalties; may be below 0), so that the mean of
 * these over a template equals mechanicalComposite before clamping when every run reports its retries.
 * null for an infra failure, which never counts.
 */
export function runMechanicalValue(outcome: Outcome, retries: number | null, p: MechanicalParams): number | null {
  // Nothing measured is not a pass: an unmeasured run counts like an infra failure, never scored.
  if (outcome === 'infra_failure' || outcome === 'unmeasured') return null;
  const credit = outcome === 'full_pass' ? 1 : outcome === 'partial_pass' ? p.partial_credit : 0;
  const retried = retries !== null && retries > 0 ? 1 : 0;
  return credit - p.retry_penalty * retried - (outcome === 'timeout' ? p.timeout_penalty : 0);
}

/** The weights re-normalised to sum to 1. */
export function normaliseWeights(w: BlendWeights): { mechanical: number; judge: number } {
  const n = normaliseOver(w, ['mechanical', 'judge']);
  if (n.mechanical === undefined || n.judge === undefined)
    throw new Error('templates.weights: mechanical + judge must be above 0');
  return { mechanical: n.mechanical, judge: n.judge };
}

/**
 * The variance of one run's judge value the templates' interval uses (issue 37): the judged runs' sample variance
 * plus the mean, over those runs, of each run's samples' variance over its sample count (the variance of its mean);
 * 0 added for a run judged once. Conservative: the runs' spread already holds part of that noise.
 */
export function judgeVarianceWithSamples(runVariance: number, withinOverNSum: number, judgedRuns: number): number {
  return judgedRuns > 0 ? runVariance + withinOverNSum / judgedRuns : runVariance;
}

/** Seed 003's phase-3 blend, 0.6 x mechanical + 0.4 x judge by default; null when either side is missing. */
export function blendScore(mechanical: number | null, judge: number | null, w: BlendWeights): number | null {
  if (mechanical === null || judge === null) return null;
  const n = normaliseWeights(w);
  return clamp01(n.mechanical * mechanical + n.judge * judge);
}
