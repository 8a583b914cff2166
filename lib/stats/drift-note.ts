// window_full_pass's detection note by the default settings (issue 39, item 3): read from the table that
// bench/drift-note-table.ts simulated (lib/stats/drift-note-table.ts), not simulated per trigger. Pure.
import { FALSE_ALARM_GRID, type SplitParams, type WindowParams } from './change.js';
import { locate } from './deadline.js';
import { NOTE_BUDGET, NOTE_NOW, NOTE_P0, NOTE_PER_DAY, NOTE_SETTINGS } from './drift-note-table.js';

/** The note's falls from p0, both within the deadline: to p0/4 (index 0), to 2/3 of p0 (index 1). */
export const NOTE_FALLS = [0.25, 2 / 3];

/** The settings a table was simulated for, as one string (the table is read only when they are equal). */
export const noteSettingsKey = (
  wp: WindowParams,
  p: Pick<SplitParams, 'reference_runs' | 'min_reference_runs'>,
): string =>
  JSON.stringify([
    wp.deadline_days ?? null,
    wp.backstop_days ?? null,
    wp.backstop_share ?? 0,
    wp.min_window_runs,
    wp.window_days,
    wp.shares,
    wp.design_days,
    wp.volume_slope,
    wp.budget ?? 1,
    p.reference_runs,
    p.min_reference_runs,
  ]);

export interface TableNote {
  /** The detection share at this run rate, interpolated. */
  now: number;
  /** The least grid run rate whose cell (nearest p0 row) reaches 90%; null: none up to 100 a day. */
  need: number | null;
  /** The least FALSE_ALARM_GRID budget reaching 90% in the nearest cell; null: none up to 500. */
  alarms: number | null;
}

/**
 * The note's figures for fall `fall` (NOTE_FALLS) at reference level p0 and `perDay` runs a day from a table (rows
 * NOTE_P0, columns NOTE_PER_DAY): `now` bilinear in p0 and ln(runs a day), clamped to the grid; the rest nearest.
 */
export function tableNote(
  fall: number,
  p0: number,
  perDay: number,
  now: number[][][] = NOTE_NOW,
  budget: (number | null)[][][] = NOTE_BUDGET,
): TableNote {
  const [i, u] = locate(NOTE_P0, p0, (v) => v);
  const [j, v] = locate(NOTE_PER_DAY, perDay, Math.log);
  const t = now[fall]!;
  const at = (a: number): number => (1 - v) * t[a]![j]! + v * t[a]![j + 1]!;
  const row = u < 0.5 ? i : i + 1;
  const col = v < 0.5 ? j : j + 1;
  const k = t[row]!.findIndex((x) => x >= 0.9);
  const b = budget[fall]![row]![col]!;
  return {
    now: (1 - u) * at(i) + u * at(i + 1),
    need: k < 0 ? null : NOTE_PER_DAY[k]!,
    alarms: b === null || FALSE_ALARM_GRID.includes(b) ? b : null,
  };
}

/** The table's settings are these (config/defaults.json's window_full_pass, reference_runs, min_reference_runs). */
export const isNoteTableFor = (
  wp: WindowParams,
  p: Pick<SplitParams, 'reference_runs' | 'min_reference_runs'>,
): boolean => noteSettingsKey(wp, p) === NOTE_SETTINGS;
