// Cross-process locks: a folder `<target>.lock` that appears holding one file, named by a random token, naming its
// holder; a lock whose holder died on this machine is taken over at once, elsewhere one not refreshed for STALE_MS.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { unlinkSync, utimes, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkError } from '../base/errors.js';
import { abandoned, self, type Owner } from '../process/owner.js';
import { tempName } from './state-write.js';

/** A lock whose mtime was not refreshed for this long is stale, unless its holder is known alive on this machine. */
export const STALE_MS = 20_000;
const UPDATE_MS = 5_000;

/** `token`: the name of the lock's one file; removing that file frees that very lock and no other. */
type Lock = { token: string; owner: Owner | null };

function readLock(lockDir: string): Lock | null {
  let token: string | undefined;
  try {
    token = readdirSync(lockDir)[0];
    if (token === undefined) return null;
    const o = JSON.parse(readFileSync(join(lockDir, token), 'utf8')) as Partial<Owner>;
    if (typeof o.machine !== 'string' || typeof o.pid !== 'number') return { token, owner: null };
    return { token, owner: { machine: o.machine, pid: o.pid, start: typeof o.start === 'string' ? o.start : null } };
  } catch {
    return token === undefined ? null : { token, owner: null };
  }
}

export const readLockOwner = (lockDir: string): Owner | null => readLock(lockDir)?.owner ?? null;

/** Frees the lock `token` (an empty lock folder is free: a rename replaces it); false when it was not there. */
function unlock(lockDir: string, token: string): boolean {
  try {
    unlinkSync(join(lockDir, token));
  } catch {
    return false;
  }
  try {
    rmdirSync(lockDir);
  } catch {
    // Taken again already, or removed by another waiter.
  }
  return true;
}

/** Frees the lock when its holder is dead on this machine, or it is stale and its holder cannot be told alive. */
export function takeOverIfAbandoned(lockDir: string): boolean {
  const l = readLock(lockDir);
  return l !== null && abandoned(l.owner, lockDir, Date.now(), STALE_MS) && unlock(lockDir, l.token);
}

/** Renames a folder holding the token file into place: that fails on a held lock, which is never empty. */
function tryLock(lockDir: string): string | null {
  const aside = join(dirname(lockDir), tempName(lockDir));
  const token = randomBytes(8).toString('hex');
  try {
    mkdirSync(aside);
    try {
      writeFileSync(join(aside, token), JSON.stringify(self()));
    } catch (e) {
      // A full disk can leave the file empty: still a lock (its name is its token), judged by its mtime.
      if (!existsSync(join(aside, token))) throw e;
    }
    renameSync(aside, lockDir);
    return token;
  } catch (e) {
    rmSync(aside, { recursive: true, force: true });
    if (['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code!)) return null;
    throw e;
  }
}

/** Refreshes the held lock's mtime; the release frees the lock only while it is ours, and only once. */
function hold(lockDir: string, token: string, updateMs: number): () => Promise<void> {
  let held = true;
  const stop = (wasOurs: boolean) => {
    clearInterval(timer);
    if (held && !wasOurs) process.stderr.write(`judgeloop: lost the lock ${lockDir} (removed or taken by another)\n`);
    held = false;
  };
  // A refresh that fails (the lock gone since the check) is the next tick's to report.
  const refresh = () =>
    existsSync(join(lockDir, token)) ? utimes(lockDir, new Date(), new Date(), () => {}) : stop(false);
  const timer = setInterval(refresh, updateMs).unref();
  return async () => {
    if (held) stop(unlock(lockDir, token));
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
      const pid = readLock(lockDir)?.owner?.pid;
      const msg = `the lock ${lockDir} is already being held${pid ? ` by pid ${pid}` : ''}; waited ${waitMs / 1000} s`;
      throw Object.assign(new WorkError(msg), { code: 'ELOCKED' });
    }
    await sleep(Math.min(left, delay * (0.5 + Math.random())));
  }
}
