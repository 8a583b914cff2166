import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../base/errors.js';
import { validate } from '../schema/schema.js';
import type { RunRecord } from '../schema/types.generated.js';

export interface LoadedRunRecord {
  record: RunRecord;
  /** Absolute path of the record file ('-' for stdin). */
  file: string;
  /** Absolute worktree path (relative paths resolve against the record's folder). */
  worktree: string;
}

/** Parses and validates run record text; every problem is a UserError naming the file and JSON path. */
export function parseRunRecord(text: string, file: string): LoadedRunRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  // `record --json` adds the state folder it used; the record is the rest.
  if (typeof data === 'object' && data !== null && typeof (data as { state_dir?: unknown }).state_dir === 'string')
    delete (data as { state_dir?: unknown }).state_dir;
  const v = validate<RunRecord>('run-record', data);
  if (!v.ok)
    throw new UserError(
      `${file}: ${v.errors.slice(0, 5).join('; ')}${v.errors.length > 5 ? ` (+${v.errors.length - 5} more)` : ''}`,
    );
  const record = v.value;
  if (Date.parse(record.completed_at) < Date.parse(record.started_at)) {
    throw new UserError(`${file}: /completed_at: is before /started_at`);
  }
  return { record, file, worktree: resolve(dirname(file), record.worktree) };
}

export function loadRunRecord(path: string, cwd: string): LoadedRunRecord {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(
      `${file}: cannot read run record (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  return parseRunRecord(text, file);
}
