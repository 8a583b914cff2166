// Cross-process locks (proper-lockfile) with an `owner` file naming the holder, so a lock whose holder died on this
// machine is taken over at once instead of after STALE_MS.
import * as fs from 'node:fs';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { isAlive, self, type Owner } from '../process/owner.js';
import { tempName } from './state-write.js';

/** A lock whose mtime was not refreshed for this long is stale whoever holds it (the cross-machine rule). */
export const STALE_MS = 20_000;
const UPDATE_MS = 5_000;

interface LockOwner extends Owner {
  /** Random per acquisition: a takeover checks it removed the very lock it judged dead. */
  token: string;
}

const OWNER_FILE = 'owner';

export function readLockOwner(lockDir: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(join(lockDir, OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof o.machine !== 'string' || typeof o.pid !== 'number' || typeof o.token !== 'string') return null;
    return { machine: o.machine, pid: o.pid, start: typeof o.start === 'string' ? o.start : null, token: o.token };
  } catch {
    return null;
  }
}

/**
 * Removes the lock at `lockDir` when its owner is known dead; true when the lock is gone (retry at once).
 * The lock is renamed aside first and its token compared, so a lock taken over and re-taken by a third process
 * between our read and our rename is put back rather than removed.
 */
export function takeOverIfDead(lockDir: string): boolean {
  const o = readLockOwner(lockDir);
  if (!o || isAlive(o) !== false) return false;
  const aside = join(dirname(lockDir), tempName(lockDir));
  try {
    renameSync(lockDir, aside);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (readLockOwner(aside)?.token === o.token) {
    rmSync(aside, { recursive: true, force: true });
    return true;
  }
  try {
    if (!existsSync(lockDir)) renameSync(aside, lockDir);
  } catch {
    // Someone holds a new lock already; the one moved aside is reported compromised to its holder.
  }
  return false;
}

type LockFs = Record<string, unknown>;
let lockFsCache: LockFs | undefined;

/**
 * The fs proper-lockfile uses: mkdir also writes the owner file, and removing a lock removes the folder with it
 * (proper-lockfile's rmdir would fail on a non-empty folder). One object per process: it caches mtime precision.
 */
function lockFs(): LockFs {
  if (lockFsCache) return lockFsCache;
  const lfs: LockFs = {
    ...fs,
    // The lock appears with its owner file inside: made aside, then renamed into place (atomic; a lock folder
    // that exists is never empty, so the rename fails on it). A holder killed at any point leaves either no lock,
    // or one that names it, or a temporary folder the sweep removes.
    mkdir: (path: string, cb: (err: NodeJS.ErrnoException | null) => void) => {
      const aside = join(dirname(path), tempName(path));
      fs.mkdir(aside, (err) => {
        if (err) return cb(err);
        try {
          writeFileSync(join(aside, OWNER_FILE), JSON.stringify({ ...self(), token: randomBytes(8).toString('hex') }));
        } catch {
          // No owner file: waiters fall back to the mtime rule.
        }
        fs.rename(aside, path, (e) => {
          if (!e) return cb(null);
          const code = e.code === 'ENOTEMPTY' || e.code === 'EEXIST' ? 'EEXIST' : e.code;
          fs.rm(aside, { recursive: true, force: true }, () => cb(Object.assign(e, { code })));
        });
      });
    },
    rmdir: (path: string, cb: (err: NodeJS.ErrnoException | null) => void) =>
      fs.rm(path, { recursive: true }, (err) => cb(err)),
    rmdirSync: (path: string) => fs.rmSync(path, { recursive: true }),
  };
  lockFsCache = lfs;
  return lfs;
}

const ignoreSignal = (): void => undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes the lock at `target` (its folder is `target`.lock), waiting up to `waitMs`; resolves to its release. */
export async function acquireLock(target: string, waitMs: number): Promise<() => Promise<void>> {
  // Loaded on first use: most reads never lock, and start-up cost matters for hooks.
  const { default: lockfile } = await import('proper-lockfile');
  // Node ignores SIGXFSZ (a write past RLIMIT_FSIZE then fails with EFBIG), but signal-exit, loaded with
  // proper-lockfile, turns it into death unless someone else listens: a clear error beats a killed writer.
  if (!process.listeners('SIGXFSZ').includes(ignoreSignal)) process.on('SIGXFSZ', ignoreSignal);
  const deadline = Date.now() + waitMs;
  let delay = 10;
  for (;;) {
    try {
      return await lockfile.lock(target, {
        realpath: false,
        stale: STALE_MS,
        update: UPDATE_MS,
        retries: 0,
        fs: lockFs(),
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      if (takeOverIfDead(`${target}.lock`)) continue;
      const left = deadline - Date.now();
      if (left <= 0) throw e;
      await sleep(Math.min(left, delay * (0.5 + Math.random())));
      delay = Math.min(100, delay * 1.3);
    }
  }
}
