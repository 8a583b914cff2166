// N real processes rate N runs of one agent at once: nothing lost, nothing doubled, and the profile
// equals a sequential replay of the rows in the order they were recorded.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replay } from '../../lib/ratings/profile.js';
import { readLog } from '../../lib/ratings/agent-log.js';
import { registerAgent } from '../../lib/ratings/agents-io.js';
import { rateBead } from '../../lib/ratings/rate-run.js';
import type { AgentProfile, AgentRunRow } from '../../lib/schema/types.generated.js';
import { config, feedback, ROOT, tempStore } from './helpers.js';

// 16: with the agent lock removed, 5 of 5 runs failed (in 3, 1 to 3 rows lost in the read-then-append; in 2, a
// list below not empty); 32 (7 of 7) cost twice the CPU.
const N = 16;
const cfg = config();

function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'bin', 'rate'), args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const facts = (i: number) => ({
  tokens: 50_000 + 7_919 * i,
  durationSeconds: 60 + ((i * 37) % 1500),
  iterations: i % 4,
  complexity: 3 + (i % 5),
});
const quality = (i: number) => (i * 3) % 11;

describe('concurrent rating', () => {
  it(`${N} processes rating one agent: ${N} samples, profile = sequential replay of the recorded rows`, async () => {
    expect(existsSync(join(ROOT, 'dist', 'scripts', 'rate.js')), 'run `npm run build` first').toBe(true);
    const s = tempStore();
    await registerAgent(s, cfg, 'agent-a', { cost_per_million: 3, rating: 5 }, '2026-01-01T00:00:00.000Z');
    for (let i = 0; i < N; i++) s.write('feedback', `bd-${i}`, feedback(`bd-${i}`, facts(i)));
    const env = { ...process.env, JUDGELOOP_STATE_DIR: s.root };
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => runBin([`bd-${i}`, '--quality', String(quality(i))], env)),
    );
    expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);

    const log = readLog(s, 'agent-a');
    expect(log.bad).toEqual([]);
    expect(log.rows).toHaveLength(N);
    expect(new Set(log.rows.map(({ row }) => (row as AgentRunRow).bead)).size).toBe(N);
    expect(readdirSync(s.dir('rating-jobs'))).toHaveLength(N);
    const profile = s.read<AgentProfile>('agents', 'agent-a')!;
    expect(profile.rating_samples).toBe(N);

    // The fold over the rows as recorded reproduces the profile and every row's before/after.
    const { state, mismatches } = replay(profile.initial, log.rows);
    expect(mismatches).toEqual([]);
    const {
      rating_samples,
      rating,
      reasoning_rating,
      max_complexity,
      complexity_updated_at,
      complexity_samples,
      rating_last_score,
      rating_updated_at,
      last_bead,
    } = profile;
    expect(state).toEqual({
      rating_samples,
      rating,
      reasoning_rating,
      max_complexity,
      complexity_updated_at,
      complexity_samples,
      rating_last_score,
      rating_updated_at,
      last_bead,
      reasoning_samples: 0,
    });

    // Rating the same runs one by one in the recorded order, from scratch, gives the same rows and profile.
    const seq = tempStore();
    await registerAgent(seq, cfg, 'agent-a', { cost_per_million: 3, rating: 5 }, '2026-01-01T00:00:00.000Z');
    for (const { row } of log.rows) {
      const r = row as AgentRunRow;
      const i = Number(r.bead.slice(3));
      seq.write('feedback', r.bead, feedback(r.bead, facts(i)));
      await rateBead({
        store: seq,
        config: cfg,
        bead: r.bead,
        quality: { score0to10: quality(i), source: 'reviewer', raw: { quality_score: quality(i) }, reviewer: null },
        now: r.created_at,
      });
    }
    expect(readLog(seq, 'agent-a').rows).toEqual(log.rows);
    const { updated_at: _a, ...p1 } = profile;
    const { updated_at: _b, ...p2 } = seq.read<AgentProfile>('agents', 'agent-a')!;
    expect(p2).toEqual(p1);
    // Rows were applied in time order (the clock is read under the lock).
    const times = log.rows.map(({ row }) => Date.parse(row.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 300_000);
});
