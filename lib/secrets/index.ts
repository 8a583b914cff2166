// The secrets module: the table in config/secret-rules.json and the one matcher over it.
import { loadSecretTable } from './load.js';
import * as m from './match.js';
export { loadSecretTable, secretRulesFile } from './load.js';

/** Secrets in `text` under the default table. */
export const findSecrets = (text: string): m.SecretMatch[] => m.findSecrets(text, loadSecretTable());
/** `text` with every secret replaced by [REDACTED:<rule>]. */
export const redactSecrets = (text: string): m.Redaction => m.redactSecrets(text, loadSecretTable());
export const isSecretName = (name: string): boolean => m.isSecretName(name, loadSecretTable());
export const isSecretValue = (value: string): boolean => m.isSecretValue(value, loadSecretTable());
export const isSecretFile = (path: string): boolean => m.isSecretFile(path, loadSecretTable());
