// hasEntry (lib/process/process.ts): the escaped-process sweep's test of one `NAME=value` entry in /proc/<pid>/environ.
import { describe, expect, it } from 'vitest';
import { hasEntry } from '../../lib/process/process.js';

const env = (...entries: string[]) => Buffer.from(entries.join('\0'), 'latin1');
const E = Buffer.from('JUDGELOOP_RUN_MARK=42-ab');

describe('hasEntry', () => {
  it('finds the entry first, in the middle, last, with or without the closing NUL', () => {
    expect(hasEntry(env('JUDGELOOP_RUN_MARK=42-ab', 'PATH=/bin', ''), E)).toBe(true);
    expect(hasEntry(env('HOME=/h', 'JUDGELOOP_RUN_MARK=42-ab', 'PATH=/bin', ''), E)).toBe(true);
    expect(hasEntry(env('HOME=/h', 'JUDGELOOP_RUN_MARK=42-ab', ''), E)).toBe(true);
    expect(hasEntry(env('HOME=/h', 'JUDGELOOP_RUN_MARK=42-ab'), E)).toBe(true);
    expect(hasEntry(E, E)).toBe(true);
  });

  it('refuses a longer value, a longer name, or the entry inside another value', () => {
    expect(hasEntry(env('JUDGELOOP_RUN_MARK=42-abc', ''), E)).toBe(false);
    expect(hasEntry(env('XJUDGELOOP_RUN_MARK=42-ab', ''), E)).toBe(false);
    expect(hasEntry(env('A=JUDGELOOP_RUN_MARK=42-ab', ''), E)).toBe(false);
    expect(hasEntry(env(''), E)).toBe(false);
    expect(hasEntry(Buffer.alloc(0), E)).toBe(false);
  });

  it('finds a later exact entry after a near miss', () => {
    expect(hasEntry(env('JUDGELOOP_RUN_MARK=42-abc', 'JUDGELOOP_RUN_MARK=42-ab', ''), E)).toBe(true);
  });
});
