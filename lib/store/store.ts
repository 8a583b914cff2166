import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertSafeId, isSafeId } from './bead.js';
import type { StateDirChoice } from '../config/config.js';
import { KINDS, type Kind } from './kinds.js';
import { acquireLock } from './lock.js';
import { validate } from '../schema/schema.js';
import { appendLineDurable, causeOf, StateWriteError, writeFileAtomic, type AtomicOptions } from './state-write.js';
import { sweepTemps } from './sweep.js';

/** A state file that exists but is not valid JSON or fails its schema. */
export class CorruptStateError extends Error {
  override readonly name = 'CorruptStateError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.join('; ')}`);
  }
}

type ReadResult<T> = { id: string; file: string; value: T } | { id: string; file: string; error: CorruptStateError };

/** `read()`, or null when what it reads does not exist (ENOENT); other errors throw. */
export function ifExists<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** A file's text, or null when it does not exist. */
export const readTextIfExists = (file: string): string | null => ifExists(() => readFileSync(file, 'utf8'));

/** Parses and validates JSON text against a schema; throws CorruptStateError naming the file. */
export function parseValidated<T>(file: string, text: string, schema: string): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CorruptStateError(file, [`not valid JSON (${(e as Error).message})`]);
  }
  const v = validate<T>(schema, data);
  if (!v.ok) throw new CorruptStateError(file, v.errors);
  return v.value;
}

/** The rows of a .jsonl text validated one by one (1-based line numbers); blank lines skipped, bad lines reported. */
export function parseJsonLines<T>(
  file: string,
  text: string,
  schema: string,
): { rows: { row: T; line: number }[]; bad: { line: number; problems: string[] }[] } {
  const rows: { row: T; line: number }[] = [];
  const bad: { line: number; problems: string[] }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push({ row: parseValidated<T>(file, line, schema), line: i + 1 });
    } catch (e) {
      if (!(e instanceof CorruptStateError)) throw e;
      bad.push({ line: i + 1, problems: e.problems });
    }
  });
  return { rows, bad };
}

export class StateStore {
  private swept = false;
  /** `via`: why this folder (lib/cli's storeFromEnv says it before a command writes). */
  constructor(
    readonly root: string,
    readonly via?: StateDirChoice['via'],
  ) {}

  /** Options for writeFileAtomic: temporary files in state/.tmp, swept once their writer is dead. */
  atomic(): AtomicOptions {
    this.sweepOnce();
    return { tmpDir: join(this.root, '.tmp') };
  }

  /** Leftovers of killed runs (temporary files, locks of dead holders) go before this process first writes. */
  sweepOnce(): void {
    if (this.swept) return;
    this.swept = true;
    sweepTemps(this.root);
  }

  dir(kind: Kind): string {
    return join(this.root, KINDS[kind].dir);
  }

  /** A safe id needs no join (no separator, no dot segment): a first read builds 20,000 (docs/design/store.md). */
  path(kind: Kind, id: string): string {
    return `${this.dir(kind)}/${assertSafeId(id, `${kind} id`)}${KINDS[kind].ext}`;
  }

  /** The validated file, or null when it does not exist. */
  read<T>(kind: Kind, id: string): T | null {
    const file = this.path(kind, id);
    const text = readTextIfExists(file);
    if (text === null) return null;
    return parseValidated<T>(file, text, KINDS[kind].schema);
  }

  /** Invalid data here is a bug in judgeloop: it throws. */
  private assertValid(kind: Kind, data: unknown, what: string): void {
    const v = validate(KINDS[kind].schema, data);
    if (!v.ok) throw new Error(`refusing to ${what}: ${v.errors.join('; ')}`);
  }

  /** Validates, then writes atomically. */
  write<T>(kind: Kind, id: string, data: T): string {
    const file = this.path(kind, id);
    this.assertValid(kind, data, `write an invalid ${kind} ${file}`);
    writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n', this.atomic());
    return file;
  }

  /** Deletes the kind's file `id` (a cache entry: a baseline); false when there was none. */
  remove(kind: Kind, id: string): boolean {
    const file = this.path(kind, id);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }

  /** Ids of the kind's files, sorted; temporary, hidden and other files whose name is not an id are not listed. */
  list(kind: Kind): string[] {
    const ext = KINDS[kind].ext;
    return (ifExists(() => readdirSync(this.dir(kind))) ?? [])
      .filter((n) => n.endsWith(ext))
      .map((n) => n.slice(0, -ext.length))
      .filter(isSafeId)
      .sort();
  }

  /** Reads every file of a kind; a corrupt one is returned as an error, not thrown, so the others still count. */
  readAll<T>(kind: Kind): ReadResult<T>[] {
    return this.list(kind).map((id) => {
      const file = this.path(kind, id);
      try {
        return { id, file, value: parseValidated<T>(file, readFileSync(file, 'utf8'), KINDS[kind].schema) };
      } catch (e) {
        if (e instanceof CorruptStateError) return { id, file, error: e };
        throw e;
      }
    });
  }

  /** Runs `fn` holding a cross-process lock named `name` (a file under state/.locks). */
  async withLock<R>(name: string, fn: () => Promise<R> | R, opts: { waitSeconds?: number } = {}): Promise<R> {
    assertSafeId(name, 'lock name');
    this.sweepOnce();
    const dir = join(this.root, '.locks');
    const target = join(dir, name);
    let release: () => Promise<void>;
    try {
      mkdirSync(dir, { recursive: true });
      release = await acquireLock(target, (opts.waitSeconds ?? 120) * 1000);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === undefined || code === 'ELOCKED') throw e;
      throw new StateWriteError(`${target}.lock`, code, `cannot take the lock ${target}.lock: ${causeOf(e)}`);
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** Read-modify-write of one file under its lock; `fn` returning undefined leaves the file as it is. */
  async update<T>(
    kind: Kind,
    id: string,
    fn: (current: T | null) => T | undefined | Promise<T | undefined>,
  ): Promise<T | null> {
    return this.withLock(`${kind}-${id}`, async () => {
      const current = this.read<T>(kind, id);
      const next = await fn(current);
      if (next === undefined) return current;
      this.write(kind, id, next);
      return next;
    });
  }

  /** Appends one validated row to a .jsonl kind; callers hold the lock when order matters. */
  appendLine<T>(kind: Kind, id: string, row: T): void {
    this.appendLines(kind, id, [row]);
  }

  /**
   * Appends validated rows all or none, with one write and one fdatasync (a batch costs what one row does).
   * `validated`: the caller validated the rows. `sync: false`: rows a crash may lose because they are read again
   * (a first read's new index rows: docs/design/store.md).
   */
  appendLines<T>(kind: Kind, id: string, rows: readonly T[], opts: { validated?: boolean; sync?: boolean } = {}): void {
    const file = this.path(kind, id);
    if (!opts.validated)
      for (const row of rows) this.assertValid(kind, row, `append an invalid ${kind} row to ${file}`);
    if (rows.length === 0) return;
    this.sweepOnce();
    appendLineDurable(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n', opts.sync ?? true);
  }

  /** Reads a .jsonl kind: valid rows in order, and the lines that are not (e.g. a half-written last line). */
  readLines<T>(kind: Kind, id: string): { rows: T[]; bad: { line: number; problems: string[] }[] } {
    const file = this.path(kind, id);
    const text = readTextIfExists(file);
    if (text === null) return { rows: [], bad: [] };
    const r = parseJsonLines<T>(file, text, KINDS[kind].schema);
    return { rows: r.rows.map((x) => x.row), bad: r.bad };
  }
}
