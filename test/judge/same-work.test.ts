// The same work run twice by each real runner, each time in a new temporary folder as the sealed checkout is, reads
// the same to the judge once normalised: no colour codes, no temporary path, no timing, no build-cache chatter.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dropBuildProgress,
  maskTempPaths,
  maskTimings,
  normalizeOutput,
  plainText,
  sortParallelResults,
  TEMP_PLACEHOLDER,
} from '../../lib/judge/output-lines.js';
import { tempDir, writeTree } from '../helpers/repo.js';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE_MODULES = realpathSync(join(ROOT, 'node_modules'));

/** Runs `command` in a new folder holding `files`, stdout and stderr as one stream (as the collector keeps them). */
function runIn(
  files: Record<string, string>,
  command: string,
  env: Record<string, string> = {},
  prep?: (dir: string) => void,
) {
  const dir = tempDir('judgeloop-base-t-sealed-');
  writeTree(dir, files);
  prep?.(dir);
  // A temporary folder of the run's own ($RUN_TMP), as the sandbox's fresh /tmp is.
  const r = spawnSync('sh', ['-c', `${command} 2>&1`], {
    cwd: dir,
    env: { ...process.env, RUN_TMP: tempDir('judgeloop-run-'), ...env },
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  return { dir, out: r.stdout };
}

/** Two runs of the same files; both normalised as the judge's context does. */
function twice(
  files: Record<string, string>,
  command: string,
  env: Record<string, string> = {},
  prep?: (dir: string) => void,
) {
  const a = runIn(files, command, env, prep);
  const b = runIn(files, command, env, prep);
  const roots = [tmpdir()];
  return { a, b, na: normalizeOutput(a.out, roots), nb: normalizeOutput(b.out, roots) };
}

function expectSameWork(t: ReturnType<typeof twice>, mustKeep: string[]) {
  // The raw runs differ (a path, a time), or there would be nothing to show.
  expect(t.a.out).not.toBe(t.b.out);
  expect(t.na).toBe(t.nb);
  expect(t.na).not.toContain('\u001b');
  expect(t.na).not.toContain(t.a.dir);
  expect(t.na).not.toContain(tmpdir());
  for (const s of mustKeep) expect(t.na).toContain(s);
}

const missing = (tool: string, install: string) => {
  const r = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} is not installed: ${install}`);
};

describe('the same work, run twice by a real runner, normalises to the same text', () => {
  it('vitest with colours: per-file times, Duration, Start at, the checkout path and the report path', () => {
    const t = twice(
      {
        'src/add.mjs': 'export const add = (a, b) => a + b;\n',
        'test/add.test.mjs':
          "import { test, expect } from 'vitest';\nimport { add } from '../src/add.mjs';\n" +
          "test('adds', () => expect(add(1, 2)).toBe(3));\ntest('wrong', () => expect(add(1, 1)).toBe(3));\n",
      },
      // A report into a folder of its own, as the collector asks for one.
      'node node_modules/vitest/vitest.mjs run --reporter=default --reporter=junit --outputFile.junit="$RUN_TMP/vitest.xml"',
      { FORCE_COLOR: '1' },
      (dir) => {
        mkdirSync(join(dir, 'node_modules'));
        symlinkSync(join(NODE_MODULES, 'vitest'), join(dir, 'node_modules', 'vitest'));
      },
    );
    expect(t.a.out).toContain('\u001b[');
    expect(t.a.out).toContain(t.a.dir);
    expectSameWork(t, [
      'test/add.test.mjs',
      'wrong',
      'Tests  1 failed | 1 passed (2)',
      `${TEMP_PLACEHOLDER}/vitest.xml`,
    ]);
    expect(t.na).toMatch(/Duration {2}#s \(transform #s/);
    expect(t.na).toContain('Start at  #:#:#');
    // The colours were tokens the model was paid for.
    expect(t.na.length).toBeLessThan(t.a.out.length * 0.85);
  });

  it('node --test: duration_ms and the per-test times', () => {
    const t = twice(
      {
        't.test.mjs':
          "import test from 'node:test';\nimport assert from 'node:assert';\n" +
          "test('adds', () => assert.equal(1 + 2, 3));\ntest('wrong', () => assert.equal(1 + 1, 3));\n",
      },
      `${process.execPath} --test --test-reporter=spec t.test.mjs`,
    );
    expectSameWork(t, ['adds', 'wrong', 'duration_ms #']);
  });

  it('pytest: rootdir, tmp_path (pytest-of-USER/pytest-N) and "in 0.12s"', () => {
    missing('pytest', 'pip install pytest');
    const t = twice(
      {
        'm.py': 'def add(a, b):\n    return a + b\n',
        'test_m.py':
          'from m import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\n' +
          'def test_tmp(tmp_path):\n    assert add(1, 1) == 3, str(tmp_path)\n',
      },
      // Each run its own base temp folder, as the sandbox's fresh /tmp gives it.
      'TMPDIR="$RUN_TMP" python3 -m pytest -p no:cacheprovider',
    );
    expectSameWork(t, ['test_m.py::test_tmp', '1 failed, 1 passed in #s', `rootdir: ${TEMP_PLACEHOLDER}`]);
  });

  it('go test: --- PASS/FAIL (0.00s), the package time, t.TempDir()', () => {
    missing('go', 'apt-get install -y golang-go');
    const t = twice(
      {
        'go.mod': 'module example.com/m\n\ngo 1.19\n',
        'add.go': 'package m\n\nfunc Add(a, b int) int { return a + b }\n',
        'add_test.go':
          'package m\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n\n' +
          'func TestWrong(t *testing.T) {\n\tt.Log(t.TempDir())\n\tif Add(1, 1) != 3 {\n\t\tt.Errorf("Add(1, 1) = %d", Add(1, 1))\n\t}\n}\n',
      },
      'go test -v -count=1 ./...',
    );
    expectSameWork(t, ['--- PASS: TestAdd (#s)', '--- FAIL: TestWrong (#s)', 'Add(1, 1) = 2', 'example.com/m\t#s']);
  });

  it('cargo test: "finished in 0.00s", the panicking thread id, the Compiling lines (a warm cache prints none)', () => {
    missing('cargo', 'apt-get install -y cargo (or rustup)');
    const target = tempDir('judgeloop-cargo-target-');
    const t = twice(
      {
        'Cargo.toml': '[package]\nname = "m"\nversion = "0.1.0"\nedition = "2021"\n',
        'src/lib.rs':
          'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests {\n    use super::*;\n' +
          '    #[test]\n    fn adds() { assert_eq!(add(1, 2), 3); }\n    #[test]\n    fn wrong() { assert_eq!(add(1, 1), 3); }\n}\n',
      },
      // One target folder, as a shared build cache would be.
      'cargo test --offline',
      { CARGO_TARGET_DIR: target, RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'always' },
    );
    expect(plainText(t.a.out)).toMatch(/Compiling m v0\.1\.0 \(/);
    expect(t.a.out).toMatch(/thread 'tests::wrong' \(\d+\) panicked/);
    expectSameWork(t, ['test tests::wrong ... FAILED', 'finished in #s', "thread 'tests::wrong' (#) panicked"]);
  });
});

describe('normalisation of the captured outputs of every supported runner', () => {
  const runners = ['vitest', 'jest', 'mocha', 'pytest', 'go', 'cargo', 'node-test', 'unittest', 'tap', 'rspec'];
  const files = runners.flatMap((r) =>
    readdirSync(join(ROOT, 'test/fixtures/output', r))
      .filter((f) => f.endsWith('.txt'))
      .map((f) => join(ROOT, 'test/fixtures/output', r, f)),
  );

  it('leaves no timing, no clock time and no escape in any of them', () => {
    expect(files.length).toBeGreaterThan(50);
    const left: string[] = [];
    for (const f of files) {
      const text = normalizeOutput(readFileSync(f, 'utf8'));
      for (const line of text.split('\n')) {
        if (/\b\d+(\.\d+)?\s?(ms|s|sec|seconds)\b|\b\d{1,2}:\d{2}:\d{2}\b|\u001b|duration_ms:? \d/.test(line))
          left.push(`${f}: ${line}`);
      }
    }
    expect(left).toEqual([]);
  });

  it("masks each runner's timing shapes and leaves counts alone", () => {
    const cases: [string, RegExp][] = [
      [' ✓ test/a.test.ts (3 tests) 12ms', / \(3 tests\) #s$/],
      [
        '   Duration  1.23s (transform 165ms, setup 0ms, collect 50ms)',
        /Duration {2}#s \(transform #s, setup #s, collect #s\)/,
      ],
      ['   Start at  22:56:24', /Start at {2}#:#:#/],
      ['Time:        1.2 s, estimated 2 s', /Time: +# s, estimated # s/],
      ['  ✓ adds (5 ms)', /adds \(# s\)/],
      ['==== 3 passed, 1 failed in 0.12s ====', /3 passed, 1 failed in #s/],
      ['ok  \texample.com/pkg\t0.003s', /pkg\t#s$/],
      ['ok  \texample.com/pkg\t(cached)', /pkg\t#s$/],
      ['--- PASS: TestX (0.00s)', /TestX \(#s\)/],
      ['test result: ok. 1 passed; finished in 0.00s', /1 passed; finished in #s/],
      ['    ✔ works (12ms)', /works \(#s\)/],
      ['# duration_ms 1.2', /duration_ms #/],
      ['2026-11-27T22:56:24.123Z started', /^#-#-#T#:#:#Z started/],
      ['Duration 1m 12s', /Duration #m #s/],
    ];
    for (const [raw, want] of cases) expect(maskTimings(raw)).toMatch(want);
  });

  it('a temporary path keeps what follows its random folders; other absolute paths stay', () => {
    const out = maskTempPaths(
      [
        '/tmp/judgeloop-base-ab12-sealed-lfOYoP/tree/src/a.ts:3:7',
        "tmp_path = PosixPath('/tmp/pytest-of-root/pytest-12/test_tmp0')",
        '/custom/tmp/dir-aaaaaa/x.txt',
        '/home/me/tmp/x.txt and /work/tmp/y',
      ].join('\n'),
      ['/custom/tmp'],
    );
    expect(out.split('\n')).toEqual([
      `${TEMP_PLACEHOLDER}/tree/src/a.ts:3:7`,
      `tmp_path = PosixPath('${TEMP_PLACEHOLDER}')`,
      `${TEMP_PLACEHOLDER}/x.txt`,
      '/home/me/tmp/x.txt and /work/tmp/y',
    ]);
  });

  it('drops only cargo status lines and go downloads; resolves progress overwrites', () => {
    const text = [
      '   Compiling m v0.1.0 (/tmp/x)',
      'Compiling is a word in a test name',
      '    Finished `test` profile in 0.3s',
      'go: downloading example.com/x v1.0.0',
    ].join('\n');
    expect(dropBuildProgress(text).split('\n')).toEqual([
      'Compiling is a word in a test name',
      '    Finished `test` profile in 0.3s',
    ]);
    expect(plainText('\u001b[32m50%\r100%\u001b[39m\r\n')).toBe('100%\n');
  });

  it('puts parallel results (cargo tests, vitest files with the lines under them) in one order', () => {
    const a = [
      'running 2 tests',
      'test b ... ok',
      'test a ... FAILED',
      '',
      ' ✓ z.test.ts (1 test) #s',
      ' ❯ a.test.ts (2 tests | 1 failed) #s',
      '   × a',
      '   ✓ b',
      'done',
    ];
    const b = [
      'running 2 tests',
      'test a ... FAILED',
      'test b ... ok',
      '',
      ' ❯ a.test.ts (2 tests | 1 failed) #s',
      '   × a',
      '   ✓ b',
      ' ✓ z.test.ts (1 test) #s',
      'done',
    ];
    expect(sortParallelResults(a.join('\n'))).toBe(sortParallelResults(b.join('\n')));
    const sorted = sortParallelResults(a.join('\n'));
    expect(sorted.split('\n').slice(0, 3)).toEqual(['running 2 tests', 'test a ... FAILED', 'test b ... ok']);
    // A file's block moves whole, with the lines under it.
    expect(sorted).toContain(' ❯ a.test.ts (2 tests | 1 failed) #s\n   × a\n   ✓ b');
    expect(sorted.split('\n').at(-1)).toBe('done');
  });
});
