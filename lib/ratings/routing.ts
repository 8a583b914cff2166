// Seed 002 §7: filter by max_complexity (N−1 fallback), then epsilon-greedy: exploit the best rating,
// or explore by redemption (low-rated agent, low-complexity task) or stretch (good agent at max+1, never more).
import { pickOne } from '../stats/prng.js';
import { plural } from '../base/plural.js';

export interface RoutableAgent {
  slug: string;
  enabled: boolean;
  commands: string[];
  rating: number | null;
  reasoning_rating: number | null;
  rating_samples: number;
  reasoning_samples: number;
  max_complexity: number;
  cost_per_million: number | null;
}

export interface RoutingParams {
  epsilon: number;
  redemption_max_complexity: number;
  redemption_max_rating: number;
  stretch_min_rating: number;
}

interface Candidate {
  slug: string;
  rating: number | null;
  rating_samples: number;
  max_complexity: number;
}

export interface RouteDecision {
  agent: string | null;
  mode: 'exploit' | 'explore' | 'none';
  exploration: 'redemption' | 'stretch' | 'random' | null;
  reason: string;
  fallback: boolean;
  warning: string | null;
  draw: number | null;
  candidates: Candidate[];
}

export interface RouteInput {
  agents: readonly RoutableAgent[];
  command: string;
  complexity: number;
  /** Reasoning disciplines rank by reasoning_rating. */
  useReasoning: boolean;
  params: RoutingParams;
  rng: () => number;
}

const fmt = (r: number | null): string => (r === null ? 'unrated' : (Math.round(r * 100) / 100).toString());

/** Best first: rated before unrated, higher rating, more samples, cheaper, then slug (a total order). */
function rankCandidates(cs: readonly Candidate[], cost: (slug: string) => number | null): Candidate[] {
  return [...cs].sort((a, b) => {
    if ((a.rating === null) !== (b.rating === null)) return a.rating === null ? 1 : -1;
    if (a.rating !== null && b.rating !== null && a.rating !== b.rating) return b.rating - a.rating;
    if (a.rating_samples !== b.rating_samples) return b.rating_samples - a.rating_samples;
    const ca = cost(a.slug) ?? Infinity;
    const cb = cost(b.slug) ?? Infinity;
    if (ca !== cb) return ca - cb;
    return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
  });
}

export function routeTask(input: RouteInput): RouteDecision {
  const { complexity: n, params: p, rng } = input;
  const eligible = input.agents.filter(
    (a) => a.enabled && (a.commands.length === 0 || a.commands.includes(input.command)),
  );
  const asCandidate = (a: RoutableAgent): Candidate => ({
    slug: a.slug,
    rating: input.useReasoning ? a.reasoning_rating : a.rating,
    rating_samples: input.useReasoning ? a.reasoning_samples : a.rating_samples,
    max_complexity: a.max_complexity,
  });
  const cost = (slug: string) => input.agents.find((a) => a.slug === slug)?.cost_per_million ?? null;
  const atLevel = eligible.filter((a) => a.max_complexity >= n).map(asCandidate);
  const oneBelow = eligible.filter((a) => a.max_complexity === n - 1).map(asCandidate);
  const fallback = atLevel.length === 0;
  const pool = fallback ? oneBelow : atLevel;
  const warning =
    fallback && pool.length > 0 ? `no agent has max_complexity >= ${n}; falling back to agents at ${n - 1}` : null;
  if (pool.length === 0) {
    return {
      agent: null,
      mode: 'none',
      exploration: null,
      reason: `no enabled agent for ${input.command} has max_complexity >= ${n - 1}`,
      fallback,
      warning,
      draw: null,
      candidates: [],
    };
  }
  const ranked = rankCandidates(pool, cost);
  const best = ranked[0]!;
  const draw = rng();
  const base = { fallback, warning, draw, candidates: ranked };
  if (draw >= p.epsilon) {
    return {
      ...base,
      agent: best.slug,
      mode: 'exploit',
      exploration: null,
      reason: `best ${input.useReasoning ? 'reasoning_rating' : 'rating'} ${fmt(best.rating)} (n=${best.rating_samples}) among ${plural(ranked.length, 'agent')} with max_complexity >= ${fallback ? n - 1 : n}`,
    };
  }
  const redemption =
    n <= p.redemption_max_complexity
      ? ranked.filter((c) => c.slug !== best.slug && (c.rating === null || c.rating < p.redemption_max_rating))
      : [];
  // Stretch is exactly one above an agent's max_complexity; under the fallback every pick already is.
  const stretch = fallback
    ? []
    : rankCandidates(oneBelow, cost).filter((c) => c.rating !== null && c.rating >= p.stretch_min_rating);
  const modes = [
    ...(redemption.length ? (['redemption'] as const) : []),
    ...(stretch.length ? (['stretch'] as const) : []),
  ];
  const mode = pickOne(modes, rng);
  if (mode === 'redemption') {
    const c = pickOne(redemption, rng)!;
    return {
      ...base,
      candidates: [...ranked],
      agent: c.slug,
      mode: 'explore',
      exploration: 'redemption',
      reason: `exploration (draw ${draw.toFixed(4)} < epsilon ${p.epsilon}): redemption of low-rated ${c.slug} (${fmt(c.rating)}, n=${c.rating_samples}) on a complexity-${n} task`,
    };
  }
  if (mode === 'stretch') {
    const c = pickOne(stretch, rng)!;
    return {
      ...base,
      candidates: [...ranked, c],
      agent: c.slug,
      mode: 'explore',
      exploration: 'stretch',
      reason: `exploration (draw ${draw.toFixed(4)} < epsilon ${p.epsilon}): stretch of ${c.slug} (${fmt(c.rating)}, n=${c.rating_samples}) from max_complexity ${c.max_complexity} to ${n}`,
    };
  }
  const others = ranked.filter((c) => c.slug !== best.slug);
  const c = pickOne(others, rng);
  if (!c) {
    return {
      ...base,
      agent: best.slug,
      mode: 'exploit',
      exploration: null,
      reason: `exploration drawn (${draw.toFixed(4)} < epsilon ${p.epsilon}) but ${best.slug} is the only candidate`,
    };
  }
  return {
    ...base,
    agent: c.slug,
    mode: 'explore',
    exploration: 'random',
    reason: `exploration (draw ${draw.toFixed(4)} < epsilon ${p.epsilon}): no redemption or stretch candidate, picked ${c.slug} (${fmt(c.rating)}) at random among the others`,
  };
}
