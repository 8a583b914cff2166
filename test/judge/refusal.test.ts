// A refused key is reported once an hour: the pure rule that keeps background runs from asking again.
import { describe, expect, it } from 'vitest';
import { recentRefusal, retryAfter } from '../../lib/judge/refusal.js';
import type { JudgeLedgerRow } from '../../lib/schema/types.generated.js';

const now = new Date('2026-03-01T12:00:00Z');
const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();
const call = (min: number, outcome: string): JudgeLedgerRow => ({ type: 'call', at: ago(min), bead: 'b', outcome });
const slot = (min: number): JudgeLedgerRow => ({ type: 'slot', at: ago(min), bead: 'b' });

describe('recentRefusal', () => {
  it('the last call refused within the hour: no request until an hour after it', () => {
    const r = recentRefusal([call(90, 'ok'), call(30, 'auth_error'), slot(10)], now);
    expect(r?.at).toBe(ago(30));
    expect(retryAfter(r!)).toBe(new Date(now.getTime() + 30 * 60_000).toISOString());
  });
  it('an hour old, or followed by a call that went through (the key was fixed), it holds nothing back', () => {
    expect(recentRefusal([call(60, 'auth_error')], now)).toBeNull();
    expect(recentRefusal([call(59.9, 'auth_error')], now)).not.toBeNull();
    expect(recentRefusal([call(30, 'auth_error'), call(20, 'ok')], now)).toBeNull();
    expect(recentRefusal([call(30, 'auth_error'), call(20, 'overloaded')], now)).toBeNull();
  });
  it('no call at all, or a refusal stamped in the future (a clock set back), holds nothing back', () => {
    expect(recentRefusal([slot(5)], now)).toBeNull();
    expect(recentRefusal([call(-5, 'auth_error')], now)).toBeNull();
  });
});
