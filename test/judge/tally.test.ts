// tallyOutcomes / tallyLine: what a race prints about the judge (pure).
import { describe, expect, it } from 'vitest';
import { tallyLine, tallyOutcomes, type OutcomeLine } from '../../lib/judge/tally.js';

const o = (bead: string, status: OutcomeLine['status'], message = ''): OutcomeLine => ({ bead, status, message });

describe('the judge tally of a race', () => {
  it('counts each status, keeps the first deferral reason without its queue file, names the runs not judged', () => {
    const t = tallyOutcomes([
      o('a', 'judged'),
      o('b', 'cached'),
      o(
        'c',
        'deferred',
        'deferred: 8 of 8 judge calls used in the last hour; queued in state/queue/c.json (run bin/judge --drain later)',
      ),
      o('d', 'deferred', 'deferred: 9 of 8 judge calls used in the last hour'),
      o('e', 'failed', 'judge failed (refusal): …'),
      o('f', 'skipped', 'nothing to judge: the outcome is infra_failure'),
    ]);
    expect(t).toEqual({
      judged: 1,
      cached: 1,
      deferred: 2,
      failed: 1,
      skipped: 1,
      without: ['c', 'd', 'e', 'f'],
      deferred_reason: '8 of 8 judge calls used in the last hour',
    });
    expect(tallyLine(t, 'r1')).toBe(
      "Judge: 1 judged, 1 reused from the cache (no call), 2 deferred (the hourly limit, judge.max_per_hour: 8 of 8 judge calls used in the last hour; queued), 1 failed, 1 skipped. Ranked without the judge's criteria: c, d, e, f; `judgeloop judge --drain` judges the queued runs, then `judgeloop race --race r1 --recollect` ranks again.",
    );
  });

  it('every run judged: no list of runs left out; no run asked: no line', () => {
    expect(tallyLine(tallyOutcomes([o('a', 'judged'), o('b', 'cached')]), 'r')).toBe(
      'Judge: 1 judged, 1 reused from the cache (no call).',
    );
    expect(tallyLine(tallyOutcomes([]), 'r')).toBeNull();
  });
});
