import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  blendScore,
  LEARNING_LOOP,
  mechanicalComposite,
  mechanicalSetProblem,
  normaliseWeights,
  runMechanicalValue,
} from '../../lib/templates/formula.js';
import type { Outcome } from '../../lib/schema/types.generated.js';

const P = { partial_credit: 0.5, retry_penalty: 0.1, timeout_penalty: 0.2 };
const base = { full_pass: 0, partial_pass: 0, timeout: 0, scored: 0, retried: 0, retry_known: 0 };

describe('mechanicalComposite', () => {
  it('all full passes and no retries score 1; all partial passes score the partial credit', () => {
    expect(mechanicalComposite({ ...base, full_pass: 4, scored: 4, retry_known: 4 }, P)).toBe(1);
    expect(mechanicalComposite({ ...base, partial_pass: 4, scored: 4, retry_known: 4 }, P)).toBe(0.5);
  });
  it('combines pass rates with retry and timeout penalties', () => {
    // 6 full, 2 partial, 1 agent failure, 1 timeout; 3 of 10 retried: 0.6 + 0.5*0.2 - 0.1*0.3 - 0.2*0.1 = 0.65
    expect(
      mechanicalComposite({ full_pass: 6, partial_pass: 2, timeout: 1, scored: 10, retried: 3, retry_known: 10 }, P),
    ).toBeCloseTo(0.65, 12);
  });
  it('a timeout costs more than an agent failure', () => {
    const failure = mechanicalComposite({ ...base, full_pass: 1, scored: 2, retry_known: 2 }, P)!;
    const timeout = mechanicalComposite({ ...base, full_pass: 1, timeout: 1, scored: 2, retry_known: 2 }, P)!;
    expect(timeout).toBeLessThan(failure);
  });
  it('clamps at 0 and is null with no scored run', () => {
    expect(mechanicalComposite({ ...base, timeout: 3, scored: 3, retried: 3, retry_known: 3 }, P)).toBe(0);
    expect(mechanicalComposite(base, P)).toBeNull();
  });
  it('a retry rate nobody reported is missing: the term drops, not a guess', () => {
    expect(mechanicalComposite({ ...base, full_pass: 2, scored: 2, retry_known: 0 }, P)).toBe(1);
    // only 1 of 2 reports retries, and it retried: rate 1/1
    expect(mechanicalComposite({ ...base, full_pass: 2, scored: 2, retried: 1, retry_known: 1 }, P)).toBeCloseTo(
      0.9,
      12,
    );
  });
  it('the mean of runMechanicalValue equals the composite when every run reports retries', () => {
    const runs: [Outcome, number][] = [
      ['full_pass', 0],
      ['full_pass', 2],
      ['partial_pass', 1],
      ['agent_failure', 0],
      ['timeout', 1],
      ['full_pass', 0],
    ];
    const values = runs.map(([o, r]) => runMechanicalValue(o, r, P)!);
    const c = { full_pass: 3, partial_pass: 1, timeout: 1, scored: 6, retried: 3, retry_known: 6 };
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(mechanicalComposite(c, P)!, 12);
    expect(runMechanicalValue('infra_failure', 0, P)).toBeNull();
  });
});

describe("the learning-loop's composite is the default", () => {
  const defaults = JSON.parse(readFileSync(new URL('../../config/defaults.json', import.meta.url), 'utf8')).templates
    .mechanical;
  it('config/defaults.json carries 0.4 / 0.2 / 0.3 under the name learning-loop', () => {
    expect(defaults).toMatchObject(LEARNING_LOOP);
    expect(mechanicalSetProblem(defaults)).toBeNull();
  });
  // The learning-loop's own test examples (tests for score-templates.sh), through the default coefficients.
  it('5 full, 3 partial, 1 agent failure, 1 timeout, none retried: 0.5 + 0.12 - 0.03 = 0.59', () => {
    expect(
      mechanicalComposite(
        { full_pass: 5, partial_pass: 3, timeout: 1, scored: 10, retried: 0, retry_known: 10 },
        defaults,
      ),
    ).toBeCloseTo(0.59, 12);
  });
  it('10 full passes, 5 retried: 1 - 0.5 x 0.2 = 0.9', () => {
    expect(
      mechanicalComposite({ ...base, full_pass: 10, scored: 10, retried: 5, retry_known: 10 }, defaults),
    ).toBeCloseTo(0.9, 12);
  });
  it('10 timeouts, all retried: -0.5 clamped to 0; 5 full + 5 infra failures: infra left out, 1.0', () => {
    expect(mechanicalComposite({ ...base, timeout: 10, scored: 10, retried: 10, retry_known: 10 }, defaults)).toBe(0);
    expect(mechanicalComposite({ ...base, full_pass: 5, scored: 5, retry_known: 5 }, defaults)).toBe(1);
  });
  it('another set must carry its own name and reason; the learning-loop name keeps its numbers', () => {
    expect(mechanicalSetProblem({ ...defaults, partial_credit: 0.5 })).toMatch(/not the learning-loop's/);
    expect(
      mechanicalSetProblem({
        name: 'judgeloop-v1',
        partial_credit: 0.5,
        retry_penalty: 0.1,
        timeout_penalty: 0.2,
        reason: 'x',
      }),
    ).toBeNull();
    expect(
      mechanicalSetProblem({
        name: 'judgeloop-v1',
        partial_credit: 0.5,
        retry_penalty: 0.1,
        timeout_penalty: 0.2,
        reason: ' ',
      }),
    ).toMatch(/reason/);
    expect(mechanicalSetProblem({ ...defaults, name: 'mine' })).toMatch(/name them learning-loop/);
  });
});

describe('blendScore', () => {
  it("is seed 003's 0.6 x mechanical + 0.4 x judge", () => {
    expect(blendScore(0.8, 0.5, { mechanical: 0.6, judge: 0.4 })).toBeCloseTo(0.68, 12);
    expect(blendScore(1, 0, { mechanical: 0.6, judge: 0.4 })).toBeCloseTo(0.6, 12);
  });
  it('re-normalises weights that do not sum to 1', () => {
    expect(blendScore(0.8, 0.5, { mechanical: 3, judge: 2 })).toBeCloseTo(0.68, 12);
    expect(normaliseWeights({ mechanical: 3, judge: 1 })).toEqual({ mechanical: 0.75, judge: 0.25 });
    expect(() => normaliseWeights({ mechanical: 0, judge: 0 })).toThrow(/above 0/);
  });
  it('is null when either side is missing (no made-up judge score)', () => {
    expect(blendScore(0.8, null, { mechanical: 0.6, judge: 0.4 })).toBeNull();
    expect(blendScore(null, 0.8, { mechanical: 0.6, judge: 0.4 })).toBeNull();
  });
});
