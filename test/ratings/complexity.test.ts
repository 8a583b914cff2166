import { describe, expect, it } from 'vitest';
import { decideComplexity, type ComplexityParams } from '../../lib/ratings/complexity.js';
import { config } from './helpers.js';

const P: ComplexityParams = config().ratings!.complexity;
const now = '2026-03-02T12:00:00.000Z';
const decide = (o: Partial<Parameters<typeof decideComplexity>[0]>) =>
  decideComplexity({
    runScore: 8,
    quality: 8,
    taskComplexity: 5,
    maxComplexity: 5,
    complexityUpdatedAt: null,
    now,
    params: P,
    ...o,
  });

describe('seed 002 §7.2 promotion and demotion', () => {
  it('uses the seed thresholds 7.5 / 4.0, quality ≥ 7 and a 24 h cooldown', () => {
    expect(P).toEqual({ promote_threshold: 7.5, demote_threshold: 4.0, promote_min_quality: 7, cooldown_hours: 24 });
  });

  it('promotes at exactly the thresholds (score 7.5, quality 7, complexity = max)', () => {
    expect(decide({ runScore: 7.5, quality: 7 })).toMatchObject({ action: 'promote', max_complexity_after: 6 });
  });

  it('does not promote just below a threshold or on a task below max_complexity', () => {
    expect(decide({ runScore: 7.49 }).action).toBe('none');
    expect(decide({ quality: 6.99 }).action).toBe('none');
    expect(decide({ taskComplexity: 4 }).action).toBe('none');
  });

  it('promotes on a stretch task above max_complexity', () => {
    expect(decide({ taskComplexity: 6 })).toMatchObject({ action: 'promote', max_complexity_after: 6 });
  });

  it('demotes at exactly 4.0 on a task at or below max_complexity, not above it', () => {
    expect(decide({ runScore: 4, quality: 3 })).toMatchObject({ action: 'demote', max_complexity_after: 4 });
    expect(decide({ runScore: 1, taskComplexity: 2 })).toMatchObject({ action: 'demote', max_complexity_after: 4 });
    expect(decide({ runScore: 4.01 }).action).toBe('none');
    expect(decide({ runScore: 1, taskComplexity: 6 }).action).toBe('none');
  });

  it('holds a change within 24 h of the last one and allows it at exactly 24 h', () => {
    const just = new Date(Date.parse(now) - 24 * 3_600_000 + 1).toISOString();
    const exactly = new Date(Date.parse(now) - 24 * 3_600_000).toISOString();
    const held = decide({ complexityUpdatedAt: just });
    expect(held).toMatchObject({ action: 'held_by_cooldown', max_complexity_after: 5 });
    expect(held.reason).toContain('until 2026-03-02T12:00:00.001Z');
    expect(decide({ complexityUpdatedAt: exactly }).action).toBe('promote');
    expect(decide({ runScore: 2, complexityUpdatedAt: just }).action).toBe('held_by_cooldown');
  });

  it('stays within 1-10', () => {
    expect(decide({ maxComplexity: 10, taskComplexity: 10 })).toMatchObject({
      action: 'at_limit',
      max_complexity_after: 10,
    });
    expect(decide({ maxComplexity: 1, taskComplexity: 1, runScore: 0 })).toMatchObject({
      action: 'at_limit',
      max_complexity_after: 1,
    });
  });

  it('names the evidence in the reason', () => {
    expect(decide({}).reason).toBe('promoted 5 → 6: run_score 8, quality 8, task complexity 5, max_complexity 5');
  });
});
