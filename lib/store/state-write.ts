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

/** A file written in chunks to a temporary file and renamed over `file` by commit(); abort() leaves `file` as it was. */
export class AtomicFile {
  readonly tmp: string;
  private fd: number | null = null;

  constructor(
    readonly file: string,
    opts: AtomicOptions = {},
  ) {
    const dir = dirname(file);
    try {
      mkdirSync(dir, { recursive: true });
      let tmpDir = dir;
      if (opts.tmpDir && opts.tmpDir !== dir) {
        mkdirSync(opts.tmpDir, { recursive: true });
        // rename(2) works only within one file system (a state folder may be a symlink to another disk).
        if (statSync(opts.tmpDir).dev === statSync(dir).dev) tmpDir = opts.tmpDir;
      }
      this.tmp = join(tmpDir, tempName(file));
      this.fd = openSync(this.tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    } catch (e) {
      throw writeError(file, e, 'the previous version is unchanged');
    }
  }

  write(chunk: string | Uint8Array): void {
    if (this.fd === null) throw new Error(`${this.tmp}: already closed`);
    try {
      writeAll(this.fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (e) {
      this.abort();
      throw writeError(this.file, e, 'the previous version is unchanged');
    }
  }

  /** fsync, close, rename over the file, fsync its folder. */
  commit(): void {
    if (this.fd === null) throw new Error(`${this.tmp}: already closed`);
    try {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = null;
      renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw writeError(this.file, e, 'the previous version is unchanged');
    }
    try {
      fsyncDir(dirname(this.file));
    } catch (e) {
      throw writeError(this.file, e, 'the new version is in place but may not survive a crash');
    }
  }

  /** Closes and removes the temporary file; the target is untouched. Safe to call twice. */
  abort(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing can report a deferred write error; the file is being thrown away anyway.
      }
      this.fd = null;
    }
    rmSync(this.tmp, { force: true });
  }
}

/** Writes `text` to `file` all or nothing: temporary file, write all, fsync, rename, fsync the folder. */
export function writeFileAtomic(file: string, text: string | Uint8Array, opts: AtomicOptions = {}): void {
  const f = new AtomicFile(file, opts);
  f.write(text);
  f.commit();
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
