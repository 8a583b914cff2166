// Seed 002 §7.2: promotion and demotion of max_complexity after each rated run, with a cooldown.

export interface ComplexityParams {
  promote_threshold: number;
  demote_threshold: number;
  promote_min_quality: number;
  cooldown_hours: number;
}

type ComplexityAction = 'promote' | 'demote' | 'none' | 'held_by_cooldown' | 'at_limit';

export interface ComplexityDecision {
  action: ComplexityAction;
  max_complexity_after: number;
  /** One sentence with the evidence. */
  reason: string;
}

const MIN_COMPLEXITY = 1;
const MAX_COMPLEXITY = 10;

export function decideComplexity(args: {
  runScore: number;
  quality: number;
  taskComplexity: number;
  maxComplexity: number;
  complexityUpdatedAt: string | null;
  now: string;
  params: ComplexityParams;
}): ComplexityDecision {
  const { runScore, quality, taskComplexity: c, maxComplexity: m, params: p } = args;
  const promote = runScore >= p.promote_threshold && c >= m && quality >= p.promote_min_quality;
  const demote = runScore <= p.demote_threshold && c <= m;
  const facts = `run_score ${round(runScore)}, quality ${round(quality)}, task complexity ${c}, max_complexity ${m}`;
  if (!promote && !demote) {
    return {
      action: 'none',
      max_complexity_after: m,
      reason: `no change: ${facts} (promote needs score >= ${p.promote_threshold}, complexity >= ${m}, quality >= ${p.promote_min_quality}; demote needs score <= ${p.demote_threshold}, complexity <= ${m})`,
    };
  }
  const target = promote ? m + 1 : m - 1;
  if (target > MAX_COMPLEXITY || target < MIN_COMPLEXITY) {
    return {
      action: 'at_limit',
      max_complexity_after: m,
      reason: `${promote ? 'promotion' : 'demotion'} earned but max_complexity is already ${m}: ${facts}`,
    };
  }
  if (args.complexityUpdatedAt !== null) {
    const since = Date.parse(args.now) - Date.parse(args.complexityUpdatedAt);
    const cooldownMs = p.cooldown_hours * 3_600_000;
    if (since < cooldownMs) {
      const until = new Date(Date.parse(args.complexityUpdatedAt) + cooldownMs).toISOString();
      return {
        action: 'held_by_cooldown',
        max_complexity_after: m,
        reason: `${promote ? 'promotion' : 'demotion'} earned but held by the ${p.cooldown_hours} h cooldown until ${until}: ${facts}`,
      };
    }
  }
  return {
    action: promote ? 'promote' : 'demote',
    max_complexity_after: target,
    reason: `${promote ? 'promoted' : 'demoted'} ${m} → ${target}: ${facts}`,
  };
}

const round = (x: number): string => String(Math.round(x * 100) / 100);
