// Python unittest: `Ran 12 tests in 0.001s`, then `OK` or `FAILED (failures=1, errors=1, skipped=1, ...)`.
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { CaseStatus, TestCase, TestCounts } from './types.js';

const RAN = /^Ran (\d+) tests? in \d+(?:\.\d+)?s\s*$/;
// `FAIL: test_x (mod.Class.test_x)` (3.11+) or `FAIL: test_x (mod.Class)`; a subtest adds ` (i=2)`.
const HEADER = /^(FAIL|ERROR): (\S+) \(([^)]*)\)(?: (\(.*\)))?\s*$/;
const LOADER = /^unittest\.loader\._FailedTest/;
const FIXTURE = /^(?:setUpClass|tearDownClass|setUpModule|tearDownModule)$/;
const PROGRESS = /^[.FEsxu]+$/;
// -v: `test_x (mod.Class.test_x) ... ok`; a test with subtests ends its line with ` ... ` and lists them indented.
const VERBOSE =
  /^(\s*)(\S+) \(([^)]*)\)(?: (\(.*\)))? \.\.\. ?(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)?\s*$/;

interface Summary {
  ran: number;
  w: Map<string, number>;
}

function summaries(lines: readonly string[]): Array<Summary & { at: number }> {
  const out: Array<Summary & { at: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const r = RAN.exec(lines[i] as string);
    if (!r) continue;
    const w = new Map<string, number>();
    for (let j = i + 1; j < lines.length && j <= i + 3; j++) {
      const m = /^(?:OK|FAILED)(?: \((.*)\))?\s*$/.exec(lines[j] as string);
      if (!m) continue;
      for (const p of (m[1] ?? '').matchAll(/([a-z ]+)=(\d+)/g)) w.set((p[1] as string).trim(), Number(p[2]));
      break;
    }
    out.push({ ran: Number(r[1]), w, at: i });
  }
  return out;
}

function idOf(name: string, paren: string): string {
  // 3.11+ prints the full dotted id in the parentheses; older versions print `mod.Class`.
  return paren.endsWith(`.${name}`) ? paren : `${paren}.${name}`;
}

const STATUS: Record<string, CaseStatus> = {
  ok: 'passed',
  FAIL: 'failed',
  ERROR: 'error',
  'expected failure': 'xfail',
  'unexpected success': 'failed',
};
const RANK: Record<CaseStatus, number> = { passed: 0, skipped: 1, xfail: 1, xpass: 2, failed: 3, error: 4 };

/** -v lines: one case per test; a test's subtests decide its status (any failure fails it, all skipped skips it). */
function verboseCases(lines: readonly string[], crashed = false): TestCase[] | null {
  const tests = new Map<string, { own: CaseStatus | null; subs: CaseStatus[] }>();
  for (const line of lines) {
    const m = VERBOSE.exec(line);
    if (!m || line.length > 2000) continue;
    const id = idOf(m[2] as string, m[3] as string);
    const word = m[5];
    const status: CaseStatus | null =
      word === undefined ? null : word.startsWith('skipped') ? 'skipped' : (STATUS[word] ?? null);
    const t = tests.get(id) ?? { own: null, subs: [] };
    tests.set(id, t);
    if ((m[1] as string).length > 0 || m[4]) {
      if (status) t.subs.push(status);
    } else if (status) t.own = status;
  }
  if (tests.size === 0) return null;
  const last = [...tests].at(-1) as [string, { own: CaseStatus | null; subs: CaseStatus[] }];
  // The run died (no summary): the last test started and never got a result is the one it died in.
  if (crashed && last[1].own === null && !last[1].subs.some((st) => st !== 'passed')) last[1].own = 'error';
  return [...tests].map(([id, t]) => {
    let status: CaseStatus = t.own ?? 'passed';
    for (const s of t.subs) if (RANK[s] > RANK[status] && s !== 'skipped') status = s;
    if (t.own === null && t.subs.length > 0 && t.subs.every((s) => s === 'skipped')) status = 'skipped';
    return { id, status };
  });
}

export const unittest: TestParser = {
  name: 'unittest',
  explain: { summary: /^Ran \d+ tests? in |^(?:OK|FAILED)(?: \(.*\))?\s*$/, marks: /^(?:FAIL|ERROR): / },
  detect: (lines) => lines.some((l) => RAN.test(l)) || lines.some((l) => VERBOSE.exec(l)?.[5] !== undefined),
  parse(lines) {
    const all = summaries(lines);
    if (all.length === 0) return withoutSummary(lines);
    const failedIds = new Set<string>(),
      errorIds = new Set<string>();
    let failHeaders = 0,
      errorHeaders = 0,
      loadErrors = 0,
      fixtureErrors = 0,
      dots = 0,
      progress = false;
    for (const line of lines) {
      const h = HEADER.exec(line);
      if (h) {
        const [, kind, name, paren] = h as unknown as [string, string, string, string];
        if (kind === 'FAIL') failHeaders++;
        else errorHeaders++;
        if (LOADER.test(paren)) loadErrors++;
        else if (FIXTURE.test(name)) fixtureErrors++;
        else (kind === 'FAIL' ? failedIds : errorIds).add(idOf(name, paren));
        continue;
      }
      if (PROGRESS.test(line)) {
        progress = true;
        for (const ch of line) if (ch === '.') dots++;
      }
    }
    // The real summary lists as many failures and errors as the report printed headers for.
    const { chosen, disputed } = pickSummary(
      all,
      (s) => (s.w.get('failures') ?? 0) === failHeaders && (s.w.get('errors') ?? 0) === errorHeaders,
      'unittest summary',
      (s) => {
        const bad = (s.w.get('failures') ?? 0) + (s.w.get('errors') ?? 0);
        return favour(s.ran - bad, bad);
      },
    );
    const { ran, w } = chosen as Summary;
    const n = (k: string): number => w.get(k) ?? 0;
    for (const id of errorIds) failedIds.delete(id);
    const notes: string[] = [];
    const unexpected = n('unexpected successes');
    if (unexpected > 0) notes.push('unexpected successes fail a unittest run: counted as failed');
    const failed = failedIds.size + unexpected;
    const rest = Math.max(0, ran - failed - errorIds.size - loadErrors - n('expected failures'));
    let skipped = Math.min(n('skipped'), rest);
    const cases = verboseCases(lines);
    if (cases) skipped = cases.filter((c) => c.status === 'skipped').length;
    else if (n('skipped') > 0 && progress && n('skipped') + dots > rest) {
      // Skipped subtests each count in "skipped": the progress dots (one per passed test) tell the tests apart.
      skipped = Math.max(0, rest - dots);
      notes.push('skipped subtests counted in unittest\'s "skipped": skipped tests derived from the progress dots');
    }
    const counts = makeCounts('unittest', {
      passed: rest - skipped,
      failed,
      skipped,
      errors: errorIds.size + loadErrors + fixtureErrors,
      xfailed: n('expected failures'),
      notes,
    });
    if (cases) counts.cases = cases;
    return flag(counts, {
      disputed,
      noTests: ran === 0 && loadErrors + fixtureErrors === 0 ? 'unittest ran 0 tests' : null,
    });
  },
};

/** No `Ran N tests` line: the process died mid-run. Only -v names the tests (and the one it died in); dots alone do not. */
function withoutSummary(lines: readonly string[]): TestCounts | null {
  const cases = verboseCases(lines, true);
  if (!cases) return null;
  const n = (st: CaseStatus): number => cases.filter((c) => c.status === st).length;
  const dead = cases.at(-1) as TestCase;
  const named = dead.status === 'error';
  if (named) dead.excerpt = 'the process died in this test (no result, no unittest summary)';
  const counts = makeCounts('unittest', {
    passed: n('passed'),
    failed: n('failed'),
    skipped: n('skipped'),
    errors: named ? n('error') : n('error') + 1,
    xfailed: n('xfail'),
    notes: ['no unittest summary (the run was cut short): counts read from the -v lines'],
  });
  counts.cases = cases;
  return flag(counts, {
    crashed: `${named ? dead.id : 'a test'} started and never reported a result (the process died): counted as an error`,
  });
}
