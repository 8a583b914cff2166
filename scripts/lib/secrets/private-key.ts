// Private keys, whole or in pieces: a block, a BEGIN whose END is cut off, an END whose BEGIN is outside the
// hunk, and a run of key body lines with neither (pure).
import { entropy } from './entropy.js';
import type { SecretTable } from './table.js';

export interface Span {
  start: number;
  end: number;
}

// Between two key lines: real or escaped newlines (with a diff prefix), quotes, string concatenation, spaces.
const SEP = String.raw`(?:\\[nr]|[ \t"'\x60+,]|\r?\n[+\- ]?)*`;
const PIECE = String.raw`(?:[A-Za-z0-9+/]{16,}={0,2}|Proc-Type: [^\n\\]*|DEK-Info: [^\n\\]*)`;
const FORWARD = new RegExp(`${SEP}${PIECE}(?=\\\\[nr]|["'\\x60,]|\\s|$)`, 'y');
const BACKWARD = new RegExp(`${PIECE}${SEP}$`);
const WINDOW = 16_000;
const ESCAPED_BODY = /(?:[A-Za-z0-9+/]{40,80}={0,2}\\n){2,}[A-Za-z0-9+/]{16,80}={0,2}/g;

function forwardEnd(text: string, from: number): number {
  let pos = from;
  FORWARD.lastIndex = pos;
  while (pos - from < WINDOW && FORWARD.exec(text)) {
    pos = FORWARD.lastIndex;
  }
  return pos;
}

function backwardStart(text: string, to: number): number {
  const low = Math.max(0, to - WINDOW);
  let window = text.slice(low, to);
  for (;;) {
    const m = BACKWARD.exec(window);
    if (!m) break;
    window = window.slice(0, m.index);
  }
  // Keep the separators before the first piece out of the span (the diff prefix and indentation stay).
  const rest = text.slice(low + window.length, to);
  const lead = /^(?:\r?\n[+\- ]?|[ \t"'`+,])*/.exec(rest)![0].length;
  return Math.min(to, low + window.length + lead);
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
