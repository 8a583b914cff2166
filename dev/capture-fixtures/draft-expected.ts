// Drafts test/fixtures/output/expected.json from the parsers. A drafting aid only: every changed number must be
// checked by hand against the project and the tool's own summary or machine-readable output before committing.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTestOutput, parseLintOutput, LINTERS } from '../../lib/collector/parsers/index.js';
const root = fileURLToPath(new URL('../../test/fixtures/output/', import.meta.url));
const how: Record<string, string> = {
  'phpunit/basic':
    'projects/phpunit/BasicTest.php: 3 pass, 1 failure, 1 error, 1 skipped + 1 incomplete (skipped); JUnit report agrees',
  'phpunit/spoof':
    'projects/phpunit/SpoofTest.php: 1 pass, 1 fail; the test and a shutdown function print "OK (2 tests, 2 assertions)": disputed',
  'phpunit/data': 'projects/phpunit/DataTest.php: a data provider of 3, 1 fails',
  'phpunit/all-pass': 'BasicTest.php filtered to testAdds|testSubtracts: 2 pass',
  'phpunit/no-tests': 'phpunit --filter nothing_matches: "No tests executed!"',
  'rspec/basic': 'projects/rspec/basic_spec.rb: 3 pass, 2 fail, 2 pending (JSON report agrees)',
  'rspec/documentation': 'projects/rspec/basic_spec.rb with the documentation formatter: 3 pass, 2 fail, 2 pending',
  'rspec/spoof':
    'projects/rspec/spoof_spec.rb: 1 pass, 1 fail; the example and an at_exit hook print "2 examples, 0 failures": disputed',
  'rspec/hook': 'projects/rspec/hook_spec.rb: before(:all) raises, rspec fails its 2 examples; 1 pass',
  'rspec/load-error':
    'projects/rspec basic + broken_spec.rb (syntax error): rspec runs nothing, 1 error outside of examples',
  'rspec/no-tests': 'rspec --example nothing_matches: 0 examples',
  'pytest/spoof':
    'projects/pytest/test_spoof.py: 1 pass, 1 fail (the JUnit report spoof.report.xml agrees); the failing test and an atexit hook print fake "2 passed" summaries: disputed',
  'pytest/segfault':
    'projects/pytest/test_segfault.py: 1 pass, then SIGSEGV (Fatal Python error): 1 error for the crash',
  'pytest/subtests':
    'projects/pytest/test_subtests.py: test_subs fails through 1 of 3 subtests, the unittest case whose subtests skip passes (as pytest -v says), test_plain passes; counted per test',
  'pytest/xfail': 'projects/pytest/test_xfail.py: 1 pass, 1 skip, 1 xfail, 1 xpass (the -rA lines and JUnit agree)',
  'pytest/no-tests-report': 'pytest -k nothing_matches: 0 collected, exit 5',
  'unittest/spoof':
    'projects/unittest/test_spoof.py: 1 pass, 1 fail; the test and an atexit hook print fake "Ran 2 tests ... OK" blocks: disputed',
  'unittest/subtests':
    'projects/unittest/test_subtests.py: all-skipped subtests = 1 skipped test, 1 failing subtest = 1 failed test, 1 pass (the -v lines say so)',
  'unittest/errors':
    'projects/unittest/test_errors.py: 1 pass, 1 assertion failure, 2 exceptions (unittest errors, kept apart)',
  'unittest/segfault':
    'the interpreter segfaults before unittest prints anything but dots: no counts (the collector sees the signal exit)',
  'unittest/basic':
    'project projects/unittest: 3 pass + 4 (test_pass), 1 failure + 1 unexpected success = 2 failed, 1 error (RuntimeError) kept apart, 1 skip, 1 expected failure',
  'unittest/verbose':
    'project projects/unittest: 3 pass + 4 (test_pass), 1 failure + 1 unexpected success = 2 failed, 1 error (RuntimeError) kept apart, 1 skip, 1 expected failure',
  'vitest/spoof':
    'projects/vitest/spoof.test.js: 1 pass, 1 fail (JUnit report agrees); the test and a globalSetup teardown print fake summary blocks: disputed',
  'vitest/segfault':
    'projects/vitest/segfault.test.js + pass.test.js: 4 pass, the worker dies by SIGSEGV: 1 error for the crash',
  'vitest/hook':
    'projects/vitest/hook.test.js: beforeAll throws (Failed Suites 1: one failure of the suite), its 2 tests skipped, 1 pass',
  'vitest/nested': 'projects/vitest/nested.test.js: 2 pass, 1 fail, 1 skip in nested suites (JUnit report agrees)',
  'vitest/no-test-files': 'vitest run with a filter that matches nothing: "No test files found", exit 1',
  'jest/spoof':
    'projects/jest/spoof.test.js: 1 pass, 1 fail (JSON report agrees); the test and a globalTeardown print fake summary blocks: disputed',
  'jest/segfault': 'jest in band, the process segfaults: no output at all',
  'jest/hook': 'projects/jest/hook.test.js: beforeAll throws; jest fails the 2 tests it guards, 1 pass',
  'jest/nested': 'projects/jest/nested.test.js: 2 pass, 1 fail, 1 skip in nested suites (JSON report agrees)',
  'jest/no-test-files': 'jest with a pattern that matches nothing: "No tests found", exit 1',
  'mocha/spoof':
    'projects/mocha/spoof.spec.cjs: 1 pass, 1 fail (JSON report agrees); the test and an exit handler print "2 passing": disputed',
  'mocha/nested': 'projects/mocha/nested.spec.cjs: 2 pass, 1 fail, 1 pending (JSON report agrees)',
  'mocha/after-hook':
    'projects/mocha/after-hook.spec.cjs + pass.spec.cjs: 1 + 4 pass, the afterEach hook fails (one failure of the suite), 1 test never runs',
  'node-test/spoof':
    'projects/nodetest/spoof.test.mjs: 1 pass, 1 fail (JUnit report agrees); the test prints fake closing blocks (spec: disputed; TAP escapes them as comments)',
  'node-test/segfault':
    'projects/nodetest/pass + segfault: 4 pass, the file process dies by SIGSEGV: 1 error for the file',
  'node-test/hook':
    'projects/nodetest/hook.test.mjs: before() throws; node fails the 2 tests it guards (cancelled), 1 pass',
  'node-test/nested':
    'projects/nodetest/nested.test.mjs: 2 pass, 1 fail, 1 skip in nested suites (JUnit report agrees)',
  'node-test/no-tests': 'node --test with a glob that matches nothing: "Could not find", no tests collected',
  'node-tap/spoof':
    'projects/nodetap/spoof.test.mjs: 1 pass, 1 fail; tap indents what the test prints, so the fake summary is not a candidate',
  'node-tap/load-crash': 'projects/nodetap pass (4) + load-crash (throws while loading: 1 error, crashed)',
  'tap/perl-spoof':
    'projects/perl/spoof.t: plan 2, the test prints "ok 2"/"ok 3" itself: 3 ok + 1 not ok read, duplicate number and points beyond the plan: disputed',
  'cargo/spoof':
    'projects/cargo --features spoof: lib 3 pass + 1 ignored + 1 fail, integration 2, doc 2; the failing test prints a whole fake block: disputed',
  'cargo/segfault':
    'projects/cargo --features segv: the lib binary dies by SIGSEGV before any result (1 error for the crash), integration 2, doc 2',
  'go/spoof':
    'projects/go/spoof: TestPasses passes, TestFails fails after printing "--- PASS", "=== RUN TestFake" and "ok pkg": disputed (with -v/-json TestFake is believed, as go itself does)',
  'go/segfault':
    'projects/go/segv (TestBefore passes, SIGSEGV in TestSegfaults: the binary dies, 1 error) + calc (6 pass, 1 skip)',
  'go/timeout': 'projects/go/slow: TestQuick passes, TestSlow runs into -timeout 1s: the binary panics, 1 error',
  'biome/github': 'biome --reporter=json summary of the same files (2 errors, 3 warnings)',
  'clippy/short': '--message-format=short with --features deny: 4 warnings, 1 error',
  'jest/':
    "project dev/capture-fixtures/projects/jest (basic: 3 pass, 2 fail, 1 skip, 1 todo; pass: 4) = Jest's own Tests: line",
  'vitest/':
    "project projects/vitest (same shapes as jest) = vitest's own Tests line; load-error/crash/timeout checked against the FAIL lines",
  'mocha/json': 'mocha --reporter json stats (passes/failures/pending)',
  'mocha/':
    "project projects/mocha = mocha's passing/pending/failing lines; a failed hook is one failure of its suite (as mocha counts it)",
  'node-test/':
    "project projects/nodetest = node's closing tests/pass/fail/cancelled/skipped/todo block; load-error file moved from fail to errors",
  'node-tap/': "project projects/nodetap = tap's `# { total, pass, fail, todo, skip }` line",
  'tap/perl-died': 'projects/perl/died.t: plans 5, 2 ok, then dies: 2 passed + 1 error for the death',
  'tap/perl-bail': 'projects/perl/bail.t: 1 ok then Bail out! (an error)',
  'tap/perl':
    'projects/perl/basic.t (Test::More): 3 ok, 2 not ok, 1 # skip, 1 # TODO; prove -v agrees (Tests: 7 Failed: 2)',
  'cargo/abort':
    'projects/cargo --features abort: lib binary aborts after 1 ok (1 passed + 1 error for the crash), integration 2, doc 2',
  'go/panic': 'projects/go/panics: TestFirst passes, TestPanics panics, TestThird never runs',
  'unittest/setupclass':
    'projects/unittest test_pass (4) + test_setupclass (setUpClass raises: 1 error, its 2 tests never run)',
  'pytest/teardown':
    'projects/pytest test_teardown (1 pass + teardown error) + test_pass (4) = pytest summary "5 passed, 1 error"',
  'tap/': 'node basic.test.mjs (raw TAP from the tap library): 3 ok, 2 not ok, 1 # SKIP, 1 # TODO',
  'pytest/':
    'project projects/pytest (test_basic: 3 pass, 2 fail, skip, xfail, xpass, strict xpass, setup error; test_pass: 4) = pytest summary line and JUnit XML of the same files',
  'unittest/':
    'project projects/unittest = `Ran N` + FAILED(...) line, RuntimeError test is failed, _FailedTest import is an error',
  'junit/':
    'the XML itself: one outcome per <testcase> (cross-checked with the testsuite tests/failures/errors/skipped attributes)',
  'cargo/':
    'project projects/cargo (lib: 3 pass + 1 ignored [+2 failing with --features failing], integration: 2, doc: 2) = sum of test result lines',
  'go/json':
    'go test -json events: leaf tests with a run event (calc: 6 leaves pass, 1 skip [+2 fail with CAPTURE_FAIL=1])',
  'go/': 'project projects/go; -v lines with === RUN; plain go shows failures only',
  'eslint/': 'eslint -f json errorCount/warningCount of the same files (4 errors, 3 warnings)',
  'biome/': 'biome --reporter=json summary of the same files',
  'tsc/': 'one error per TS diagnostic line; pretty mode says "Found 4 errors in 2 files"',
  'ruff/': 'ruff\'s "Found N errors." (concise lists the same N lines)',
  'flake8/': 'one per line: W291 warning; F401 x2, F841, F821, E712, E501 errors',
  'pylint/': 'pylint messages by letter: E0602 error; W0612, W0611 x2 warnings; C/R in notes',
  'mypy/': 'mypy "Found N errors" line = its error: lines',
  'shellcheck/': 'per-message levels: SC1073/SC1072 errors, SC2034 warning, SC1009/SC2006/SC2086 info/style in notes',
  'clippy/':
    'warning:/error: diagnostic headers (4 clippy warnings; deny adds approx_constant error), not cargo summary lines',
};
const files: Record<string, unknown> = {};
for (const dir of readdirSync(root).sort()) {
  if (dir.endsWith('.json')) continue;
  for (const f of readdirSync(join(root, dir)).sort()) {
    if (!f.endsWith('.txt')) continue;
    const key = `${dir}/${f}`;
    const text = readFileSync(join(root, key), 'utf8');
    const lint = LINTERS.includes(dir);
    const forced = text.trim() === '';
    const name = forced ? dir : undefined;
    const r = lint ? parseLintOutput(text, { name }) : parseTestOutput(text, { name });
    const derived = Object.entries(how).find(([p]) => key.startsWith(p))?.[1] ?? '';
    if (!r) {
      files[key] = {
        kind: lint ? 'lint' : 'tests',
        expected: null,
        derived: 'not a test run: the tool printed only an error about missing files',
      };
      continue;
    }
    const { notes, cases: _c, cases_complete: _cc, source: _s, ...counts } = r as unknown as Record<string, unknown>;
    files[key] = {
      kind: lint ? 'lint' : 'tests',
      ...(name ? { name } : {}),
      expected: counts,
      notes: Array.isArray(notes) && notes.length > 0,
      derived,
    };
  }
}
writeFileSync(
  join(root, 'expected.json'),
  JSON.stringify(
    {
      $comment:
        "Expected counts per captured fixture. Each number was checked by hand against the project that produced it (dev/capture-fixtures/projects) and the tool's own machine-readable output where it has one; `derived` says how. `name` forces the parser (empty output); `notes` says whether notes must be present.",
      files,
    },
    null,
    1,
  ) + '\n',
);
console.log(Object.keys(files).length);
