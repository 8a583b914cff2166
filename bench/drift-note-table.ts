// bench: simulates window_full_pass's detection note for the default settings into lib/stats/drift-note-table.ts (issue
// 39, item 3): two processes, 500 seeded collapses a cell.   node --import tsx bench/drift-note-table.ts [--reps 500]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { falseAlarmsFor, predictedWindowDetection, type WindowParams } from '../lib/stats/change.js';
import { NOTE_FALLS, noteSettingsKey } from '../lib/stats/drift-note.js';

const args = process.argv.slice(2);
const arg = (name: string, d: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const REPS = arg('--reps', 500);
const P0 = Array.from({ length: 14 }, (_, i) => Math.round(100 * (0.3 + 0.05 * i)) / 100);
const PER_DAY = [3, 5, 10, 15, 20, 30, 50, 100];
const root = fileURLToPath(new URL('..', import.meta.url));
const drop = JSON.parse(readFileSync(`${root}config/defaults.json`, 'utf8')).templates.triggers.drop;
const wp: WindowParams = drop.window_full_pass;
const sp = { reference_runs: drop.reference_runs, min_reference_runs: drop.min_reference_runs, monitor_runs: 0 };

/**
 * One cell: the share at budget 1 and the least grid budget reaching 90% (falseAlarmsFor's scan in order: at 3 a day
 * the share is not monotone in the budget, and a binary search missed 2 of the 224 cells).
 */
function cell(fall: number, p0: number, perDay: number): [number, number | null] {
  const k = { p0, p1: p0 * NOTE_FALLS[fall]!, days: wp.deadline_days!, perDay };
  return [predictedWindowDetection(wp, sp, k, REPS), falseAlarmsFor(wp, sp, k, 0.9, REPS)];
}

const part = args.includes('--part') ? args[args.indexOf('--part') + 1]!.split('/').map(Number) : null;
if (part) {
  // A child: the p0 rows i with i mod n = part, as JSON lines [fall, row, col, now, budget].
  const [me, n] = part as [number, number];
  for (let r = me; r < P0.length; r += n)
    for (const fall of [0, 1])
      PER_DAY.forEach((perDay, c) => {
        const [now, b] = cell(fall, P0[r]!, perDay);
        process.stdout.write(`${JSON.stringify([fall, r, c, now, b])}\n`);
      });
} else {
  const t0 = Date.now();
  const run = (i: number): Promise<string> =>
    new Promise((res, rej) => {
      const ch = spawn(process.execPath, [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        '--part',
        `${i}/2`,
        '--reps',
        `${REPS}`,
      ]);
      let out = '';
      ch.stdout.on('data', (d) => (out += d));
      ch.stderr.pipe(process.stderr);
      ch.on('close', (code) => (code === 0 ? res(out) : rej(new Error(`part ${i}: exit ${code}`))));
    });
  const outs = await Promise.all([run(0), run(1)]);
  const now = NOTE_FALLS.map(() => P0.map(() => PER_DAY.map(() => Number.NaN)));
  const budget = NOTE_FALLS.map(() => P0.map((): (number | null)[] => PER_DAY.map(() => null)));
  for (const line of outs.join('').split('\n').filter(Boolean)) {
    const [fall, r, c, v, b] = JSON.parse(line) as [number, number, number, number, number | null];
    now[fall]![r]![c] = Math.round(v * 1000) / 1000;
    budget[fall]![r]![c] = b;
  }
  if (now.flat(2).some(Number.isNaN)) throw new Error('a cell is missing');
  const body = [
    '// Written by bench/drift-note-table.ts (do not edit): window_full_pass by the default settings, the falls of',
    `// detectionNote within the deadline, ${REPS} seeded collapses a cell (docs/design/templates.md, item 3).`,
    '',
    "/** The settings simulated (noteSettingsKey of config/defaults.json's drop trigger). */",
    `export const NOTE_SETTINGS = ${JSON.stringify(noteSettingsKey(wp, sp))};`,
    '/** Rows: the reference level p0. */',
    `export const NOTE_P0 = ${JSON.stringify(P0)};`,
    '/** Columns: runs a day. */',
    `export const NOTE_PER_DAY = ${JSON.stringify(PER_DAY)};`,
    '/** Per fall (NOTE_FALLS), p0 and runs a day: the share flagged within the deadline at the design budget. */',
    `export const NOTE_NOW: number[][][] = ${JSON.stringify(now)};`,
    '/** Per fall, p0 and runs a day: the least FALSE_ALARM_GRID budget reaching 90%; null: none. */',
    `export const NOTE_BUDGET: (number | null)[][][] = ${JSON.stringify(budget)};`,
    '',
  ].join('\n');
  writeFileSync(`${root}lib/stats/drift-note-table.ts`, body);
  console.log(
    `wrote lib/stats/drift-note-table.ts (${NOTE_FALLS.length * P0.length * PER_DAY.length} cells) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
}
