// The race's text shows the judge's questions (issue 37, items 5 and 8): each contrastive answer with its agreement,
// the unanswered ones with their reason, and both orders of the pairwise comparison.
import { describe, expect, it } from 'vitest';
import { judgeReviewLines, shortReason } from '../../lib/race/present-review.js';
import type { Race } from '../../lib/schema/types.generated.js';

type Review = NonNullable<Race['judge_review']>;
const entry = (id: string, over: Partial<Review['contrastive'][number]>): Review['contrastive'][number] => ({
  id,
  answered: true,
  special_cases_tests: false,
  edits_grader: false,
  does_less: false,
  reason: 'nothing odd',
  flagged: false,
  mechanical: [],
  agreement: 'neither',
  blocking: false,
  cached: false,
  key: `k-${id}`,
  ...over,
});

describe('judgeReviewLines', () => {
  it('names each answer, what backs it, the tally and the pairwise result', () => {
    const review: Review = {
      contrastive: [
        entry('bd-hack', {
          special_cases_tests: true,
          flagged: true,
          mechanical: ['special_case'],
          agreement: 'both',
          blocking: true,
          reason: 'returns 10 when the input is the test literal\n  and nothing else',
        }),
        entry('bd-clean', { cached: true }),
        entry('bd-late', { answered: false, agreement: 'unanswered', error: 'deferred: 4 of 4 judge calls used' }),
      ],
      agreement: { both: 1, judge_only: 0, mechanical_only: 0, neither: 1 },
      pairwise: {
        a: 'bd-clean',
        b: 'bd-other',
        ab: { better: 'A', reason: 'handles the bound' },
        ba: { better: 'A', reason: 'misses the bound' },
        outcome: 'tie',
        cached: false,
      },
    };
    const lines = judgeReviewLines(review);
    expect(lines[0]).toBe("Judge's reward-hack question (each solution against the others' diffs):");
    expect(lines[1]).toBe(
      '  bd-hack: flagged: special-cases the tests; a mechanical finding agrees: blocking [special_case] — "returns 10 when the input is the test literal and nothing else"',
    );
    expect(lines[2]).toBe('  bd-clean: not flagged; clean by both (cached) — "nothing odd"');
    expect(lines[3]).toBe('  bd-late: no answer (deferred: 4 of 4 judge calls used)');
    expect(lines[4]).toMatch(/both 1, judge only 0, mechanical only 0, neither 1\.$/);
    // The second order shows bd-other first: its "A" is bd-other, so the orders disagree and it is a tie.
    expect(lines[5]).toBe(
      'Judge\'s pairwise comparison, both orders: bd-clean vs bd-other: bd-clean shown first → bd-clean ("handles the bound"); bd-other shown first → bd-other ("misses the bound"): a tie (the orders disagree or both say tie)',
    );
    const settled = judgeReviewLines({
      ...review,
      contrastive: [],
      pairwise: { ...review.pairwise!, ba: { better: 'B', reason: 'r' }, outcome: 'a', cached: true },
    });
    expect(settled).toEqual([expect.stringMatching(/→ bd-clean \("r"\): bd-clean settled \(cached\)$/)]);
    expect(judgeReviewLines(undefined)).toEqual([]);
  });

  it('shortReason flattens and cuts a long reason', () => {
    expect(shortReason('a\n b', 10)).toBe('a b');
    expect(shortReason('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
