import { readFileSync, writeFileSync, appendFileSync, readdirSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../lib/config/config.js';
import { WorkError, UserError } from '../../lib/base/errors.js';
import { replay } from '../../lib/ratings/profile.js';
import { loadAgent, readLog } from '../../lib/ratings/agent-log.js';
import { registerAgent, updateAgent } from '../../lib/ratings/agents-io.js';
import { rateBead, type QualityInput } from '../../lib/ratings/rate-run.js';
import type { StateStore } from '../../lib/store/store.js';
import type { AgentProfile, Config, RatingSummary } from '../../lib/schema/types.generated.js';
import { config, feedback, tempStore, type RunFacts } from './helpers.js';

const cfg = config();
const rc = cfg.ratings!;
const reviewer = (q: number): QualityInput => ({
  score0to10: q,
  source: 'reviewer',
  raw: { quality_score: q },
  reviewer: 'rev',
});
const hours = (h: number) => new Date(Date.parse('2026-02-01T00:00:00.000Z') + h * 3_600_000).toISOString();

async function rate(
  store: StateStore,
  bead: string,
  q: number | null,
  facts: RunFacts = {},
  at = hours(0),
  c: Config = cfg,
  strict = false,
) {
  if (!store.read('feedback', bead)) store.write('feedback', bead, feedback(bead, facts));
  return rateBead({ store, config: c, bead, quality: q === null ? null : reviewer(q), strict, now: at });
}

const profileOf = (s: StateStore, slug = 'agent-a') => s.read<AgentProfile>('agents', slug)!;
const ratingFields = (p: AgentProfile) => ({
  rating: p.rating,
  reasoning_rating: p.reasoning_rating,
  rating_samples: p.rating_samples,
  reasoning_samples: p.reasoning_samples,
  rating_last_score: p.rating_last_score,
  rating_updated_at: p.rating_updated_at,
  max_complexity: p.max_complexity,
  complexity_samples: p.complexity_samples,
  complexity_updated_at: p.complexity_updated_at,
  last_bead: p.last_bead,
});

describe('rateBead', () => {
  it('appends a row, updates the profile and writes rating.json, each schema-valid', async () => {
    const s = tempStore();
    await registerAgent(s, cfg, 'agent-a', { cost_per_million: 3 }, hours(0));
    const r = await rate(s, 'bd-1', 9, { tokens: 200_000, durationSeconds: 600, iterations: 0 }, hours(1));
    expect(r.status).toBe('rated');
    const { rows, bad } = readLog(s, 'agent-a');
    expect(bad).toEqual([]);
    expect(rows).toHaveLength(1);
    const row = rows[0]!.row;
    if (row.event !== 'run') throw new Error('expected a run row');
    expect(row).toMatchObject({
      bead: 'bd-1',
      total_cost: 0.6,
      cost_source: 'tokens_x_price',
      duration_seconds: 600,
      quality_score: 9,
      tokens_total: 200_000,
    });
    expect(row.run_score).toBeCloseTo(10 * (0.9 - 0.15 * 0.3 - 0.1 * (600 / 1800)), 12);
    const p = profileOf(s);
    expect(p).toMatchObject({
      rating: row.run_score,
      rating_samples: 1,
      max_complexity: 6,
      complexity_updated_at: hours(1),
      cost_per_million: 3,
    });
    expect(s.read<RatingSummary>('rating-jobs', 'bd-1')).toMatchObject({
      bead: 'bd-1',
      agent: 'agent-a',
      row: 1,
      rating_samples: 1,
      complexity_action: 'promote',
    });
  });

  it('rating the same bead twice changes nothing, whatever quality is given', async () => {
    const s = tempStore();
    await rate(s, 'bd-1', 8, {}, hours(0));
    const before = [
      readFileSync(s.path('ratings', 'agent-a'), 'utf8'),
      readFileSync(s.path('agents', 'agent-a'), 'utf8'),
      readFileSync(s.path('rating-jobs', 'bd-1'), 'utf8'),
    ];
    const again = await rate(s, 'bd-1', 2, {}, hours(5));
    expect(again.status).toBe('already_rated');
    expect(again.reason).toMatch(/quality 2 ignored/);
    expect([
      readFileSync(s.path('ratings', 'agent-a'), 'utf8'),
      readFileSync(s.path('agents', 'agent-a'), 'utf8'),
      readFileSync(s.path('rating-jobs', 'bd-1'), 'utf8'),
    ]).toEqual(before);
  });

  it('never rates an infra failure, and writes nothing', async () => {
    const s = tempStore();
    expect((await rate(s, 'bd-i', 9, { outcome: 'infra_failure', status: 'infra_failure' })).status).toBe('skipped');
    expect((await rate(s, 'bd-j', 9, { outcome: 'infra_failure' }, hours(0), cfg, true)).reason).toMatch(/never rated/);
    expect(existsSync(s.dir('ratings'))).toBe(false);
    expect(existsSync(s.dir('agents'))).toBe(false);
  });

  it('does not make up a quality: no review → not rated; --rating-strict → an error', async () => {
    const s = tempStore();
    const r = await rate(s, 'bd-1', null);
    expect(r).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/unreviewed run is not rated/) });
    await expect(rate(s, 'bd-1', null, {}, hours(0), cfg, true)).rejects.toThrow(WorkError);
    await expect(rate(s, 'bd-2', null, { complexity: null }, hours(0), cfg, true)).rejects.toThrow(
      /no task complexity/,
    );
    expect(existsSync(s.dir('ratings'))).toBe(false);
  });

  it('rejects a missing feedback record and a quality outside 0-10 as bad input', async () => {
    const s = tempStore();
    await expect(
      rateBead({ store: s, config: cfg, bead: 'nope', quality: reviewer(5), now: hours(0) }),
    ).rejects.toThrow(/no feedback record for bead nope/);
    await expect(rate(s, 'bd-1', 11)).rejects.toThrow(UserError);
  });

  it('falls back to the recorded cost when the agent has no price, and spreads a missing penalty', async () => {
    const s = tempStore();
    const r = await rate(s, 'bd-1', 10, { costUsd: 1, durationSeconds: 0 }, hours(0));
    expect(r.problems.join()).toMatch(/was not registered/);
    const row = readLog(s, 'agent-a').rows[0]!.row;
    if (row.event !== 'run') throw new Error('run row expected');
    expect(row).toMatchObject({
      total_cost: 1,
      cost_source: 'recorded',
      iterations: null,
      norms: { cost: 0.5, time: 0, iterations: null },
    });
    expect(row.weights_used.cost).toBeCloseTo(0.15 * (0.45 / 0.25), 12);
  });

  it('updates reasoning_rating only for architecture and planning runs', async () => {
    const s = tempStore();
    await rate(s, 'bd-1', 8, { discipline: 'backend' }, hours(0));
    expect(profileOf(s)).toMatchObject({ reasoning_rating: null, reasoning_samples: 0 });
    await rate(s, 'bd-2', 6, { discipline: 'architecture' }, hours(1));
    const p = profileOf(s);
    expect(p.reasoning_samples).toBe(1);
    expect(p.reasoning_rating).toBe(p.rating_last_score);
  });

  it('promotes, holds by cooldown, promotes after 24 h and demotes; each change logged with its evidence', async () => {
    const s = tempStore();
    await registerAgent(s, cfg, 'agent-a', { max_complexity: 5 }, hours(0));
    const q = { durationSeconds: 0, iterations: 0, costUsd: 0 };
    await rate(s, 'b1', 9, { ...q, complexity: 5 }, hours(1)); // promote 5 → 6
    await rate(s, 'b2', 9, { ...q, complexity: 6 }, hours(10)); // held (9 h later)
    await rate(s, 'b3', 9, { ...q, complexity: 6 }, hours(25)); // 24 h after b1: promote 6 → 7
    await rate(s, 'b4', 1, { ...q, complexity: 3 }, hours(60)); // demote 7 → 6
    const actions = readLog(s, 'agent-a').rows.map(({ row }) =>
      row.event === 'run'
        ? [row.complexity_decision.action, row.before.max_complexity, row.after.max_complexity]
        : null,
    );
    expect(actions).toEqual([
      ['promote', 5, 6],
      ['held_by_cooldown', 6, 6],
      ['promote', 6, 7],
      ['demote', 7, 6],
    ]);
    const b4 = readLog(s, 'agent-a').rows[3]!.row;
    expect(b4.event === 'run' && b4.complexity_decision.reason).toMatch(
      /^demoted 7 → 6: run_score 1, quality 1, task complexity 3, max_complexity 7$/,
    );
    expect(profileOf(s)).toMatchObject({ max_complexity: 6, complexity_updated_at: hours(60), complexity_samples: 3 });
  });

  it('switches budgets to empirical medians once enough runs of the command and bucket exist', async () => {
    const s = tempStore();
    const c = deepMerge(cfg, { ratings: { budgets: { empirical: { min_runs: 3 } } } });
    for (let i = 0; i < 4; i++)
      await rate(
        s,
        `b${i}`,
        8,
        { durationSeconds: 100 * (i + 1), complexity: 4, agent: i % 2 ? 'agent-b' : 'agent-a' },
        hours(i),
        c,
      );
    const all = [...readLog(s, 'agent-a').rows, ...readLog(s, 'agent-b').rows]
      .map((r) => r.row)
      .filter((r) => r.event === 'run');
    const last = all.find((r) => r.event === 'run' && r.bead === 'b3');
    expect(last?.event === 'run' && last.budget).toMatchObject({
      duration_seconds: 2 * 200,
      source: { duration_seconds: 'empirical', cost_usd: 'config' },
      samples: { duration_seconds: 3 },
    });
  });

  it('manual max_complexity changes are adjust rows: logged, replayed, and start a cooldown', async () => {
    const s = tempStore();
    await rate(s, 'b1', 5, {}, hours(0));
    const { profile } = await updateAgent(
      s,
      cfg,
      'agent-a',
      { max_complexity: 8, cost_per_million: 2, reason: 'benchmarked by hand' },
      hours(1),
    );
    expect(profile).toMatchObject({ max_complexity: 8, complexity_updated_at: hours(1), cost_per_million: 2 });
    const rows = readLog(s, 'agent-a').rows;
    expect(rows[1]!.row).toMatchObject({ event: 'adjust', set: { max_complexity: 8 }, reason: 'benchmarked by hand' });
    const { state, mismatches } = replay(profile.initial, rows);
    expect(mismatches).toEqual([]);
    expect(state.max_complexity).toBe(8);
  });
});

describe('damaged state', () => {
  async function threeRuns() {
    const s = tempStore();
    await registerAgent(s, cfg, 'agent-a', { cost_per_million: 4, rating: 5 }, hours(0));
    for (let i = 0; i < 3; i++)
      await rate(s, `b${i}`, 6 + i, { tokens: 100_000 * (i + 1), iterations: i }, hours(30 * i + 1));
    return s;
  }

  it('a corrupt profile is reported, rebuilt from the log (price salvaged from the rows), and kept aside', async () => {
    const s = await threeRuns();
    const good = ratingFields(profileOf(s));
    writeFileSync(s.path('agents', 'agent-a'), '{"slug": "agent-a", "rating": 7.1, garbage');
    const loaded = loadAgent(s, 'agent-a', rc, hours(100));
    expect(loaded.problems[0]).toMatch(/^state\/agents\/agent-a\.json is corrupt \(not valid JSON/);
    expect(loaded.state).toMatchObject({ rating: good.rating, rating_samples: 3, max_complexity: good.max_complexity });
    const r = await rate(s, 'b3', 7, { tokens: 100_000 }, hours(200));
    expect(r.problems.join('\n')).toMatch(/corrupt profile was kept as state\/agents\/agent-a\.json\.corrupt-/);
    const p = profileOf(s);
    expect(p).toMatchObject({ rating_samples: 4, cost_per_million: 4, initial: { rating: 5 } });
    expect(readdirSync(s.dir('agents')).filter((f) => f.includes('.corrupt-'))).toHaveLength(1);
    expect(replay(p.initial, readLog(s, 'agent-a').rows).mismatches).toEqual([]);
  });

  it('a half-written last line is reported and skipped; the next row does not merge into it; nothing valid is lost', async () => {
    const s = await threeRuns();
    const text = readFileSync(s.path('ratings', 'agent-a'), 'utf8');
    const lastLine = text.trimEnd().split('\n').pop()!;
    appendFileSync(s.path('ratings', 'agent-a'), lastLine.slice(0, 57)); // a killed appender: no newline
    const loaded = loadAgent(s, 'agent-a', rc, hours(100));
    expect(loaded.problems).toEqual([
      expect.stringMatching(
        /^state\/ratings\/agent-a\.jsonl line 4: unreadable row skipped \(not valid JSON.*the other rows are used$/,
      ),
    ]);
    expect(loaded.state.rating_samples).toBe(3);
    const r = await rate(s, 'b3', 9, {}, hours(200));
    expect(r.summary?.row).toBe(5);
    const log = readLog(s, 'agent-a');
    expect(log.rows.map((x) => x.line)).toEqual([1, 2, 3, 5]);
    expect(log.bad.map((x) => x.line)).toEqual([4]);
    expect(readFileSync(s.path('ratings', 'agent-a'), 'utf8').startsWith(text)).toBe(true);
    expect(profileOf(s).rating_samples).toBe(4);
  });

  it('a process that died after appending is finished by the next one: stale profile replayed, missing rating.json written', async () => {
    const s = await threeRuns();
    const old = readFileSync(s.path('agents', 'agent-a'), 'utf8');
    await rate(s, 'b3', 9, {}, hours(200));
    const full = ratingFields(profileOf(s));
    writeFileSync(s.path('agents', 'agent-a'), old); // as if the profile write never happened
    const { rmSync } = await import('node:fs');
    rmSync(s.path('rating-jobs', 'b3'));
    expect(loadAgent(s, 'agent-a', rc, hours(201)).problems).toEqual([
      expect.stringMatching(/rests on 3 rated runs but the log has 4; the replay is used/),
    ]);
    const again = await rate(s, 'b3', 9, {}, hours(202));
    expect(again.status).toBe('already_rated');
    expect(s.read<RatingSummary>('rating-jobs', 'b3')).toMatchObject({ row: 4, rating_samples: 4 });
    await rate(s, 'b4', 9, {}, hours(203));
    expect(ratingFields(profileOf(s)).rating_samples).toBe(5);
    expect(full.rating_samples).toBe(4);
  });
});
