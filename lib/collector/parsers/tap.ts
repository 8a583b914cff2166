// Generic TAP (versions 12–14): top-level test points; indented subtests and YAML blocks belong to their parent point.
import { flag, makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { TestCounts } from './types.js';

const POINT = /^(not )?ok\b(?:\s+(\d+))?[^#]*(?:#\s*(skip|todo)\b)?/i;

export function parseTapLines(lines: readonly string[], runner: string): TestCounts | null {
  let passed = 0,
    failed = 0,
    skipped = 0,
    errors = 0,
    points = 0;
  let planned: number | null = null;
  const notes: string[] = [];
  const numbers = new Set<number>();
  let duplicate = false;
  for (const line of lines) {
    if (line.startsWith('ok') || line.startsWith('not ok')) {
      const m = POINT.exec(line);
      if (!m) continue;
      points++;
      if (m[2] !== undefined) {
        if (numbers.has(Number(m[2]))) duplicate = true;
        numbers.add(Number(m[2]));
      }
      // TODO points do not count as failures in TAP, whatever their ok; judgeloop counts them with skipped.
      if (m[3]) skipped++;
      else if (m[1]) failed++;
      else passed++;
    } else if (/^1\.\.(\d+)/.test(line)) {
      planned = Number(/^1\.\.(\d+)/.exec(line)?.[1]);
    } else if (/^Bail out!/.test(line)) {
      errors++;
      notes.push('TAP producer bailed out');
    }
  }
  if (points === 0 && planned === null) return null;
  let crashed: string | null = null;
  if (planned !== null && planned > points && errors === 0) {
    // The producer stopped before its plan without bailing out: it died, which counts as an error.
    errors++;
    crashed = `plan said ${planned} tests, output shows ${points}: the producer died, counted as an error`;
  } else if (planned !== null && planned !== points) notes.push(`plan said ${planned} tests, output shows ${points}`);
  // A test printing "ok N" lines adds test points: a number seen twice, or more points than planned, is a dispute.
  const disputed = duplicate
    ? 'a test point number appears twice (a test printed TAP lines?)'
    : planned !== null && points > planned
      ? `${points} test points against a plan of ${planned}`
      : null;
  return flag(makeCounts(runner, { passed, failed, skipped, errors, notes }), {
    disputed,
    crashed,
    noTests: planned === 0 && points === 0 ? 'the TAP plan is 1..0' : null,
  });
}

export const tap: TestParser = {
  name: 'tap',
  explain: { summary: /^1\.\.\d+/, marks: /^not ok\b|^Bail out!/ },
  detect: (lines) =>
    lines.some((l) => /^TAP version \d+/.test(l)) ||
    (lines.some((l) => /^1\.\.\d+/.test(l)) && lines.some((l) => /^(not )?ok\b/.test(l))),
  parse: (lines) => parseTapLines(lines, 'tap'),
};
