// The detection note's table (issue 39, item 3): written for config/defaults.json's settings, its cells against the
// live simulation (printed), and tableNote's interpolation by hand.
import { describe, expect, it } from 'vitest';
import defaults from '../../config/defaults.json' with { type: 'json' };
import {
  FALSE_ALARM_GRID,
  falseAlarmsFor,
  predictedWindowDetection,
  type WindowParams,
} from '../../lib/stats/change.js';
import { isNoteTableFor, NOTE_FALLS, noteSettingsKey, tableNote } from '../../lib/stats/drift-note.js';
import { NOTE_BUDGET, NOTE_NOW, NOTE_P0, NOTE_PER_DAY, NOTE_SETTINGS } from '../../lib/stats/drift-note-table.js';

const drop = defaults.templates.triggers.drop;
const wp: WindowParams = drop.window_full_pass;
const days = wp.deadline_days!;
/** The live simulation of one fall at p0 and perDay (500 seeded collapses, as the bench). */
const live = (fall: number, p0: number, perDay: number, budget = 1): number =>
  predictedWindowDetection({ ...wp, budget }, drop, { p0, p1: p0 * NOTE_FALLS[fall]!, days, perDay }, 500);
/** Three standard errors of a share of 500 collapses, at least 0.02. */
const err = (p: number): number => Math.max(0.02, 3 * Math.sqrt((p * (1 - p)) / 500));

describe('the note table', () => {
  it('is for the default settings, one cell per fall, p0 and runs a day', () => {
    expect(NOTE_SETTINGS).toBe(noteSettingsKey(wp, drop));
    expect(isNoteTableFor(wp, drop)).toBe(true);
    expect(isNoteTableFor({ ...wp, deadline_days: 3 }, drop)).toBe(false);
    expect(isNoteTableFor(wp, { ...drop, reference_runs: 200 })).toBe(false);
    expect(isNoteTableFor({ ...wp, budget: 2 }, drop)).toBe(false);
    for (const t of [NOTE_NOW, NOTE_BUDGET]) {
      expect(t).toHaveLength(NOTE_FALLS.length);
      for (const rows of t) {
        expect(rows).toHaveLength(NOTE_P0.length);
        for (const row of rows) expect(row).toHaveLength(NOTE_PER_DAY.length);
      }
    }
    for (const b of NOTE_BUDGET.flat(2)) expect(b === null || FALSE_ALARM_GRID.includes(b)).toBe(true);
  });

  it('its cells are the live simulation: the share at the design budget, the least grid budget reaching 90%', () => {
    // [fall, row, column]: cells on both sides of 90% and with a budget above 1.
    for (const [f, r, c] of [
      [0, 6, 2],
      [0, 4, 3],
      [1, 10, 6],
      [1, 12, 3],
    ] as const) {
      const p0 = NOTE_P0[r]!;
      const perDay = NOTE_PER_DAY[c]!;
      const now = live(f, p0, perDay);
      const alarms = falseAlarmsFor(wp, drop, { p0, p1: p0 * NOTE_FALLS[f]!, days, perDay }, 0.9, 500);
      console.log(
        `fall ${f} p0 ${p0} at ${perDay} a day: table ${NOTE_NOW[f]![r]![c]} / ~${NOTE_BUDGET[f]![r]![c]}, live ${now} / ~${alarms}`,
      );
      expect(Math.abs(NOTE_NOW[f]![r]![c]! - now)).toBeLessThanOrEqual(0.0005);
      expect(NOTE_BUDGET[f]![r]![c]).toBe(alarms);
    }
  });

  it('between cells: the interpolated share within the simulation error of the live one', () => {
    for (const [f, p0, perDay] of [
      [0, 0.62, 12],
      [0, 0.83, 4],
      [1, 0.88, 25],
    ] as const) {
      const t = tableNote(f, p0, perDay);
      const now = live(f, p0, perDay);
      console.log(`fall ${f} p0 ${p0} at ${perDay} a day: table about ${t.now.toFixed(3)}, live ${now}`);
      expect(Math.abs(t.now - now)).toBeLessThanOrEqual(err(now));
    }
  });
});

describe('tableNote', () => {
  // A 2-fall table on NOTE_P0 x NOTE_PER_DAY: share = row/100 + column/1000, budgets column-wise.
  const now = [0, 1].map(() => NOTE_P0.map((_, i) => NOTE_PER_DAY.map((_, j) => i / 100 + j / 1000)));
  now[0]![3]![5] = 0.95;
  const budget = [0, 1].map(() => NOTE_P0.map(() => NOTE_PER_DAY.map((_, j) => FALSE_ALARM_GRID[j] ?? null)));

  it('the cell at grid points, bilinear in p0 and ln(runs a day) between, the edge outside', () => {
    expect(tableNote(0, NOTE_P0[2]!, NOTE_PER_DAY[4]!, now, budget).now).toBeCloseTo(0.02 + 0.004, 12);
    const mid = tableNote(
      1,
      (NOTE_P0[2]! + NOTE_P0[3]!) / 2,
      Math.sqrt(NOTE_PER_DAY[4]! * NOTE_PER_DAY[5]!),
      now,
      budget,
    );
    expect(mid.now).toBeCloseTo(0.025 + 0.0045, 12);
    expect(tableNote(1, 0.1, 1, now, budget).now).toBe(0);
    expect(tableNote(1, 0.99, 500, now, budget).now).toBeCloseTo(0.13 + 0.007, 12);
  });

  it('the 90% run rate from the nearest p0 row, the budget from the nearest cell', () => {
    const at = tableNote(0, NOTE_P0[3]! + 0.01, NOTE_PER_DAY[1]! + 0.1, now, budget);
    expect(at.need).toBe(NOTE_PER_DAY[5]);
    expect(at.alarms).toBe(FALSE_ALARM_GRID[1]);
    expect(tableNote(0, NOTE_P0[3]! + 0.04, 4.9, now, budget).need).toBeNull();
    expect(tableNote(1, 0.5, 1000, now, budget).alarms).toBe(FALSE_ALARM_GRID[7]);
  });
});
