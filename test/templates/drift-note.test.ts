// detectionNote (issue 39, item 3): by the default settings it reads the table and simulates nothing; other settings
// still simulate (the simulations counted in-process).
import { describe, expect, it } from 'vitest';
import defaults from '../../config/defaults.json' with { type: 'json' };
import { detectionSimulations } from '../../lib/stats/change.js';
import { tableNote } from '../../lib/stats/drift-note.js';
import type { Config, DropChange } from '../../lib/schema/types.generated.js';
import { detectionNote } from '../../lib/templates/drop-detect.js';

const drop = defaults.templates.triggers.drop as Config['templates']['triggers']['drop'];
const event = (mean: number, perDay: number): DropChange =>
  ({ test: 'window_full_pass', before: { mean }, runs_per_day: perDay }) as unknown as DropChange;

describe('detectionNote', () => {
  it('by the default settings: the table, interpolated ("about"), no simulation', () => {
    const before = detectionSimulations();
    const notes = [
      [0.62, 12],
      [0.83, 4.3],
      [0.41, 77],
      [0.2, 1],
    ].map(([p0, perDay]) => detectionNote(event(p0!, perDay!), drop)!);
    expect(detectionSimulations()).toBe(before);
    console.log(notes[0]);
    const t = [0, 1].map((f) => tableNote(f, 0.62, 12));
    const pct = (x: number): string => `${Math.round(100 * x)}%`;
    expect(notes[0]).toContain(
      `a fall to 0.16 within 2 days about ${pct(t[0]!.now)} (90% at about ${t[0]!.need} runs a day, or at 12 a day with ~${t[0]!.alarms} false alarms per 1,000 days)`,
    );
    expect(notes[0]).toContain(`a fall to 0.41 within 2 days about ${pct(t[1]!.now)}`);
    expect(notes[0]).toContain('bench/drift-note-table.ts, 500 seeded collapses a cell');
  });

  it('other settings: the live simulation', () => {
    const before = detectionSimulations();
    const wp = { ...drop.window_full_pass, deadline_days: 3 };
    const note = detectionNote(event(0.9, 30), { ...drop, window_full_pass: wp })!;
    expect(detectionSimulations()).toBeGreaterThan(before);
    expect(note).toMatch(/a fall to 0\.23 within 3 days \d+% \(90% at /);
    expect(note).toContain('bench/drift.ts, 500 seeded collapses each');
  });
});
