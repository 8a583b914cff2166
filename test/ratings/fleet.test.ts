// Issue 37, item 9: ratings and route over several state folders (a folder per machine) give what one folder holding
// every rated run gives; the folders are written by real `rate` runs; route logs its decision in the state folder only.
import { describe, expect, it } from 'vitest';
import { run as agents } from '../../scripts/agents.js';
import { run as rate } from '../../scripts/rate.js';
import { run as ratings } from '../../scripts/ratings.js';
import { run as route } from '../../scripts/route.js';
import { mergeRows, replayMerged } from '../../lib/ratings/fleet.js';
import { readLog } from '../../lib/ratings/agent-log.js';
import type { StateStore } from '../../lib/store/store.js';
import type { AgentRunRating, RoutingDecision } from '../../lib/schema/types.generated.js';
import { captureIo } from '../templates/_io.js';
import { resolutionOf } from '../helpers/resolution.js';
import { feedback, tempStore } from './helpers.js';

const io = (s: StateStore, now = '2026-03-05T00:00:00Z') =>
  captureIo({ JUDGELOOP_STATE_DIR: s.root, JUDGELOOP_NOW: now, NO_COLOR: '1' });

async function call(cmd: typeof rate, s: StateStore, args: string[], now?: string): Promise<string> {
  const c = io(s, now);
  expect(await cmd(args, c)).toBe(0);
  return c.out();
}

/** Rated runs: bead, machine (1 or 2), agent, quality, complexity, day and hour of rating; u-* fixes none of its targets. */
const RUNS = [
  ['m1-a', 1, 'fast', 9, 6, '01T01'],
  ['m2-a', 2, 'fast', 4, 6, '01T02'],
  ['m2-b', 2, 'slow', 7, 3, '01T03'],
  ['m1-b', 1, 'fast', 8, 7, '01T04'],
  ['m2-u', 2, 'fast', 9, 5, '01T05'],
  ['m1-c', 1, 'slow', 3, 3, '01T05'], // the same time as m2-u: the state folder's row first
  ['m2-c', 2, 'fast', 9, 7, '02T06'],
  ['m1-u', 1, 'slow', 9, 3, '02T07'],
] as const;

async function register(s: StateStore) {
  await call(agents, s, ['add', 'fast', '--max-complexity', '6', '--quiet']);
  await call(agents, s, ['add', 'slow', '--max-complexity', '4', '--rating', '6', '--quiet']);
}

async function rateInto(s: StateStore, r: (typeof RUNS)[number]) {
  const [bead, , agent, quality, complexity, hour] = r;
  s.write(
    'feedback',
    bead,
    feedback(bead, {
      agent,
      complexity,
      ...(bead.includes('-u') ? { resolution: resolutionOf(2, 0), outcome: 'partial_pass' } : {}),
    }),
  );
  await call(rate, s, [bead, '--quality', String(quality), '--quiet'], `2026-03-${hour}:00:00Z`);
}

describe('ratings and route over several state folders', () => {
  it('two machine folders read as one give the profiles and routes of one folder holding both', async () => {
    const [one, two, both] = [tempStore(), tempStore(), tempStore()];
    await register(one);
    await register(both);
    for (const r of RUNS) {
      await rateInto(r[1] === 1 ? one : two, r);
      await rateInto(both, r);
    }
    const view = async (s: StateStore, args: string[]) =>
      JSON.parse(await call(ratings, s, ['--json', '--last', '100', ...args])) as {
        profiles: { slug: string; rating: number; rating_samples: number; max_complexity: number }[];
        runs: (AgentRunRating & { line: number })[];
        problems: string[];
      };
    const merged = await view(one, ['--state-dir', two.root]);
    const single = await view(both, []);
    expect(merged.profiles).toEqual(single.profiles);
    expect(merged.profiles.map((p) => [p.slug, p.rating_samples])).toEqual([
      ['fast', 5],
      ['slow', 3],
    ]);
    expect(merged.runs.map((r) => (r.event === 'run' ? r.bead : r.event))).toEqual(RUNS.map((r) => r[0]));
    // The rows as one folder would have recorded them; only the budget's sample counts are each machine's own.
    const rows = (v: typeof merged) => v.runs.map((r) => ({ ...r, budget: null }));
    expect(rows(merged)).toEqual(rows(single));
    // A run that fixes nothing is held at the rating before it: machine 2 alone held m2-u elsewhere than the fleet.
    const held = (v: { rows: { row: AgentRunRating }[] }) =>
      v.rows.flatMap(({ row }) => (row.event === 'run' && row.bead === 'm2-u' ? [row.run_score] : []))[0];
    expect(held(readLog(two, 'fast'))).not.toBe(held(readLog(both, 'fast')));
    expect(held({ rows: merged.runs.map((row) => ({ row })) })).toBe(held(readLog(both, 'fast')));
    // Each folder alone sees a different agent: the test would fail if the other folder were not read.
    const alone = await view(one, []);
    expect(alone.profiles.find((p) => p.slug === 'fast')!.rating).not.toBe(
      single.profiles.find((p) => p.slug === 'fast')!.rating,
    );
    // The text table is the same too, but for the rows' recorded before → after (each machine's own at the time).
    const text = async (s: StateStore, args: string[]) => (await call(ratings, s, args)).split('\nLast')[0];
    expect(await text(one, ['--state-dir', two.root])).toBe(await text(both, []));

    // route: the same seed picks the same agent from the same candidates; the decision goes to the state folder only.
    const decide = async (s: StateStore, args: string[]) =>
      JSON.parse(
        await call(route, s, ['--command', 'work-on-tasks', '--complexity', '6', '--seed', 'f1', '--json', ...args]),
      ) as RoutingDecision & { state_dir: string };
    const d1 = await decide(one, ['--state-dir', two.root]);
    const d2 = await decide(both, []);
    expect({ ...d1, state_dir: '' }).toEqual({ ...d2, state_dir: '' });
    expect(d1.state_dir).toBe(one.root);
    expect(one.readLines('routing', 'decisions').rows).toHaveLength(1);
    expect(two.readLines('routing', 'decisions').rows).toHaveLength(0);
  });

  it('a bead rated in two folders is refused, naming both', async () => {
    const [one, two] = [tempStore(), tempStore()];
    await rateInto(one, RUNS[0]);
    await rateInto(two, RUNS[0]);
    const c = io(one);
    await expect(ratings(['--state-dir', two.root], c)).rejects.toThrow(
      new RegExp(`bead m1-a is rated in two state folders \\(${one.root} and ${two.root}\\)`),
    );
  });

  it('mergeRows orders by time, then folder, then bead; replayMerged folds the EMA in that order', async () => {
    const s = tempStore();
    for (const r of RUNS.filter((x) => x[2] === 'fast')) await rateInto(s, r);
    const rows = readLog(s, 'fast').rows;
    const shuffled = [rows[3]!, rows[0]!, rows[4]!, rows[1]!, rows[2]!].map((r, i) => ({ ...r, folder: i % 2 }));
    const order = mergeRows(shuffled).map((r) => (r.row.event === 'run' ? r.row.bead : ''));
    expect(order).toEqual(['m1-a', 'm2-a', 'm1-b', 'm2-u', 'm2-c']);
    const tie = mergeRows([
      { row: { ...rows[1]!.row, created_at: rows[0]!.row.created_at }, line: 9, folder: 1 },
      { row: rows[0]!.row, line: 1, folder: 0 },
    ]);
    expect(tie.map((r) => r.folder)).toEqual([0, 1]);
    const initial = rows[0]!.row.before;
    const { state } = replayMerged(initial, mergeRows(shuffled));
    const last = rows[4]!.row;
    expect(state.rating).toBe(last.after.rating);
    expect(state.max_complexity).toBe(last.after.max_complexity);
    // In another order the same rows give another rating (the EMA is order-dependent).
    const { state: reversed } = replayMerged(
      initial,
      [...rows].reverse().map((r) => ({ ...r, folder: 0 })),
    );
    expect(reversed.rating).not.toBe(state.rating);
  });
});
