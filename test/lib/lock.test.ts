// The cross-process lock's own rules, with real processes: a stale lock is taken when its holder cannot be told
// alive, never from a live holder here; a held lock is refreshed; a release never removes a lock that is not its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { acquireLock, readLockOwner, STALE_MS } from '../../lib/store/lock.js';
import { self } from '../../lib/process/owner.js';
import { tempDir } from '../helpers/repo.js';

const CHILD = join(import.meta.dirname, '_lock-child.mjs');
const LOCK_JS = join(import.meta.dirname, '../../dist/lib/store/lock.js'); // lib/store/lock.ts as built
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};

const taker = (root: string, waitSeconds: number) =>
  spawnSync(process.execPath, [CHILD, 'take-lock', root, 'work', String(waitSeconds)], {
    encoding: 'utf8',
  });

/** A lock folder as another process leaves it: its token file naming `owner` (or nobody), `ageMs` old. */
function plantLock(root: string, owner: object | null, ageMs: number): string {
  const lock = join(root, '.locks', 'work.lock');
  mkdirSync(lock, { recursive: true });
  writeFileSync(join(lock, 'theirs'), owner ? JSON.stringify(owner) : '');
  const t = new Date(Date.now() - ageMs);
  utimesSync(lock, t, t);
  return lock;
}

const elsewhere = { machine: '00000000', pid: 1, start: '1' };
const old = STALE_MS + 60_000;

describe('the stale rule', () => {
  it.each([
    ['a holder on another machine', elsewhere],
    ['no owner file', null],
  ])('%s: taken once its mtime is older than STALE_MS, not while it is fresh', (_label, owner) => {
    const fresh = temp();
    plantLock(fresh, owner, 0);
    const r = taker(fresh, 1);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^the lock \S+work\.lock is already being held( by pid 1)?; waited 1 s\n$/);

    const stale = temp();
    plantLock(stale, owner, old);
    const t = taker(stale, 1);
    expect(t.stderr).toBe('');
    expect(t.status).toBe(0);
  });

  it('a live holder on this machine keeps its lock however old its mtime (a stopped process: no refresh)', async () => {
    const root = temp();
    const c = spawn(process.execPath, [CHILD, 'hold-lock', root, 'work'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(c);
    await new Promise<void>((r) => c.stdout!.on('data', () => r()));
    c.kill('SIGSTOP');
    try {
      const lock = join(root, '.locks', 'work.lock');
      const t = new Date(Date.now() - old);
      utimesSync(lock, t, t);
      const r = taker(root, 1);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`already being held by pid ${c.pid}`));
      expect(readLockOwner(lock)?.pid).toBe(c.pid);
    } finally {
      c.kill('SIGKILL');
    }
  });
});

describe('holding', () => {
  it('a held lock has its mtime refreshed', async () => {
    const target = join(temp(), 'work');
    const release = await acquireLock(target, 0, 20);
    const t = new Date(Date.now() - old);
    utimesSync(`${target}.lock`, t, t);
    await expect
      .poll(() => statSync(`${target}.lock`).mtimeMs, { timeout: 30_000 })
      .toBeGreaterThan(Date.now() - STALE_MS);
    await release();
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('the refresh timer does not keep a process alive', () => {
    const target = join(temp(), 'work');
    const script = `import { acquireLock } from ${JSON.stringify(LOCK_JS)};
      await acquireLock(${JSON.stringify(target)}, 0, 20);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(readLockOwner(`${target}.lock`)?.pid).toBe(r.pid);
  });
});

describe('release', () => {
  /** Replaces the held lock by another process's, as a takeover followed by a new acquisition would. */
  function retake(lockDir: string): void {
    renameSync(lockDir, `${lockDir}.gone`);
    mkdirSync(lockDir);
    writeFileSync(join(lockDir, 'theirs'), JSON.stringify({ ...self(), pid: 1 }));
  }

  it('never removes a lock whose token is not its own, and says once on stderr that the lock was lost', async () => {
    const target = join(temp(), 'work');
    const lost = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const release = await acquireLock(target, 0);
      retake(`${target}.lock`);
      await release();
      await release();
      expect(readdirSync(`${target}.lock`)).toEqual(['theirs']);
      expect(lost.mock.calls.map(([s]) => String(s))).toEqual([
        `judgeloop: lost the lock ${target}.lock (removed or taken by another)\n`,
      ]);
    } finally {
      lost.mockRestore();
    }
  });

  it('the refresh finds the lock lost, says so and stops: the new holder is neither refreshed nor removed', async () => {
    const target = join(temp(), 'work');
    const lost = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const release = await acquireLock(target, 0, 20);
      retake(`${target}.lock`);
      const t = new Date(Date.now() - old);
      utimesSync(`${target}.lock`, t, t);
      await expect.poll(() => lost.mock.calls.length, { timeout: 30_000 }).toBe(1);
      await release();
      expect(Date.now() - statSync(`${target}.lock`).mtimeMs).toBeGreaterThan(STALE_MS);
      expect(readdirSync(`${target}.lock`)).toEqual(['theirs']);
      expect(lost).toHaveBeenCalledTimes(1);
    } finally {
      lost.mockRestore();
    }
  });

  it('a second release after someone else took the lock leaves theirs alone', async () => {
    const target = join(temp(), 'work');
    const first = await acquireLock(target, 0);
    await first();
    const second = await acquireLock(target, 0);
    const token = readdirSync(`${target}.lock`);
    await first();
    expect(readdirSync(`${target}.lock`)).toEqual(token);
    await second();
    expect(existsSync(`${target}.lock`)).toBe(false);
  });
});

describe('contention', () => {
  it('12 processes incrementing one counter past a dead holder’s lock: no lost update, no lock lost', async () => {
    const root = temp();
    plantLock(root, { ...self(), pid: spawnSync('true').pid! }, 0);
    const counter = join(root, 'counter.txt');
    const n = 12;
    const runs = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const c = spawn(process.execPath, [CHILD, 'increment', root, 'work', counter], {
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
            c.on('close', (code) => resolve({ code, stderr }));
          }),
      ),
    );
    expect(runs).toEqual(Array(n).fill({ code: 0, stderr: '' }));
    expect(readFileSync(counter, 'utf8')).toBe(String(n));
    expect(readdirSync(join(root, '.locks'))).toEqual([]);
  });
});
