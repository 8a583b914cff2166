// Cross-process locks: a folder `<target>.lock` that appears with an `owner` file naming its holder, so a lock whose
// holder died on this machine is taken over at once; elsewhere a lock not refreshed for STALE_MS is abandoned.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimes, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkError } from '../base/errors.js';
import { abandoned, self, type Owner } from '../process/owner.js';
import { tempName } from './state-write.js';

/** A lock whose mtime was not refreshed for this long is stale, unless its holder is known alive on this machine. */
export const STALE_MS = 20_000;
const UPDATE_MS = 5_000;

/** `token`: random per acquisition, so a takeover or a release removes the very lock it judged. */
type LockOwner = Owner & { token: string };

export function readLockOwner(lockDir: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(join(lockDir, 'owner'), 'utf8')) as Partial<LockOwner>;
    if (typeof o.machine !== 'string' || typeof o.pid !== 'number' || typeof o.token !== 'string') return null;
    return { machine: o.machine, pid: o.pid, start: typeof o.start === 'string' ? o.start : null, token: o.token };
  } catch {
    return null;
  }
}

/** The lock's token, '' when it has no owner file, undefined when there is no lock. */
const tokenOf = (dir: string): string | undefined => (existsSync(dir) ? (readLockOwner(dir)?.token ?? '') : undefined);

/**
 * Removes the lock if `judge` says so before and after it is renamed aside with the same token (else it is put back:
 * it was re-taken in between); true when the lock is gone.
 */
function removeIf(lockDir: string, judge: (dir: string) => boolean): boolean {
  const token = tokenOf(lockDir);
  if (!judge(lockDir)) return false;
  const aside = join(dirname(lockDir), tempName(lockDir));
  try {
    renameSync(lockDir, aside);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
  const same = tokenOf(aside) === token && judge(aside);
  try {
    if (!same) renameSync(aside, lockDir);
  } catch {
    // A new lock is in place already: the one moved aside is lost, as its holder's refresh will say.
  }
  rmSync(aside, { recursive: true, force: true });
  return same;
}

/** Removes the lock when its holder is dead on this machine, or it is stale and its holder cannot be told alive. */
export const takeOverIfAbandoned = (lockDir: string): boolean =>
  removeIf(lockDir, (dir) => abandoned(readLockOwner(dir), dir, Date.now(), STALE_MS));

/** Renames a folder holding the owner file into place (a lock is never empty, so that fails on a held one). */
function tryLock(lockDir: string): string | null {
  const aside = join(dirname(lockDir), tempName(lockDir));
  let token = randomBytes(8).toString('hex');
  try {
    mkdirSync(aside);
    try {
      writeFileSync(join(aside, 'owner'), JSON.stringify({ ...self(), token }));
    } catch {
      token = ''; // A full disk: a lock without an owner, as old as its mtime says.
    }
    renameSync(aside, lockDir);
    return token;
  } catch (e) {
    rmSync(aside, { recursive: true, force: true });
    if (['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code!)) return null;
    throw e;
  }
}

/** Refreshes the held lock's mtime; the release removes the lock only while it is ours, and only once. */
function hold(lockDir: string, token: string, updateMs: number): () => Promise<void> {
  const ours = (dir: string) => tokenOf(dir) === token;
  let held = true;
  /** Stops refreshing; true when the lock was still ours, else says once that it was lost. */
  const stop = (): boolean => {
    clearInterval(timer);
    const kept = held && ours(lockDir);
    if (held && !kept) process.stderr.write(`judgeloop: lost the lock ${lockDir} (removed or taken by another)\n`);
    held = false;
    return kept;
  };
  // A refresh that fails (the lock gone since the check) is the next tick's to report.
  const refresh = () => (ours(lockDir) ? utimes(lockDir, new Date(), new Date(), () => undefined) : stop());
  const timer = setInterval(refresh, updateMs).unref();
  return async () => {
    if (stop()) removeIf(lockDir, ours);
  };
}

/** Takes the lock at `target` (its folder is `target`.lock), waiting up to `waitMs`; resolves to its release. */
export async function acquireLock(target: string, waitMs: number, updateMs = UPDATE_MS): Promise<() => Promise<void>> {
  const lockDir = `${target}.lock`;
  const deadline = Date.now() + waitMs;
  for (let delay = 10; ; delay = Math.min(100, delay * 1.3)) {
    const token = tryLock(lockDir);
    if (token !== null) return hold(lockDir, token, updateMs);
    if (takeOverIfAbandoned(lockDir)) continue;
    const left = deadline - Date.now();
    if (left <= 0) {
      const pid = readLockOwner(lockDir)?.pid;
      const msg = `the lock ${lockDir} is already being held${pid ? ` by pid ${pid}` : ''}; waited ${waitMs / 1000} s`;
      throw Object.assign(new WorkError(msg), { code: 'ELOCKED' });
    }
    await sleep(Math.min(left, delay * (0.5 + Math.random())));
  }
}
