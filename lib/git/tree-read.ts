// A file of the agent's tree, read only when it is a regular file inside the tree: a FIFO would block, a
// symlink could lead out; those are skipped with a reason.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';

export type TreeRead = { ok: true; text: string; bytes: number } | { ok: false; skipped: string };

function kind(st: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
  isDirectory(): boolean;
}): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** Reads `rel` under `root` as UTF-8 when it is a regular file of at most `maxBytes` inside the tree. */
export function readTreeFile(root: string, rel: string, maxBytes: number): TreeRead {
  if (isAbsolute(rel) || rel.split('/').includes('..'))
    return { ok: false, skipped: `${rel}: not a path inside the tree` };
  const full = join(root, rel);
  let realRoot: string;
  let realDir: string;
  try {
    realRoot = realpathSync(root);
    realDir = realpathSync(dirname(full));
  } catch (e) {
    return { ok: false, skipped: `${rel}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}` };
  }
  const up = relative(realRoot, realDir);
  if (up.startsWith('..') || isAbsolute(up))
    return { ok: false, skipped: `${rel}: its folder leads out of the tree (symlink)` };
  // Asked of the path (lstat) and again of what was opened (fstat): it may have been swapped in between.
  const refusal = (st: Stats): string | null =>
    !st.isFile()
      ? `${rel}: ${kind(st)}, not read`
      : st.size > maxBytes
        ? `${rel}: ${st.size} bytes, over ${maxBytes}`
        : null;
  let fd: number;
  try {
    const no = refusal(lstatSync(full));
    if (no) return { ok: false, skipped: no };
    // O_NONBLOCK: were it swapped for a FIFO since lstat, open returns at once; O_NOFOLLOW: nor a symlink.
    fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    return { ok: false, skipped: `${rel}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}` };
  }
  try {
    const st = fstatSync(fd);
    const no = refusal(st);
    if (no) return { ok: false, skipped: no };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { ok: true, text: buf.subarray(0, off).toString('utf8'), bytes: off };
  } finally {
    closeSync(fd);
  }
}
