// Issue 17: a month of generated daily runs through the triggers, day by day. Steady templates never trigger; the
// collapse is flagged within two days and stays open while it lasts; the low template is flagged by the level trigger.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import defaults from '../../config/defaults.json' with { type: 'json' };
import { summarizeFeedback } from '../../lib/store/feedback-index.js';
import { TemplateAggregator } from '../../lib/templates/aggregate.js';
import { decideTriggers } from '../../lib/templates/triggers.js';
import { recentRunsKept } from '../../lib/templates/settings.js';
import { deadlineDesignDays } from '../../lib/stats/deadline.js';
import { createRng } from '../../lib/stats/prng.js';
import type { Config, Trigger } from '../../lib/schema/types.generated.js';
import { makeFeedback, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';
import { captureIo } from './_io.js';
import { run as scoreTemplatesEntry } from '../../scripts/score-templates.js';
import { COLLAPSE_DAY, DAYS, endOfDay, FADE_DAY, fadeMonth, runsOfDay } from './_replay.js';

const tcfg = (defaults as unknown as Config).templates;
const root = join(import.meta.dirname, '..', '..');

const scoreEnv = (state: string, now: string) => ({
  JUDGELOOP_STATE_DIR: state,
  JUDGELOOP_NOW: now,
  JUDGE_ENABLED: 'false',
  JUDGE_PHASE: '4',
});

/**
 * bin/score-templates over the state folder as of the end of `day`: the real shim and built bundle when `viaBin`
 * (a replay's first and last day), else the command's entry in this process (a spawn a day cost ~0.3 s of CPU each).
 */
async function scoreTemplates(state: string, now: string, viaBin: boolean): Promise<void> {
  if (!viaBin) {
    const io = captureIo(scoreEnv(state, now));
    const code = await scoreTemplatesEntry(['--json'], io);
    expect(
      io
        .err()
        .split('\n')
        .filter((l) => /Error|^\s+at /.test(l)),
    ).toEqual([]);
    expect(code).toBe(0);
    return;
  }
  const r = spawnSync(join(root, 'bin', 'score-templates'), ['--json'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, TMPDIR: tmpdir(), ...scoreEnv(state, now) },
  });
  expect(r.stderr.split('\n').filter((l) => /Error|^\s+at /.test(l))).toEqual([]);
  expect(r.status).toBe(0);
}

/** Every trigger in the state folder. */
function triggersOf(state: string): Trigger[] {
  const dir = join(state, 'triggers');
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    names = [];
  }
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Trigger);
}

interface DayView {
  day: number;
  open: Trigger[];
  all: Trigger[];
}

/** The same replay in memory: the aggregator and decideTriggers as score-templates uses them (mechanical basis). */
function replayInMemory(
  seed: string,
  triggers = tcfg.triggers,
  runsOf: (day: number, seed: string) => RunSpec[] = runsOfDay,
): DayView[] {
  const agg = new TemplateAggregator({
    weights: tcfg.weights,
    mechanical: tcfg.mechanical,
    trendWindow: tcfg.trend_window,
    recurringWindow: triggers.recurring_window,
    recentSize: recentRunsKept(triggers.drop),
    blend: false,
    blendOffReason: 'test',
  });
  const all = new Map<string, Trigger>();
  const days: DayView[] = [];
  for (let day = 1; day <= DAYS; day++) {
    for (const spec of runsOf(day, seed))
      agg.add(summarizeFeedback(makeFeedback(spec), { size: 1, mtime_ms: 0 }, endOfDay(day)));
    const now = endOfDay(day);
    const open = [...all.values()].filter((t) => t.cleared_at === null);
    const lastDropClosed = (template: string) =>
      [...all.values()]
        .filter((t) => t.template === template && t.kind === 'score_drop' && t.cleared_at !== null)
        .map((t) => t.cleared_at!)
        .sort()
        .pop() ?? null;
    const d = decideTriggers({
      lastDropClosed,
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
  // Issue 25's CUSUM (tuned for a 0.3 drop, calibrated to <= 1 false alarm per 1,000 template-days) needs about
  // 10 runs of a total collapse at 6 runs a day: within three days (the interval rule of issue 17 took two).
  expect(firedDay).toBeLessThanOrEqual(COLLAPSE_DAY + 2);
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
    if (hit && hit.day <= COLLAPSE_DAY + 2) collapseOnTime++;
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

  it('200 months: false drops rare, every collapse flagged within three days and never closed while broken', () => {
    const t = tally(200);
    console.log(
      `collapse months: ${t.falseDrops} false drops, ${t.steadyMonthsWithTrigger} steady months with a trigger, ${t.collapseOnTime} of 200 flagged within 3 days, ${t.closedWhileBroken} closed while broken, ${t.lowFlagged} low flagged`,
    );
    // Measured: 18 false drops in 200 months over the 4 unchanged templates (about one per 11 months of a
    // 5-template system); the rule this replaces fired 15 times in 23 days (issue 17).
    expect(t.falseDrops).toBeLessThanOrEqual(25);
    expect(t.steadyMonthsWithTrigger).toBeLessThanOrEqual(10);
    expect(t.collapseOnTime).toBeGreaterThanOrEqual(198);
    expect(t.closedWhileBroken).toBe(0);
    expect(t.lowFlagged).toBe(200);
    // CPU-bound, about 7 s on a quiet core (the window trigger's note reads drift-note-table.ts): room for load.
  }, 600_000);

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

  it('a drop trigger carries what the detector saw: passes at its boundary, runs before and after the change day', () => {
    const days = replayInMemory('seed-evidence');
    const t = days[days.length - 1]!.all.find((x) => x.template === 'collapse' && x.kind === 'score_drop')!;
    const d = t.evidence.drop!;
    if (d.test === 'interval_separation') throw new Error('expected a change detector');
    expect(d.test).toBe('window_full_pass');
    expect(tcfg.triggers.drop.test).toBe('window_full_pass');
    expect(d.series).toBe('full_pass');
    // The window test fires on at most c passes in its window (c + 1 when the run's coin is under gamma); c is set from
    // the reference rate for the deadline's design ARL at the template's own runs a day (6 here: a 12-run window).
    expect(d.statistic).toBeLessThanOrEqual(d.threshold + 1);
    expect(d.runs_per_day).toBeGreaterThan(4);
    expect(d.runs_per_day).toBeLessThan(8);
    expect(d.configured_threshold).toBe(
      Math.round(deadlineDesignDays(tcfg.triggers.drop.window_full_pass.deadline_days!, 10)),
    );
    // The change point (the firing window's first run): within a day of the real one, the runs after it mostly failures.
    const real = Date.parse(endOfDay(COLLAPSE_DAY - 1));
    expect(Math.abs(Date.parse(d.change_at) - real)).toBeLessThan(86_400_000);
    expect(d.change_day).toBe(d.change_at.slice(0, 10));
    expect(d.before.mean!).toBeGreaterThan(0.7);
    expect(d.after.mean!).toBeLessThan(0.3);
    expect(d.after.interval!.high).toBeLessThan(d.before.interval!.low);
    expect(t.evidence.beads).toEqual([...d.before.beads, ...d.after.beads]);
    expect(t.evidence.beads.every((b) => b.startsWith('collapse-'))).toBe(true);
    expect(Date.parse(d.after.first_completed_at!)).toBeGreaterThanOrEqual(Date.parse(d.before.last_completed_at!));
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
      recentSize: recentRunsKept(tcfg.triggers.drop),
      blend: false,
      blendOffReason: 'test',
    });
    for (let day = 1; day <= DAYS; day++)
      for (const spec of runsOfDay(day, 'seed-evidence'))
        if (spec.template === 'collapse')
          agg.add(summarizeFeedback(makeFeedback(spec), { size: 1, mtime_ms: 0 }, endOfDay(day)));
    for (let i = 0; i < 40; i++)
      agg.add(
        summarizeFeedback(
          makeFeedback({
            bead: `fixed-${i}`,
            template: 'collapse',
            outcome: 'full_pass',
            iterations: 0,
            completed_at: new Date(Date.parse(endOfDay(DAYS)) + (i + 1) * 7_200_000).toISOString(),
          }),
          { size: 1, mtime_ms: 0 },
          endOfDay(DAYS + 4),
        ),
      );
    const d = decideTriggers({
      templates: agg.finish(),
      recent: (t) => agg.recent(t),
      recentJudged: () => [],
      open: [open],
      settings: tcfg.triggers,
      blend: null,
      now: endOfDay(DAYS + 4),
    });
    expect(d.close).toEqual([
      {
        id: open.id,
        reason: expect.stringMatching(
          /^recovered: full_pass 1\.000 over the \d+ runs since .* against 0\.\d+ before the change \(upward CUSUM/,
        ),
        recovery: expect.objectContaining({ level: 1 }),
      },
    ]);
    expect(d.close[0]!.recovery!.statistic).toBeGreaterThan(d.close[0]!.recovery!.threshold);
    expect(d.fire.filter((t) => t.kind === 'score_drop')).toEqual([]);
  });
});

/** Issue 25's fade over many months: the day (1 = the fade's first) its drop trigger fired, and false drops. */
function fadeTally(seeds: number) {
  const delays: number[] = [];
  let falseDrops = 0;
  let closedWhileBroken = 0;
  for (let s = 0; s < seeds; s++) {
    const month = fadeMonth(`seed-${s}`);
    const days = replayInMemory(`seed-${s}`, tcfg.triggers, (day) => month[day - 1]!);
    const drops = days[days.length - 1]!.all.filter((t) => t.kind === 'score_drop');
    const fadeStart = Date.parse(endOfDay(FADE_DAY - 1));
    falseDrops += drops.filter((t) => t.template !== 'fade' || Date.parse(t.fired_at) < fadeStart).length;
    closedWhileBroken += drops.filter(
      (t) => t.template === 'fade' && Date.parse(t.fired_at) >= fadeStart && t.cleared_at !== null,
    ).length;
    const hit = days.find((d) =>
      d.open.some((t) => t.template === 'fade' && t.kind === 'score_drop' && Date.parse(t.fired_at) >= fadeStart),
    );
    delays.push(hit ? hit.day - FADE_DAY + 1 : Infinity);
  }
  return { delays, falseDrops, closedWhileBroken };
}

describe("issue 25's fade (0.60 -> 0.15 full passes for a month's last four days, about 10 runs a day)", () => {
  it('200 months: flagged within the four days, no false drop on the steady twin', () => {
    const t = fadeTally(200);
    const within = (d: number) => t.delays.filter((x) => x <= d).length;
    console.log(
      `fade months: flagged within 1 / 2 / 3 / 4 days in ${[1, 2, 3, 4].map(within).join(' / ')} of 200, ${t.falseDrops} false drops, ${t.closedWhileBroken} closed while broken`,
    );
    // Measured with the default (a 2-day deadline window and a 4-day backstop, docs/design/templates.md): within
    // 1 / 2 / 3 / 4 days in 13 / 142 / 183 / 197 of 200, 9 false drops; glr_full_pass 52 / 143 / 192 / 199, 7 false
    // drops; the 2-day window alone 12 / 142 / 182 / 194. Issue 17's interval rule never flagged it.
    expect(within(2)).toBeGreaterThanOrEqual(130);
    expect(within(4)).toBeGreaterThanOrEqual(195);
    expect(t.falseDrops).toBeLessThanOrEqual(12);
    expect(t.closedWhileBroken).toBe(0);
    // CPU-bound, about 7 s on a quiet core (the window trigger's note reads drift-note-table.ts): room for load.
  }, 600_000);
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
      await scoreTemplates(st.root, endOfDay(day), day === 1 || day === DAYS);
      const all = triggersOf(st.root);
      views.push({ day, all, open: all.filter((t) => t.cleared_at === null) });
    }
    checkMonth(views);
    const drop = views[views.length - 1]!.open.find((t) => t.template === 'collapse' && t.kind === 'score_drop')!;
    expect(drop.checked_at).toBe(endOfDay(DAYS));
    expect(drop.closed_reason).toBeNull();

    // The template is repaired: 85% full passes again. The trigger closes with the recovery's evidence, once.
    const rng = createRng('recovery');
    let closedOn: number | null = null;
    for (let day = DAYS + 1; day <= DAYS + 8 && closedOn === null; day++) {
      const runs = Array.from({ length: 6 }, (_, i) => ({
        bead: `fixed-${day}-${i}`,
        template: 'collapse',
        outcome: rng() < 0.85 ? ('full_pass' as const) : ('agent_failure' as const),
        iterations: 0,
        completed_at: new Date(Date.parse(endOfDay(day - 1)) + (i + 1) * 3_600_000).toISOString(),
      }));
      await writeRuns(st.store, runs);
      await scoreTemplates(st.root, endOfDay(day), false);
      const now = JSON.parse(readFileSync(join(st.root, 'triggers', `${drop.id}.json`), 'utf8')) as Trigger;
      if (now.cleared_at !== null) {
        closedOn = day;
        expect(now.closed_reason).toMatch(/^recovered: full_pass /);
        expect(now.evidence.recovery!.statistic).toBeGreaterThan(now.evidence.recovery!.threshold);
        expect(now.evidence.recovery!.level!).toBeGreaterThan(0.6);
      }
    }
    expect(closedOn).not.toBeNull();
  }, 400_000);
});

describe("issue 25's fade through bin/score-templates, day by day", () => {
  let st: TempState;
  beforeAll(() => {
    st = tempState();
  });
  afterAll(() => st.cleanup());

  it('the fade flagged within four days and kept open, the steady twin silent, as in memory', async () => {
    const month = fadeMonth('seed-0');
    const expected = replayInMemory('seed-0', tcfg.triggers, (day) => month[day - 1]!);
    const fired = (all: Trigger[]) => all.filter((t) => t.kind === 'score_drop').map((t) => [t.template, t.fired_at]);
    for (let day = 1; day <= DAYS; day++) {
      await writeRuns(st.store, month[day - 1]!);
      await scoreTemplates(st.root, endOfDay(day), day === 1 || day === DAYS);
      const all = triggersOf(st.root);
      expect(fired(all), `day ${day}`).toEqual(fired(expected[day - 1]!.all));
    }
    const open = triggersOf(st.root).filter((t) => t.kind === 'score_drop' && t.cleared_at === null);
    expect(open.map((t) => t.template)).toEqual(['fade']);
    const firedDay = Math.floor((Date.parse(open[0]!.fired_at) - Date.parse(endOfDay(0))) / 86_400_000);
    expect(firedDay).toBeGreaterThanOrEqual(FADE_DAY);
    expect(firedDay).toBeLessThanOrEqual(FADE_DAY + 3);
    expect(open[0]!.evidence.drop).toMatchObject({ test: 'window_full_pass', series: 'full_pass' });
  }, 400_000);
});
