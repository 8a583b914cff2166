// Issue 21 item 8: a crashing test is named, a failed subtest fails its test, a printed "--- FAIL:" keeps go's -v
// reading, an empty run is no_tests_collected, and a per-test list that disagrees with the console is flagged.
// Every fixture here is real output (dev/capture-fixtures/capture.sh); expected.json pins the counts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseTestOutput } from '../../lib/collector/parsers/index.js';
import { reconcile } from '../../lib/collector/parsers/reconcile.js';
import { readJunit } from '../../lib/collector/parsers/reports.js';
import type { TestCounts } from '../../lib/collector/parsers/types.js';

const root = fileURLToPath(new URL('../fixtures/output/', import.meta.url));
const read = (f: string): string => readFileSync(`${root}${f}`, 'utf8');
const parse = (f: string): TestCounts => parseTestOutput(read(f)) as TestCounts;
const statusOf = (c: TestCounts | null, id: string) => c?.cases?.find((x) => x.id === id)?.status;

describe('a test that kills the interpreter is an error, named', () => {
  test.each([
    ['pytest/segfault-v.txt', 'test_segfault.py::test_segfaults'],
    ['pytest/abort-v.txt', 'test_abort.py::test_aborts'],
    ['pytest/crash.txt', 'test_crash.py::test_crash'],
    ['unittest/segfault-v.txt', 'test_segfault.Crash.test_b_segfaults'],
  ])('%s: %s is an error case, counted, runner_crashed', (file, id) => {
    const c = parse(file);
    expect(c).toMatchObject({ runner_crashed: true, errors: 1 });
    expect(statusOf(c, id)).toBe('error');
    expect(c.cases?.filter((x) => x.status === 'error')).toHaveLength(1);
  });
  test('without -v pytest names the test from the interpreter traceback, in a note', () => {
    for (const [file, name] of [
      ['pytest/segfault.txt', 'test_segfault.py::test_segfaults'],
      ['pytest/abort.txt', 'test_abort.py::test_aborts'],
    ] as const) {
      const c = parse(file);
      expect(c).toMatchObject({ runner_crashed: true, errors: 1 });
      expect(c.notes?.join('\n')).toContain(`${name} (from the interpreter's traceback)`);
    }
  });
  test('pytest ending without its summary after the session header (os._exit in a test) crashed', () => {
    const c = parse('pytest/exit-default.txt');
    expect(c).toMatchObject({ passed: 1, errors: 1, runner_crashed: true });
    expect(c.notes?.join('\n')).toContain('after 1 of 3 collected tests');
    // The same header with its summary is a clean run: nothing is invented.
    expect(parse('pytest/all-pass.txt').runner_crashed).toBeUndefined();
  });
  test('node --test: the dead file is named and is the report case in error', () => {
    const c = parse('node-test/abort.txt');
    expect(c.notes?.join('\n')).toContain('/tmp/capture-work/nodetest/abort.test.mjs');
    const r = readJunit(read('node-test/abort.report.xml'), 'node-test');
    expect(statusOf(r, '/tmp/capture-work/nodetest/abort.test.mjs')).toBe('error');
    expect(reconcile(c, r)).toMatchObject({ errors: 1, runner_crashed: true });
    expect(reconcile(c, r)?.cases_disputed).toBeUndefined();
  });
  test('node --test: a file that exits 0 mid-test passes as a whole, and a note says so', () => {
    expect(parse('node-test/exit0.txt').notes?.join('\n')).toContain('passed as a whole without reporting a test');
  });
});

describe('a failed subtest fails its test', () => {
  test('a unittest subTest under pytest 9 (printed PASSED): failed in counts, cases and with the JUnit report', () => {
    for (const f of ['pytest/usubtests.txt', 'pytest/usubtests-v.txt']) {
      const c = parse(f);
      expect(c).toMatchObject({ passed: 1, failed: 1 });
      const r = readJunit(read(f.replace('.txt', '.report.xml')));
      const m = reconcile(c, r);
      expect(m).toMatchObject({ passed: 1, failed: 1, source: 'report' });
      expect(m?.counts_disputed).toBeUndefined();
      expect(statusOf(m, 'test_usubtests.py::Subs::test_sub_fails')).toBe('failed');
    }
    expect(statusOf(parse('pytest/usubtests-v.txt'), 'test_usubtests.py::Subs::test_sub_fails')).toBe('failed');
  });
  test('go t.Run: the failing leaf is failed in plain, -v and -json', () => {
    for (const f of ['go/subtests.txt', 'go/subtests-v.txt', 'go/subtests-json.txt'])
      expect(statusOf(parse(f), 'example.com/capture/subs::TestParent/bad'), f).toBe('failed');
  });
  test("node t.test: node's totals count the failed parents; the console and the report agree", () => {
    const c = parse('node-test/subtests.txt');
    const r = readJunit(read('node-test/subtests.report.xml'), 'node-test');
    expect(r).toMatchObject({ passed: c.passed, failed: c.failed });
    const m = reconcile(c, r);
    expect(m?.counts_disputed).toBeUndefined();
    expect(statusOf(m, 'parent > child fails')).toBe('failed');
  });
  test("node's JUnit drops a parent test's own failure: the list is flagged, the counts keep it", () => {
    const r = readJunit(read('node-test/subtests.report.xml'), 'node-test');
    expect(r?.cases_disputed).toBe(true);
    expect(r?.notes?.join('\n')).toMatch(/cases disputed: node counts 3 failures/);
    expect(r?.cases?.some((x) => x.id.startsWith('parent throws') && x.status === 'failed')).toBe(false);
  });
  test('a passing parent is no dispute (node counts it, the report lists only its children)', () => {
    const xml = read('node-test/subtests.report.xml');
    const r = readJunit(xml, 'node-test');
    expect(r?.passed).toBe(6);
    expect(r?.cases?.filter((x) => x.status === 'passed')).toHaveLength(5);
  });
});

describe('go: a printed "--- FAIL:" line', () => {
  test('in TestMain before any RUN: still -v (passed known), the printed failure counts, disputed', () => {
    expect(parse('go/mainfail-v.txt')).toMatchObject({ passed: 1, failed: 2, counts_disputed: true });
  });
  test('in a passing test: -v kept, a failure is never removed, disputed', () => {
    const c = parse('go/fakefail-v.txt');
    expect(c).toMatchObject({ passed: 1, counts_disputed: true });
    expect(statusOf(c, 'example.com/capture/fakefail::TestFails')).toBe('failed');
  });
  test('a printed "=== RUN" in a plain run does not drop the real failure', () => {
    for (const f of ['go/runspoof.txt', 'go/spoof.txt']) {
      const c = parse(f);
      expect(c, f).toMatchObject({ passed: null, failed: 1, counts_disputed: true });
    }
  });
});

describe('an empty run is no_tests_collected, not unrecognised', () => {
  test.each([
    'go/no-test-files.txt',
    'go/no-test-files-v.txt',
    'go/no-test-files-json.txt',
    'pytest/no-tests.txt',
    'node-test/no-tests.txt',
    'vitest/no-test-files.txt',
    'jest/no-test-files.txt',
    'cargo/no-tests.txt',
    'unittest/no-tests.txt',
  ])('%s', (f) => {
    expect(parse(f)).toMatchObject({ no_tests_collected: true, total: 0 });
  });
});

describe('a per-test list that disagrees with the console is flagged', () => {
  test("vitest's JUnit calls a crashed worker's tests passed: the list is cases_disputed", () => {
    const m = reconcile(parse('vitest/segfault.txt'), readJunit(read('vitest/segfault.report.xml'), 'vitest'));
    expect(m).toMatchObject({ cases_disputed: true, runner_crashed: true, errors: 1 });
    expect(m?.notes?.join('\n')).toContain('cases disputed:');
  });
  test('a report rewritten to all-passed keeps the console counts and is flagged', () => {
    const c = parse('pytest/basic-report.txt');
    const r = readJunit(read('pytest/basic-report.report.xml').replace(/<failure[\s\S]*?<\/failure>/g, ''));
    const m = reconcile(c, r);
    expect(m).toMatchObject({ source: 'console', counts_disputed: true, cases_disputed: true });
    expect(m?.failed).toBe(c.failed);
  });
  test('an honest report that agrees is not flagged', () => {
    const m = reconcile(parse('pytest/basic-report.txt'), readJunit(read('pytest/basic-report.report.xml')));
    expect(m?.cases_disputed).toBeUndefined();
  });
});
