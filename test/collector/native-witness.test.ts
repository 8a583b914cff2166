// The go test and cargo test observer's rules (pure): its record read, each runner's results reconciled with what
// every test binary did.
import { describe, expect, it } from 'vitest';
import {
  type NativeRecord,
  parseNativeRecord,
  reconcileCargo,
  reconcileGo,
} from '../../lib/collector/parsers/native-witness.js';
import type { TestCase } from '../../lib/collector/parsers/types.js';

const files = (m: Record<string, string>) => (name: string) => m[name] ?? null;
const PKG = 'example.com/calc';
const pkgOf = (dir: string) => (dir === '/src/calc' ? PKG : null);
const OUT = '=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n=== RUN   TestZero\n--- PASS: TestZero (0.00s)\nPASS\n';
const cases = (...xs: [string, TestCase['status']][]): TestCase[] => xs.map(([id, status]) => ({ id, status }));
const BOTH = cases([`${PKG}::TestAdd`, 'passed'], [`${PKG}::TestZero`, 'passed']);

function goRecord(status: number, out: string, log: string | null = '# test log\n'): NativeRecord {
  const f: Record<string, string> = { 'out-1.2': out };
  if (log !== null) f['tl-1.2'] = log;
  return parseNativeRecord(`start\t1.2\t/src/calc\t/tmp/b001/calc.test\nend\t1.2\t${status}\n`, files(f));
}

describe('parseNativeRecord', () => {
  it('pairs start and end lines; a second end, an end with no start, and other lines are counted forged', () => {
    const r = parseNativeRecord(
      'start\t1.1\t/a\t/b/x.test\nend\t1.1\t0\nend\t1.1\t0\nend\t9.9\t1\nstart\t2.2\t/a\t/b/y.test\nhello\n',
      files({ 'out-1.1': 'o', 'log-2.2': 'ok t\n' }),
    );
    expect(r.runs).toEqual([
      { id: '1.1', dir: '/a', binary: '/b/x.test', status: 0, output: 'o', log: null },
      { id: '2.2', dir: '/a', binary: '/b/y.test', status: null, output: null, log: 'ok t\n' },
    ]);
    expect(r.forged).toBe(3);
  });
});

describe('reconcileGo', () => {
  it('an honest run: every verdict printed by its binary, testing finished, exit 0: nothing seen', () => {
    expect(reconcileGo(BOTH, goRecord(0, OUT), pkgOf, false)).toEqual({ missing: [], seen: [] });
  });

  it('verdicts the binary never printed (written past its output)', () => {
    const v = reconcileGo(BOTH, goRecord(0, '=== RUN   TestZero\n--- PASS: TestZero (0.00s)\nPASS\n'), pkgOf, false);
    expect(v.seen).toEqual([`1 verdict(s) of ${PKG} its test binary never printed (${PKG}::TestAdd: passed)`]);
  });

  it('exit 0 before package testing finished (its log never flushed), or after printing a failure', () => {
    expect(reconcileGo(BOTH, goRecord(0, OUT, ''), pkgOf, false).seen).toEqual([
      `the test binary of ${PKG} exited 0 before package testing finished its run (an exit from inside it)`,
    ]);
    const failed = cases([`${PKG}::TestAdd`, 'failed']);
    expect(reconcileGo(failed, goRecord(0, '--- FAIL: TestAdd (0.00s)\nFAIL\n'), pkgOf, false).seen).toEqual([
      `the test binary of ${PKG} exited 0 after printing a failure`,
    ]);
  });

  it('a binary that ended by a signal while its tests say passed', () => {
    expect(reconcileGo(BOTH, goRecord(137, OUT, null), pkgOf, false).seen).toEqual([
      `the test binary of ${PKG} ended with signal 9, its tests say passed`,
    ]);
  });

  it('a package whose binary never ran under the observer: missing; one never seen to end: seen (unless timed out)', () => {
    const other = cases(['example.com/other::TestX', 'passed']);
    expect(reconcileGo(other, goRecord(0, OUT), pkgOf, false).missing).toEqual([
      'the test binary of example.com/other never ran under it',
    ]);
    const open = parseNativeRecord('start\t1.2\t/src/calc\t/t/calc.test\n', files({ 'out-1.2': OUT }));
    expect(reconcileGo(BOTH, open, pkgOf, false).seen).toEqual([
      '1 test binary run(s) never seen to end (/t/calc.test)',
    ]);
    expect(reconcileGo(BOTH, open, pkgOf, true).seen).toEqual([]);
  });
});

describe('reconcileCargo', () => {
  const rec = (status: number, log: string | null) =>
    parseNativeRecord(
      `start\t3.4\t/src\t/src/target/debug/deps/calc-80f166f2dd2d63d2\nend\t3.4\t${status}\n`,
      files(log === null ? {} : { 'log-3.4': log }),
    );
  const TWO = cases(['calc::adds', 'passed'], ['calc::zero', 'passed'], ['doc::src/lib.rs - add (line 3)', 'passed']);

  it('an honest run: libtest logged each verdict (doc tests are rustdoc’s): nothing seen', () => {
    expect(reconcileCargo(TWO, rec(0, 'ok adds\nok zero\n'), false)).toEqual({ missing: [], seen: [] });
    // An older cargo's header names the binary's path: the same binary.
    const old = cases(['target/debug/deps/calc-80f166f2dd2d63d2::adds', 'passed']);
    expect(reconcileCargo(old, rec(0, 'ok adds\n'), false)).toEqual({ missing: [], seen: [] });
  });

  it('a forged summary: verdicts libtest never logged; an abort: the signal named', () => {
    expect(reconcileCargo(TWO, rec(0, 'ok zero\n'), false).seen).toEqual([
      '1 verdict(s) of calc that libtest did not log (calc::adds: passed, logged nothing)',
    ]);
    expect(reconcileCargo(TWO, rec(134, ''), false).seen).toEqual([
      '2 verdict(s) of calc that libtest did not log (calc::adds: passed, logged nothing)',
      'the test binary calc ended with signal 6, libtest logged no failure',
    ]);
  });

  it('exit 0 after a logged failure; a binary that never ran under the observer', () => {
    const failed = cases(['calc::adds', 'failed']);
    expect(reconcileCargo(failed, rec(0, 'failed adds\n'), false).seen).toEqual([
      'the test binary calc exited 0 after libtest logged a failure',
    ]);
    expect(reconcileCargo(cases(['other::t', 'passed']), rec(0, ''), false).missing).toEqual([
      'the test binary other never ran under it',
    ]);
  });
});
