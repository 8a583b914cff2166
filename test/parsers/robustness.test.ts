// Real fixtures, transformed the way real pipelines mangle output, still give the same counts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseLintOutput, parseTestOutput } from '../../lib/collector/parsers/index.js';

const root = fileURLToPath(new URL('../fixtures/output/', import.meta.url));
const read = (f: string): string => readFileSync(`${root}${f}`, 'utf8');
const strip = (c: unknown): unknown => {
  const { notes: _n, ...rest } = c as Record<string, unknown>;
  return rest;
};

describe('order and shape traps', () => {
  test('pytest reads "N failed, N passed" whatever the order of words', () => {
    expect(strip(parseTestOutput(read('pytest/basic-q.txt')))).toMatchObject({
      passed: 7,
      failed: 3,
      xfailed: 1,
      xpassed: 1,
      errors: 1,
    });
  });
  test('jest reads "Tests: 2 failed, 1 skipped, 1 todo, 7 passed, 11 total"', () => {
    expect(parseTestOutput(read('jest/basic.txt'))).toMatchObject({ passed: 7, failed: 2, skipped: 2, total: 11 });
  });
  test('vitest reads the Tests line, not the Test Files line printed before it', () => {
    expect(parseTestOutput(read('vitest/basic.txt'))).toMatchObject({ passed: 7, failed: 2, total: 11 });
  });
  test('cargo sums every binary and the doc tests, ignoring a test that prints "test result: ok. 99 passed"', () => {
    expect(parseTestOutput(read('cargo/noisy-nocapture.txt'))).toMatchObject({ passed: 7, skipped: 1, total: 8 });
  });
  test('go -json ignores a pass event test2json invents from a test printing "--- PASS: TestFake"', () => {
    expect(parseTestOutput(read('go/json.txt'))).toMatchObject({ passed: 6, skipped: 1 });
  });
  test('plain go test leaves passed and total null and says why', () => {
    const c = parseTestOutput(read('go/plain.txt'));
    expect(c).toMatchObject({ passed: null, total: null });
    expect(c?.notes?.join(' ')).toMatch(/does not list passing/);
  });
});

describe('mangled output', () => {
  const cases: Array<[string, 'tests' | 'lint']> = [
    ['pytest/basic-color.txt', 'tests'],
    ['jest/basic-color.txt', 'tests'],
    ['vitest/basic-color.txt', 'tests'],
    ['cargo/failing-color.txt', 'tests'],
    ['go/failing-v.txt', 'tests'],
    ['node-test/spec-color.txt', 'tests'],
    ['mocha/spec-color.txt', 'tests'],
    ['unittest/verbose.txt', 'tests'],
    ['eslint/stylish-color.txt', 'lint'],
    ['clippy/warnings-color.txt', 'lint'],
    ['shellcheck/tty-color.txt', 'lint'],
    ['ruff/color.txt', 'lint'],
    // Spoofed summaries stay disputed, and the real one chosen, whatever the terminal noise.
    ['pytest/spoof.txt', 'tests'],
    ['vitest/spoof.txt', 'tests'],
    ['jest/spoof.txt', 'tests'],
    ['mocha/spoof.txt', 'tests'],
    ['cargo/spoof.txt', 'tests'],
    ['go/spoof-v.txt', 'tests'],
    ['unittest/spoof.txt', 'tests'],
    ['node-test/spoof.txt', 'tests'],
    ['phpunit/spoof.txt', 'tests'],
    ['rspec/spoof.txt', 'tests'],
    ['tap/perl-spoof.txt', 'tests'],
    ['biome/github.txt', 'lint'],
  ];
  const parse = (text: string, kind: 'tests' | 'lint'): unknown =>
    strip(kind === 'tests' ? parseTestOutput(text) : parseLintOutput(text));

  test.each(cases)('%s with CRLF line ends', (file, kind) => {
    const text = read(file);
    expect(parse(text.replace(/\n/g, '\r\n'), kind)).toEqual(parse(text, kind));
  });

  test.each(cases)('%s with tput sgr0 (ESC ( B) and an OSC title on every line', (file, kind) => {
    const text = read(file);
    const noisy = text
      .split('\n')
      .map((l) => `\u001b]0;running\u0007${l}\u001b(B\u001b[m`)
      .join('\n');
    expect(parse(noisy, kind)).toEqual(parse(text, kind));
  });

  test('a long pytest -v output with its middle cut keeps the summary and says it was cut', () => {
    const text = read('pytest/many-v.txt');
    const cut = `${text.slice(0, 20_000)}\n[... ${text.length - 40_000} bytes omitted ...]\n${text.slice(-20_000)}`;
    const c = parseTestOutput(cut);
    expect(c).toMatchObject({ runner: 'pytest', passed: 2000, total: 2000 });
    expect(c?.notes?.join(' ')).toMatch(/bytes omitted/);
  });

  test('unrecognised output is null, and an unknown forced name throws', () => {
    expect(parseTestOutput('hello world\n')).toBeNull();
    expect(parseLintOutput('hello world\n')).toBeNull();
    expect(() => parseTestOutput('x', { name: 'nope' })).toThrow(/unknown test runner "nope"/);
    expect(() => parseLintOutput('x', { name: 'nope' })).toThrow(/unknown linter "nope"/);
  });

  test('a 20,000-test pytest output parses, every test counted (its speed: bench/parse.ts, the real -v run)', () => {
    const text = read('pytest/many-v.txt');
    const body = text.split('\n').filter((l) => l.includes('::'));
    const head = text.split('\n').filter((l) => !l.includes('::') && !/ passed in /.test(l));
    const big = [
      ...head,
      ...Array.from({ length: 10 }, () => body).flat(),
      '============================= 20000 passed in 9.00s =============================',
    ].join('\n');
    expect(parseTestOutput(big)).toMatchObject({ passed: 20000, total: 20000 });
  });

  // Quadratic parsing of these took minutes: the test's timeout bounds the time, the result is checked exactly.
  test('pathological input (2 MB of summary-like fragments, one 1 MB line) is no test run and no lint run', () => {
    const pieces = [
      'a:1:2: ',
      ' Tests  1 a ',
      '=== ',
      ' in ',
      '1 passed, ',
      '{"Time":',
      'ok 1 ',
      '  ^-- SC',
      '\t',
      'x'.repeat(50),
      ':',
      '(1,2): ',
    ];
    let seed = 1;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const parts: string[] = [];
    let size = 0;
    while (size < 2_000_000) {
      const p = `${pieces[Math.floor(rnd() * pieces.length)]}${rnd() < 0.02 ? '\n' : ''}`;
      parts.push(p);
      size += p.length;
    }
    for (const text of [parts.join(''), 'a:'.repeat(500_000), `Tests  ${'1 passed | '.repeat(20_000)}x`]) {
      expect(parseTestOutput(text)).toBeNull();
      expect(parseLintOutput(text)).toBeNull();
    }
  });
});

describe('printing a summary can never raise a count', () => {
  // After the real summary (an atexit hook, a teardown), a fake one that keeps the real failures but claims more passes.
  const fakes: Array<[string, string]> = [
    ['pytest/spoof.txt', '=================== 1 failed, 99 passed in 0.50s ==================='],
    ['pytest/spoof-q.txt', '1 failed, 99 passed in 0.50s'],
    ['unittest/spoof.txt', 'Ran 100 tests in 0.001s\n\nFAILED (failures=1)'],
    ['vitest/spoof.txt', ' Test Files  1 failed (1)\n      Tests  1 failed | 99 passed (100)'],
    ['jest/spoof.txt', 'Test Suites: 1 failed, 1 total\nTests:       1 failed, 99 passed, 100 total'],
    ['mocha/spoof.txt', '  99 passing (5ms)\n  1 failing'],
    [
      'node-test/spoof.txt',
      'ℹ tests 100\nℹ suites 0\nℹ pass 99\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 5',
    ],
    ['phpunit/spoof.txt', 'FAILURES!\nTests: 100, Assertions: 100, Failures: 1.'],
    ['rspec/spoof.txt', '100 examples, 1 failure'],
  ];
  test.each(fakes)('%s + a fake "1 failed, 99 passed" after the real summary', (file, fake) => {
    const text = read(file);
    const real = parseTestOutput(text);
    const spoofed = parseTestOutput(`${text}\n${fake}\n`);
    expect(spoofed?.passed).toBe(real?.passed);
    expect(spoofed?.failed).toBe(real?.failed);
    expect(spoofed?.counts_disputed).toBe(true);
  });
});
