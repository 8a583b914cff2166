// Reads config/secret-rules.json; compiled once per process (commands are short-lived).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../paths.js';
import { compileSecretTable, type SecretTable, type SecretTableSource } from './table.js';

let cached: { file: string; table: SecretTable } | undefined;

export const secretRulesFile = (): string => join(configDir(), 'secret-rules.json');

/** The compiled table, read at the first call (per file). */
export function loadSecretTable(file = secretRulesFile()): SecretTable {
  if (cached?.file === file) return cached.table;
  const table = compileSecretTable(JSON.parse(readFileSync(file, 'utf8')) as SecretTableSource);
  cached = { file, table };
  return table;
}
