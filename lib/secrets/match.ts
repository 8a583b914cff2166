// The one secret matcher over the rule table: find, redact, and the name/value/file tests (pure).
import { entropy } from './entropy.js';
import { privateKeySpans } from './private-key.js';
import type { SecretTable } from './table.js';

export interface SecretMatch {
  /** Rule id from config/secret-rules.json. */
  rule: string;
  /** Who issues it (token rules), or what the generic rule found. */
  what: string;
  /** The span to redact: the secret, not the name it is assigned to. */
  start: number;
  end: number;
}

export interface Redaction {
  text: string;
  count: number;
  kinds: Record<string, number>;
}

const NUMBER = /^[\d.,_:-]+$/;
const URL_NO_CREDS = /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i;
const PATH_LIKE =
  /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)|\.(?:pem|key|json|ya?ml|toml|txt|crt|cer|p12|env|pub|ts|js|mjs|py|go|rs|rb|sh)$/i;
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z_$-]*$/;

const isPlaceholder = (value: string, t: SecretTable): boolean => t.placeholders.some((p) => p.test(value));

/**
 * Whether a literal assigned to a secret-looking name is itself a secret: long and random enough, not a
 * placeholder, number, URL without credentials, path, or (unquoted) an expression such as `process.env.X`.
 */
function looksLikeSecretValue(raw: string, name: string, quoted: boolean, t: SecretTable): boolean {
  const a = t.assignment;
  const value = quoted ? raw : raw.replace(/[!?;]+$/, '');
  const strong = a.strongName.test(name);
  if (value.length < (strong ? a.strongMinLength : a.minLength)) return false;
  if (isPlaceholder(value, t) || NUMBER.test(value) || URL_NO_CREDS.test(value) || PATH_LIKE.test(value)) return false;
  if (!quoted && (MEMBER_PATH.test(value) || IDENTIFIER.test(value))) return false;
  return entropy(value) >= (strong ? a.strongMinEntropy : a.minEntropy);
}

/** Matches kept sorted by start; an overlap test is a binary search (the agent's text may hold many thousands). */
class Taken {
  readonly list: SecretMatch[] = [];

  /** Adds the match unless it overlaps one already taken; says whether it was added. */
  add(m: SecretMatch): boolean {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid]!.start < m.start) lo = mid + 1;
      else hi = mid;
    }
    const before = this.list[lo - 1];
    const after = this.list[lo];
    if ((before && before.end > m.start) || (after && after.start < m.end)) return false;
    this.list.splice(lo, 0, m);
    return true;
  }
}

/** Every secret in the text, non-overlapping: private keys first, then token formats, then assignments. */
export function findSecrets(text: string, t: SecretTable): SecretMatch[] {
  const taken = new Taken();
  for (const s of privateKeySpans(text, t.privateKey)) taken.add({ rule: t.privateKey.id, what: 'private key', ...s });
  const lower = text.toLowerCase();
  for (const r of t.tokens) {
    if (!r.keywords.some((k) => lower.includes(k))) continue;
    for (const m of text.matchAll(r.re)) {
      const secret = m.groups?.secret ?? m[0];
      const start = m.index + (m.groups?.secret === undefined ? 0 : m[0].lastIndexOf(secret));
      const end = start + secret.length;
      if (r.minEntropy && entropy(secret) < r.minEntropy) continue;
      if (r.placeholders && isPlaceholder(secret, t)) continue;
      if (!secret.startsWith('[REDACTED')) taken.add({ rule: r.id, what: r.vendor, start, end });
    }
  }
  for (const m of text.matchAll(t.assignment.re)) {
    const g = m.groups!;
    const quoted = g.qv !== undefined;
    const value = quoted ? g.qv! : g.uv!;
    if (!looksLikeSecretValue(value, g.name!, quoted, t)) continue;
    const start = m.index + m[0].length - value.length - (quoted ? 1 : 0);
    const end = start + value.length;
    taken.add({ rule: t.assignment.id, what: `a literal assigned to ${g.name}`, start, end });
  }
  return taken.list;
}

const redactionMarker = (rule: string): string => `[REDACTED:${rule}]`;

/** Replaces every secret by [REDACTED:<rule>], counting per rule. */
export function redactSecrets(text: string, t: SecretTable): Redaction {
  const found = findSecrets(text, t);
  const kinds: Record<string, number> = {};
  let out = '';
  let at = 0;
  for (const m of found) {
    out += text.slice(at, m.start) + redactionMarker(m.rule);
    at = m.end;
    kinds[m.rule] = (kinds[m.rule] ?? 0) + 1;
  }
  return { text: out + text.slice(at), count: found.length, kinds };
}

/** Adds one redaction's counts into a running total. */
export function mergeRedactions(
  total: { count: number; kinds: Record<string, number> },
  r: { count: number; kinds: Record<string, number> },
): void {
  total.count += r.count;
  for (const [k, v] of Object.entries(r.kinds)) total.kinds[k] = (total.kinds[k] ?? 0) + v;
}

/** An environment variable or key name that says it holds a secret. */
export const isSecretName = (name: string, t: SecretTable): boolean => t.assignment.name.test(name);

/** A value that is a known token format or key material whatever it is called. */
export function isSecretValue(value: string, t: SecretTable): boolean {
  return findSecrets(value, t).some((m) => m.rule !== t.assignment.id);
}

/**
 * A file whose name says it holds secrets (.env*, .envrc, *.pem, id_*, credentials*, *.tfvars, …): never sent,
 * only named. Source code is not, whatever its name: an agent could otherwise hide its work from the judge in
 * `src/.env.ts` or `auth/credentials.ts` (its literals are redacted like any file's). A trailing TAB (git
 * appends one to a name with spaces) is stripped first.
 */
export function isSecretFile(path: string, t: SecretTable): boolean {
  const p = path.replace(/\t.*$/, '');
  return !t.secretFilesExcept.test(p) && t.secretFiles.some((re) => re.test(p));
}
