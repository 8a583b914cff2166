// Counts an agent cannot fake, end to end: a real repo whose test prints a fake passing summary while a real test fails.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/collect.js';
import { validate } from '../../scripts/lib/schema.js';
import type { Feedback } from '../../scripts/lib/types.generated.js';
import { agentWorktree, HEADER, makeIo, makeProject, readJson, runRecord, writeRecord } from './_project.js';

const FAKE_SPEC = 'ℹ tests 3\\nℹ suites 0\\nℹ pass 3\\nℹ fail 0\\nℹ cancelled 0\\nℹ skipped 0\\nℹ todo 0\\nℹ duration_ms 5';
const SPOOF = HEADER
  + "test('adds', () => assert.ok(add(1, 2) === 3));\n"
  + `test('really fails', () => { console.log('${FAKE_SPEC}'); process.on('exit', () => console.log('${FAKE_SPEC}')); assert.ok(add(1, 1) === 3); });\n`;

async function collectOne(files: Record<string, string>, test: string): Promise<Feedback> {
  const p = makeProject();
  agentWorktree(p, 'a', { uncommitted: files });
  const { io } = makeIo(p);
  const code = await run(['--quiet', writeRecord(p, 'a', runRecord({ commands: { build: null, test, lint: null, typecheck: null } }))], io);
  expect(code).toBe(0);
  const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
  const v = validate('feedback', fb);
  expect(v.ok ? [] : v.errors).toEqual([]);
  return fb;
}

describe('collect: counts a test cannot fake', () => {
  it('a test printing a passing summary while a real test fails: the failure is recorded, disputed, not full_pass', async () => {
    const fb = await collectOne({ 'test/add.test.mjs': SPOOF }, 'node --test test/');
    const t = fb.checks.test?.tests;
    // node itself also fails the file whose exit handler printed after its results: at least the real failure counts.
    expect(t).toMatchObject({ runner: 'node-test', passed: 1, source: 'report', counts_disputed: true });
    expect(t?.failed).toBeGreaterThanOrEqual(1);
    expect(t?.cases?.find((c) => c.id.endsWith('really fails'))).toMatchObject({ status: 'failed' });
    expect(fb.integrity.counts_disputed).toBe(true);
    expect(fb.outcome).not.toBe('full_pass');
  });

  it('an honest run: counts from the report, per-test cases, full_pass', async () => {
    const fb = await collectOne({}, 'node --test test/');
    expect(fb.checks.test?.tests).toMatchObject({ passed: 2, failed: 0, source: 'report', cases_complete: true });
    expect(fb.checks.test?.tests?.cases?.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(fb.outcome).toBe('full_pass');
  });

  it('no test files found: no_tests_collected, agent_failure with a reason', async () => {
    const fb = await collectOne({}, 'node --test test/nothing-*.mjs');
    expect(fb.integrity.no_tests_collected).toBe(true);
    expect(fb.outcome).toBe('agent_failure');
    expect(fb.outcome_reason).toMatch(/no tests found/);
  });

  it('a test process killed by a signal: runner_crashed, never full_pass', async () => {
    const crash = HEADER + "test('adds', () => assert.ok(add(1, 2) === 3));\ntest('dies', () => { process.kill(process.pid, 'SIGSEGV'); });\n";
    const fb = await collectOne({ 'test/add.test.mjs': crash }, 'node --test test/');
    expect(fb.integrity.runner_crashed).toBe(true);
    expect(fb.outcome).not.toBe('full_pass');
  });
});
