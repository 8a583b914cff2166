import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/score-templates.js';
import { recurringIssues, triggerId } from '../../lib/templates/triggers.js';
import { isSafeId } from '../../lib/store/bead.js';
import type { DropChange, DropInterval, Trigger } from '../../lib/schema/types.generated.js';
import { deadlineDesignDays } from '../../lib/stats/deadline.js';
import { captureIo } from './_io.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

let st: TempState;
let cfg: string;
beforeEach(() => {
  st = tempState();
  cfg = join(st.root, 'cfg.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      templates: {
        trend_window: 6,
        triggers: {
          drop: {
            test: 'interval_separation',
            window_runs: 6,
            baseline_runs: 20,
            min_baseline_runs: 6,
            min_drop: 0.15,
          },
          level: { test: 'interval', full_pass_below: 0.5, min_runs: 10 },
          recurring_min_runs: 3,
          recurring_window: 5,
        },
      },
    }),
  );
});
afterEach(() => st.cleanup());

async function score(now: string, phase = '4', enabled = 'true'): Promise<{ code: number; err: string }> {
  const io = captureIo({
    JUDGELOOP_STATE_DIR: st.root,
    JUDGELOOP_NOW: now,
    JUDGE_ENABLED: enabled,
    JUDGE_PHASE: phase,
    JUDGELOOP_CONFIG: cfg,
  });
  const code = await run(['--json'], io);
  return { code, err: io.err() };
}
function triggers(): Trigger[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(st.root, 'triggers'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(join(st.root, 'triggers', n), 'utf8')) as Trigger);
}

const stub = [{ description: 'Left a stub where the parser should be', category: 'stub' }];
// Bead ids are not chronological: the good runs have the high ids.
const good = (i: number, minute: number): RunSpec => ({
  bead: `x-${90 + i}`,
  template: 'tpl',
  outcome: 'full_pass',
  iterations: 0,
  judge: 0.9,
  completed_at: at(minute),
});
const bad = (i: number, minute: number): RunSpec => ({
  bead: `x-${10 + i}`,
  template: 'tpl',
  outcome: 'agent_failure',
  iterations: 0,
  judge: 0.3,
  issues: stub,
  completed_at: at(minute),
});

describe('refinement triggers', () => {
  it('fire with the evidence, stay open while the condition holds, close with a reason when it goes', async () => {
    const goods = Array.from({ length: 20 }, (_, i) => good(i, i));
    const bads = Array.from({ length: 6 }, (_, i) => bad(i, 20 + i));
    await writeRuns(st.store, [...goods, ...bads]);
    expect((await score('2026-03-01T00:00:00Z')).code).toBe(0);
    let ts = triggers();
    expect(ts.map((t) => t.kind).sort()).toEqual(['recurring_issue', 'score_drop']);
    const drop = ts.find((t) => t.kind === 'score_drop')!;
    const d = drop.evidence.drop as DropInterval;
    expect(d.series).toBe('blended');
    expect(d.window.beads).toEqual(bads.map((b) => b.bead));
    expect(d.baseline.beads).toEqual(goods.map((b) => b.bead));
    expect(drop.evidence.beads).toEqual([...goods, ...bads].map((b) => b.bead));
    expect(d.window.mean).toBeCloseTo(0.4 * 0.3, 9);
    expect(d.baseline.mean).toBeCloseTo(0.6 + 0.4 * 0.9, 9);
    expect(d.window.interval!.high).toBeLessThan(d.baseline.interval!.low);
    expect(drop).toMatchObject({ cleared_at: null, closed_reason: null, checked_at: '2026-03-01T00:00:00.000Z' });
    expect(drop.summary).toMatch(
      /^tpl: its last 6 runs average 0\.120 \[.*\] against 0\.960 \[.*\] over the 20 runs before/,
    );
    const rec = ts.find((t) => t.kind === 'recurring_issue')!;
    expect(rec.evidence.issues).toEqual([
      {
        key: 'stub',
        runs: 5,
        beads: bads.slice(1).map((b) => b.bead),
        example: 'Left a stub where the parser should be',
      },
    ]);

    // Still broken a day later: nothing new fires, the open trigger is checked again and kept open.
    await writeRuns(st.store, [bad(6, 26)]);
    await score('2026-03-02T00:00:00Z');
    ts = triggers();
    expect(ts).toHaveLength(2);
    expect(ts.find((t) => t.kind === 'score_drop')).toMatchObject({
      cleared_at: null,
      checked_at: '2026-03-02T00:00:00.000Z',
    });

    // Recovery: six good runs; both close, each with its reason, and stay on disk.
    await writeRuns(
      st.store,
      Array.from({ length: 6 }, (_, i) => good(30 + i, 40 + i)),
    );
    const r = await score('2026-03-03T00:00:00Z');
    ts = triggers();
    expect(ts).toHaveLength(2);
    expect(ts.every((t) => t.cleared_at === '2026-03-03T00:00:00.000Z')).toBe(true);
    expect(ts.find((t) => t.kind === 'score_drop')!.closed_reason).toMatch(
      /^recovered: the last 6 runs average 0\.960, back inside the baseline interval/,
    );
    expect(ts.find((t) => t.kind === 'recurring_issue')!.closed_reason).toMatch(/no issue recurs/);
    expect(r.err).toMatch(/closed .*score_drop.*recovered/);
  });

  it('a recurring issue the open trigger does not list fires a new one that supersedes it', async () => {
    await writeRuns(st.store, [bad(0, 0), bad(1, 1), bad(2, 2)]);
    await score('2026-03-01T00:00:00Z');
    expect(triggers().filter((t) => t.kind === 'recurring_issue')).toHaveLength(1);
    const scope = [...stub, { description: 'Touched unrelated files', category: 'scope_creep' }];
    await writeRuns(
      st.store,
      [0, 1, 2].map((i) => ({ ...bad(5 + i, 5 + i), issues: scope })),
    );
    await score('2026-03-01T01:00:00Z');
    const rec = triggers().filter((t) => t.kind === 'recurring_issue');
    expect(rec).toHaveLength(2);
    const open = rec.filter((t) => t.cleared_at === null);
    expect(open).toHaveLength(1);
    expect(open[0]!.evidence.issues.map((i) => i.key)).toEqual(['stub', 'scope_creep']);
  });

  it('do not fire before phase 4; with the judge disabled only score drops count, on mechanical values', async () => {
    await writeRuns(st.store, [
      ...Array.from({ length: 20 }, (_, i) => good(i, i)),
      ...Array.from({ length: 6 }, (_, i) => bad(i, 20 + i)),
    ]);
    await score('2026-03-01T00:00:00Z', '3');
    expect(triggers()).toHaveLength(0);
    await score('2026-03-01T00:00:00Z', '4', 'false');
    const ts = triggers();
    expect(ts.map((t) => t.kind)).toEqual(['score_drop']);
    expect(ts[0]!.evidence.drop!.series).toBe('mechanical');
    expect(ts[0]!.summary).toMatch(/its last 6 runs average 0\.000 .* against 1\.000/);
    expect(ts[0]!.evidence.issues).toEqual([]);
  });

  it('too few runs, or a drop inside the intervals, does not fire', async () => {
    await writeRuns(st.store, [
      good(0, 0),
      good(1, 1),
      good(2, 2),
      good(3, 3),
      good(4, 4),
      bad(0, 5),
      bad(1, 6),
      bad(2, 7),
      bad(3, 8),
      bad(4, 9),
      bad(5, 10),
    ]); // baseline 5 < 6
    await score('2026-03-01T00:00:00Z', '4', 'false');
    expect(triggers()).toHaveLength(0);
  });

  it('two failures among six recent runs of a good template are inside the intervals: no drop', async () => {
    const runs = [
      ...Array.from({ length: 20 }, (_, i) => good(i, i)),
      good(20, 20),
      bad(0, 21),
      good(21, 22),
      bad(1, 23),
      good(22, 24),
      good(23, 25),
    ];
    await writeRuns(st.store, runs);
    await score('2026-03-01T00:00:00Z', '4', 'false');
    expect(triggers()).toHaveLength(0);
  });
});

describe('triggers written before issue 17', () => {
  it('an open score_drop without a baseline is read, and closed with its reason instead of staying open forever', async () => {
    await writeRuns(
      st.store,
      Array.from({ length: 8 }, (_, i) => good(i, i)),
    );
    const old = {
      schema_version: '1.0.0',
      id: 'tpl-score_drop-old',
      template: 'tpl',
      kind: 'score_drop',
      fired_at: '2026-02-01T00:00:00.000Z',
      cleared_at: null,
      summary: 'tpl: blended score fell from 0.960 to 0.120 over its last 6 runs (threshold 0.15).',
      evidence: {
        beads: ['x-90'],
        issues: [],
        trend: { window: 6, runs: [], earlier: null, later: null, change: null },
      },
    };
    st.store.write('triggers', old.id, old);
    const r = await score('2026-03-01T00:00:00Z');
    expect(r.code).toBe(0);
    const t = triggers().find((x) => x.id === old.id)!;
    expect(t).toMatchObject({
      cleared_at: '2026-03-01T00:00:00.000Z',
      closed_reason: expect.stringMatching(/^replaced by the window-against-baseline test/),
    });
  });
});

describe('trigger helpers', () => {
  it('ids are safe file names even for odd template ids', () => {
    const id = triggerId('../prompts/fix bug.md', 'score_drop', '2026-03-01T00:00:00.000Z', ['a']);
    expect(isSafeId(id)).toBe(true);
    expect(id).toMatch(/^prompts_fix_bug.md-score_drop-20260301T000000Z-[0-9a-f]{8}$/);
  });
  it('recurringIssues counts runs, not mentions', () => {
    const r = (bead: string, keys: string[], ms: number) => ({
      bead,
      completed_at: '',
      ms,
      outcome: 'full_pass' as const,
      mechanical: 1,
      judge: 0.5,
      issues: keys.map((key) => ({ key, text: key })),
    });
    expect(recurringIssues([r('b', ['x', 'x'], 2), r('a', ['x'], 1), r('c', ['y'], 3)], 2)).toEqual([
      { key: 'x', runs: 2, beads: ['a', 'b'], example: 'x' },
    ]);
  });
});

describe('window_full_pass (issue 39)', () => {
  it('fires on a collapse and says what the runs allow at the template own run rate', async () => {
    const drop = { test: 'window_full_pass', window_full_pass: { deadline_days: null } };
    writeFileSync(cfg, JSON.stringify({ templates: { triggers: { drop } } }));
    // 10 runs a day: 200 at a full-pass rate of 0.6, then 20 failures.
    const spec = (i: number, pass: boolean): RunSpec => ({
      bead: `w-${1000 + i}`,
      template: 'tpl',
      outcome: pass ? 'full_pass' : 'agent_failure',
      iterations: 0,
      judge: null,
      completed_at: at(144 * i),
    });
    const runs = Array.from({ length: 220 }, (_, i) => spec(i, i < 200 && i % 5 < 3));
    await writeRuns(st.store, runs);
    expect((await score(at(144 * 220))).code).toBe(0);
    const fired = triggers().filter((t) => t.kind === 'score_drop');
    expect(fired).toHaveLength(1);
    expect(fired[0]!.evidence.drop).toMatchObject({ test: 'window_full_pass', series: 'full_pass' });
    console.log(fired[0]!.summary);
    expect(fired[0]!.summary).toMatch(
      /At 10 runs a day from 0\.6\d* this detector flags a fall to 0\.1\d* within 2 days \d+% \(90% at about \d+ runs a day, or at 10 a day with ~\d+ false alarms per 1,000 days\), a fall to 0\.4\d* within 7 days \d+% \(90% at about \d+ runs a day, or at 10 a day with ~\d+ false alarms per 1,000 days\)/,
    );
  });
  it('by a deadline: one window of its days, and the evidence speaks of the configured deadline', async () => {
    const drop = { test: 'window_full_pass', window_full_pass: { deadline_days: 2 } };
    writeFileSync(cfg, JSON.stringify({ templates: { triggers: { drop } } }));
    const spec = (i: number, pass: boolean): RunSpec => ({
      bead: `d-${1000 + i}`,
      template: 'tpl',
      outcome: pass ? 'full_pass' : 'agent_failure',
      iterations: 0,
      judge: null,
      completed_at: at(144 * i),
    });
    await writeRuns(
      st.store,
      Array.from({ length: 220 }, (_, i) => spec(i, i < 200 && i % 5 < 3)),
    );
    expect((await score(at(144 * 220))).code).toBe(0);
    const fired = triggers().filter((t) => t.kind === 'score_drop');
    expect(fired).toHaveLength(1);
    // Fired on the window's count against its boundary; the configured design is the table's at 10 a day.
    const ev = fired[0]!.evidence.drop as DropChange;
    expect(ev.statistic).toBeLessThanOrEqual(ev.threshold + 1);
    expect(ev.configured_threshold).toBe(Math.round(deadlineDesignDays(2, 10)));
    console.log(fired[0]!.summary);
    expect(fired[0]!.summary).toMatch(
      /this detector \(configured deadline 2 days: one window of 2 days, a backstop of 4 days at 5% of the budget\) flags a fall to 0\.1\d* within 2 days about \d+% \(90% at about \d+ runs a day, or at 10 a day with ~\d+ false alarms per 1,000 days\), a fall to 0\.4\d* within 2 days about \d+%/,
    );
  });
});
