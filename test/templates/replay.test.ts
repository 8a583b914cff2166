// Issue 17: a month of generated daily runs through the triggers, day by day. Steady templates never trigger; the
// collapse is flagged within two days and stays open while it lasts; the low template is flagged by the level trigger.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/score-templates.js';
import defaults from '../../config/defaults.json' with { type: 'json' };
import { summarizeFeedback } from '../../lib/store/feedback-index.js';
import { TemplateAggregator } from '../../lib/templates/aggregate.js';
import { decideTriggers } from '../../lib/templates/triggers.js';
import type { Config, Trigger } from '../../lib/schema/types.generated.js';
import { captureIo } from './_io.js';
import { makeFeedback, tempState, writeRuns, type TempState } from './_fixtures.js';
import { COLLAPSE_DAY, DAYS, endOfDay, runsOfDay } from './_replay.js';

const tcfg = (defaults as unknown as Config).templates;

interface DayView {
  day: number;
  open: Trigger[];
  all: Trigger[];
}

/** The same replay in memory: the aggregator and decideTriggers as score-templates uses them (mechanical basis). */
function replayInMemory(seed: string, triggers = tcfg.triggers): DayView[] {
  const agg = new TemplateAggregator({
    weights: tcfg.weights,
    mechanical: tcfg.mechanical,
    trendWindow: tcfg.trend_window,
    recurringWindow: triggers.recurring_window,
    recentSize: triggers.drop.window_runs + triggers.drop.baseline_runs,
    blend: false,
    blendOffReason: 'test',
  });
  const all = new Map<string, Trigger>();
  const days: DayView[] = [];
  for (let day = 1; day <= DAYS; day++) {
    for (const spec of runsOfDay(day, seed))
      agg.add(summarizeFeedback(makeFeedback(spec), { size: 1, mtime_ms: 0 }, endOfDay(day)));
    const now = endOfDay(day);
    const open = [...all.values()].filter((t) => t.cleared_at === null);
    const d = decideTriggers({
      templates: agg.finish(),
      recent: (t) => agg.recent(t),
      recentJudged: () => [],
      open,
      settings: triggers,
      blend: null,
      now,
    });
    for (const t of d.fire) all.set(t.id, t);
    for (const id of d.keep) all.set(id, { ...all.get(id)!, checked_at: now });
    for (const c of d.close)
      all.set(c.id, { ...all.get(c.id)!, checked_at: now, cleared_at: now, closed_reason: c.reason });
    days.push({ day, all: [...all.values()], open: [...all.values()].filter((t) => t.cleared_at === null) });
  }
  return days;
}

function checkMonth(days: DayView[]): void {
  const last = days[days.length - 1]!;
  const of = (template: string, kind?: Trigger['kind']) =>
    last.all.filter((t) => t.template === template && (!kind || t.kind === kind));
  expect(of('steady-a')).toEqual([]);
  expect(of('steady-b')).toEqual([]);
  expect(of('improving', 'score_drop')).toEqual([]);
  // The collapse: no drop before it, one within two days of it, open every day after that.
  const drops = of('collapse', 'score_drop');
  expect(drops).toHaveLength(1);
  const firedDay = days.find((d) => d.open.some((t) => t.template === 'collapse' && t.kind === 'score_drop'))!.day;
  expect(firedDay).toBeGreaterThanOrEqual(COLLAPSE_DAY);
  expect(firedDay).toBeLessThanOrEqual(COLLAPSE_DAY + 1);
  for (const d of days.filter((x) => x.day >= firedDay))
    expect(d.open.filter((t) => t.template === 'collapse' && t.kind === 'score_drop')).toHaveLength(1);
  // The low template: flagged by the level trigger, and still open at the end.
  expect(last.open.filter((t) => t.template === 'low' && t.kind === 'low_full_pass')).toHaveLength(1);
  expect(of('low', 'score_drop')).toEqual([]);
}

/** Counts over many months: false drops on unchanged templates, collapse detection delay, closing while broken. */
function tally(seeds: number) {
  let falseDrops = 0;
  let steadyMonthsWithTrigger = 0;
  let collapseOnTime = 0;
  let closedWhileBroken = 0;
  let lowFlagged = 0;
  for (let s = 0; s < seeds; s++) {
    const days = replayInMemory(`seed-${s}`);
    const all = days[days.length - 1]!.all;
    falseDrops += all.filter(
      (t) =>
        t.kind === 'score_drop' &&
        (t.template !== 'collapse' || Date.parse(t.fired_at) < Date.parse(endOfDay(COLLAPSE_DAY))),
    ).length;
    if (all.some((t) => t.template.startsWith('steady'))) steadyMonthsWithTrigger++;
    const hit = days.find(
      (d) =>
        d.day >= COLLAPSE_DAY &&
        d.open.some(
          (t) =>
            t.template === 'collapse' &&
            t.kind === 'score_drop' &&
            Date.parse(t.fired_at) >= Date.parse(endOfDay(COLLAPSE_DAY)),
        ),
    );
    if (hit && hit.day <= COLLAPSE_DAY + 1) collapseOnTime++;
    if (
      all.some(
        (t) =>
          t.template === 'collapse' &&
          t.kind === 'score_drop' &&
          t.cleared_at !== null &&
          Date.parse(t.cleared_at) >= Date.parse(endOfDay(COLLAPSE_DAY)),
      )
    )
      closedWhileBroken++;
    if (days[days.length - 1]!.open.some((t) => t.template === 'low' && t.kind === 'low_full_pass')) lowFlagged++;
  }
  return { falseDrops, steadyMonthsWithTrigger, collapseOnTime, closedWhileBroken, lowFlagged };
}

describe('trigger replay, in memory', () => {
  it('one month (seed-0): no trigger on the steady templates, the collapse flagged within two days and kept open, the low level flagged', () => {
    checkMonth(replayInMemory('seed-0'));
  });

  it('200 months: false drops rare, every collapse flagged within two days and never closed while broken', () => {
    const t = tally(200);
    // Measured: 18 false drops in 200 months over the 4 unchanged templates (about one per 11 months of a
    // 5-template system); the rule this replaces fired 15 times in 23 days (issue 17).
    expect(t.falseDrops).toBeLessThanOrEqual(25);
    expect(t.steadyMonthsWithTrigger).toBeLessThanOrEqual(10);
    expect(t.collapseOnTime).toBeGreaterThanOrEqual(198);
    expect(t.closedWhileBroken).toBe(0);
    expect(t.lowFlagged).toBe(200);
  });

  it('the old rule (two halves of the last 20, drop > 0.15) fires on unchanged templates: the replay can fail', () => {
    // The same replay judged by the rule issue 17 replaced: it flags steady templates on some seeds.
    let falseAlarms = 0;
    for (let s = 0; s < 200; s++) {
      const agg = new TemplateAggregator({
        weights: tcfg.weights,
        mechanical: tcfg.mechanical,
        trendWindow: 20,
        recurringWindow: 10,
        blend: false,
        blendOffReason: 'test',
      });
      for (let day = 1; day <= DAYS; day++) {
        for (const spec of runsOfDay(day, `seed-${s}`))
          agg.add(summarizeFeedback(makeFeedback(spec), { size: 1, mtime_ms: 0 }, endOfDay(day)));
        for (const t of agg.finish())
          if (t.template.startsWith('steady') && t.trend.change !== null && -t.trend.change > 0.15) falseAlarms++;
      }
    }
    // Days on which a steady template's trend change was below -0.15 (each one a trigger under the old rule).
    expect(falseAlarms).toBeGreaterThan(200);
  });

  it('a drop trigger carries its evidence: window, baseline, n, intervals and the runs', () => {
    const days = replayInMemory('seed-evidence');
    const t = days[days.length - 1]!.all.find((x) => x.template === 'collapse' && x.kind === 'score_drop')!;
    const d = t.evidence.drop!;
    expect(d.test).toBe('interval_separation');
    expect(d.window.n).toBe(tcfg.triggers.drop.window_runs);
    expect(d.baseline.n).toBeGreaterThanOrEqual(tcfg.triggers.drop.min_baseline_runs);
    expect(d.window.interval!.high).toBeLessThan(d.baseline.interval!.low);
    expect(d.drop).toBeGreaterThanOrEqual(d.min_drop);
    expect(t.evidence.beads).toEqual([...d.baseline.beads, ...d.window.beads]);
    expect(t.evidence.beads.every((b) => b.startsWith('collapse-'))).toBe(true);
    expect(Date.parse(d.window.first_completed_at!)).toBeGreaterThan(Date.parse(d.baseline.last_completed_at!) - 1);
  });

  it('a drop trigger closes with its reason once the template recovers', () => {
    // Collapse then recovery: feed the collapse template's broken days, then good ones again.
    const days = replayInMemory('seed-evidence');
    const open = days[days.length - 1]!.open.find((t) => t.template === 'collapse' && t.kind === 'score_drop')!;
    const agg = new TemplateAggregator({
      weights: tcfg.weights,
      mechanical: tcfg.mechanical,
      trendWindow: 20,
      recurringWindow: 10,
      recentSize: 50,
      blend: false,
      blendOffReason: 'test',
    });
    for (let day = 1; day <= DAYS; day++)
      for (const spec of runsOfDay(day, 'seed-evidence'))
        if (spec.template === 'collapse')
          agg.add(summarizeFeedback(makeFeedback(spec), { size: 1, mtime_ms: 0 }, endOfDay(day)));
    for (let i = 0; i < 10; i++)
      agg.add(
        summarizeFeedback(
          makeFeedback({
            bead: `fixed-${i}`,
            template: 'collapse',
            outcome: 'full_pass',
            iterations: 0,
            completed_at: endOfDay(DAYS + 1),
          }),
          { size: 1, mtime_ms: 0 },
          endOfDay(DAYS + 1),
        ),
      );
    const d = decideTriggers({
      templates: agg.finish(),
      recent: (t) => agg.recent(t),
      recentJudged: () => [],
      open: [open],
      settings: tcfg.triggers,
      blend: null,
      now: endOfDay(DAYS + 1),
    });
    expect(d.close).toEqual([
      {
        id: open.id,
        reason: expect.stringMatching(
          /^recovered: the last 10 runs average 1\.000, back inside the baseline interval \[/,
        ),
      },
    ]);
    expect(d.fire.filter((t) => t.kind === 'score_drop')).toEqual([]);
  });
});

describe('trigger replay through bin/score-templates, day by day', () => {
  let st: TempState;
  beforeAll(() => {
    st = tempState();
  });
  afterAll(() => st.cleanup());

  it('steady templates silent, collapse flagged and kept open with checked_at moving, low flagged', async () => {
    const views: DayView[] = [];
    for (let day = 1; day <= DAYS; day++) {
      await writeRuns(st.store, runsOfDay(day, 'seed-io'));
      const io = captureIo({
        JUDGELOOP_STATE_DIR: st.root,
        JUDGELOOP_NOW: endOfDay(day),
        JUDGE_ENABLED: 'false',
        JUDGE_PHASE: '4',
      });
      expect(await run(['--json'], io)).toBe(0);
      const dir = join(st.root, 'triggers');
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        names = [];
      }
      const all = names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Trigger);
      views.push({ day, all, open: all.filter((t) => t.cleared_at === null) });
    }
    checkMonth(views);
    const drop = views[views.length - 1]!.open.find((t) => t.template === 'collapse' && t.kind === 'score_drop')!;
    expect(drop.checked_at).toBe(endOfDay(DAYS));
    expect(drop.closed_reason).toBeNull();
  }, 120_000);
});
