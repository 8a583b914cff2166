// Mocha: spec/dot reporters (`7 passing`, `2 pending`, `2 failing`), the JSON reporter's stats, and TAP via the TAP parser.
import { favour, flag, lastIndex, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import { parseTapLines } from './tap.js';
import type { TestCounts } from './types.js';
import { plural } from '../../base/plural.js';

const PASSING = /^\s*(\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m)\)\s*$/;
// A failed hook is listed as `"before all" hook for "a":`; mocha counts it as one failure (of the suite), and so does judgeloop.
const HOOK = /^\s+\d*\)?\s*"(?:before|after) (?:all|each)" hook\b/;

function parseJson(lines: readonly string[]): TestCounts | null {
  const start = lines.indexOf('{');
  if (start < 0) return null;
  let data: unknown;
  try {
    data = JSON.parse(lines.slice(start).join('\n'));
  } catch {
    return null;
  }
  const stats = (data as { stats?: Record<string, unknown> }).stats;
  if (!stats || typeof stats.passes !== 'number') return null;
  const failures = (data as { failures?: Array<{ title?: string }> }).failures ?? [];
  const hooks = failures.filter(
    (f) => typeof f.title === 'string' && /^"(before|after) (all|each)" hook/.test(f.title),
  ).length;
  return makeCounts('mocha', {
    passed: stats.passes,
    failed: Number(stats.failures ?? 0),
    skipped: Number(stats.pending ?? 0),
    notes:
      hooks > 0
        ? [`${plural(hooks, 'failed hook')}: one failure of the suite each; the tests they guard did not run`]
        : [],
  });
}

export const mocha: TestParser = {
  name: 'mocha',
  explain: { summary: /^\s*\d+ (?:passing \(|pending\s*$|failing\s*$)/, marks: /^\s+\d+\) \S/ },
  detect: (lines) =>
    lastIndex(lines, PASSING) >= 0 ||
    lines.some((l) => /^\s*Exception during run:/.test(l) || /^\s*"stats": \{/.test(l)),
  parse(lines) {
    const candidates: number[] = [];
    let marks = 0,
      ticks = 0;
    for (let j = 0; j < lines.length; j++) {
      const l = lines[j] as string;
      if (PASSING.test(l)) candidates.push(j);
      if (/^\s+✔ /.test(l)) ticks++;
      const mk = /^\s+(\d+)\) \S/.exec(l);
      if (mk) marks = Math.max(marks, Number(mk[1]));
    }
    const failingAt = (j: number): number => {
      for (let k = j + 1; k < lines.length && k <= j + 3; k++) {
        const f = /^\s*(\d+) failing\s*$/.exec(lines[k] as string);
        if (f) return Number(f[1]);
      }
      return 0;
    };
    // Mocha numbers each failure ("  1) suite"): its real summary counts at least the highest number shown; the spec
    // reporter ticks each pass (✔), so it counts at most as many passes as there are ticks (tests can add ticks, not remove them).
    const passingAt = (j: number): number => Number(PASSING.exec(lines[j] as string)?.[1]);
    const picked = pickSummary(
      candidates,
      (j) => failingAt(j) >= marks && (ticks === 0 || passingAt(j) <= ticks),
      'mocha passing line',
      (j) => favour(Number(PASSING.exec(lines[j] as string)?.[1]), failingAt(j)),
    );
    const i = picked.chosen ?? -1;
    if (i < 0) {
      if (lines.some((l) => /^\s*"stats": \{/.test(l))) return parseJson(lines);
      if (lines.some((l) => /^\s*Exception during run:/.test(l))) {
        return makeCounts('mocha', {
          passed: 0,
          errors: 1,
          notes: ['mocha stopped before running tests (Exception during run)'],
        });
      }
      return parseTapLines(lines, 'mocha');
    }
    let pending = 0,
      hooks = 0;
    const failing = failingAt(i);
    for (let j = i + 1; j < lines.length && j <= i + 3; j++) {
      const p = /^\s*(\d+) pending\s*$/.exec(lines[j] as string);
      if (p) pending = Number(p[1]);
    }
    for (let j = i + 1; j < lines.length; j++)
      if (HOOK.test(lines[j] as string) && /:\s*$/.test(lines[j] as string)) hooks++;
    const counts = makeCounts('mocha', {
      passed: Number(PASSING.exec(lines[i] as string)?.[1]),
      failed: failing,
      skipped: pending,
      notes:
        hooks > 0
          ? [`${plural(hooks, 'failed hook')}: one failure of the suite each; the tests they guard did not run`]
          : [],
    });
    return flag(counts, {
      disputed: picked.disputed,
      noTests: counts.total === 0 && hooks === 0 ? 'mocha ran no tests' : null,
    });
  },
};
