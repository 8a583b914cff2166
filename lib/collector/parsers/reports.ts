// Machine-readable test reports (JUnit XML, Jest JSON, Mocha JSON, RSpec JSON) → counts with per-test cases.
// Pure: the caller reads the file. Reconciling a report with the console text: reconcile.ts.
import { flag, makeCounts } from './_counts.js';
import type { CaseStatus, TestCase, TestCounts } from './types.js';
import { plural } from '../../base/plural.js';

export const REPORT_FORMATS = ['junit', 'jest-json', 'mocha-json', 'rspec-json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const EXCERPT = 500;
const ENTITY: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
const unescapeXml = (s: string): string =>
  s.includes('&')
    ? s.replace(
        /&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g,
        (_, e: string) => ENTITY[e] ?? String.fromCodePoint(Number(e[1] === 'x' ? `0${e.slice(1)}` : e.slice(1))),
      )
    : s;
const ATTR = new Map<string, RegExp>();
const attr = (attrs: string, name: string): string | null => {
  let re = ATTR.get(name);
  if (!re) {
    re = new RegExp(`\\b${name}="([^"]*)"`);
    ATTR.set(name, re);
  }
  const m = re.exec(attrs);
  return m ? unescapeXml(m[1] as string) : null;
};

/** pytest's JUnit classname `pkg.test_mod.TestClass` → `pkg/test_mod.py::TestClass`, the id its console prints. */
function pytestPrefix(classname: string): string {
  const parts = classname.split('.');
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  const mod = firstClass < 0 ? parts : parts.slice(0, firstClass);
  const cls = firstClass < 0 ? [] : parts.slice(firstClass);
  return [`${mod.join('/')}.py`, ...cls].join('::');
}

function tally(cases: readonly TestCase[]): Record<CaseStatus, number> {
  const t: Record<CaseStatus, number> = { passed: 0, failed: 0, error: 0, skipped: 0, xfail: 0, xpass: 0 };
  for (const c of cases) t[c.status]++;
  return t;
}

function countsFromCases(runner: string, cases: TestCase[], extraErrors = 0, notes: string[] = []): TestCounts {
  const t = tally(cases);
  const counts = makeCounts(runner, {
    passed: t.passed,
    failed: t.failed,
    skipped: t.skipped,
    errors: t.error + extraErrors,
    xfailed: t.xfail,
    xpassed: t.xpass,
    notes,
  });
  counts.cases = cases;
  counts.source = 'report';
  if (cases.length === 0 && extraErrors === 0) flag(counts, { noTests: 'the report lists no test' });
  return counts;
}

const TAG = /<(\/?)(testsuites|testsuite|testcase|failure|error|skipped)\b([^>]*?)(\/?)>/g;

/** JUnit XML: one case per <testcase>, nested <testsuite>s named in the id (node --test nests them). */
export function readJunit(xml: string, runner = 'junit', cwd?: string): TestCounts | null {
  const rel = (f: string | null): string | null => (f && cwd && f.startsWith(`${cwd}/`) ? f.slice(cwd.length + 1) : f);
  if (!/<testsuites?\b/.test(xml)) return null;
  const cases: TestCase[] = [];
  const suites: string[] = [];
  const failingSuites = { all: 0, failing: 0 };
  const pytest = /<testsuite[^>]*\bname="pytest"/.test(xml);
  let passedThenErred = 0;
  const prefixes = new Map<string, string>();
  let open: {
    id: string;
    status: CaseStatus;
    excerpt?: string;
    textFrom: number;
    skips: number;
    fileLevel: boolean;
  } | null = null;
  const close = (end: number): void => {
    if (!open) return;
    // pytest writes one <skipped> per skipped subtest into a test it reports PASSED: more than one is not a skipped test.
    const c: TestCase = {
      id: open.id,
      status: pytest && open.status === 'skipped' && open.skips > 1 ? 'passed' : open.status,
    };
    if (open.status === 'failed' || open.status === 'error') {
      const body = unescapeXml(xml.slice(open.textFrom, end).replace(/<[^>]*>/g, '')).trim();
      const ex = open.excerpt ?? body;
      if (ex) c.excerpt = ex.slice(0, EXCERPT);
    }
    cases.push(c);
    open = null;
  };
  for (const m of xml.matchAll(TAG)) {
    const [, slash, tag, attrs = '', selfClose] = m;
    if (tag === 'testsuite') {
      if (slash) suites.pop();
      else if (!selfClose) {
        suites.push(attr(attrs, 'name') ?? '');
        failingSuites.all++;
        if (Number(attr(attrs, 'failures') ?? 0) > 0) failingSuites.failing++;
      }
      continue;
    }
    if (tag === 'testsuites') continue;
    if (tag === 'testcase') {
      if (slash) {
        close(m.index);
        continue;
      }
      const name = rel(attr(attrs, 'name')) ?? '';
      const classname = attr(attrs, 'classname') ?? '';
      const file = rel(attr(attrs, 'file'));
      // A suite named like the file (vitest, phpunit) is the prefix already; pytest's one suite is a label. Others nest (node).
      // phpunit nests a data provider's cases in a suite named `Class::method`: the case name says it already.
      const nested =
        pytest || suites.length === 0
          ? []
          : suites.filter((s) => s !== '' && s !== classname && s !== file && !s.startsWith(`${classname}::`));
      const path = nested.length === 0 ? name : name === '' ? nested.join(' > ') : `${nested.join(' > ')} > ${name}`;
      const cls = classname && classname !== 'test' && classname !== file ? classname : '';
      const prefix = pytest
        ? (prefixes.get(classname) ?? (prefixes.set(classname, pytestPrefix(classname)).get(classname) as string))
        : file && cls
          ? `${file}::${cls}`
          : (file ?? cls);
      const id = prefix ? `${prefix}::${path}` : path;
      open = {
        id,
        status: 'passed',
        textFrom: m.index + m[0].length,
        skips: 0,
        fileLevel: name.startsWith('/') && /^\/\S+\.(?:[cm]?[jt]s|tsx|jsx)$/.test(name),
      };
      if (selfClose) close(m.index);
      continue;
    }
    const current = open as { status: CaseStatus; excerpt?: string; skips: number; fileLevel: boolean } | null;
    if (!current || slash) continue;
    const message = attr(attrs, 'message');
    if (tag === 'failure') {
      // node --test names a whole test file's failure (load error, dead process) by its path: an error, not a test.
      if (current.status !== 'error') current.status = current.fileLevel ? 'error' : 'failed';
      if (message && !current.excerpt) current.excerpt = message;
    } else if (tag === 'error') {
      // pytest's summary counts a test whose teardown failed after it passed as passed and as an error.
      if (pytest && current.status === 'passed' && message?.startsWith('failed on teardown with')) passedThenErred++;
      current.status = 'error';
      if (message) current.excerpt = message;
    } else {
      current.skips += 1;
      if (current.status === 'passed' || current.status === 'skipped')
        current.status = /type="pytest\.xfail"/.test(attrs) ? 'xfail' : 'skipped';
    }
  }
  const counts = countsFromCases(runner, uniqueIds(cases));
  if (counts.passed !== null) counts.passed += passedThenErred;
  const totals = nodeTotals(xml);
  return totals ? withNodeTotals(counts, totals, failingSuites) : counts;
}

/** node --test writes its own totals as comments at the end of its JUnit report (`<!-- fail 1 -->`). */
function nodeTotals(xml: string): Map<string, number> | null {
  const m = new Map<string, number>();
  for (const c of xml.matchAll(/<!-- (tests|suites|pass|fail|cancelled|skipped|todo) (\d+) -->/g))
    m.set(c[1] as string, Number(c[2]));
  return m.has('tests') && m.has('pass') && m.has('fail') ? m : null;
}

/**
 * node counts a test with subtests as a test (its JUnit writes it as a <testsuite>, a failed child marks it with
 * `failures`, its own failure is dropped): the counts are node's totals, as on its console; the cases stay the leaves.
 * Totals the leaves and suites cannot account for mean a failure is missing from the list.
 */
function withNodeTotals(
  counts: TestCounts,
  t: Map<string, number>,
  suites: { all: number; failing: number },
): TestCounts {
  const n = (k: string): number => t.get(k) ?? 0;
  const leaves = tally(counts.cases ?? []);
  const fileErrors = (counts.cases ?? []).filter((c) => c.status === 'error').length;
  const fails = n('fail') + n('cancelled');
  const out = makeCounts(counts.runner, {
    passed: n('pass'),
    failed: Math.max(0, fails - fileErrors),
    skipped: n('skipped') + n('todo'),
    errors: fileErrors,
    notes: [...(counts.notes ?? [])],
  });
  if (out.passed !== leaves.passed || out.failed + out.errors !== leaves.failed + leaves.error)
    out.notes = [
      ...(out.notes ?? []),
      "counts are node's totals in the report (parent tests included); cases are the leaves",
    ];
  if (!out.notes?.length) delete out.notes;
  out.cases = counts.cases;
  out.source = 'report';
  const doubts: string[] = [];
  if (fails > leaves.failed + leaves.error + suites.failing)
    doubts.push(
      `node counts ${plural(fails, 'failure')}, the cases and failing parents show ${leaves.failed + leaves.error + suites.failing} (a parent test's own failure is not written as a case)`,
    );
  if (n('pass') < leaves.passed || n('pass') > leaves.passed + suites.all)
    doubts.push(
      `node counts ${n('pass')} passed, the report lists ${plural(leaves.passed, 'passed case')} and ${plural(suites.all, 'parent')}`,
    );
  return flag(out, {
    casesDisputed: doubts.length ? doubts.join('; ') : null,
    noTests: n('tests') === 0 && fileErrors === 0 ? 'the report lists no test' : null,
  });
}

/** Case ids must be unique: a repeated id (parametrised names clash) gets its position appended. */
function uniqueIds(cases: TestCase[]): TestCase[] {
  const seen = new Map<string, number>();
  for (const c of cases) {
    const n = seen.get(c.id) ?? 0;
    seen.set(c.id, n + 1);
    if (n > 0) c.id = `${c.id} #${n + 1}`;
  }
  return cases;
}

interface JestAssertion {
  ancestorTitles?: string[];
  title?: string;
  status?: string;
  failureMessages?: string[];
}
interface JestFile {
  name?: string;
  status?: string;
  message?: string;
  testExecError?: unknown;
  assertionResults?: JestAssertion[];
}

const JEST_STATUS: Record<string, CaseStatus> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
};

/** Jest's --json report: assertionResults per file; a file that failed with no assertions failed to run (an error). */
export function readJestJson(text: string, cwd?: string): TestCounts | null {
  let data: { testResults?: JestFile[] };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return null;
  }
  if (!Array.isArray(data.testResults)) return null;
  const cases: TestCase[] = [];
  let suiteErrors = 0;
  for (const f of data.testResults) {
    let file = f.name ?? '';
    if (cwd && file.startsWith(`${cwd}/`)) file = file.slice(cwd.length + 1);
    const results = f.assertionResults ?? [];
    if (results.length === 0 && f.status === 'failed') suiteErrors++;
    for (const a of results) {
      const c: TestCase = {
        id: `${file}::${[...(a.ancestorTitles ?? []), a.title ?? ''].join(' > ')}`,
        status: JEST_STATUS[a.status ?? ''] ?? 'failed',
      };
      if (c.status === 'failed' && a.failureMessages?.length)
        c.excerpt = a.failureMessages.join('\n').slice(0, EXCERPT);
      cases.push(c);
    }
  }
  return countsFromCases(
    'jest',
    uniqueIds(cases),
    suiteErrors,
    suiteErrors ? [`${plural(suiteErrors, 'test file')} failed to run: counted as errors`] : [],
  );
}

interface MochaTest {
  fullTitle?: string;
  title?: string;
  file?: string;
  err?: { message?: string };
}

/** Mocha's JSON reporter: tests, failures (a failed hook, titled `"before all" hook…`, is one failure of its suite), pending. */
export function readMochaJson(text: string, cwd?: string): TestCounts | null {
  let data: { tests?: MochaTest[]; failures?: MochaTest[]; pending?: MochaTest[] };
  try {
    data = JSON.parse(text.slice(text.indexOf('{'))) as typeof data;
  } catch {
    return null;
  }
  if (!Array.isArray(data.tests)) return null;
  const idOf = (t: MochaTest): string => {
    let file = t.file ?? '';
    if (cwd && file.startsWith(`${cwd}/`)) file = file.slice(cwd.length + 1);
    return `${file}::${t.fullTitle ?? t.title ?? ''}`;
  };
  const status = new Map<string, TestCase>();
  for (const t of data.tests) status.set(idOf(t), { id: idOf(t), status: 'passed' });
  for (const t of data.pending ?? []) status.set(idOf(t), { id: idOf(t), status: 'skipped' });
  for (const t of data.failures ?? []) {
    const c: TestCase = { id: idOf(t), status: 'failed' };
    if (t.err?.message) c.excerpt = t.err.message.slice(0, EXCERPT);
    status.set(c.id, c);
  }
  return countsFromCases('mocha', [...status.values()]);
}

interface RspecExample {
  id?: string;
  full_description?: string;
  status?: string;
  file_path?: string;
  exception?: { message?: string };
}

/** RSpec's JSON formatter: one entry per example; errors outside of examples (a spec file that failed to load) are errors. */
function readRspecJson(text: string): TestCounts | null {
  let data: { examples?: RspecExample[]; summary?: { errors_outside_of_examples_count?: number } };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return null;
  }
  if (!Array.isArray(data.examples)) return null;
  const cases = data.examples.map((e): TestCase => {
    const c: TestCase = {
      id: `${(e.file_path ?? '').replace(/^\.\//, '')}::${e.full_description ?? e.id ?? ''}`,
      status: e.status === 'passed' ? 'passed' : e.status === 'pending' ? 'skipped' : 'failed',
    };
    if (c.status === 'failed' && e.exception?.message) c.excerpt = e.exception.message.slice(0, EXCERPT);
    return c;
  });
  const outside = Number(data.summary?.errors_outside_of_examples_count ?? 0);
  return countsFromCases(
    'rspec',
    uniqueIds(cases),
    outside,
    outside ? [`${plural(outside, 'error')} outside of examples (a spec file failed to load)`] : [],
  );
}

export function readReport(
  format: ReportFormat,
  text: string,
  opts: { runner?: string; cwd?: string } = {},
): TestCounts | null {
  const counts =
    format === 'junit'
      ? readJunit(text, opts.runner, opts.cwd)
      : format === 'jest-json'
        ? readJestJson(text, opts.cwd)
        : format === 'rspec-json'
          ? readRspecJson(text)
          : readMochaJson(text, opts.cwd);
  if (counts && opts.runner) counts.runner = opts.runner;
  return counts;
}
