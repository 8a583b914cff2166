import { describe, expect, it } from 'vitest';
import { execute, type Io } from '../../lib/cli/cli.js';
import { clockFromEnv, nowIso } from '../../lib/base/clock.js';
import { run as collect } from '../../scripts/collect.js';
import { run as race } from '../../scripts/race.js';
import { tempDir } from '../helpers/repo.js';

describe('clock', () => {
  it('is pinned by JUDGELOOP_NOW and real otherwise', () => {
    expect(nowIso({ JUDGELOOP_NOW: '2026-03-01T09:00:00+01:00' })).toBe('2026-03-01T08:00:00.000Z');
    const before = Date.now();
    const t = clockFromEnv({})().getTime();
    expect(t).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ['collect', collect],
    ['race', race],
  ] as const)('bin/%s: a bad JUDGELOOP_NOW is a usage error (exit 2, one line), not a crash', async (_name, run) => {
    const err: string[] = [];
    const io: Io = {
      stdout: () => undefined,
      stderr: (t) => void err.push(t),
      env: { JUDGELOOP_NOW: 'yesterday', JUDGELOOP_STATE_DIR: tempDir() },
      processEnv: process.env,
      cwd: tempDir(),
      color: false,
    };
    expect(await execute(run, ['run.json'], io)).toBe(2);
    expect(err.join('')).toBe('JUDGELOOP_NOW="yesterday": expected an ISO 8601 time\n');
  });
});
