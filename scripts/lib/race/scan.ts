// Pattern scans of the lines a solution adds: dangerous operations, disabled checks, secrets, stubs (pure).
// Skipped, deleted and weakened tests and special-casing are found by test-findings.ts.
import type { RaceFlag } from '../types.generated.js';
import type { FilePatch } from './diff-parse.js';

interface Rule {
  kind: RaceFlag['kind'];
  name: string;
  re: RegExp;
}

const DANGEROUS: Rule[] = [
  { kind: 'dangerous_op', name: 'recursive forced delete (rm -rf)', re: /\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*r[a-zA-Z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\b/ },
  { kind: 'dangerous_op', name: 'DROP TABLE/DATABASE/SCHEMA', re: /\bDROP\s+(TABLE|DATABASE|SCHEMA)\b/i },
  { kind: 'dangerous_op', name: 'TRUNCATE TABLE', re: /\bTRUNCATE\s+(TABLE\s+)?\w+/i },
  { kind: 'dangerous_op', name: 'DELETE without WHERE', re: /\bDELETE\s+FROM\s+[\w."`]+\s*(;|["'`]|$)/i },
  { kind: 'dangerous_op', name: 'force push', re: /\bgit\s+push\b[^\n]*(\s--force\b|\s-f\b|\s--force-with-lease\b|\s\+\w)/ },
  { kind: 'dangerous_op', name: 'hard reset', re: /\bgit\s+reset\s+--hard\b/ },
  { kind: 'dangerous_op', name: 'world-writable chmod', re: /\bchmod\s+(-R\s+)?0?777\b/ },
  { kind: 'dangerous_op', name: 'piping a download into a shell', re: /\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?(ba|z)?sh\b/ },
  { kind: 'dangerous_op', name: 'disk-level write (dd/mkfs)', re: /\b(mkfs(\.\w+)?|dd\s+if=[^\n]*of=\/dev\/)/ },
  // Code execution from strings and shells, per language.
  { kind: 'dangerous_op', name: 'eval/exec (Python eval/exec; JS eval, or child_process exec imported by name)', re: /(?<![\w.$])(eval|exec)\s*\(/ },
  { kind: 'dangerous_op', name: 'new Function(…) (JS)', re: /\bnew\s+Function\s*\(/ },
  { kind: 'dangerous_op', name: 'os.system / os.popen (Python)', re: /\bos\.(system|popen)\s*\(/ },
  { kind: 'dangerous_op', name: 'subprocess with shell=True (Python)', re: /\bshell\s*=\s*True\b/ },
  { kind: 'dangerous_op', name: 'child_process exec/execSync (runs a shell, JS)', re: /\b(child_process|cp)\.(exec|execSync)\s*\(|\bexecSync\s*\(|\brequire\(\s*['"](node:)?child_process['"]\s*\)\.exec(Sync)?\s*\(/ },
  { kind: 'dangerous_op', name: 'spawn with shell: true (JS)', re: /\bshell\s*:\s*true\b/ },
  { kind: 'dangerous_op', name: 'sh -c from code (Go exec.Command, Rust Command)', re: /\b(exec\.Command|Command::new)\s*\(\s*"(ba|z)?sh"/ },
  { kind: 'dangerous_op', name: 'Ruby system/backticks/%x', re: /(?<![\w.])system\s*\(\s*["']|\bKernel\.system\s*\(|%x[({\[]/ },
];

const DISABLED_CHECKS: Rule[] = [
  { kind: 'disabled_check', name: 'eslint-disable', re: /eslint-disable/ },
  { kind: 'disabled_check', name: '@ts-ignore', re: /@ts-ignore\b/ },
  { kind: 'disabled_check', name: '@ts-nocheck', re: /@ts-nocheck\b/ },
  { kind: 'disabled_check', name: '@ts-expect-error', re: /@ts-expect-error\b/ },
  { kind: 'disabled_check', name: 'noqa / type: ignore', re: /#\s*(noqa\b|type:\s*ignore\b|pylint:\s*disable)/ },
  { kind: 'disabled_check', name: 'Rust #[allow(…)]', re: /#\[allow\([^)]*\)\]/ },
  { kind: 'disabled_check', name: 'hooks bypassed (--no-verify)', re: /--no-verify\b/ },
  { kind: 'disabled_check', name: 'nolint', re: /\/\/\s*nolint\b/ },
  { kind: 'disabled_check', name: 'TLS verification off', re: /\bverify\s*=\s*False\b|rejectUnauthorized\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED|InsecureSkipVerify\s*:\s*true|ssl\._create_unverified_context/ },
  { kind: 'disabled_check', name: 'assertions or errors silenced (except: pass, catch {})', re: /^\s*except(\s+\w+(\s+as\s+\w+)?)?\s*:\s*pass\b|catch\s*(\(\s*\w*\s*\))?\s*\{\s*\}/ },
];

const SECRETS: Rule[] = [
  { kind: 'secret', name: 'AWS access key id', re: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'secret', name: 'private key block', re: /-----BEGIN ([A-Z]+ )?PRIVATE KEY-----/ },
  { kind: 'secret', name: 'GitHub token', re: /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{30,}\b/ },
  { kind: 'secret', name: 'Slack token', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/ },
  { kind: 'secret', name: 'API secret key (sk-…)', re: /\bsk-(ant-|live-|proj-|test-)?[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'secret', name: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'secret', name: 'Stripe key', re: /\b(rk|pk|sk)_(live|test)_[0-9a-zA-Z]{16,}\b/ },
];

/** key = "literal" where the key names a credential and the literal looks random enough to be real. */
const ASSIGNED_SECRET = /\b([A-Za-z0-9_]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)[A-Za-z0-9_]*)\b["']?\s*[:=]\s*["'`]([^"'`\s]{12,})["'`]/i;

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const PLACEHOLDER = /^(x+|\*+|changeme|change_me|your[_-].*|<.*>|\$\{.*\}|example.*|dummy.*|test.*|placeholder.*|redacted.*)$/i;

const STUBS: Rule[] = [
  { kind: 'stub', name: 'TODO/FIXME marker', re: /(\/\/|#|\/\*|\*|--|<!--)\s*(TODO|FIXME|XXX|HACK)\b/ },
  { kind: 'stub', name: 'not-implemented placeholder', re: /not\s+(yet\s+)?implemented|NotImplementedError|unimplemented!\s*\(|todo!\s*\(|panic\(\s*["']TODO/i },
];

export interface ScanFinding {
  kind: RaceFlag['kind'];
  name: string;
  file: string;
  line: number;
  text: string;
}

function redact(s: string): string {
  return s.length <= 8 ? '****' : `${s.slice(0, 4)}…${s.slice(-2)} (${s.length} chars)`;
}

/** Scans the added lines of every file; each finding names the rule, file and line. */
export function scanAddedLines(files: FilePatch[]): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const f of files) {
    if (f.binary) continue;
    for (const { line, text } of f.added) {
      for (const rule of [...DANGEROUS, ...DISABLED_CHECKS, ...STUBS]) {
        if (rule.re.test(text)) out.push({ kind: rule.kind, name: rule.name, file: f.path, line, text: text.trim().slice(0, 160) });
      }
      let secret = false;
      for (const rule of SECRETS) {
        const m = rule.re.exec(text);
        if (m) {
          out.push({ kind: 'secret', name: rule.name, file: f.path, line, text: text.replace(m[0], redact(m[0])).trim().slice(0, 160) });
          secret = true;
          break;
        }
      }
      if (!secret) {
        const m = ASSIGNED_SECRET.exec(text);
        if (m && !PLACEHOLDER.test(m[2]!) && entropy(m[2]!) >= 3.0 && /\d/.test(m[2]!)) {
          out.push({ kind: 'secret', name: `hard-coded credential in ${m[1]}`, file: f.path, line, text: text.replace(m[2]!, redact(m[2]!)).trim().slice(0, 160) });
        }
      }
    }
  }
  return out;
}

export function findingToFlag(f: ScanFinding): RaceFlag {
  return { kind: f.kind, detail: `${f.name}: ${f.text}`, file: f.file, line: f.line };
}
