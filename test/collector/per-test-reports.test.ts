// Per-test results without configuration: `npm test` (vitest, node --test), `go test`, `cargo test` on real projects,
// collected by bin/collect; the per-test report is asked by judgeloop and the failing test is named.
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/repo.js';
import { goBuildCache } from '../helpers/shared-cache.js';
import { ROOT, runBin, solutionRecords } from './_project.js';

interface Case {
  id: string;
  status: string;
}

/** One solution per project (a real change that fixes nothing), collected; its feedback's tests and its line. */
function collectOne(
  files: Record<string, string>,
  change: Record<string, string>,
  test: string,
  config: Record<string, unknown> = {},
  env: Record<string, string> = {},
): { tests: Record<string, any>; baseline: Record<string, any> | null; line: string } {
  const repo = makeRepo(files);
  const dir = tempDir('judgeloop-pertest-');
  writeFileSync(join(dir, 'judgeloop.json'), JSON.stringify({ collector: config }));
  const records = solutionRecords(repo, dir, { a: change }, { id: 't', prompt: 'fix it' }, { build: null, test });
  const r = runBin(records, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: tmpdir(),
      JUDGELOOP_STATE_DIR: join(dir, 'state'),
      ...env,
    },
  });
  expect(r.code, r.stderr).toBe(0);
  const stdout = r.stdout;
  const fb = JSON.parse(readFileSync(join(dir, 'state', 'feedback', 'bd-a.json'), 'utf8'));
  return {
    tests: fb.checks.test.tests,
    baseline: fb.baseline?.tests ?? null,
    line: stdout.split('\n').find((l) => l.startsWith('bd-a ')) ?? stdout,
  };
}

const statuses = (cases: Case[]): Record<string, string> => Object.fromEntries(cases.map((c) => [c.id, c.status]));

// judgeloop's own vitest, linked into each checkout (the sandbox hides judgeloop's folder: its node_modules is exposed).
const modules = realpathSync(join(ROOT, 'node_modules'));
const node_modules = { setup_command: `ln -s '${modules}' node_modules`, sandbox_expose: [modules] };

describe('npm test resolved to its runner: the report asked for, the failing test named', () => {
  it('vitest behind a chained npm script (the flags after `--` reach its last command)', () => {
    const { tests, baseline } = collectOne(
      {
        'package.json': JSON.stringify({
          name: 'p',
          private: true,
          type: 'module',
          scripts: { test: 'node --check src/add.mjs && vitest run' },
        }),
        'src/add.mjs': 'export const add = (a, b) => a - b;\n',
        'test/add.test.mjs': [
          "import { expect, test } from 'vitest';",
          "import { add } from '../src/add.mjs';",
          "test('adds zero', () => expect(add(2, 0)).toBe(2));",
          "test('adds', () => expect(add(1, 2)).toBe(3));",
          '',
        ].join('\n'),
        '.gitignore': 'node_modules\n',
      },
      { 'src/add.mjs': 'export const add = (a, b) => a - b; // same\nexport const two = 2;\n' },
      'npm test',
      node_modules,
    );
    expect(tests).toMatchObject({ runner: 'vitest', source: 'report', report: 'read', cases_complete: true });
    expect(statuses(tests.cases)).toEqual({
      'test/add.test.mjs::adds zero': 'passed',
      'test/add.test.mjs::adds': 'failed',
    });
    expect(statuses(baseline?.cases)).toEqual(statuses(tests.cases));
  });

  it('node --test behind npm test (its reporters through NODE_OPTIONS, the witness loaded)', () => {
    const { tests } = collectOne(
      {
        'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test test/' } }),
        'src/add.mjs': 'export const add = (a, b) => a - b;\n',
        'test/add.test.mjs': [
          "import test from 'node:test';",
          "import assert from 'node:assert';",
          "import { add } from '../src/add.mjs';",
          "test('adds zero', () => assert.equal(add(2, 0), 2));",
          "test('adds', () => assert.equal(add(1, 2), 3));",
          '',
        ].join('\n'),
      },
      { 'src/add.mjs': 'export const add = (a, b) => a - b;\nexport const two = 2;\n' },
      'npm test',
    );
    expect(tests).toMatchObject({ runner: 'node-test', source: 'report', report: 'read', cases_complete: true });
    expect(statuses(tests.cases)).toEqual({ 'adds zero': 'passed', adds: 'failed' });
    expect(tests.counts_disputed).toBeUndefined();
  });
});

describe('go test and cargo test: per-test results', () => {
  // One build cache for the base's run and the solution's: a copy of the run's warm one (a cold one costs ~6 s a run).
  const gocache = goBuildCache();
  it('go test ./... is run with -json: every test listed, the failing one named', () => {
    const { tests } = collectOne(
      {
        'go.mod': 'module example.com/calc\n\ngo 1.19\n',
        'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a - b }\n',
        'calc_test.go': [
          'package calc',
          '',
          'import "testing"',
          '',
          'func TestAddZero(t *testing.T) {',
          '\tif Add(2, 0) != 2 {',
          '\t\tt.Fatal("2+0")',
          '\t}',
          '}',
          '',
          'func TestAdd(t *testing.T) {',
          '\tif Add(1, 2) != 3 {',
          '\t\tt.Fatal("1+2")',
          '\t}',
          '}',
          '',
        ].join('\n'),
      },
      { 'calc.go': 'package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n\nconst Two = 2\n' },
      'go test ./...',
      { sandbox_writable: [gocache] },
      { GOCACHE: gocache },
    );
    expect(tests).toMatchObject({ runner: 'go', passed: 1, failed: 1, report: 'read', cases_complete: true });
    expect(statuses(tests.cases)).toEqual({
      'example.com/calc::TestAddZero': 'passed',
      'example.com/calc::TestAdd': 'failed',
    });
  });

  it("cargo test: libtest's per-test lines (stable has no JSON) list every test", () => {
    const { tests } = collectOne(
      {
        'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        'src/lib.rs': [
          'pub fn add(a: i64, b: i64) -> i64 {',
          '    a - b',
          '}',
          '',
          '#[cfg(test)]',
          'mod tests {',
          '    use super::*;',
          '    #[test]',
          '    fn adds_zero() {',
          '        assert_eq!(add(2, 0), 2);',
          '    }',
          '    #[test]',
          '    fn adds() {',
          '        assert_eq!(add(1, 2), 3);',
          '    }',
          '}',
          '',
        ].join('\n'),
        '.gitignore': 'target\n',
      },
      { 'src/lib.rs.note': 'x\n', 'src/extra.rs': 'pub const TWO: i64 = 2;\n' },
      'cargo test --offline',
    );
    expect(tests).toMatchObject({ runner: 'cargo', passed: 1, failed: 1, cases_complete: true });
    expect(statuses(tests.cases)).toEqual({ 'calc::tests::adds_zero': 'passed', 'calc::tests::adds': 'failed' });
  });
});

// Keeps the toolchains' absence loud (no skipping): the install command is in the failure.
for (const [tool, install] of [
  ['go', 'apt-get install -y golang-go'],
  ['cargo', 'install rustup (cargo comes with the machine)'],
] as const)
  try {
    execFileSync(tool, ['version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`${tool} is needed by these tests: ${install}`);
  }
