import { describe, expect, it } from 'vitest';
import { createRng, hashSeed } from '../../lib/stats/prng.js';
import { routeTask, type RoutableAgent, type RoutingParams } from '../../lib/ratings/routing.js';
import { config } from './helpers.js';

const P: RoutingParams = config().ratings!.routing;
const agent = (
  slug: string,
  rating: number | null,
  max: number,
  extra: Partial<RoutableAgent> = {},
): RoutableAgent => ({
  slug,
  enabled: true,
  commands: [],
  rating,
  reasoning_rating: null,
  rating_samples: rating === null ? 0 : 20,
  reasoning_samples: 0,
  max_complexity: max,
  cost_per_million: 3,
  ...extra,
});
const fleet = [
  agent('strong', 8.5, 6),
  agent('medium', 6, 8),
  agent('weak', 3, 5),
  agent('new', null, 5),
  agent('stretchy', 7.5, 5),
  agent('small', 9, 3),
];
const route = (
  complexity: number,
  seed: string,
  agents = fleet,
  extra: Partial<Parameters<typeof routeTask>[0]> = {},
) =>
  routeTask({
    agents,
    command: 'work-on-tasks',
    complexity,
    useReasoning: false,
    params: P,
    rng: createRng(seed),
    ...extra,
  });

function shares(complexity: number, draws: number, agents = fleet) {
  const count: Record<string, number> = {};
  const out = { explore: 0, redemption: 0, stretch: 0, random: 0, exploit: 0, by: count, maxOverLimit: -Infinity };
  for (let i = 0; i < draws; i++) {
    const d = route(complexity, `s${i}`, agents);
    if (d.mode === 'none') continue;
    if (d.mode === 'explore') out.explore++;
    else out.exploit++;
    if (d.exploration) out[d.exploration]++;
    count[d.agent!] = (count[d.agent!] ?? 0) + 1;
    const chosen = agents.find((a) => a.slug === d.agent)!;
    out.maxOverLimit = Math.max(out.maxOverLimit, complexity - chosen.max_complexity);
  }
  return out;
}

describe('seed 002 §7 routing', () => {
  it('uses epsilon 0.10', () => expect(P.epsilon).toBe(0.1));

  it('the PRNG is reproducible and roughly uniform', () => {
    const a = createRng('42');
    const b = createRng('42');
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    expect(hashSeed('a')).not.toBe(hashSeed('b'));
  });

  it('exploits the best-rated agent that can take the task', () => {
    const d = route(6, 'x');
    const exploits = Array.from({ length: 200 }, (_, i) => route(6, `e${i}`)).filter((r) => r.mode === 'exploit');
    expect(new Set(exploits.map((r) => r.agent))).toEqual(new Set(['strong']));
    expect(d.candidates.map((c) => c.slug)).toEqual(['strong', 'medium']);
  });

  it('explores near 10% of 10,000 seeded draws; at complexity 6 only by stretch, never beyond max+1', () => {
    const s = shares(6, 10_000);
    expect(s.explore / 10_000).toBeGreaterThan(0.09);
    expect(s.explore / 10_000).toBeLessThan(0.11);
    expect(s.redemption).toBe(0); // 6 is not a low-complexity task
    expect(s.stretch).toBe(s.explore);
    expect(s.by.stretchy).toBe(s.stretch); // the only agent rated >= 7 at max_complexity 5
    expect(s.maxOverLimit).toBe(1);
  });

  it('on a low-complexity task explores by redemption (low-rated or unrated) and by stretch', () => {
    const s = shares(4, 10_000);
    expect(s.explore / 10_000).toBeGreaterThan(0.09);
    expect(s.explore / 10_000).toBeLessThan(0.11);
    // redemption needs complexity <= 3
    expect(s.redemption).toBe(0);
    expect(s.stretch).toBe(s.explore);
    expect(s.by.small).toBe(s.stretch); // rated 9 at max_complexity 3
    const t = shares(3, 10_000);
    expect(t.redemption).toBeGreaterThan(0);
    expect(t.stretch).toBe(0); // nobody sits at max_complexity 2
    expect((t.by.weak ?? 0) + (t.by.new ?? 0)).toBe(t.redemption);
    expect(t.maxOverLimit).toBeLessThanOrEqual(0);
  });

  it('never routes more than one level above max_complexity, over every complexity', () => {
    for (let c = 1; c <= 10; c++) expect(shares(c, 1_000).maxOverLimit).toBeLessThanOrEqual(1);
  });

  it('falls back to agents at N−1 with a warning when none has max_complexity >= N', () => {
    const d = route(9, 'fb');
    expect(d.fallback).toBe(true);
    expect(d.warning).toMatch(/no agent has max_complexity >= 9; falling back to agents at 8/);
    expect(d.agent).toBe('medium');
    const none = route(10, 'fb');
    expect(none).toMatchObject({ agent: null, mode: 'none', draw: null });
  });

  it('the same seed gives the same decision', () => {
    expect(route(3, 'seed-1')).toEqual(route(3, 'seed-1'));
  });

  it('skips disabled agents and agents not serving the command; ranks reasoning disciplines by reasoning_rating', () => {
    const agents = [
      agent('a', 9, 5, { enabled: false }),
      agent('b', 8, 5, { commands: ['docs'] }),
      agent('c', 5, 5, { reasoning_rating: 9.5, reasoning_samples: 3 }),
      agent('d', 7, 5, { reasoning_rating: 4, reasoning_samples: 9 }),
    ];
    const picks = new Set(
      Array.from({ length: 100 }, (_, i) => route(5, `r${i}`, agents))
        .filter((r) => r.mode === 'exploit')
        .map((r) => r.agent),
    );
    expect(picks).toEqual(new Set(['d']));
    const reasoning = route(5, 'r0', agents, { useReasoning: true, rng: () => 0.5 });
    expect(reasoning.agent).toBe('c');
  });

  it('with one candidate an exploration draw still exploits and says so', () => {
    const d = route(5, 'one', [agent('solo', 6, 5)], { rng: () => 0.01 });
    expect(d).toMatchObject({ agent: 'solo', mode: 'exploit' });
    expect(d.reason).toMatch(/only candidate/);
  });
});
