// Drafts test/fixtures/output/expected.json from the parsers. A drafting aid only: every changed number must be
// checked by hand against the project and the tool's own summary or machine-readable output before committing.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTestOutput, parseLintOutput, LINTERS } from '../../lib/parsers/index.js';
const root = fileURLToPath(new URL('../../../test/fixtures/output/', import.meta.url));
const how: Record<string, string> = {
  'jest/': 'project scripts/dev/capture-fixtures/projects/jest (basic: 3 pass, 2 fail, 1 skip, 1 todo; pass: 4) = Jest\'s own Tests: line',
  'vitest/': 'project projects/vitest (same shapes as jest) = vitest\'s own Tests line; load-error/crash/timeout checked against the FAIL lines',
  'mocha/json': 'mocha --reporter json stats (passes/failures/pending)',
  'mocha/': 'project projects/mocha = mocha\'s passing/pending/failing lines; a failed before-all hook is an error',
  'node-test/': 'project projects/nodetest = node\'s closing tests/pass/fail/cancelled/skipped/todo block; load-error file moved from fail to errors',
  'node-tap/': 'project projects/nodetap = tap\'s `# { total, pass, fail, todo, skip }` line',
  'tap/perl-died': 'projects/perl/died.t: plans 5, 2 ok, then dies: 2 passed + 1 failed for the death',
  'tap/perl-bail': 'projects/perl/bail.t: 1 ok then Bail out! (an error)',
  'tap/perl': 'projects/perl/basic.t (Test::More): 3 ok, 2 not ok, 1 # skip, 1 # TODO; prove -v agrees (Tests: 7 Failed: 2)',
  'cargo/abort': 'projects/cargo --features abort: lib binary aborts after 1 ok (1 passed + 1 failed for the crash), integration 2, doc 2',
  'go/panic': 'projects/go/panics: TestFirst passes, TestPanics panics, TestThird never runs',
  'unittest/setupclass': 'projects/unittest test_pass (4) + test_setupclass (setUpClass raises: 1 error, its 2 tests never run)',
  'pytest/teardown': 'projects/pytest test_teardown (1 pass + teardown error) + test_pass (4) = pytest summary "5 passed, 1 error"',
  'tap/': 'node basic.test.mjs (raw TAP from the tap library): 3 ok, 2 not ok, 1 # SKIP, 1 # TODO',
  'pytest/': 'project projects/pytest (test_basic: 3 pass, 2 fail, skip, xfail, xpass, strict xpass, setup error; test_pass: 4) = pytest summary line and JUnit XML of the same files',
  'unittest/': 'project projects/unittest = `Ran N` + FAILED(...) line, RuntimeError test is failed, _FailedTest import is an error',
  'junit/': 'the XML itself: one outcome per <testcase> (cross-checked with the testsuite tests/failures/errors/skipped attributes)',
  'cargo/': 'project projects/cargo (lib: 3 pass + 1 ignored [+2 failing with --features failing], integration: 2, doc: 2) = sum of test result lines',
  'go/json': 'go test -json events: leaf tests with a run event (calc: 6 leaves pass, 1 skip [+2 fail with CAPTURE_FAIL=1])',
  'go/': 'project projects/go; -v lines with === RUN; plain go shows failures only',
  'eslint/': 'eslint -f json errorCount/warningCount of the same files (4 errors, 3 warnings)',
  'biome/': 'biome --reporter=json summary of the same files',
  'tsc/': 'one error per TS diagnostic line; pretty mode says "Found 4 errors in 2 files"',
  'ruff/': 'ruff\'s "Found N errors." (concise lists the same N lines)',
  'flake8/': 'one per line: W291 warning; F401 x2, F841, F821, E712, E501 errors',
  'pylint/': 'pylint messages by letter: E0602 error; W0612, W0611 x2 warnings; C/R in notes',
  'mypy/': 'mypy "Found N errors" line = its error: lines',
  'shellcheck/': 'per-message levels: SC1073/SC1072 errors, SC2034 warning, SC1009/SC2006/SC2086 info/style in notes',
  'clippy/': 'warning:/error: diagnostic headers (4 clippy warnings; deny adds approx_constant error), not cargo summary lines',
};
const files: Record<string, unknown> = {};
for (const dir of readdirSync(root).sort()) {
  if (dir.endsWith('.json')) continue;
  for (const f of readdirSync(join(root, dir)).sort()) {
    const key = `${dir}/${f}`;
    const text = readFileSync(join(root, key), 'utf8');
    const lint = LINTERS.includes(dir);
    const forced = text.trim() === '';
    const name = forced ? dir : undefined;
    const r = lint ? parseLintOutput(text, { name }) : parseTestOutput(text, { name });
    const derived = Object.entries(how).find(([p]) => key.startsWith(p))?.[1] ?? '';
    if (!r) { files[key] = { kind: lint ? 'lint' : 'tests', expected: null, derived: 'not a test run: the tool printed only an error about missing files' }; continue; }
    const { notes, ...counts } = r as unknown as Record<string, unknown>;
    files[key] = { kind: lint ? 'lint' : 'tests', ...(name ? { name } : {}), expected: counts, notes: Array.isArray(notes) && notes.length > 0, derived };
  }
}
writeFileSync(join(root, 'expected.json'), JSON.stringify({
  $comment: 'Expected counts per captured fixture. Each number was checked by hand against the project that produced it (scripts/dev/capture-fixtures/projects) and the tool\'s own machine-readable output where it has one; `derived` says how. `name` forces the parser (empty output); `notes` says whether notes must be present.',
  files,
}, null, 1) + '\n');
console.log(Object.keys(files).length);
