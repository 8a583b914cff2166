// A child's output is not lost when judgeloop's event loop stalls past the drain time after the child exits (a
// race's synchronous TypeScript work, a /proc scan under load): the pipes are read before they are cut.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { spawnGroup } from '../../lib/process/process.js';

describe('spawnGroup under a stalled event loop', () => {
  it('keeps all of stdout when the loop is blocked longer than drainMs after the exit', async () => {
    const chunks: Buffer[] = [];
    const done = spawnGroup('sh', ['-c', 'printf "%s" 0123456789abcdef0123456789abcdef01234567'], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH },
      timeoutMs: 10_000,
      drainMs: 50,
      onStdout: (c) => chunks.push(c),
      onStderr: () => undefined,
    });
    const until = Date.now() + 600; // the child exits meanwhile; exit and data wait behind the stall
    while (Date.now() < until) {
      // busy: a synchronous stall, as a parse or a /proc scan would be
    }
    const r = await done;
    expect(r.exitCode).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe('0123456789abcdef0123456789abcdef01234567');
  });
});
