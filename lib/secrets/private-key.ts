// Private keys, whole or in pieces: a block, a BEGIN whose END is cut off, an END whose BEGIN is outside the
// hunk, and a run of key body lines with neither (pure).
import { entropy } from './entropy.js';
import type { SecretTable } from './table.js';

export interface Span {
  start: number;
  end: number;
}

// Between two key lines: real or escaped newlines (with a diff prefix), quotes, string concatenation, spaces.
// Each separator character belongs to one alternative only and every quantifier is bounded, so text from the
// agent's tree cannot make the scan backtrack without end.
const SEP = String.raw`(?:\\[nr]|\r?\n|[+\- \t"'\x60,]){0,200}`;
const PIECE = String.raw`(?:[A-Za-z0-9+/]{16,100}={0,2}|Proc-Type: [^\n\\]{0,100}|DEK-Info: [^\n\\]{0,100})`;
const FORWARD = new RegExp(`${SEP}${PIECE}(?=\\\\[nr]|["'\\x60,]|\\s|$)`, 'y');
// A line that may hold key material (base64, escaped newlines, quotes, PEM headers): one character class, linear.
const KEYISH_LINE = /^[+\- ]?[\sA-Za-z0-9+/=\\"'`,:-]*$/;
const BASE64_RUN = /[A-Za-z0-9+/]{16}/;
const WINDOW = 16_000;
const HUNK_CONTEXT = /^@@ [^@\n]{1,100} @@ ([A-Za-z0-9+/]{40,80}={0,2})$/gm;
const ESCAPED_BODY = /(?:[A-Za-z0-9+/]{40,80}={0,2}\\n){2,}[A-Za-z0-9+/]{16,80}={0,2}/g;

function forwardEnd(text: string, from: number): number {
  let pos = from;
  FORWARD.lastIndex = pos;
  while (pos - from < WINDOW && FORWARD.exec(text)) {
    pos = FORWARD.lastIndex;
  }
  return pos;
}

const keyStart = (line: string): number => /^[+\- ]?[ \t"'`]*/.exec(line)![0].length;

/**
 * Where the key material before an END marker starts: whole key-like lines, walked back from the marker (line by
 * line, each tested with one character class: linear). The diff prefix and indentation of each line stay.
 */
function backwardStart(text: string, to: number): number {
  const low = Math.max(0, to - WINDOW);
  const lines = text.slice(low, to).split('\n');
  let start = to;
  let offset = to - low;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    offset -= line.length;
    const keyish = KEYISH_LINE.test(line);
    const hasKey = BASE64_RUN.test(line);
    if (!keyish) {
      // A line that is not all key may still end in key material (git's hunk header shows a column-0 key line).
      const tail = keyTail(line);
      if (tail < line.length && BASE64_RUN.test(line.slice(tail))) start = low + offset + tail;
      break;
    }
    // The marker's own line may hold only its prefix; any other line must carry key material.
    if (!hasKey && i !== lines.length - 1) break;
    if (hasKey) start = low + offset + keyStart(line);
    offset -= 1;
  }
  return start;
}

const TAIL_CHAR = /[A-Za-z0-9+/=\\"'`, \t]/;

/** Index where the run of key and separator characters that ends the line starts (a backward scan, linear). */
function keyTail(line: string): number {
  let i = line.length;
  while (i > 0 && TAIL_CHAR.test(line[i - 1]!)) i--;
  while (i < line.length && /[ \t"'`,]/.test(line[i]!)) i++;
  return i;
}

// A line that is only key body: a diff prefix, indentation and quotes around 40-80 base64 characters.
const BODY_LINE = /^[+\- ]?[ \t]*["'`]?([A-Za-z0-9+/]{40,80}={0,2})(?:\\n)?["'`]?[ \t]*[,+]?[ \t]*$/gm;

/** Runs of at least `bodyMinLines` adjacent lines that look like key body (base64, high entropy). */
function bodyRuns(text: string, pk: SecretTable['privateKey']): Span[] {
  const out: Span[] = [];
  let run: Span[] = [];
  let lineEnd = -2;
  const flush = (): void => {
    if (run.length >= pk.bodyMinLines) out.push({ start: run[0]!.start, end: run[run.length - 1]!.end });
    run = [];
  };
  for (const m of text.matchAll(BODY_LINE)) {
    const core = m[1]!;
    if (!pk.bodyLine.test(core) || entropy(core) < pk.bodyMinEntropy) continue;
    if (m.index !== lineEnd + 1) flush();
    const start = m.index + m[0].indexOf(core);
    run.push({ start, end: start + core.length });
    lineEnd = m.index + m[0].length;
  }
  flush();
  // A key body line shown by git as a hunk header's function context (key lines start at column 0).
  for (const m of text.matchAll(HUNK_CONTEXT)) {
    const core = m[1]!;
    const start = m.index + m[0].length - core.length;
    if (entropy(core) >= pk.bodyMinEntropy) out.push({ start, end: start + core.length });
  }
  for (const m of text.matchAll(ESCAPED_BODY)) {
    if (entropy(m[0]) >= pk.bodyMinEntropy) out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Every span of private key material in the text. */
export function privateKeySpans(text: string, pk: SecretTable['privateKey']): Span[] {
  const marks: { kind: 'begin' | 'end'; start: number; end: number }[] = [];
  if (text.includes('PRIVATE KEY')) {
    for (const m of text.matchAll(pk.begin)) marks.push({ kind: 'begin', start: m.index, end: m.index + m[0].length });
    for (const m of text.matchAll(pk.end)) marks.push({ kind: 'end', start: m.index, end: m.index + m[0].length });
    marks.sort((a, b) => a.start - b.start);
  }
  const spans: Span[] = [];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i]!;
    const next = marks[i + 1];
    if (m.kind === 'begin' && next?.kind === 'end') {
      spans.push({ start: m.start, end: next.end });
      i++;
    } else if (m.kind === 'begin') spans.push({ start: m.start, end: forwardEnd(text, m.end) });
    else spans.push({ start: backwardStart(text, m.start), end: m.end });
  }
  return [...spans, ...bodyRuns(text, pk)];
}
