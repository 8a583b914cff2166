// Secret redaction, pure: applied to every part of the judge context before anything leaves the machine.

export interface Redaction {
  text: string;
  count: number;
  kinds: Record<string, number>;
}

interface Rule {
  kind: string;
  re: RegExp;
  /** Index of the capture group holding the secret; 0 means the whole match. */
  group: number;
}

// Order matters: specific token formats first, generic assignments last (they skip what is already redacted).
const RULES: Rule[] = [
  { kind: 'private_key', re: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY( BLOCK)?-----/g, group: 0 },
  { kind: 'anthropic_key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'openai_key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'github_token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g, group: 0 },
  { kind: 'aws_access_key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g, group: 0 },
  { kind: 'aws_secret_key', re: /(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 2 },
  { kind: 'slack_token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  { kind: 'google_api_key', re: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0 },
  { kind: 'stripe_key', re: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, group: 0 },
  { kind: 'npm_token', re: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0 },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, group: 0 },
  { kind: 'bearer_token', re: /(authorization["']?\s*[:=]\s*["']?(?:bearer|token|basic)\s+)([A-Za-z0-9._~+/=-]{16,})/gi, group: 2 },
  { kind: 'url_credentials', re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/"']+:)([^\s@/"']{3,})(?=@)/gi, group: 2 },
  // A quoted literal assigned to a secret-looking name: `api_key = "…"`, `"password": "…"`.
  {
    kind: 'secret_assignment',
    re: /(\b[A-Za-z0-9_]*(?:password|passwd|secret|token|api_?key|access_?key|private_?key|client_?secret|credentials?)[A-Za-z0-9_]*["']?\s*[:=]\s*)(["'])([^"'\s]{8,})\2/gi,
    group: 3,
  },
];

const PRIVATE_KEY_HEAD = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;
const ENV_FILE = /(^|\/)\.env(\.[A-Za-z0-9_.-]+)?$|(^|\/)[^/]+\.env$/;
const ENV_LINE = /^([+\- ]?\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=\s*)(.*)$/;

function bump(r: Redaction, kind: string): void {
  r.count++;
  r.kinds[kind] = (r.kinds[kind] ?? 0) + 1;
}

const marker = (kind: string): string => `[REDACTED:${kind}]`;

/** True when a path names a dotenv file, whose every value is a secret. */
export function isEnvFile(path: string): boolean {
  return ENV_FILE.test(path) && !/\.(example|sample|template|dist)$/.test(path);
}

/** Replaces secrets by [REDACTED:<kind>]; `path` (a file in the diff) turns on dotenv redaction. */
export function redactSecrets(text: string, path?: string): Redaction {
  const r: Redaction = { text, count: 0, kinds: {} };
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.re, (...args: unknown[]) => {
      const match = args[0] as string;
      const secret = (rule.group === 0 ? match : (args[rule.group] as string | undefined)) ?? '';
      if (secret.startsWith('[REDACTED')) return match;
      bump(r, rule.kind);
      if (rule.group === 0) return marker(rule.kind);
      // Rebuild the match with only the secret group replaced.
      const groups = args.slice(1, -2) as (string | undefined)[];
      return groups.map((g, i) => (i + 1 === rule.group ? marker(rule.kind) : (g ?? ''))).join('') + (rule.group === 3 ? (groups[1] ?? '') : '');
    });
  }
  // A private key cut in half (no END line): redact the BEGIN line and the key-like lines after it.
  if (PRIVATE_KEY_HEAD.test(out)) {
    const lines = out.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!PRIVATE_KEY_HEAD.test(lines[i]!)) continue;
      bump(r, 'private_key');
      lines[i] = lines[i]!.replace(PRIVATE_KEY_HEAD, marker('private_key'));
      for (let j = i + 1; j < lines.length && /^[+\- ]?[A-Za-z0-9+/=]{16,}\s*$/.test(lines[j]!); j++) lines[j] = lines[j]![0] === '+' || lines[j]![0] === '-' || lines[j]![0] === ' ' ? lines[j]![0] + marker('private_key') : marker('private_key');
    }
    out = lines.join('\n');
  }
  if (path && isEnvFile(path)) {
    out = out
      .split('\n')
      .map((line) => {
        const m = ENV_LINE.exec(line);
        if (!m || line.startsWith('+++') || line.startsWith('---')) return line;
        const value = m[2]!.trim();
        if (value === '' || value.startsWith('[REDACTED') || /^["']{2}$/.test(value)) return line;
        bump(r, 'env_value');
        return m[1] + marker('env_value');
      })
      .join('\n');
  }
  r.text = out;
  return r;
}

/** Adds one redaction's counts into a running total. */
export function mergeRedactions(total: { count: number; kinds: Record<string, number> }, r: { count: number; kinds: Record<string, number> }): void {
  total.count += r.count;
  for (const [k, v] of Object.entries(r.kinds)) total.kinds[k] = (total.kinds[k] ?? 0) + v;
}
