// Seed 003's composite and verdict rule, computed from the dimensions (never trusted from the model). Pure.
import { median as statsMedian } from '../stats/stats.js';
import type { JudgeReply } from '../schema/types.generated.js';

export type Dimensions = JudgeReply['dimensions'];
export type Verdict = JudgeReply['verdict'];

/** Seed 003's default weights: correctness 0.4, scope 0.2, quality 0.2, completeness 0.2. */
const JUDGE_WEIGHTS: Dimensions = {
  correctness: 0.4,
  scope_adherence: 0.2,
  code_quality: 0.2,
  completeness: 0.2,
};

const round = (x: number): number => Math.round(x * 1e6) / 1e6;

export function judgeComposite(d: Dimensions): number {
  const w = JUDGE_WEIGHTS;
  return round(
    d.correctness * w.correctness +
      d.scope_adherence * w.scope_adherence +
      d.code_quality * w.code_quality +
      d.completeness * w.completeness,
  );
}

/** Below this composite (or this correctness) the work is unusable: fail. */
const FAIL_BELOW = 0.5;
const FAIL_CORRECTNESS_BELOW = 0.4;
/** Seed 003: "A pass verdict requires all dimensions >= 0.7". */
const PASS_MIN = 0.7;

/** pass: every dimension >= 0.7; fail: correctness < 0.4 or composite < 0.5; partial: everything between. */
export function judgeVerdict(d: Dimensions): Verdict {
  const all = [d.correctness, d.scope_adherence, d.code_quality, d.completeness];
  if (all.every((x) => x >= PASS_MIN)) return 'pass';
  if (d.correctness < FAIL_CORRECTNESS_BELOW || judgeComposite(d) < FAIL_BELOW) return 'fail';
  return 'partial';
}

/** The samples' median; the mean of the two middle ones rounded like the composite. */
const median = (xs: number[]): number => (xs.length % 2 ? statsMedian(xs)! : round(statsMedian(xs) ?? Number.NaN));

const CONFIDENCE_ORDER = ['low', 'medium', 'high'] as const;

/** Several samples of one run → one reply: median of each dimension and criterion, the lowest confidence, issues merged. */
export function aggregateReplies(replies: JudgeReply[]): JudgeReply {
  if (replies.length === 1) return replies[0]!;
  const dims = Object.fromEntries(
    (Object.keys(JUDGE_WEIGHTS) as (keyof Dimensions)[]).map((k) => [k, median(replies.map((r) => r.dimensions[k]))]),
  ) as unknown as Dimensions;
  const target = judgeComposite(dims);
  const closest = [...replies].sort(
    (a, b) => Math.abs(judgeComposite(a.dimensions) - target) - Math.abs(judgeComposite(b.dimensions) - target),
  )[0]!;
  const seen = new Set<string>();
  const issues = replies
    .flatMap((r) => r.issues)
    .filter((i) => {
      const key = i.description.trim().toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'major' ? -1 : 1));
  const confidence = CONFIDENCE_ORDER[Math.min(...replies.map((r) => CONFIDENCE_ORDER.indexOf(r.confidence)))]!;
  const out: JudgeReply = {
    verdict: closest.verdict,
    score: median(replies.map((r) => r.score)),
    dimensions: dims,
    issues,
    summary: closest.summary,
    confidence,
  };
  const names = new Set(replies.flatMap((r) => Object.keys(r.criteria ?? {}))) as Set<
    keyof NonNullable<JudgeReply['criteria']>
  >;
  if (names.size) {
    out.criteria = {};
    for (const n of names) {
      const cs = replies.map((r) => r.criteria?.[n]).filter((c): c is NonNullable<typeof c> => c !== undefined);
      out.criteria[n] = {
        score: median(cs.map((c) => c.score)),
        confidence: median(cs.map((c) => c.confidence)),
        reasoning: cs[0]!.reasoning,
      };
    }
  }
  return out;
}
