// The real bin/parse-output shim, run as a child process after a real build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../scripts/parse-output.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${repo}bin/parse-output`;
const fixture = (f: string): string => `${repo}test/fixtures/output/${f}`;
const cli = (args: string[], input?: string) => spawnSync(bin, args, { encoding: 'utf8', input, cwd: repo });

// Needs `npm run build` first, as `npm test` does. Compiling here would rewrite dist/ under the other test files'
// running processes (and leave dist/bundle older than the code, which the bin/ shims then pass over).
beforeAll(() => {
  if (!existsSync(`${repo}dist/scripts/parse-output.js`))
    throw new Error('run `npm run build` first: these tests spawn bin/parse-output');
});

describe('bin/parse-output', () => {
  test('tests FILE prints one JSON object and exits 0', () => {
    const r = cli(['tests', fixture('jest/basic.txt')]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ runner: 'jest', passed: 7, failed: 2, skipped: 2, errors: 0, total: 11 });
  });
  test('reads stdin with "-" and a forced runner; xfailed/xpassed and notes appear only when there', () => {
    const r = cli(
      ['tests', '--runner', 'pytest', '-'],
      spawnSync('cat', [fixture('pytest/basic-qq.txt')], { encoding: 'utf8' }).stdout,
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ runner: 'pytest', passed: 7, failed: 3, xfailed: 1, xpassed: 1 });
    expect(out.notes).toBeInstanceOf(Array);
  });
  test('lint prints linter, errors, warnings', () => {
    const r = cli(['lint', fixture('eslint/stylish.txt')]);
    expect(JSON.parse(r.stdout)).toEqual({ linter: 'eslint', errors: 4, warnings: 3 });
  });
  test('unrecognised output: one stderr line, empty stdout, exit 1', () => {
    const r = cli(['tests', '-'], 'nothing to see\n');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  test('usage errors, unknown runner and unreadable file exit 2', () => {
    expect(cli([]).status).toBe(2);
    expect(cli(['tests', '--runner', 'nope', fixture('jest/basic.txt')]).status).toBe(2);
    const missing = cli(['lint', '/nonexistent/out.txt']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/\/nonexistent\/out.txt: cannot read: ENOENT/);
  });
  test('importing the script runs nothing; run() returns the exit code', () => {
    const out: string[] = [];
    const code = run(['lint', '--runner', 'eslint', '-'], {
      stdout: (t) => out.push(t),
      stderr: () => {},
      readStdin: () => '',
    });
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ linter: 'eslint', errors: 0, warnings: 0 });
  });
  test('--report FILE: per-test counts from the report, reconciled with the console; the format is sniffed', () => {
    const r = cli(['tests', '--report', fixture('pytest/spoof.report.xml'), fixture('pytest/spoof.txt')]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ runner: 'pytest', passed: 1, failed: 1, source: 'report', counts_disputed: true });
    expect((out.cases as unknown[]).length).toBe(2);
    const alone = cli(['tests', '--report', fixture('jest/nested.report.json')]);
    expect(JSON.parse(alone.stdout)).toMatchObject({ runner: 'jest', passed: 2, failed: 1, skipped: 1 });
  });
  test('--report with a file that is no report: exit 1; a bad --format: exit 2', () => {
    expect(cli(['tests', '--report', fixture('jest/basic.txt')]).status).toBe(1);
    expect(cli(['tests', '--report', fixture('jest/nested.report.json'), '--format', 'xml']).status).toBe(2);
    expect(cli(['lint', '--report', fixture('jest/nested.report.json')]).status).toBe(2);
  });
  test('--explain names the summary used, the summaries passed over and the failure marks, by line', () => {
    const r = cli(['tests', '--explain', fixture('pytest/spoof.txt')]);
    expect(r.status).toBe(0);
    const [json, ...lines] = r.stdout.trim().split('\n');
    expect(JSON.parse(json as string)).toMatchObject({ failed: 1, counts_disputed: true });
    expect(lines).toContain(
      '# line 27: summary (used): ========================= 1 failed, 1 passed in 0.49s ==========================',
    );
    expect(lines.filter((l) => l.includes('summary-shaped line'))).toHaveLength(3);
    expect(lines.some((l) => /failure mark: FAILED test_spoof.py::test_fails/.test(l))).toBe(true);
  });
});
