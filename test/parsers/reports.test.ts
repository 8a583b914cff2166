// Structured reports (captured with the console text of the same run) and how they are reconciled with it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { pickSummary } from '../../lib/collector/parsers/_counts.js';
import { parseTestOutput } from '../../lib/collector/parsers/index.js';
import { planObserved, planReport, shellSegments } from '../../lib/collector/parsers/report-plan.js';
import {
  readJestJson,
  readJunit,
  readMochaJson,
  readReport,
  type ReportFormat,
} from '../../lib/collector/parsers/reports.js';
import { reconcile } from '../../lib/collector/parsers/reconcile.js';
import type { TestCounts } from '../../lib/collector/parsers/types.js';

const root = fileURLToPath(new URL('../fixtures/output/', import.meta.url));
const read = (f: string): string => readFileSync(`${root}${f}`, 'utf8');

const reports: Array<[string, string, ReportFormat]> = [];
for (const dir of readdirSync(root)) {
  if (dir.endsWith('.json')) continue;
  for (const f of readdirSync(`${root}${dir}`)) {
    const m = /^(.*)\.report\.(xml|json)$/.exec(f);
    if (m)
      reports.push([
        dir,
        m[1] as string,
        m[2] === 'xml' ? 'junit' : dir === 'jest' ? 'jest-json' : dir === 'rspec' ? 'rspec-json' : 'mocha-json',
      ]);
  }
}

describe('captured reports', () => {
  test('there is a report for every runner bin/collect asks one of', () => {
    expect(new Set(reports.map(([d]) => d))).toEqual(
      new Set(['jest', 'mocha', 'node-test', 'phpunit', 'pytest', 'rspec', 'vitest']),
    );
  });

  test.each(reports)('%s/%s: per-test cases add up to the counts, ids are unique', (dir, name, format) => {
    const r = readReport(format, read(`${dir}/${name}.report.${format === 'junit' ? 'xml' : 'json'}`), { runner: dir });
    expect(r).not.toBeNull();
    const cases = r?.cases ?? [];
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const n = (s: string) => cases.filter((c) => c.status === s).length;
    // node counts a test with subtests as a test too: its totals hold the leaf cases and the parents.
    if (r?.notes?.some((x) => x.startsWith("counts are node's totals"))) {
      expect(n('passed')).toBeLessThanOrEqual(r?.passed ?? 0);
      expect(n('failed')).toBeLessThanOrEqual(r?.failed ?? 0);
    } else
      expect({ passed: n('passed'), failed: n('failed'), skipped: n('skipped') }).toEqual({
        passed: r?.passed,
        failed: r?.failed,
        skipped: r?.skipped,
      });
    for (const c of cases) if (c.excerpt) expect(['failed', 'error']).toContain(c.status);
    expect(r?.source).toBe('report');
  });

  // The console's counts agree with the runner's own report on every honest run, and on every spoofed one too.
  const agreeing = reports.filter(([d, n]) => !(d === 'vitest' && n === 'segfault'));
  test.each(agreeing)('%s/%s: console counts = report counts', (dir, name, format) => {
    const r = readReport(format, read(`${dir}/${name}.report.${format === 'junit' ? 'xml' : 'json'}`), { runner: dir });
    const c = parseTestOutput(read(`${dir}/${name}.txt`), { name: dir });
    const pass = (x: TestCounts | null) => (x?.passed ?? 0) + (x?.xpassed ?? 0);
    expect(pass(c)).toBe(pass(r));
    expect(c?.failed).toBe(r?.failed);
    expect(c?.errors).toBe(r?.errors);
  });

  test('spoofed runs: the report agrees with the real summary and the reconciled counts stay disputed', () => {
    for (const [dir, name, format] of reports.filter(([, n]) => n.startsWith('spoof'))) {
      const r = readReport(format, read(`${dir}/${name}.report.${format === 'junit' ? 'xml' : 'json'}`), {
        runner: dir,
      });
      const c = parseTestOutput(read(`${dir}/${name}.txt`), { name: dir });
      const merged = reconcile(c, r);
      expect(merged?.failed, `${dir}/${name}`).toBe(1);
      if (c?.counts_disputed) expect(merged?.counts_disputed, `${dir}/${name}`).toBe(true);
    }
  });

  test('vitest calls the tests of a crashed worker passed in its JUnit report: the console crash keeps the error', () => {
    const r = readJunit(read('vitest/segfault.report.xml'), 'vitest');
    expect(r).toMatchObject({ passed: 7, failed: 0, errors: 0 });
    const merged = reconcile(parseTestOutput(read('vitest/segfault.txt')), r);
    expect(merged).toMatchObject({ counts_disputed: true, runner_crashed: true, errors: 1, source: 'console' });
  });
});

describe('report readers', () => {
  test('node --test JUnit nests suites: ids name the path, the top-level test is not in a suite', () => {
    const r = readJunit(read('node-test/nested.report.xml'), 'node-test');
    expect(r?.cases?.map((c) => `${c.id}=${c.status}`)).toEqual([
      'outer > inner > deep one=passed',
      'outer > inner > deep two=passed',
      'outer > shallow fails=failed',
      'top skipped=skipped',
    ]);
  });
  test('pytest JUnit ids are the ids pytest -v prints', () => {
    const ids = readJunit(read('pytest/subtests.report.xml'))?.cases?.map((c) => c.id);
    expect(ids).toEqual([
      'test_subtests.py::test_subs',
      'test_subtests.py::Skips::test_skipped_subtests',
      'test_subtests.py::test_plain',
    ]);
    const v = parseTestOutput(read('pytest/subtests-v.txt'))?.cases?.map((c) => c.id);
    expect(v).toEqual(ids);
  });
  test('JUnit <error> is an error, xfail is xfail, an excerpt is at most 500 characters', () => {
    const r = readJunit(read('pytest/basic-report.report.xml'));
    expect(r).toMatchObject({ errors: 1, xfailed: 1, failed: 3 });
    for (const c of r?.cases ?? []) expect((c.excerpt ?? '').length).toBeLessThanOrEqual(500);
  });
  test("pytest JUnit: a teardown that failed after the test passed counts passed and an error, as pytest's summary", () => {
    const xml = (msg: string) =>
      `<testsuites><testsuite name="pytest" errors="1" tests="2"><testcase classname="test_m" name="test_ok"/><testcase classname="test_m" name="test_t"><error message="${msg}">boom</error></testcase></testsuite></testsuites>`;
    // pytest prints "2 passed, 1 error" for this run: the console and the report agree.
    expect(readJunit(xml('failed on teardown with &quot;RuntimeError: teardown&quot;'))).toMatchObject({
      passed: 2,
      errors: 1,
    });
    expect(parseTestOutput(xml('failed on teardown with &quot;x&quot;'), { name: 'junit' })).toMatchObject({
      passed: 2,
      errors: 1,
    });
    // A setup error never ran the test.
    expect(readJunit(xml('failed on setup with &quot;RuntimeError: setup&quot;'))).toMatchObject({
      passed: 1,
      errors: 1,
    });
  });
  test('jest JSON: nested titles joined with " > ", file relative to the project', () => {
    const r = readJestJson(read('jest/nested.report.json'), '/tmp/capture-work/jest');
    expect(r?.cases?.map((c) => c.id)).toContain('nested.test.js::outer > inner > deep one');
  });
  test('mocha JSON: a failed hook is one failure of its suite, as on the console', () => {
    expect(readMochaJson(read('mocha/after-hook.report.json'))).toMatchObject({ passed: 5, failed: 1, errors: 0 });
  });
  test('phpunit JUnit: data-provider cases nested under their method, file paths relative to the project', () => {
    const r = readJunit(read('phpunit/data.report.xml'), 'phpunit', '/tmp/capture-work/phpunit');
    expect(r).toMatchObject({ passed: 2, failed: 1 });
    expect(r?.cases?.map((c) => c.id)).toEqual(
      ['one', 'two', 'three'].map((n) => `DataTest.php::DataTest::testSmall with data set "${n}"`),
    );
  });
  test('rspec JSON: a spec file that failed to load is an error outside of examples', () => {
    expect(readReport('rspec-json', read('rspec/load-error.report.json'))).toMatchObject({ passed: 0, errors: 1 });
  });
  test('bad input is not a report', () => {
    expect(readJestJson('not json')).toBeNull();
    expect(readMochaJson('{"stats":{}}')).toBeNull();
    expect(readJunit('<html></html>')).toBeNull();
  });
});

describe('reconcile', () => {
  const counts = (over: Partial<TestCounts>): TestCounts => ({
    runner: 'x',
    passed: 2,
    failed: 0,
    skipped: 0,
    errors: 0,
    total: 2,
    ...over,
  });
  test('agreeing sources: the report, not disputed', () => {
    expect(reconcile(counts({}), counts({ source: 'report' }))).toMatchObject({ source: 'report' });
    expect(reconcile(counts({}), counts({}))?.counts_disputed).toBeUndefined();
  });
  test('a report overwritten to say all passed while the console saw a failure: disputed, the failure kept', () => {
    const m = reconcile(counts({ passed: 1, failed: 1 }), counts({ passed: 2 }));
    expect(m).toMatchObject({ counts_disputed: true, failed: 1, source: 'console' });
  });
  test('no report: console counts with the reason', () => {
    expect(reconcile(counts({}), null, 'no report')).toMatchObject({ source: 'console', notes: ['no report'] });
  });
});

describe('pickSummary', () => {
  test('takes the last candidate that agrees, disputes when there are several', () => {
    expect(pickSummary([1, 5, 2], (n) => n >= 2, 'x')).toMatchObject({
      chosen: 2,
      disputed: expect.stringContaining('3 summaries'),
    });
    expect(pickSummary([5], (n) => n >= 2, 'x')).toEqual({ chosen: 5, disputed: null });
    expect(pickSummary([0, 1], (n) => n >= 2, 'x')).toMatchObject({
      chosen: 1,
      disputed: expect.stringContaining('contradicts'),
    });
    expect(pickSummary([], () => true, 'x')).toEqual({ chosen: null, disputed: null });
  });
});

describe('planReport', () => {
  test('pytest through PYTEST_ADDOPTS, whatever wraps it; the others only when the command starts with them', () => {
    expect(planReport('make test && python -m pytest -q', '/r', null)).toMatchObject({
      runner: 'pytest',
      command: 'make test && python -m pytest -q',
      env: { PYTEST_ADDOPTS: '--junitxml=/r/pytest.xml' },
    });
    expect(planReport('pytest', '/r', null, { PYTEST_ADDOPTS: '-x' })?.env.PYTEST_ADDOPTS).toBe(
      '-x --junitxml=/r/pytest.xml',
    );
    // The witness: loaded from the report folder, on top of the user's own options and PYTHONPATH.
    // Under the run's own module name; the pass hook on (the witness sees each passing comparison's values).
    expect(planReport('pytest', '/r', null, { PYTEST_ADDOPTS: '-x', PYTHONPATH: 'src' })?.witness?.env).toEqual({
      PYTEST_ADDOPTS: '-x --junitxml=/r/pytest.xml -p judgeloop_w_r -o enable_assertion_pass_hook=true',
      PYTHONPATH: '/r:src',
      // The pytest judgeloop starts, not one a test starts (the witness takes it out of the environment, and puts
      // the PYTHONPATH back for the processes the tests start).
      JUDGELOOP_WITNESS_MAIN: '1',
      JUDGELOOP_WITNESS_PATH: 'src',
      // The pytest script starts with safe paths; `python -m pytest` keeps its cwd (its imports need it).
      PYTHONSAFEPATH: '1',
    });
    expect(planReport('python3 -m pytest', '/tmp/judgeloop-report-a1B2c3', null)?.witness?.env).toMatchObject({
      PYTEST_ADDOPTS: expect.stringContaining('-p judgeloop_w_judgeloop_report_a1B2c3 '),
      PYTHONPATH: '/tmp/judgeloop-report-a1B2c3',
    });
    expect(planReport('python3 -m pytest', '/r', null)?.witness?.env.PYTHONSAFEPATH).toBeUndefined();
    // python -m unittest runs as judgeloop's observer module (per-run name), which runs unittest with the same
    // arguments; its console stays the evidence.
    expect(planReport('python3 -m unittest discover -s tests -v', '/r', null, { PYTHONPATH: 'src' })).toMatchObject({
      runner: 'unittest',
      format: 'console',
      file: null,
      command: 'python3 -m judgeloop_u_r discover -s tests -v',
      witness: { env: { PYTHONPATH: '/r:src' } },
    });
    expect(planReport('python3 -m unittest', '/r', 'pytest')?.runner).toBe('pytest');
    expect(planReport('npx vitest run', '/r', null)?.command).toBe(
      "npx vitest run --reporter=default --reporter=junit --outputFile.junit='/r/vitest.xml'",
    );
    expect(planReport('jest --ci', '/r', null)?.command).toBe("jest --ci --json --outputFile='/r/jest.json'");
    expect(planReport('node --test test/', '/r', null)?.command).toBe(
      "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination='/r/node-test.xml' test/",
    );
    expect(planReport('vendor/bin/phpunit tests', '/r', null)?.command).toBe(
      "vendor/bin/phpunit tests --log-junit '/r/phpunit.xml'",
    );
    expect(planReport('bundle exec rspec', '/r', null)?.command).toBe(
      "bundle exec rspec --format progress --format json --out '/r/rspec.json'",
    );
    expect(planReport('rspec -f d', '/r', null)?.command).toBe("rspec -f d --format json --out '/r/rspec.json'");
    expect(planReport('npm test', '/r', null)).toBeNull();
    expect(planReport('cargo test', '/r', null)).toMatchObject({ runner: 'cargo', command: 'cargo test', file: null });
    expect(planReport('npx mocha test/', '/r', null)?.command).toBe(
      "npx mocha test/ --reporter json --reporter-option output='/r/mocha.json'",
    );
  });
  test('a named runner wins over detection', () => {
    expect(planReport('./run-tests.sh', '/r', 'pytest')?.runner).toBe('pytest');
    expect(planReport('vitest run', '/r', 'jest')).toBeNull();
  });
});

describe('planReport: the commands users write', () => {
  const plan = (command: string, scripts: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
    planReport(command, '/r', null, env, scripts);
  test('npm test resolves to the script; the flags go after `--` to its last command', () => {
    expect(plan('npm test', { test: 'vitest run' })?.command).toBe(
      "npm test -- --reporter=default --reporter=junit --outputFile.junit='/r/vitest.xml'",
    );
    // A chain: npm appends the arguments to the whole script, so they reach its last command.
    expect(plan('npm run test:unit', { 'test:unit': 'tsc -p . && vitest run --silent' })?.command).toBe(
      "npm run test:unit -- --reporter=default --reporter=junit --outputFile.junit='/r/vitest.xml'",
    );
    // Arguments already given after `--`: ours follow them.
    expect(plan('npm test -- --bail', { test: 'jest' })?.command).toBe(
      "npm test -- --bail --json --outputFile='/r/jest.json'",
    );
    // yarn and pnpm pass everything after the script's name.
    expect(plan('yarn test', { test: 'jest --ci' })?.command).toBe("yarn test --json --outputFile='/r/jest.json'");
    expect(plan('pnpm test', { test: 'cross-env CI=1 vitest' })?.runner).toBe('vitest');
    // A script that runs another script.
    expect(plan('npm test', { test: 'npm run unit', unit: 'vitest run' })?.command).toBe(
      "npm test -- -- --reporter=default --reporter=junit --outputFile.junit='/r/vitest.xml'",
    );
    expect(plan('npm t', { test: 'mocha' })?.runner).toBe('mocha');
  });
  test('a runner that is not the last command gets nothing (the flags would reach another command)', () => {
    expect(plan('npm test', { test: 'vitest run && eslint .' })).toBeNull();
    expect(plan('npm test', { test: 'vitest run || true' })).toBeNull();
    expect(plan('npm test', { test: 'make check' })).toBeNull();
    expect(plan('npm test', {})).toBeNull();
    // The command itself a chain: appended flags would reach its last part.
    expect(plan('npm test && echo done', { test: 'vitest run' })).toBeNull();
    expect(planReport('npm test', '/r', null, {}, null)).toBeNull();
  });
  test('node --test through NODE_OPTIONS (it takes no option after a file), with the witness; pytest anywhere', () => {
    const p = plan('npm test', { test: 'tsc && node --test test/' }, { NODE_OPTIONS: '--max-old-space-size=512' });
    const reporters =
      '--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=/r/node-test.xml';
    expect(p).toMatchObject({
      runner: 'node-test',
      command: 'npm test',
      env: { NODE_OPTIONS: `--max-old-space-size=512 ${reporters}` },
    });
    expect(p?.witness?.env.NODE_OPTIONS).toBe(
      `--max-old-space-size=512 ${reporters} --import=file:///r/judgeloop-w-r.mjs`,
    );
    // Two node --test runs would write one file in turn: neither is asked.
    expect(plan('npm test', { test: 'node --test a/ && node --test b/' })).toBeNull();
    expect(plan('npm test', { test: 'python -m pytest -q && echo ok' })).toMatchObject({
      runner: 'pytest',
      command: 'npm test',
      env: { PYTEST_ADDOPTS: '--junitxml=/r/pytest.xml' },
    });
  });
  test("vitest, jest and mocha: judgeloop's observer through NODE_OPTIONS, a report asked for or not", () => {
    // With the report: the observer's preload under the run's own name, on top of the user's NODE_OPTIONS.
    expect(plan('npm test', { test: 'vitest run' }, { NODE_OPTIONS: '--no-warnings' })?.witness?.env).toEqual({
      NODE_OPTIONS: '--no-warnings --import=file:///r/judgeloop-o-r.mjs',
      JUDGELOOP_JS_WITNESS: '/r/witness.txt',
    });
    for (const c of ['npx jest --ci', 'mocha test/']) expect(planReport(c, '/r', null)?.witness).toBeDefined();
    // The runner not the script's last command, or the command a chain: no report, the observer still (counts from
    // the console), found through the scripts it runs; none when another runner is named or none is there.
    const scripts = { test: 'vitest run && eslint .', ci: 'npm run unit || true', unit: 'jest' };
    for (const [command, runner] of [
      ['npm test', 'vitest'],
      ['npm run ci', 'jest'],
      ['npm test && echo done', 'vitest'],
      ['CI=1 npx mocha && echo ok', 'mocha'],
    ] as const)
      expect(planObserved(command, '/r', null, {}, scripts)).toMatchObject({
        runner,
        format: 'console',
        file: null,
        command,
        witness: { env: { NODE_OPTIONS: '--import=file:///r/judgeloop-o-r.mjs' } },
      });
    expect(planObserved('npm test', '/r', 'jest', {}, scripts)).toBeNull();
    expect(planObserved('make check && eslint .', '/r', null, {}, scripts)).toBeNull();
    expect(planObserved('npm test', '/r', null, {}, { test: 'node --test' })).toBeNull();
  });
  test('go test asks for -json on the console, in every package', () => {
    expect(planReport('go test ./...', '/r', null)).toMatchObject({
      runner: 'go',
      format: 'console',
      file: null,
      command: 'go test -json ./...',
    });
    expect(planReport('CGO_ENABLED=0 go test -v ./... && go vet ./...', '/r', null)?.command).toBe(
      'CGO_ENABLED=0 go test -json -v ./... && go vet ./...',
    );
    expect(planReport('go test -json ./...', '/r', null)?.command).toBe('go test -json ./...');
    expect(planReport('go vet ./...', '/r', null)).toBeNull();
    // judgeloop init's own command: a quoted assignment with a space before the runner.
    const init = 'GOMODCACHE="$(pwd)/.judgeloop-deps/gomod" GOFLAGS="-mod=readonly -modcacherw" go test ./...';
    // Its own GOFLAGS wins over the environment's: it carries the observer's -exec too.
    expect(planReport(init, '/r', null)?.command).toBe(
      'GOMODCACHE="$(pwd)/.judgeloop-deps/gomod" GOFLAGS="-mod=readonly -modcacherw -exec=/r/judgeloop-go-r" go test -json ./...',
    );
    expect(planReport('GOFLAGS=-mod=mod go test ./...', '/r', null)?.command).toBe(
      'GOFLAGS="-mod=mod -exec=/r/judgeloop-go-r" go test -json ./...',
    );
    // Every test binary through judgeloop's wrapper: GOFLAGS reaches go test behind npm test or make test too.
    expect(planReport('go test ./...', '/r', null, { GOFLAGS: '-mod=mod' })?.witness?.env).toEqual({
      GOFLAGS: '-mod=mod -exec=/r/judgeloop-go-r',
    });
    expect(planReport('npm test', '/r', null, {}, { test: 'go test ./...' })).toMatchObject({
      runner: 'go',
      command: 'npm test',
      witness: { env: { GOFLAGS: '-exec=/r/judgeloop-go-r' } },
    });
    expect(planReport('make test', '/r', 'go')).toMatchObject({ runner: 'go', command: 'make test' });
    expect(planReport('make test', '/r', null)).toBeNull();
    expect(planReport('cargo test', '/r', null)?.witness?.env).toMatchObject({
      CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER: '/r/judgeloop-cargo-r',
    });
    expect(planReport(`FLAGS='-x -y' npx vitest run`, '/r', null)?.runner).toBe('vitest');
  });
});

describe('shellSegments', () => {
  test('splits on shell operators outside quotes', () => {
    expect(shellSegments(`tsc && vitest run -t 'a && b' | tee x; echo "c;d" || true`)).toEqual([
      'tsc',
      "vitest run -t 'a && b'",
      'tee x',
      'echo "c;d"',
      'true',
    ]);
  });
});
