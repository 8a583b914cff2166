// Repeated judging (issue 37, item 4): the samples' spread, the uncertain verdict, the actor-is-judge check. Pure.
import type { JudgeReply, Judgment } from '../schema/types.generated.js';
import { judgeComposite, judgeVerdict, type Dimensions } from './verdict.js';

export type Spread = NonNullable<Judgment['spread']>;
type Range = Spread['score'];

const DIMS = ['correctness', 'scope_adherence', 'code_quality', 'completeness'] as const;
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The q-quantile of the values by linear interpolation between order statistics (type 7, as R and numpy). */
export function quantile(values: readonly number[], q: number): number {
  const xs = [...values].sort((a, b) => a - b);
  if (!xs.length) return Number.NaN;
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  return xs[lo]! + (h - lo) * ((xs[Math.min(lo + 1, xs.length - 1)] ?? xs[lo]!) - xs[lo]!);
}

function range(values: number[]): Range {
  return {
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
    iqr: round(quantile(values, 0.75) - quantile(values, 0.25)),
  };
}

/** The sample variance (n - 1) of the values; 0 for one value. */
function variance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
}

/** Each dimension's and the computed composite's min, max and IQR over the samples, and the composites' mean. */
export function sampleSpread(replies: readonly JudgeReply[]): Spread {
  const composites = replies.map((r) => judgeComposite(r.dimensions));
  return {
    score: range(composites),
    score_mean: round(composites.reduce((a, b) => a + b, 0) / composites.length),
    score_variance: round(variance(composites)),
    dimensions: Object.fromEntries(
      DIMS.map((k) => [k, range(replies.map((r) => r.dimensions[k]))]),
    ) as unknown as Spread['dimensions'],
  };
}

/**
 * A criterion judged several times, as the race uses it: the samples' mean score, and their median confidence cut
 * by the samples' range (scores 0.4 apart keep 60% of it): a judge that varies is trusted less.
 */
export function criterionOverSamples(samples: readonly { score: number; confidence: number }[]): {
  score: number;
  confidence: number;
} {
  const scores = samples.map((s) => s.score);
  const conf = quantile(
    samples.map((s) => s.confidence),
    0.5,
  );
  const spread = Math.max(...scores) - Math.min(...scores);
  return {
    score: round(scores.reduce((a, b) => a + b, 0) / scores.length),
    confidence: round(conf * Math.max(0, 1 - spread)),
  };
}

const clamp = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * Uncertain: the verdict of the dimensions with every one moved down by `margin` differs from the one with every
 * one moved up (the rule is monotone in each dimension, so no other shift flips it), or the samples disagree.
 */
export function verdictUncertain(dims: Dimensions, sampleDims: readonly Dimensions[], margin: number): boolean {
  const shift = (m: number): Dimensions =>
    Object.fromEntries(DIMS.map((k) => [k, clamp(dims[k] + m)])) as unknown as Dimensions;
  if (judgeVerdict(shift(-margin)) !== judgeVerdict(shift(margin))) return true;
  return new Set(sampleDims.map((d) => judgeVerdict(d))).size > 1;
}

/**
 * A model's family: `claude-<tier>` for Claude ids in any provider's spelling (claude-opus-5-5, claude-3-opus-…,
 * anthropic.claude-opus-4-6-v1:0, the bare alias opus); else the leading name before the version (gpt-5 → gpt).
 */
export function modelFamily(model: string): string | null {
  const m = model.toLowerCase().trim();
  const tier = /(?:^|[^a-z])(?:claude[-_.]?(?:[\d.-]+[-_.])?)?(opus|sonnet|haiku)(?![a-z])/.exec(m);
  if (tier) return `claude-${tier[1]}`;
  const name = /^(?:[a-z0-9-]+[/.])?([a-z]+)/.exec(m);
  return name ? name[1]! : null;
}

/** The run's agent is of the judge's family: the judge would grade its own kind. Unknown agent model: false. */
export function isSelfJudged(agentModel: string | undefined, judgeModel: string): boolean {
  if (!agentModel) return false;
  const a = modelFamily(agentModel);
  return a !== null && a === modelFamily(judgeModel);
}
