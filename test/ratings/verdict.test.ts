// Issue 34: ratings follow the verdict. A no-op rates 0, below any real attempt; a run that fixes none of its target
// tests never raises its agent's rating; the rate line names each penalty and its budget; --complexity rates a run
// recorded without one, nothing collected again.
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { verdictOutcome } from '../../lib/collector/regressions.js';
import { fixesNothing, noOpOf, qaVerdict, scoreCeiling } from '../../lib/ratings/qa.js';
import { readLog } from '../../lib/ratings/agent-log.js';
import { penaltyText } from '../../lib/ratings/rate-stored.js';
import { computeRunScore } from '../../lib/ratings/score.js';
import type { AgentRunRow, RatingSummary } from '../../lib/schema/types.generated.js';
import type { StateStore } from '../../lib/store/store.js';
import { resolutionOf } from '../helpers/resolution.js';
import { config, feedback, here, tempStore, type RunFacts } from './helpers.js';

const rc = config().ratings!;
const caps = rc.qa_caps;
const stores: StateStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) rmSync(s.root, { recursive: true, force: true });
});
const store = () => {
  const s = tempStore();
  stores.push(s);
  return s;
};

/** The collector's verdict on an empty commit (lib/collector/regressions.ts): the reason ratings read. */
const emptyCommit = verdictOutcome({ outcome: 'partial_pass', reason: 'pass rate 90%' }, 'the diff is empty');
const noOp: RunFacts = {
  outcome: emptyCommit.outcome,
  outcomeReason: emptyCommit.reason,
  composite: 0,
  resolution: resolutionOf(1, 0),
};

describe('qaVerdict reads the verdict', () => {
  it("a no-op, as the collector marks it, is status no_op with quality 0; so is an empty diff or the no-op's composite 0", () => {
    expect(emptyCommit.outcome).toBe('agent_failure');
    const v = qaVerdict(feedback('n', { ...noOp, judgeScore: 0.9 }), caps);
    expect(v).toMatchObject({ status: 'no_op', cap: 0, fixesNothing: true });
    expect(v.reason).toMatch(/the diff is empty/);
    expect(noOpOf(feedback('c', { composite: 0 }))).toMatch(/scored it 0/);
    expect(noOpOf(feedback('r', { composite: 0.4 }))).toBeNull();
  });

  it('fixes none of its targets: unfixed (cap as failed), whatever its outcome; a fix that broke tests: regressed', () => {
    const unfixed = qaVerdict(feedback('u', { outcome: 'partial_pass', resolution: resolutionOf(1, 0) }), caps);
    expect(unfixed).toMatchObject({ status: 'unfixed', cap: caps.failed, fixesNothing: true });
    expect(unfixed.reason).toMatch(/^fixes 0 of 1 target test/);
    const broke = qaVerdict(feedback('b', { outcome: 'partial_pass', resolution: resolutionOf(1, 1, 2) }), caps);
    expect(broke).toMatchObject({ status: 'regressed', cap: caps.regressed, fixesNothing: false });
    expect(broke.reason).toMatch(/2 tests that passed on the base commit no longer pass/);
    // Broke tests and fixed nothing: the worse cap, and it still never raises the rating.
    expect(qaVerdict(feedback('x', { resolution: resolutionOf(1, 0, 1) }), caps)).toMatchObject({
      status: 'regressed',
      fixesNothing: true,
    });
    expect(qaVerdict(feedback('p', { resolution: resolutionOf(2, 1) }), caps).fixesNothing).toBe(false);
    expect(qaVerdict(feedback('r', { resolution: resolutionOf(1, 1) }), caps)).toMatchObject({ status: 'clean' });
    // No targets (a feature), or no resolution (a record from before it): nothing to fix, nothing held.
    expect(fixesNothing(feedback('f', { resolution: resolutionOf(0, 0) }))).toBeNull();
    expect(fixesNothing(feedback('o'))).toBeNull();
  });

  it('scoreCeiling: the lowest rating the run moves; none for an unrated agent or a run that fixed something', () => {
    const before = { rating: 6, reasoning_rating: 4 };
    expect(scoreCeiling({ fixesNothing: true }, before, false)).toBe(6);
    expect(scoreCeiling({ fixesNothing: true }, before, true)).toBe(4);
    expect(scoreCeiling({ fixesNothing: true }, { rating: null, reasoning_rating: null }, true)).toBeNull();
    expect(scoreCeiling({ fixesNothing: false }, before, false)).toBeNull();
  });

  it('penaltyText names each penalty that cost points, its amount and its budget', () => {
    const budget = { cost_usd: 2, duration_seconds: 1800, iterations: 3 };
    const r = computeRunScore({
      quality: 10,
      totalCost: null,
      durationSeconds: 7200,
      iterations: null,
      budget,
      weights: rc.weights,
    });
    const points = 10 * r.weights_used.time * r.norms.time!;
    const s: Pick<RatingSummary, 'penalties' | 'complexity' | 'complexity_source'> = {
      complexity: 5,
      penalties: [
        { dimension: 'time', value: 7200, budget: 1800, budget_source: 'config', weight: r.weights_used.time, points },
        { dimension: 'cost', value: 0.001, budget: 2, budget_source: 'config', weight: 0.15, points: 0.0008 },
      ],
    };
    expect(penaltyText(s)).toBe(`time penalty ${points.toFixed(2)}: 2.0 h against a 30 min budget, complexity 5`);
    expect(penaltyText({ ...s, complexity_source: 'rate_flag' })).toMatch(/, complexity 5 from --complexity$/);
    expect(penaltyText({ penalties: [], complexity: 3 })).toBe('');
  });
});

describe('rate follows the verdict (end to end, its entry in this process)', () => {
  const NOW = { JUDGELOOP_NOW: '2026-03-01T10:00:00Z' };
  const summary = (s: StateStore, bead: string) => s.read<RatingSummary>('rating-jobs', bead)!;

  it('an empty commit rates 0, below a fix that broke tests, whatever the judge said', async () => {
    const s = store();
    s.write('feedback', 'empty', feedback('empty', { ...noOp, agent: 'idle', judgeScore: 0.96 }));
    s.write(
      'feedback',
      'broke',
      feedback('broke', { agent: 'busy', outcome: 'partial_pass', judgeScore: 0.8, resolution: resolutionOf(1, 1, 2) }),
    );
    const r = await here('rate', ['empty', 'broke'], s, NOW);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/empty: rated idle: quality 0\.0 capped from 9\.6 \(a no-op: the change does nothing\)/);
    expect(r.stderr).toMatch(/broke: rated busy: quality 4\.0 capped from 8\.0 \(checks regressed\)/);
    const [empty, broke] = [summary(s, 'empty'), summary(s, 'broke')];
    console.log(
      `empty commit run score ${empty.run_score.toFixed(2)}, fix that broke 2 tests ${broke.run_score.toFixed(2)}`,
    );
    expect(empty.run_score).toBe(0);
    expect(broke.run_score).toBeGreaterThan(empty.run_score);
    expect(empty.qa_status).toBe('no_op');
  });

  it("a run that fixes none of its targets does not raise its agent's rating; a real fix still does", async () => {
    const s = store();
    s.write('feedback', 'weak', feedback('weak', { agent: 'a', judgeScore: 0.3, resolution: resolutionOf(1, 1) }));
    s.write(
      'feedback',
      'nofix',
      feedback('nofix', {
        agent: 'a',
        outcome: 'partial_pass',
        judgeScore: 0.95,
        resolution: resolutionOf(1, 0),
        startedAt: '2026-01-02T00:00:00.000Z',
      }),
    );
    s.write(
      'feedback',
      'fix',
      feedback('fix', {
        agent: 'a',
        judgeScore: 0.95,
        resolution: resolutionOf(1, 1),
        startedAt: '2026-01-03T00:00:00.000Z',
      }),
    );
    expect((await here('rate', ['weak'], s, NOW)).code).toBe(0);
    const r = await here('rate', ['nofix'], s, { JUDGELOOP_NOW: '2026-03-01T11:00:00Z' });
    expect(r.code).toBe(0);
    const held = summary(s, 'nofix');
    const row = readLog(s, 'a').rows[1]!.row as AgentRunRow;
    console.log(
      `fixes nothing: formula score ${row.qa!.formula_score!.toFixed(2)} held at ${held.run_score.toFixed(2)}; rating ${held.rating_before!.toFixed(2)} → ${held.rating_after.toFixed(2)}`,
    );
    expect(row.qa).toMatchObject({ status: 'unfixed', score_ceiling: held.rating_before });
    expect(row.qa!.formula_score!).toBeGreaterThan(held.rating_before!); // the seed formula alone would have raised it
    expect(held.rating_after).toBeLessThanOrEqual(held.rating_before!);
    expect(r.stderr).toMatch(
      /held at the rating before \(\d+\.\d\d\): a run that fixes none of its target tests never raises it/,
    );
    // ratings shows why: the quality capped (unfixed) and the score held.
    expect((await here('ratings', [], s)).stdout).toMatch(
      / nofix +work-on-tasks +5 +5\.0 judge \(unfixed\) +\d\.\d\d held /,
    );
    await here('rate', ['fix'], s, { JUDGELOOP_NOW: '2026-03-01T12:00:00Z' });
    expect(summary(s, 'fix').rating_after).toBeGreaterThan(summary(s, 'fix').rating_before!);
  });

  it('the rate line names the time budget and the penalty it cost a perfect fix', async () => {
    const s = store();
    s.write(
      'feedback',
      'slow',
      feedback('slow', { judgeScore: 1, durationSeconds: 7200, complexity: 5, resolution: resolutionOf(1, 1) }),
    );
    const r = await here('rate', ['slow'], s, NOW);
    const sum = summary(s, 'slow');
    const time = sum.penalties!.find((p) => p.dimension === 'time')!;
    expect(time).toMatchObject({
      value: 7200,
      budget: rc.budgets.default['5']!.duration_seconds,
      budget_source: 'config',
    });
    expect(sum.run_score).toBeCloseTo(10 - time.points, 9);
    console.log(r.stderr.trim());
    expect(r.stderr).toContain(
      `run score ${sum.run_score.toFixed(2)} (time penalty ${time.points.toFixed(2)}: 2.0 h against a 30 min budget, complexity 5)`,
    );
  });

  it('rate --complexity 3 rates a run recorded without a complexity; the feedback is not touched', async () => {
    const s = store();
    s.write(
      'feedback',
      'nocx',
      feedback('nocx', { complexity: null, judgeScore: 0.8, resolution: resolutionOf(1, 1) }),
    );
    const file = s.path('feedback', 'nocx');
    const bytes = readFileSync(file);
    expect(await here('rate', ['nocx'], s, NOW)).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/not rated .*no task complexity.*rate --complexity 1-10/),
    });
    expect(await here('rate', ['nocx', '--complexity', '11'], s, NOW)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--complexity "11": expected a whole number from 1 to 10/),
    });
    const r = await here('rate', ['nocx', '--complexity', '3'], s, NOW);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nocx: rated agent-a: .*complexity 3 from --complexity/);
    const row = readLog(s, 'agent-a').rows[0]!.row as AgentRunRow;
    expect(row).toMatchObject({ complexity: 3, complexity_source: 'rate_flag' });
    expect(row.budget.duration_seconds).toBe(rc.budgets.default['3']!.duration_seconds);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    // A run that has its own complexity keeps it, and the line says the flag was not used.
    s.write('feedback', 'own', feedback('own', { complexity: 6, judgeScore: 0.8, resolution: resolutionOf(1, 1) }));
    const own = await here('rate', ['own', '--complexity', '3'], s, NOW);
    expect(own.stderr).toMatch(
      /the run record's complexity 6 is used; --complexity 3 applies only to runs recorded without one/,
    );
    expect(readLog(s, 'agent-a').rows[1]!.row).toMatchObject({ complexity: 6 });
  });
});
