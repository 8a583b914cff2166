// The environment a child process gets: secret-looking names and values dropped (one matcher: lib/secrets).
import { loadSecretTable } from '../secrets/load.js';
import { isSecretName, isSecretValue } from '../secrets/match.js';

/** Environment variable names matching any pattern (case-insensitive) are dropped. */
export function scrubEnv(env: NodeJS.ProcessEnv, patterns: string[]): NodeJS.ProcessEnv {
  // Dropped: names the config patterns match, names the secret table calls secret-looking, and values in a
  // known token format or holding key material, whatever their name (one matcher: lib/secrets).
  const res = patterns.map((p) => new RegExp(p, 'i'));
  const table = loadSecretTable();
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || res.some((r) => r.test(k)) || isSecretName(k, table) || isSecretValue(v, table)) continue;
    out[k] = v;
  }
  return out;
}
