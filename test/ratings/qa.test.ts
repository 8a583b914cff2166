// Issue 17: ratings see the tests. The mechanical outcome caps the quality a rating uses (seed 002 §9: "If QA
// fails, the reviewer must downgrade quality_score"); unknown agents are rated but not routable until enabled.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { qaVerdict, regressions } from '../../lib/ratings/qa.js';
import { loadAgent, readLog } from '../../lib/ratings/agent-log.js';
import { updateAgent } from '../../lib/ratings/agents-io.js';
import { rateBead } from '../../lib/ratings/rate-run.js';
import type { StateStore } from '../../lib/store/store.js';
import type { Feedback, TestCounts } from '../../lib/schema/types.generated.js';
import { config, feedback, tempStore } from './helpers.js';

const caps = config().ratings!.qa_caps;
const stores: StateStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) rmSync(s.root, { recursive: true, force: true });
});
const store = () => {
  const s = tempStore();
  stores.push(s);
  return s;
};

const counts = (passed: number, failed: number, cases?: NonNullable<TestCounts['cases']>): TestCounts => ({
  runner: 'vitest',
  passed,
  failed,
  skipped: 0,
  errors: 0,
  total: passed + failed,
  ...(cases ? { cases } : {}),
});

/** A run with a test check, measured against a base commit whose tests `base` were. */
function measured(
  bead: string,
  now: TestCounts,
  base: TestCounts,
  outcome: Feedback['outcome'],
  extra: Parameters<typeof feedback>[1] = {},
): Feedback {
  const fb = feedback(bead, { judgeScore: 0.85, tokens: 50_000, outcome, ...extra });
  return {
    ...fb,
    commands: { ...fb.commands, test: 'npm test' },
    checks: {
      ...fb.checks,
      test: {
        status: now.failed > 0 ? 'failed' : 'passed',
        exit_code: now.failed > 0 ? 1 : 0,
        duration_ms: 1000,
        source: 'collector',
        output: null,
        tests: now,
      },
    },
    baseline: { key: 'k', commit: 'c0ffee', build_passed: null, tests: base, lint: null },
  };
}

describe('qaVerdict', () => {
  const base = counts(
    10,
    0,
    Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, status: 'passed' as const })),
  );
  it('clean when every check passed; capped by partial, failed, regressed, unmeasured', () => {
    expect(qaVerdict(measured('a', counts(11, 0), base, 'full_pass'), caps)).toMatchObject({
      status: 'clean',
      cap: null,
    });
    const broke = counts(9, 1, [...base.cases!.slice(0, 9), { id: 't9', status: 'failed' }]);
    expect(qaVerdict(measured('b', broke, base, 'partial_pass'), caps)).toMatchObject({
      status: 'regressed',
      cap: caps.regressed,
      reason: expect.stringMatching(/1 test that passed on the base commit fails now \(t9\)/),
    });
    expect(qaVerdict(measured('c', counts(10, 0), base, 'partial_pass'), caps)).toMatchObject({
      status: 'partial',
      cap: caps.partial,
    });
    expect(qaVerdict(measured('d', counts(10, 0), base, 'agent_failure'), caps)).toMatchObject({
      status: 'failed',
      cap: caps.failed,
    });
    expect(qaVerdict(feedback('e', { outcome: 'unmeasured' }), caps)).toMatchObject({
      status: 'unmeasured',
      cap: caps.unmeasured,
    });
  });
  it('without per-test cases, more failures than on the base is a regression; failures already on the base are not', () => {
    expect(regressions(measured('f', counts(8, 2), counts(10, 0), 'partial_pass'))).toEqual([
      '2 failing test(s) and error(s) against 0 on the base commit',
    ]);
    expect(regressions(measured('g', counts(8, 2), counts(8, 2), 'partial_pass'))).toEqual([]);
  });
  it('tests that cannot be trusted (runner crashed, none collected, disputed) count as failed, whatever the outcome says', () => {
    const fb = measured('h', counts(10, 0), counts(10, 0), 'partial_pass');
    fb.integrity = { ...fb.integrity, runner_crashed: true };
    expect(qaVerdict(fb, caps)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/the test runner or a test process crashed/),
    });
  });
  // The agent controls its tests and what they print: each way of dodging a failing count is still capped.
  it.each([
    ['no_tests_collected', 'the runner collected no test'],
    ['counts_disputed', 'the counts are disputed'],
    ['exit_code_contradicts_counts', 'the exit code contradicts the counts'],
    ['tests_not_run', 'the tests did not run'],
  ] as const)(
    'a run whose tests cannot be trusted (%s) is capped as failed even if its outcome claims a full pass',
    (flag, words) => {
      const fb = measured('i', counts(10, 0), counts(10, 0), 'full_pass');
      fb.integrity = { ...fb.integrity, [flag]: true };
      expect(qaVerdict(fb, caps)).toMatchObject({
        status: 'failed',
        cap: caps.failed,
        reason: expect.stringContaining(words),
      });
    },
  );
  it('deleting tests (fewer than on the base) is a regression; so is breaking a build that passed on the base', () => {
    const fb = measured('j', counts(6, 0), counts(10, 0), 'partial_pass');
    fb.integrity = { ...fb.integrity, test_count_below_baseline: true };
    expect(qaVerdict(fb, caps)).toMatchObject({
      status: 'regressed',
      reason: expect.stringContaining('fewer tests than on the base commit'),
    });
    const b = measured('k', counts(10, 0), counts(10, 0), 'agent_failure');
    b.baseline = { ...b.baseline!, build_passed: true };
    b.checks = {
      ...b.checks,
      build: { status: 'failed', exit_code: 1, duration_ms: 10, source: 'collector', output: null },
    };
    expect(qaVerdict(b, caps)).toMatchObject({
      status: 'regressed',
      reason: expect.stringContaining('the build passed on the base commit'),
    });
  });
  it('caps are ordered: a worse outcome never allows a higher quality', () => {
    expect(caps.regressed).toBeLessThanOrEqual(caps.failed);
    expect(caps.failed).toBeLessThanOrEqual(caps.partial);
    expect(caps.unmeasured).toBeLessThan(config().ratings!.complexity.promote_min_quality);
  });
});

describe('a run that broke tests never rates above a clean one with the same judge score', () => {
  const base = counts(
    10,
    0,
    Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, status: 'passed' as const })),
  );
  const broke = counts(9, 1, [...base.cases!.slice(0, 9), { id: 't3', status: 'failed' }]);
  it('same task, same judge quality 8.5: the regressing run is capped and rates lower, even when it was faster', async () => {
    const s = store();
    const cfg = config();
    s.write(
      'feedback',
      'clean',
      measured('clean', counts(11, 0), base, 'full_pass', { agent: 'careful', durationSeconds: 900 }),
    );
    s.write(
      'feedback',
      'broke',
      measured('broke', broke, base, 'partial_pass', { agent: 'reckless', durationSeconds: 300 }),
    );
    const q = { score0to10: 8.5, source: 'judge' as const, raw: null };
    const c = await rateBead({ store: s, config: cfg, bead: 'clean', quality: q, now: '2026-03-01T00:00:00Z' });
    const b = await rateBead({ store: s, config: cfg, bead: 'broke', quality: q, now: '2026-03-01T00:00:01Z' });
    expect(c.summary).toMatchObject({ quality_score: 8.5, qa_status: 'clean', reviewed_quality: 8.5 });
    expect(b.summary).toMatchObject({ quality_score: caps.regressed, qa_status: 'regressed', reviewed_quality: 8.5 });
    expect(b.summary!.run_score).toBeLessThan(c.summary!.run_score);
    expect(b.summary!.rating_after).toBeLessThan(c.summary!.rating_after);
    expect(b.reason).toMatch(/quality 8\.5 capped at 4: regressed/);
    expect(readLog(s, 'reckless').rows[0]!.row).toMatchObject({
      qa: { status: 'regressed', cap: caps.regressed, reviewed_quality: 8.5 },
    });
  });

  it('an unknown agent is rated but added disabled for routing, and the result says how to enable it', async () => {
    const s = store();
    s.write('feedback', 'x1', feedback('x1', { agent: 'stranger', judgeScore: 0.95 }));
    const r = await rateBead({
      store: s,
      config: config(),
      bead: 'x1',
      quality: { score0to10: 9.5, source: 'judge', raw: null },
      now: '2026-03-01T00:00:00Z',
    });
    expect(r.status).toBe('rated');
    expect(r.problems.join('\n')).toMatch(/added DISABLED for routing .* judgeloop agents enable stranger/);
    expect(s.read<{ enabled: boolean }>('agents', 'stranger')!.enabled).toBe(false);
  });

  it('a profile rebuilt from its log (profile file lost) is not routable until enabled again', async () => {
    const s = store();
    s.write('feedback', 'y1', feedback('y1', { agent: 'pro', judgeScore: 0.9 }));
    await rateBead({
      store: s,
      config: config(),
      bead: 'y1',
      quality: { score0to10: 9, source: 'judge', raw: null },
      now: '2026-03-01T00:00:00Z',
    });
    await updateAgent(s, config(), 'pro', { enabled: true }, '2026-03-01T00:00:01Z');
    rmSync(s.path('agents', 'pro'));
    const a = loadAgent(s, 'pro', config().ratings!, '2026-03-01T00:00:02Z');
    expect(a.registration!.enabled).toBe(false);
    expect(a.problems.join('\n')).toMatch(
      /is missing; rebuilt from .* \(disabled for routing until judgeloop agents enable pro\)/,
    );
  });

  it('a record whose completion is before its start is refused in one line (UserError), nothing written', async () => {
    const s = store();
    const fb = feedback('neg', { judgeScore: 0.8 });
    fb.run.completed_at = '2025-12-31T23:00:00.000Z';
    s.write('feedback', 'neg', fb);
    await expect(
      rateBead({
        store: s,
        config: config(),
        bead: 'neg',
        quality: { score0to10: 8, source: 'judge', raw: null },
        now: '2026-03-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({
      name: 'UserError',
      message: expect.stringMatching(
        /^neg: run\.completed_at 2025-12-31T23:00:00\.000Z is before run\.started_at 2026-01-01T00:00:00\.000Z/,
      ),
    });
    expect(s.list('ratings')).toEqual([]);
  });
});
