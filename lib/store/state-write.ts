// The one writer of state files: every byte or a clear failure, fsync, rename, folder fsync; on any failure the old
// file is untouched and a StateWriteError names file and cause (exit 1). Appends add a whole row or nothing.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WorkError } from '../base/errors.js';
import { ownerTag } from '../process/owner.js';

// Node's own words otherwise ("no space left on device").
const CAUSES: Record<string, string> = {
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where the file should be',
  EXDEV: 'the temporary file is on another file system',
};

/** A state file could not be written; the previous version (if any) is unchanged. Exit 1, one line. */
export class StateWriteError extends WorkError {
  constructor(
    readonly file: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** "no space left on device (ENOSPC)" for an fs error. */
export function causeOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  if (!code) return err instanceof Error ? err.message : String(e);
  return `${CAUSES[code] ?? err.message.replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '')} (${code})`;
}

function writeError(file: string, e: unknown, what: string): StateWriteError {
  if (e instanceof StateWriteError) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  return new StateWriteError(
    file,
    typeof code === 'string' ? code : undefined,
    `cannot write ${file}: ${causeOf(e)}; ${what}`,
  );
}

/** Writes every byte of `data` at the file position (or the end, for O_APPEND); a write of 0 bytes is an error. */
function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    const n = writeSync(fd, data, off, data.length - off);
    if (!(n > 0)) throw Object.assign(new Error(`short write: ${off} of ${data.length} bytes`), { code: 'EIO' });
    off += n;
  }
}

/** fsync of a folder, so a rename or a new name in it survives a crash (some file systems cannot: ignored there). */
function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw e;
  } finally {
    closeSync(fd);
  }
}

/** `.<name>.<owner tag>.<random>.tmp`: hidden, swept by sweepTemps once its writer is dead. */
export function tempName(target: string): string {
  return `.${basename(target)}.${ownerTag()}.${randomBytes(4).toString('hex')}.tmp`;
}

export interface AtomicOptions {
  /** Folder for the temporary file (state/.tmp, swept at start); used when on the target's file system. */
  tmpDir?: string;
}

/** The temporary file's folder: `opts.tmpDir` when on the target's file system (rename(2) cannot cross), else beside it. */
function tempFolder(file: string, opts: AtomicOptions): string {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  if (!opts.tmpDir || opts.tmpDir === dir) return dir;
  mkdirSync(opts.tmpDir, { recursive: true });
  return statSync(opts.tmpDir).dev === statSync(dir).dev ? opts.tmpDir : dir;
}

/**
 * Writes `text` (or each chunk of it, as produced) to `file` all or nothing: temporary file, write all, fsync, rename,
 * fsync the folder. An error of the chunks' producer is thrown as it is; the target is untouched either way.
 */
export function writeFileAtomic(
  file: string,
  text: string | Uint8Array | Iterable<string | Uint8Array>,
  opts: AtomicOptions = {},
): void {
  let tmp: string | null = null;
  let fd: number | null = null;
  let producing = false;
  try {
    tmp = join(tempFolder(file, opts), tempName(file));
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    const chunks = typeof text === 'string' || text instanceof Uint8Array ? [text] : text;
    producing = true;
    for (const chunk of chunks) {
      producing = false;
      writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      producing = true;
    }
    producing = false;
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, file);
  } catch (e) {
    try {
      if (fd !== null) closeSync(fd);
    } catch {
      // A deferred write error: the file is being thrown away anyway.
    }
    if (tmp) rmSync(tmp, { force: true });
    throw producing ? e : writeError(file, e, 'the previous version is unchanged');
  }
  try {
    fsyncDir(dirname(file));
  } catch (e) {
    throw writeError(file, e, 'the new version is in place but may not survive a crash');
  }
}

/**
 * Appends one or more rows (`line` ends in "\n") with O_APPEND, fdatasynced unless `sync` is false, after closing a half
 * line left by a killed appender; on failure the file is cut back to its old length: no half row. Appenders hold the lock.
 */
export function appendLineDurable(file: string, line: string, sync = true): void {
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o644);
  } catch (e) {
    throw writeError(file, e, 'nothing was appended');
  }
  let size = -1;
  try {
    size = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    if (size > 0) readSync(fd, last, 0, 1, size - 1);
    writeAll(fd, Buffer.from(size > 0 && last[0] !== 0x0a ? `\n${line}` : line));
    if (sync) fdatasyncSync(fd);
  } catch (e) {
    try {
      if (size >= 0 && fstatSync(fd).size > size) ftruncateSync(fd, size);
    } catch {
      // The reader reports a half line as bad, and the next append closes it first.
    }
    throw writeError(file, e, 'nothing was appended');
  } finally {
    closeSync(fd);
  }
  try {
    if (size === 0 && sync) fsyncDir(dirname(file)); // a new file's name
  } catch (e) {
    throw writeError(file, e, 'the row is written but the new file may not survive a crash');
  }
}
