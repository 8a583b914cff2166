// usageWithCache: one judgment's usage with its system block cached or not, priced by costUsd at config's prices.
import { describe, expect, it } from 'vitest';
import { costUsd, usageWithCache } from '../../lib/judge/cost.js';
import { loadConfig } from '../../lib/config/config.js';

describe('usageWithCache', () => {
  const judge = loadConfig({ env: {} }).judge;
  it('none: the prefix is plain input; write: a cache write; read: a cache read; output unchanged', () => {
    expect(usageWithCache(3000, 5000, 800, 'none')).toEqual({
      input_tokens: 8000,
      output_tokens: 800,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(usageWithCache(3000, 5000, 800, 'write')).toMatchObject({
      input_tokens: 5000,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 0,
    });
    expect(usageWithCache(3000, 5000, 800, 'read')).toMatchObject({
      input_tokens: 5000,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 3000,
    });
  });
  it("at claude-opus-4-6's prices (input 5, cache write 6.25, cache read 0.5 per million) a read saves 90% of the prefix", () => {
    const m = 'claude-opus-4-6';
    const cost = (c: 'none' | 'write' | 'read') => costUsd(usageWithCache(1e6, 0, 0, c), m, judge);
    expect(cost('none')).toBe(5);
    expect(cost('write')).toBe(6.25);
    expect(cost('read')).toBe(0.5);
  });
});
