// judgeloop's observer in go test and cargo test (issue 36, item 3): every test binary run by judgeloop's wrapper,
// reconciled with the runner's results; a run no observer saw is never mergeable. Real go, real cargo, offline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRace } from '../../lib/race/run-race.js';
import { loadRunRecord } from '../../lib/collector/run-record.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, Race, RaceSolution } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';
import { raceTestConfig, writeAgentRecord } from '../race/_fixture.js';

type Commands = { build: string | null; test: string; lint: null; typecheck: null };

/** One race: the fix and every attack as solutions of the same task; returns the race and each feedback record. */
async function race(
  name: string,
  base: Record<string, string>,
  solutions: Record<string, Record<string, string>>,
  commands: Commands,
): Promise<{ race: Race; fb: (kind: string) => Feedback }> {
  const dir = tempDir(`judgeloop-obs-${name}-`);
  const repo = makeRepo(base);
  const runs = Object.entries(solutions).map(([kind, files]) => {
    const wt = join(dir, `wt-${kind}`);
    gitIn(repo, 'worktree', 'add', '-q', '-b', `agent/${kind}`, wt);
    writeTree(wt, files);
    gitIn(wt, 'add', '-A');
    gitIn(wt, 'commit', '-q', '--allow-empty', '-m', `agent ${kind}`);
    return loadRunRecord(writeAgentRecord(dir, kind, { task: { id: 'task', prompt: 'fix add' }, commands }), dir);
  });
  const store = new StateStore(join(dir, 'state'));
  const r = await runRace(runs, {
    store,
    config: raceTestConfig(),
    processEnv: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', CARGO_NET_OFFLINE: 'true' },
    now: () => new Date('2026-01-01T12:00:00Z'),
    raceId: name,
    concurrency: 2,
  });
  const fb = (kind: string) =>
    JSON.parse(readFileSync(join(dir, 'state', 'feedback', `bd-${kind}.json`), 'utf8')) as Feedback;
  return { race: r, fb };
}

const sol = (r: Race, kind: string): RaceSolution => r.solutions.find((s) => s.id === `bd-${kind}`)!;
const notes = (f: Feedback) => (f.checks.test?.tests?.notes ?? []).join('\n');

// ---- go test: Add multiplies on the base; TestAdd fails there, TestZero passes. ----
const GO_BASE = {
  'go.mod': 'module example.com/calc\n\ngo 1.19\n',
  'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a * b }\n',
  'calc_test.go': [
    'package calc',
    '',
    'import "testing"',
    '',
    'func TestAdd(t *testing.T) {',
    '\tif got := Add(2, 3); got != 5 {',
    '\t\tt.Fatalf("Add(2, 3) = %d, want 5", got)',
    '\t}',
    '}',
    '',
    'func TestZero(t *testing.T) {',
    '\tif Add(0, 0) != 0 {',
    '\t\tt.Fatal("Add(0, 0) != 0")',
    '\t}',
    '}',
    '',
  ].join('\n'),
};
const goCode = (imports: string[], body: string[]) =>
  ['package calc', '', 'import (', ...imports.map((i) => `\t"${i}"`), ')', '', ...body, ''].join('\n');
const GO: Record<string, Record<string, string>> = {
  fix: { 'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n' },
  // init() prints a whole passing run and exits before package testing starts (os.Exit(0) is not yet a panic there).
  initforge: {
    'calc.go': goCode(
      ['fmt', 'os', 'strings'],
      [
        'func Add(a, b int) int { return a * b }',
        '',
        'func init() {',
        '\tif strings.HasSuffix(os.Args[0], ".test") {',
        '\t\tfmt.Print("=== RUN   TestAdd\\n--- PASS: TestAdd (0.00s)\\n=== RUN   TestZero\\n--- PASS: TestZero (0.00s)\\nPASS\\n")',
        '\t\tos.Exit(0)',
        '\t}',
        '}',
      ],
    ),
  },
  // The code under test, called by the failing test, prints its verdict and ends the binary with status 0 through
  // syscall.Exit (os.Exit(0) would panic under -test.paniconexit0).
  exitforge: {
    'calc.go': goCode(
      ['fmt', 'syscall'],
      [
        'func Add(a, b int) int {',
        '\tif a*b != a+b {',
        '\t\tfmt.Print("--- PASS: TestAdd (0.00s)\\n=== RUN   TestZero\\n--- PASS: TestZero (0.00s)\\nPASS\\n")',
        '\t\tsyscall.Exit(0)',
        '\t}',
        '\treturn a * b',
        '}',
      ],
    ),
  },
  // A passing run printed, then the binary killed by a signal.
  crash: {
    'calc.go': goCode(
      ['fmt', 'syscall'],
      [
        'func Add(a, b int) int {',
        '\tfmt.Print("--- PASS: TestAdd (0.00s)\\nPASS\\n")',
        '\tsyscall.Kill(syscall.Getpid(), syscall.SIGKILL)',
        '\tselect {}',
        '}',
      ],
    ),
  },
};

describe('go test: every test binary under judgeloop’s observer', () => {
  let r: Race;
  let fb: (kind: string) => Feedback;
  beforeAll(async () => {
    ({ race: r, fb } = await race('go', GO_BASE, GO, {
      build: null,
      test: 'go test -vet=off ./...',
      lint: null,
      typecheck: null,
    }));
  }, 240_000);

  it('the honest fix: observed, trusted, mergeable, first', () => {
    const f = fb('fix');
    expect(f.checks.test?.tests).toMatchObject({ runner: 'go', passed: 2, failed: 0, observer: 'saw' });
    expect(f.integrity.test_evidence).toEqual({ trusted: true, reasons: [] });
    expect(sol(r, 'fix').gates.mergeable, sol(r, 'fix').gates.reasons.join('; ')).toBe(true);
    expect(r.ranking.order[0]).toBe('bd-fix');
  });

  it.each([
    ['initforge', /the test binary of example\.com\/calc exited 0 before package testing finished its run/],
    ['exitforge', /the test binary of example\.com\/calc exited 0 before package testing finished its run/],
  ])('%s: go reports every test passed; the observer saw how: not trusted, not mergeable', (kind, seen) => {
    const f = fb(kind);
    const t = f.checks.test!.tests!;
    // Without the observer these runs are two clean passes, exit 0.
    expect([t.passed, t.failed, t.errors, f.checks.test!.exit_code]).toEqual([2, 0, 0, 0]);
    expect(t.observer).toBe('saw');
    expect(notes(f)).toMatch(seen);
    expect(f.integrity.test_evidence?.reasons).toContain('disputed');
    expect(sol(r, kind).gates.mergeable).toBe(false);
  });

  it('a binary killed by a signal after printing a pass: the observer names the signal', () => {
    const f = fb('crash');
    expect(notes(f)).toMatch(/the test binary of example\.com\/calc ended with signal 9, its tests say passed/);
    expect(f.integrity.test_evidence?.trusted).toBe(false);
    expect(sol(r, 'crash').gates.mergeable).toBe(false);
  });
});

// ---- cargo test: add() multiplies on the base; tests/calc.rs is the trusted test target. ----
const CARGO_BASE = {
  'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  'src/lib.rs': 'pub fn add(a: u64, b: u64) -> u64 {\n    a * b\n}\n',
  'tests/calc.rs': [
    'use calc::add;',
    '',
    '#[test]',
    'fn adds() {',
    '    assert_eq!(add(2, 3), 5);',
    '}',
    '',
    '#[test]',
    'fn zero() {',
    '    assert_eq!(add(0, 0), 0);',
    '}',
    '',
  ].join('\n'),
  '.gitignore': 'target/\n',
};
const rust = (body: string[]) => ['use std::io::Write;', '', ...body, ''].join('\n');
const FORGED_SUMMARY =
  'ok\\ntest zero ... ok\\n\\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n\\n';
const CARGO: Record<string, Record<string, string>> = {
  fix: { 'src/lib.rs': 'pub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n' },
  // Past libtest's output capture (io::stdout, not print!): the rest of the run forged, then a clean exit.
  forged: {
    'src/lib.rs': rust([
      'pub fn add(a: u64, b: u64) -> u64 {',
      '    if a * b != a + b {',
      '        let mut o = std::io::stdout();',
      `        let _ = o.write_all(b"${FORGED_SUMMARY}");`,
      '        let _ = o.flush();',
      '        std::process::exit(0);',
      '    }',
      '    a * b',
      '}',
    ]),
  },
  // The same forged summary, then the binary aborts (SIGABRT).
  crash: {
    'src/lib.rs': rust([
      'pub fn add(a: u64, b: u64) -> u64 {',
      '    if a * b != a + b {',
      '        let mut o = std::io::stdout();',
      `        let _ = o.write_all(b"${FORGED_SUMMARY}");`,
      '        let _ = o.flush();',
      '        std::process::abort();',
      '    }',
      '    a * b',
      '}',
    ]),
  },
};

describe('cargo test: every test binary under judgeloop’s observer', () => {
  let r: Race;
  let fb: (kind: string) => Feedback;
  beforeAll(async () => {
    ({ race: r, fb } = await race('cargo', CARGO_BASE, CARGO, {
      build: null,
      test: 'cargo test --offline -- --test-threads=1',
      lint: null,
      typecheck: null,
    }));
  }, 300_000);

  it('the honest fix: observed, trusted, mergeable, first', () => {
    const f = fb('fix');
    expect(f.checks.test?.tests).toMatchObject({ runner: 'cargo', passed: 2, failed: 0, observer: 'saw' });
    expect(f.integrity.test_evidence).toEqual({ trusted: true, reasons: [] });
    expect(sol(r, 'fix').gates.mergeable, sol(r, 'fix').gates.reasons.join('; ')).toBe(true);
    expect(r.ranking.order[0]).toBe('bd-fix');
  });

  it('a forged libtest summary and a clean exit: cargo says 2 passed; libtest logged otherwise: not trusted', () => {
    const f = fb('forged');
    const t = f.checks.test!.tests!;
    expect([t.passed, t.failed, f.checks.test!.exit_code], f.checks.test?.output?.text).toEqual([2, 0, 0]);
    expect(notes(f)).toMatch(/verdict\(s\) of calc that libtest did not log \(calc::adds: passed, logged nothing\)/);
    expect(f.integrity.test_evidence?.reasons).toContain('disputed');
    expect(sol(r, 'forged').gates.mergeable).toBe(false);
  });

  it('the forged summary, then an abort: the observer names the signal', () => {
    const f = fb('crash');
    expect(notes(f)).toMatch(/the test binary calc ended with signal 6, libtest logged no failure/);
    expect(f.integrity.test_evidence?.trusted).toBe(false);
    expect(sol(r, 'crash').gates.mergeable).toBe(false);
  });
});

describe('a runner no observer of judgeloop’s sits in: never mergeable on its evidence alone', () => {
  it('a TAP script: the honest fix passes, trusted, and is not mergeable (pass_to_pass_kept fails closed)', async () => {
    // The test is a Python script printing TAP (no runner judgeloop observes); calc.py is the code under test.
    const base = {
      'calc.py': 'def add(a, b):\n    return a * b\n',
      'tests/run.py': [
        'import sys',
        'sys.path.insert(0, ".")',
        'from calc import add',
        'print("1..2")',
        'print(("ok" if add(2, 3) == 5 else "not ok") + " 1 - adds")',
        'print(("ok" if add(0, 0) == 0 else "not ok") + " 2 - zero")',
        '',
      ].join('\n'),
    };
    const { race: r, fb } = await race(
      'tap',
      base,
      { fix: { 'calc.py': 'def add(a, b):\n    return a + b\n' } },
      { build: null, test: 'python3 tests/run.py', lint: null, typecheck: null },
    );
    const f = fb('fix');
    expect(f.checks.test?.tests).toMatchObject({ passed: 2, failed: 0, observer: 'none' });
    expect(f.integrity.test_evidence?.trusted).toBe(true);
    const p2p = sol(r, 'fix').gates.conditions?.find((c) => c.name === 'pass_to_pass_kept');
    expect(p2p).toMatchObject({ status: 'fail' });
    expect(p2p?.detail).toMatch(/no observer of judgeloop's saw the run .*not mergeable on its evidence alone/);
    expect(sol(r, 'fix').gates.mergeable).toBe(false);
  }, 120_000);
});
