// Reads config/secret-rules.json, validated against its schema (or the very bytes the build validated); compiled once
// per file version (mtime).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../base/errors.js';
import { configDir } from '../base/paths.js';
import { validate, validatedSecretRulesSha256 } from '../schema/schema.js';
import { compileSecretTable, type SecretTable, type SecretTableSource } from './table.js';

let cached: { file: string; mtimeMs: number; table: SecretTable } | undefined;

export const secretRulesFile = (): string => join(configDir(), 'secret-rules.json');

/** The compiled table; re-read when the file changed. */
export function loadSecretTable(file = secretRulesFile()): SecretTable {
  const mtimeMs = statSync(file).mtimeMs;
  if (cached && cached.file === file && cached.mtimeMs === mtimeMs) return cached.table;
  const bytes = readFileSync(file);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  // The very bytes the build validated against this schema need no validator (~5 ms of a collect's start).
  const built = validatedSecretRulesSha256();
  const known = built !== null && createHash('sha256').update(bytes).digest('hex') === built;
  const v = known
    ? { ok: true as const, value: data as SecretTableSource }
    : validate<SecretTableSource>('secret-rules', data);
  if (!v.ok) throw new UserError(`${file}: ${v.errors.slice(0, 3).join('; ')}`);
  const table = compileSecretTable(v.value);
  cached = { file, mtimeMs, table };
  return table;
}
