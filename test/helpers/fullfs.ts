// A file system that runs out of room, two real ways: a small tmpfs filled up (needs root: `mount -t tmpfs`),
// and RLIMIT_FSIZE (`ulimit -f`, with SIGXFSZ ignored so writes past the limit fail with EFBIG) for a child
// process, which any user can do. Tests run every way available here.
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './repo.js';

export interface FullFs {
  mode: 'tmpfs' | 'ulimit';
  /** Where the state directory goes. */
  dir: string;
  /** What a failing write reports. */
  code: 'ENOSPC' | 'EFBIG';
  /** Leaves about `bytes` of room for the next writes (tmpfs: whole pages; ulimit: a file-size limit). */
  fill(bytes: number): void;
  /** Gives the room back. */
  free(): void;
  /** argv that runs `argv` under the limit (ulimit) or as it is (tmpfs). */
  wrap(argv: string[]): string[];
  cleanup(): void;
}

/** A tmpfs of `sizeKb` mounted on a temporary folder, or null when this process may not mount one. */
export function tmpfsFullFs(sizeKb = 2048): FullFs | null {
  const dir = tempDir('judgeloop-fullfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0755`, 'tmpfs', dir], { stdio: 'ignore' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, 'filler');
  return {
    mode: 'tmpfs',
    dir,
    code: 'ENOSPC',
    fill(bytes) {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
      ftruncateSync(fd, Math.max(0, fstatSync(fd).size - bytes));
      closeSync(fd);
    },
    free() {
      rmSync(filler, { force: true });
    },
    wrap: (argv) => argv,
    cleanup() {
      spawnSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A limit on the size of any file a wrapped child process writes (in 1 KiB steps; sh may count 512-byte blocks). */
export function ulimitFullFs(): FullFs {
  const dir = tempDir('judgeloop-fullfs-');
  let blocks: number | null = null;
  return {
    mode: 'ulimit',
    dir,
    code: 'EFBIG',
    fill(bytes) {
      blocks = Math.max(1, Math.floor(bytes / 1024));
    },
    free() {
      blocks = null;
    },
    // `ulimit -f` counts 512-byte blocks in POSIX sh (dash): 2·blocks is then `bytes`.
    wrap: (argv) =>
      blocks === null ? argv : ['sh', '-c', `trap '' XFSZ; ulimit -f ${blocks * 2} && exec "$@"`, 'sh', ...argv],
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every way available here. */
export function fullFileSystems(): FullFs[] {
  const t = tmpfsFullFs();
  return t ? [t, ulimitFullFs()] : [ulimitFullFs()];
}
