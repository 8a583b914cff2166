// Redaction of what leaves the machine, through the one secret matcher (pure: the table is passed in).
import { redactEncoded } from '../secrets/encoded.js';
import {
  findSecrets,
  isSecretName,
  isSecretValue,
  mergeRedactions,
  redactSecrets,
  type Redaction,
} from '../secrets/match.js';
import { entropy } from '../secrets/entropy.js';
import type { SecretTable } from '../secrets/table.js';
import type { CallRequest } from './backend.js';

export type { Redaction };
export { mergeRedactions };

export interface RedactionCount {
  count: number;
  kinds: Record<string, number>;
}

/** One text with every secret replaced by [REDACTED:<rule>]. */
export const redactText = (text: string, table: SecretTable): Redaction => redactSecrets(text, table);

/**
 * The last step before a request is sent: every string in it (system prompt, every message) goes through the
 * matcher, whatever assembled it, after the secret values of judgeloop's own environment (`known`) are cut. What the parts' own redaction missed (text git prints after a hunk header,
 * a file list, a file name, a key cut by the budget) is caught here. Every value known (`known`, and what the rules
 * match anywhere in the request, and `found` in its raw parts) is also cut base64-, base64url-, hex- and URL-encoded.
 */
export function redactRequest(
  req: CallRequest,
  table: SecretTable,
  known: string[] = [],
  found: string[] = [],
): { request: CallRequest; redacted: RedactionCount } {
  const redacted: RedactionCount = { count: 0, kinds: {} };
  const values = secretValues([req.system, ...req.messages.map((m) => m.content)], table, [...known, ...found]);
  const clean = (text: string): string => {
    const enc = redactEncoded(redactKnown(text, known, redacted), values);
    if (enc.count) mergeRedactions(redacted, { count: enc.count, kinds: { encoded_secret: enc.count } });
    const r = redactSecrets(enc.text, table);
    mergeRedactions(redacted, r);
    return r.text;
  };
  const request: CallRequest = {
    ...req,
    system: clean(req.system),
    messages: req.messages.map((m) => ({ ...m, content: clean(m.content) })),
  };
  return { request, redacted };
}

/** The known values and every secret the rules match in `texts` (a secret raw in one place, encoded in another). */
export function secretValues(texts: string[], table: SecretTable, known: string[]): string[] {
  const matched = texts.flatMap((t) => findSecrets(t, table).map((m) => t.slice(m.start, m.end)));
  return [...new Set([...known, ...matched])].filter((v) => v.length >= 8);
}

// A value under a secret-looking name is cut only when it looks random: `GIT_AUTHOR_NAME=Jane Doe` or
// `AUTH_MODE=password` must not blank every "Jane Doe" or "password" the judge would read.
const looksRandom = (v: string): boolean => !/\s/.test(v) && !v.startsWith('/') && entropy(v) >= 3;

/** Secret values judgeloop itself holds (its environment): redacted wherever they appear, whatever their format. */
export function knownSecretValues(env: NodeJS.ProcessEnv, table: SecretTable): string[] {
  const secret = (k: string, v: string): boolean =>
    v.length >= 8 && ((isSecretName(k, table) && looksRandom(v)) || isSecretValue(v, table));
  const values = Object.entries(env).flatMap(([k, v]) => (v !== undefined && secret(k, v) ? [v] : []));
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

function redactKnown(text: string, known: string[], count: RedactionCount): string {
  let out = text;
  for (const v of known) {
    if (!out.includes(v)) continue;
    const parts = out.split(v);
    count.count += parts.length - 1;
    count.kinds.env_secret = (count.kinds.env_secret ?? 0) + parts.length - 1;
    out = parts.join('[REDACTED:env_secret]');
  }
  return out;
}
