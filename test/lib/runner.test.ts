import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { scrubEnv } from '../../lib/process/env-scrub.js';
import { HeadTailBuffer, runCommand } from '../../lib/process/runner.js';
import { tempDir } from '../helpers/repo.js';

/** 'gone', or the state letter from /proc (Z = dead, waiting to be reaped by an init that may never reap). */
function processState(pid: number): string {
  try {
    return /State:\s+(\w)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}

const base = {
  env: { PATH: process.env.PATH, TMPDIR: tmpdir() },
  timeoutMs: 20_000,
  capBytes: 64 * 1024,
  killGraceMs: 500,
};

describe('runCommand', () => {
  it('captures stdout and stderr together and the exit code, in the given directory', async () => {
    const cwd = tempDir();
    const r = await runCommand('echo out; echo err >&2; pwd; exit 3', { ...base, cwd });
    expect(r.exitCode).toBe(3);
    expect(r.timedOut).toBe(false);
    expect(r.output.text).toContain('out\n');
    expect(r.output.text).toContain('err\n');
    expect(r.output.text).toContain(cwd);
  });

  it('kills the whole process tree at the timeout, grandchildren included', async () => {
    const cwd = tempDir();
    const r = await runCommand(
      "sleep 30 & echo $! > a.pid; sh -c 'sleep 40 & echo $! > b.pid; wait' & echo started; wait",
      { ...base, cwd, timeoutMs: 500 },
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.output.text).toContain('started');
    for (const f of ['a.pid', 'b.pid']) {
      const pid = Number(readFileSync(join(cwd, f), 'utf8'));
      expect(pid).toBeGreaterThan(0);
      // The pipe closes as a killed process releases its files, a moment before /proc shows it dead.
      const deadline = Date.now() + 5000;
      while (!/^(gone|Z)$/.test(processState(pid)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(processState(pid)).toMatch(/^(gone|Z)$/);
    }
  });

  it('keeps head and tail of a flood of output within the cap', async () => {
    const cwd = tempDir();
    const r = await runCommand('echo FIRST; head -c 20000000 /dev/zero | tr "\\0" x; echo; echo LAST', {
      ...base,
      cwd,
      capBytes: 4096,
    });
    expect(r.output.bytes).toBeGreaterThan(20_000_000);
    expect(r.output.truncated).toBe(true);
    expect(r.output.text.startsWith('FIRST\n')).toBe(true);
    expect(r.output.text.trimEnd().endsWith('LAST')).toBe(true);
    expect(r.output.text.length).toBeLessThan(4096 + 100);
  });

  it('decodes invalid UTF-8 with replacement characters', async () => {
    const r = await runCommand("printf 'ok \\377\\376 done\\n'", { ...base, cwd: tempDir() });
    expect(r.output.text).toBe('ok \uFFFD\uFFFD done\n');
  });

  it('reports a missing working directory as a spawn error', async () => {
    const r = await runCommand('true', { ...base, cwd: '/nonexistent/judgeloop' });
    expect(r.spawnError).toMatch(/ENOENT/);
  });
});

describe('HeadTailBuffer', () => {
  it('returns everything when under the cap', () => {
    const b = new HeadTailBuffer(4, 4);
    b.push(Buffer.from('abc'));
    b.push(Buffer.from('de'));
    expect(b.result()).toEqual({ text: 'abcde', bytes: 5, truncated: false });
  });
  it('keeps exactly head and tail bytes when over', () => {
    const b = new HeadTailBuffer(3, 3);
    for (const c of ['ab', 'cdef', 'gh', 'ij']) b.push(Buffer.from(c));
    expect(b.result()).toEqual({ text: 'abc\n[... 4 bytes omitted ...]\nhij', bytes: 10, truncated: true });
  });
});

describe('scrubEnv', () => {
  it('drops secret-looking variables and keeps the rest', () => {
    const out = scrubEnv({ PATH: '/bin', ANTHROPIC_API_KEY: 'sk', GITHUB_TOKEN: 't', HOME: '/h', db_password: 'p' }, [
      'KEY',
      'TOKEN',
      'PASSWORD',
    ]);
    expect(out).toEqual({ PATH: '/bin', HOME: '/h' });
  });
});
