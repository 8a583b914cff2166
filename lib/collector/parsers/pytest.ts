// pytest at every verbosity, with xdist: the final `3 failed, 7 passed, ... in 0.53s` line, else the per-test progress.
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { CaseStatus, TestCase, TestCounts } from './types.js';
import { plural } from '../../base/plural.js';

// `== 3 failed, 7 passed in 0.5s ==` (default/-v) or bare with -q; the duration may be followed by `(0:00:01)`.
const SUMMARY =
  /^=*\s*((?:\d+ [a-z]+(?: [a-z]+)?|no tests ran)(?:, (?:\d+ [a-z]+(?: [a-z]+)?))*) in \d+(?:\.\d+)?s(?: \([^)]*\))?\s*=*$/;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/;
const XDIST_VERBOSE = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::\S.*)$/;
const PROGRESS = /^(?:\S+\.py )?([.FEsxXu,]+)\s*(?:\[\s*\d+%\])?\s*$/;
// -v names a test before running it; if the interpreter dies in it, CPython's banner follows on the same line.
const STARTED = /^(\S+\.py::\S+?)\s*(?:Fatal Python error: (.*))?$/;
const DEAD = /^(?:\S+\.py )?([.FEsxX]*)Fatal Python error: (.*)$/;
// A faulthandler frame: `  File "/abs/test_x.py", line 4 in test_name`.
const FRAME = /^\s+File "([^"]+)", line \d+ in (\S+)/;
const COLLECTED = /^(?:collecting \.\.\. )?collected (\d+) items?\b/;
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

function fromSummary(fragment: string, sub: { subfailed: number; passedParents: number }): TestCounts {
  const { subfailed, passedParents } = sub;
  const w = new Map<string, number>();
  for (const m of fragment.matchAll(/(\d+) ([a-z]+(?: [a-z]+)?)/g)) w.set(m[2] as string, Number(m[1]));
  const n = (k: string): number => w.get(k) ?? 0;
  const notes: string[] = [];
  // pytest counts a failed subtest in "failed" and its test again: tests are counted once here. A unittest
  // TestCase whose subTest failed is itself reported PASSED by pytest 9: that test failed.
  const failed = Math.max(0, n('failed') - subfailed) + passedParents;
  if (subfailed > 0)
    notes.push(`${plural(subfailed, 'failed subtest')} counted within their test, not as tests of their own`);
  if (passedParents > 0)
    notes.push(
      `${plural(passedParents, 'test')} reported PASSED with a failed subtest (unittest subTest): counted as failed`,
    );
  return makeCounts('pytest', {
    passed: Math.max(0, n('passed') - passedParents),
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
  /** CPython's fatal error ("Segmentation fault", "Aborted"), when the interpreter died. */
  fatal: string | null;
  excerpts: Map<string, string>;
  subfailed: number;
  /** Tests with a failed subtest (SUBFAILED lines), with its message; `failedIds`: tests pytest itself reported FAILED. */
  subParents: Map<string, string>;
  failedIds: Set<string>;
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
    fatal: null,
    excerpts: new Map(),
    subfailed: 0,
    subParents: new Map(),
    failedIds: new Set(),
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
    const subV = /^(\S+::\S+) SUBFAILED/.exec(line);
    if (subV) {
      subVerbose++;
      if (!ev.subParents.has(subV[1] as string)) ev.subParents.set(subV[1] as string, 'a subtest failed');
      continue;
    }
    const started = STARTED.exec(line);
    if (started) {
      ev.pending = started[1] as string;
      if (started[2]) ev.fatal = started[2].trim();
      continue;
    }
    const s = SHORT.exec(line);
    if (s) {
      const kind = s[1] as string;
      if (kind.startsWith('SUBFAILED')) {
        ev.subfailed++;
        if (ev.subParents.get(s[2] as string) === undefined || s[3])
          ev.subParents.set(
            s[2] as string,
            `subtest ${kind.slice(9).trim()} failed${s[3] ? `: ${s[3]}` : ''}`.slice(0, 500),
          );
      } else {
        if (kind !== 'ERROR') ev.failedIds.add(s[2] as string);
        if (kind === 'FAILED') ev.shortFailed++;
        else ev.shortErrors++;
        if (s[3]) ev.excerpts.set(s[2] as string, (s[3] as string).slice(0, 500));
      }
      continue;
    }
    if (ev.verbose.size > 0) continue;
    // The interpreter died mid-line: pytest's progress characters, then CPython's fatal error banner.
    const dead = DEAD.exec(line);
    if (dead) {
      for (const ch of dead[1] as string) ev.tally[OUTCOME[ch] as Key]++;
      ev.seen = true;
      ev.pending = ev.pending ?? 'a test';
      ev.fatal = (dead[2] as string).trim();
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
  // A failed subtest fails its test, whatever pytest printed for the test itself.
  for (const [id, why] of ev.subParents) {
    const before = ev.verbose.get(id);
    if (before === undefined || RANK[before] >= RANK.failed) continue;
    ev.verbose.set(id, 'failed');
    if (!ev.excerpts.has(id)) ev.excerpts.set(id, why);
  }
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

interface Session {
  /** pytest printed its `test session starts` header: a finished session then ends with a summary line. */
  started: boolean;
  collected: number | null;
  /** The test function the interpreter died in, from CPython's traceback (`file.py::function`; no class). */
  diedIn: string | null;
}

function sessionOf(lines: readonly string[]): Session {
  const out: Session = { started: false, collected: null, diedIn: null };
  let root: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (/^=+ test session starts =+$/.test(l)) out.started = true;
    else if (l.startsWith('rootdir: ')) root = (l.slice(9).split(',')[0] as string).trim();
    else if (out.collected === null && COLLECTED.test(l)) out.collected = Number(COLLECTED.exec(l)?.[1]);
    else if (out.diedIn === null && /Fatal Python error: /.test(l)) out.diedIn = diedIn(lines, i + 1, root);
  }
  return out;
}

/** The test frame of a faulthandler traceback (most recent call first): the one just above pytest's or unittest's. */
function diedIn(lines: readonly string[], from: number, root: string | null): string | null {
  let prev: RegExpExecArray | null = null;
  for (let i = from; i < lines.length && i < from + 200; i++) {
    const f = FRAME.exec(lines[i] as string);
    if (!f) continue;
    if (/\/(?:_pytest|unittest|pluggy)\//.test(f[1] as string)) {
      if (!prev || !/^test/.test(prev[2] as string)) return null;
      const file = prev[1] as string;
      return `${root && file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file}::${prev[2]}`;
    }
    prev = f;
  }
  return null;
}

/** Without a summary line (-qq, or pytest died): count the per-test results the output shows. */
function fromProgress(ev: Evidence, session: Session): TestCounts | null {
  if (!ev.seen && ev.pending === null && !session.started) return null;
  const c = { ...ev.tally };
  const notes: string[] = [];
  const reported = c.passed + c.failed + c.errors + c.skipped + c.xfailed + c.xpassed;
  const how = ev.fatal ? `the interpreter died, Fatal Python error: ${ev.fatal}` : 'the process ended';
  let crashed: string | null = null;
  if (ev.pending !== null) {
    c.errors++;
    const who =
      ev.pending === 'a test' && session.diedIn ? `${session.diedIn} (from the interpreter's traceback)` : ev.pending;
    crashed = `${who} started and never reported a result (${how}): counted as an error`;
  } else if (session.started) {
    // A session that began and has no summary ended mid-run (os._exit in a test or conftest): not a clean pass.
    c.errors++;
    const of = session.collected === null ? '' : ` after ${reported} of ${plural(session.collected, 'collected test')}`;
    crashed = `pytest stopped${of} without its summary line (${how}): counted as an error`;
  }
  const missing = session.collected === null ? 0 : session.collected - reported - (ev.pending === null ? 0 : 1);
  if (missing > 0) notes.push(`${plural(missing, 'collected test')} never ran or never reported a result`);
  notes.push('no pytest summary line (quiet -qq, or the run was cut short): counts read from per-test progress');
  const counts = makeCounts('pytest', { ...c, notes });
  return flag(counts, { crashed });
}

/** The -v case list with the test the process died in, as an error: a crash names its test. */
function withCrashCase(cases: TestCase[] | null, ev: Evidence): TestCase[] | null {
  if (!cases || ev.pending === null || ev.pending === 'a test' || cases.some((c) => c.id === ev.pending)) return cases;
  const why = ev.fatal
    ? `the interpreter died in this test (Fatal Python error: ${ev.fatal})`
    : 'the process ended in this test';
  return [...cases, { id: ev.pending, status: 'error', excerpt: why }];
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
    const crash = lines.some((l) => l.includes('Fatal Python error: ') && (DEAD.test(l) || STARTED.test(l)))
      ? 'the Python interpreter died (Fatal Python error)'
      : null;
    if (candidates.length === 0) {
      const counts = fromProgress(ev, sessionOf(lines));
      if (counts && crash && !counts.runner_crashed) flag(counts, { crashed: crash });
      return counts && withCaseList(counts, withCrashCase(casesOf(ev), ev));
    }
    // A summary agrees when it counts at least the failures and errors the per-test lines show (a test can add
    // fake failures to the output, never remove real ones).
    const failures = Math.max(ev.tally.failed, ev.shortFailed);
    const passedParents = [...ev.subParents.keys()].filter((id) => !ev.failedIds.has(id)).length;
    const sub = { subfailed: ev.subfailed, passedParents };
    const errors = Math.max(ev.tally.errors, ev.shortErrors);
    const { chosen, disputed } = pickSummary(
      candidates,
      (c) => {
        const s = fromSummary(c, sub);
        return s.failed >= failures - ev.subfailed && s.errors >= Math.min(errors, 1);
      },
      'pytest summary line',
      (c) => {
        const s = fromSummary(c, sub);
        return favour(s.passed ?? 0, s.failed + s.errors);
      },
    );
    let counts = fromSummary(chosen as string, sub);
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
