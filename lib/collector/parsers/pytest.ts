// pytest at every verbosity, with xdist: the final `3 failed, 7 passed, ... in 0.53s` line, else the per-test progress.
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { CaseStatus, TestCase, TestCounts } from './types.js';

// `== 3 failed, 7 passed in 0.5s ==` (default/-v) or bare with -q; the duration may be followed by `(0:00:01)`.
const SUMMARY =
  /^=*\s*((?:\d+ [a-z]+(?: [a-z]+)?|no tests ran)(?:, (?:\d+ [a-z]+(?: [a-z]+)?))*) in \d+(?:\.\d+)?s(?: \([^)]*\))?\s*=*$/;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const XDIST_VERBOSE = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::\S.*)$/;
const PROGRESS = /^(?:\S+\.py )?([.FEsxXu,]+)\s*(?:\[\s*\d+%\])?\s*$/;
const STARTED = /^(\S+\.py::\S+)\s*$/;
const SHORT = /^(FAILED|ERROR|SUBFAILED\S*(?: \([^)]*\))?) (\S+::\S+|\S+\.py)(?: - (.*))?$/;

type Key = 'passed' | 'failed' | 'errors' | 'skipped' | 'xfailed' | 'xpassed';
interface Tally {
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  xfailed: number;
  xpassed: number;
}

function fromSummary(fragment: string, subfailed: number): TestCounts {
  const w = new Map<string, number>();
  for (const m of fragment.matchAll(/(\d+) ([a-z]+(?: [a-z]+)?)/g)) w.set(m[2] as string, Number(m[1]));
  const n = (k: string): number => w.get(k) ?? 0;
  const notes: string[] = [];
  // pytest counts a failed subtest in "failed" and its test again: tests are counted once here.
  const failed = Math.max(0, n('failed') - subfailed);
  if (subfailed > 0) notes.push(`${subfailed} failed subtest(s) counted within their test, not as tests of their own`);
  return makeCounts('pytest', {
    passed: n('passed'),
    failed,
    skipped: n('skipped'),
    errors: n('error') + n('errors'),
    xfailed: n('xfailed'),
    xpassed: n('xpassed'),
    notes,
  });
}

const OUTCOME: Record<string, Key> = {
  PASSED: 'passed',
  FAILED: 'failed',
  ERROR: 'errors',
  SKIPPED: 'skipped',
  XFAIL: 'xfailed',
  XPASS: 'xpassed',
  '.': 'passed',
  F: 'failed',
  E: 'errors',
  s: 'skipped',
  x: 'xfailed',
  X: 'xpassed',
};
const STATUS: Record<Key, CaseStatus> = {
  passed: 'passed',
  failed: 'failed',
  errors: 'error',
  skipped: 'skipped',
  xfailed: 'xfail',
  xpassed: 'xpass',
};
// A test id seen twice (a teardown error after a pass, or a line a test printed) keeps its worst status.
const RANK: Record<CaseStatus, number> = { passed: 0, skipped: 1, xfail: 1, xpass: 2, failed: 3, error: 4 };

interface Evidence {
  tally: Tally;
  seen: boolean;
  verbose: Map<string, CaseStatus>;
  pending: string | null;
  excerpts: Map<string, string>;
  subfailed: number;
  shortFailed: number;
  shortErrors: number;
}

function zero(): Tally {
  return { passed: 0, failed: 0, errors: 0, skipped: 0, xfailed: 0, xpassed: 0 };
}

/** The per-test results the output shows: -v lines, progress characters, the short summary. */
function evidence(lines: readonly string[]): Evidence {
  const ev: Evidence = {
    tally: zero(),
    seen: false,
    verbose: new Map(),
    pending: null,
    excerpts: new Map(),
    subfailed: 0,
    shortFailed: 0,
    shortErrors: 0,
  };
  let subVerbose = 0;
  for (const line of lines) {
    if (line.length > 2000) continue;
    const v = VERBOSE.exec(line);
    const xv = v ? null : XDIST_VERBOSE.exec(line);
    if (v || xv) {
      const id = ((v ? v[1] : xv ? xv[2] : '') as string).trim();
      const word = (v ? v[2] : xv?.[1]) as string;
      const status = STATUS[OUTCOME[word] as Key];
      const before = ev.verbose.get(id);
      if (before === undefined || RANK[status] > RANK[before]) ev.verbose.set(id, status);
      ev.seen = true;
      ev.pending = null;
      continue;
    }
    if (/^\S+::\S+ SUBFAILED/.test(line)) {
      subVerbose++;
      continue;
    }
    const started = STARTED.exec(line);
    if (started) {
      ev.pending = started[1] as string;
      continue;
    }
    const s = SHORT.exec(line);
    if (s) {
      const kind = s[1] as string;
      if (kind.startsWith('SUBFAILED')) ev.subfailed++;
      else {
        if (kind === 'FAILED') ev.shortFailed++;
        else ev.shortErrors++;
        if (s[3]) ev.excerpts.set(s[2] as string, (s[3] as string).slice(0, 500));
      }
      continue;
    }
    if (ev.verbose.size > 0) continue;
    // The interpreter died mid-line: pytest's progress characters, then CPython's fatal error banner.
    const dead = /^(?:\S+\.py )?([.FEsxX]*)Fatal Python error: /.exec(line);
    if (dead) {
      for (const ch of dead[1] as string) ev.tally[OUTCOME[ch] as Key]++;
      ev.seen = true;
      ev.pending = ev.pending ?? 'a test';
      continue;
    }
    const p = PROGRESS.exec(line);
    if (p && line.length > 0) {
      for (const ch of p[1] as string) {
        const k = OUTCOME[ch];
        if (k) ev.tally[k]++;
      }
      ev.seen = true;
    }
  }
  ev.subfailed = Math.max(ev.subfailed, subVerbose);
  if (ev.verbose.size > 0) {
    ev.tally = zero();
    for (const st of ev.verbose.values())
      ev.tally[(Object.keys(STATUS) as Key[]).find((k) => STATUS[k] === st) as Key]++;
  }
  return ev;
}

function casesOf(ev: Evidence): TestCase[] | null {
  if (ev.verbose.size === 0) return null;
  return [...ev.verbose].map(([id, status]) => {
    const c: TestCase = { id, status };
    const ex = ev.excerpts.get(id);
    if (ex && (status === 'failed' || status === 'error')) c.excerpt = ex;
    return c;
  });
}

/** Without a summary line (-qq, or pytest died): count the per-test results the output shows. */
function fromProgress(ev: Evidence): TestCounts | null {
  if (!ev.seen && ev.pending === null) return null;
  const c = { ...ev.tally };
  const notes: string[] = [];
  let crashed: string | null = null;
  if (ev.pending !== null) {
    c.errors++;
    crashed = `${ev.pending} started but never reported a result (the process died): counted as an error`;
  }
  notes.push('no pytest summary line (quiet -qq, or the run was cut short): counts read from per-test progress');
  const counts = makeCounts('pytest', { ...c, notes });
  return flag(counts, { crashed });
}

export const pytest: TestParser = {
  name: 'pytest',
  explain: {
    summary: SUMMARY,
    marks:
      /^(?:FAILED|ERROR|SUBFAILED)\b|^\S+::\S.* (?:FAILED|ERROR)\b|^(?:\S+\.py )?[.sxX]*[FE][.FEsxX]*\s*(?:\[|$)|^Fatal Python error/,
  },
  detect(lines) {
    for (let i = lines.length - 1; i >= 0; i--) {
      const l = lines[i] as string;
      if (SUMMARY.test(l) || /^=+ test session starts =+$/.test(l) || /^=+ short test summary info =+$/.test(l))
        return true;
    }
    return false;
  },
  parse(lines) {
    const ev = evidence(lines);
    const candidates: string[] = [];
    for (const l of lines) {
      if (l.length > 300 || !l.includes(' in ')) continue;
      const m = SUMMARY.exec(l);
      if (m) candidates.push(m[1] as string);
    }
    const crash = lines.some((l) => /^Fatal Python error: /.test(l))
      ? 'the Python interpreter died (Fatal Python error)'
      : null;
    if (candidates.length === 0) {
      const counts = fromProgress(ev);
      if (counts && crash && !counts.runner_crashed) flag(counts, { crashed: crash });
      return counts && withCaseList(counts, casesOf(ev));
    }
    // A summary agrees when it counts at least the failures and errors the per-test lines show (a test can add
    // fake failures to the output, never remove real ones).
    const failures = Math.max(ev.tally.failed, ev.shortFailed);
    const errors = Math.max(ev.tally.errors, ev.shortErrors);
    const { chosen, disputed } = pickSummary(
      candidates,
      (c) => {
        const s = fromSummary(c, ev.subfailed);
        return s.failed >= failures - ev.subfailed && s.errors >= Math.min(errors, 1);
      },
      'pytest summary line',
      (c) => {
        const s = fromSummary(c, ev.subfailed);
        return favour(s.passed ?? 0, s.failed + s.errors);
      },
    );
    let counts = fromSummary(chosen as string, ev.subfailed);
    // Console per-test lines are trusted as cases only when they cover the tests the summary counts.
    const cases = casesOf(ev);
    const covered = cases !== null && cases.length >= (counts.passed ?? 0) + counts.failed;
    if (covered && (ev.subfailed > 0 || /subtests? /.test(chosen as string))) {
      // Subtest outcomes inflate pytest's words (a skipped subtest in a passing test is "skipped"): count tests.
      const t = ev.tally;
      counts = makeCounts('pytest', {
        ...t,
        notes: [
          "subtests: counts are per test, from the per-test lines (pytest's summary counts subtest outcomes too)",
        ],
      });
    }
    if (/^no tests ran$/.test(chosen as string) || counts.total === 0)
      flag(counts, { noTests: counts.errors > 0 ? null : 'pytest collected no test' });
    flag(counts, { disputed, crashed: crash });
    return withCaseList(counts, covered ? cases : null);
  },
};

function withCaseList(counts: TestCounts, cases: TestCase[] | null): TestCounts {
  if (cases) counts.cases = cases;
  return counts;
}
