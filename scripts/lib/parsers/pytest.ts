// pytest at every verbosity, with xdist: the final `3 failed, 7 passed, ... in 0.53s` line, else the per-test progress.
import { makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { TestCounts } from './types.js';

// `== 3 failed, 7 passed in 0.5s ==` (default/-v) or bare with -q; the duration may be followed by `(0:00:01)`.
const SUMMARY = /^=*\s*((?:\d+ [a-z]+|no tests ran)(?:, (?:\d+ [a-z]+))*) in \d+(?:\.\d+)?s(?: \([^)]*\))?\s*=*$/;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const XDIST_VERBOSE = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::\S.*)$/;
const PROGRESS = /^(?:\S+\.py )?([.FEsxX]+)\s*(?:\[\s*\d+%\])?\s*$/;
const STARTED = /^(\S+\.py::\S+)\s*$/;

function fromSummary(fragment: string): TestCounts {
  const w = new Map<string, number>();
  for (const m of fragment.matchAll(/(\d+) ([a-z]+)/g)) w.set(m[2] as string, Number(m[1]));
  const n = (k: string): number => w.get(k) ?? 0;
  return makeCounts('pytest', {
    passed: n('passed'),
    failed: n('failed'),
    skipped: n('skipped'),
    errors: n('error') + n('errors'),
    xfailed: n('xfailed'),
    xpassed: n('xpassed'),
  });
}

const OUTCOME: Record<string, 'passed' | 'failed' | 'errors' | 'skipped' | 'xfailed' | 'xpassed'> = {
  PASSED: 'passed', FAILED: 'failed', ERROR: 'errors', SKIPPED: 'skipped', XFAIL: 'xfailed', XPASS: 'xpassed',
  '.': 'passed', F: 'failed', E: 'errors', s: 'skipped', x: 'xfailed', X: 'xpassed',
};

/** Without a summary line (-qq, or pytest died): count the per-test results the output shows. */
function fromProgress(lines: readonly string[]): TestCounts | null {
  const c = { passed: 0, failed: 0, errors: 0, skipped: 0, xfailed: 0, xpassed: 0 };
  let seen = false, verbose = false;
  let pending: string | null = null;
  const notes: string[] = [];
  for (const line of lines) {
    const v = VERBOSE.exec(line);
    const xv = v ? null : XDIST_VERBOSE.exec(line);
    if (v || xv) {
      const word = (v ? v[2] : xv?.[1]) as string;
      c[OUTCOME[word] as keyof typeof c]++;
      seen = verbose = true;
      pending = null;
      continue;
    }
    const started = STARTED.exec(line);
    if (started) { pending = started[1] as string; continue; }
    if (verbose) continue;
    const p = PROGRESS.exec(line);
    if (p && line.length > 0) {
      for (const ch of p[1] as string) c[OUTCOME[ch] as keyof typeof c]++;
      seen = true;
    }
  }
  if (!seen && pending === null) return null;
  if (pending !== null) {
    c.failed++;
    notes.push(`${pending} started but never reported a result (the process died): counted as failed`);
  }
  notes.push('no pytest summary line (quiet -qq, or the run was cut short): counts read from per-test progress');
  return makeCounts('pytest', { ...c, notes });
}

export const pytest: TestParser = {
  name: 'pytest',
  detect(lines) {
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i] as string;
      if (SUMMARY.test(l) || /^=+ test session starts =+$/.test(l) || /^=+ short test summary info =+$/.test(l)) return true;
    }
    return false;
  },
  parse(lines) {
    // The last summary wins: tests printing a summary-like line (with -s) print it before pytest's own.
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i] as string;
      if (l.length > 300 || !l.includes(' in ')) continue;
      const m = SUMMARY.exec(l);
      if (m) return fromSummary(m[1] as string);
    }
    return fromProgress(lines);
  },
};
