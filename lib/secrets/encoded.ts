// A known secret value in the encodings text carries it: base64 and base64url (at each of the three byte alignments,
// so it is found inside a longer encoded blob), hex, and any mix of escapes (%, \x, \u, octal, &#), base64 and hex.

export interface EncodedForm {
  form: 'base64' | 'base64url' | 'hex' | 'url';
  text: string;
}

/** The characters of base64(prefix + value) that depend on the value's bytes alone, for a prefix of `offset` bytes. */
function base64Core(value: Buffer, offset: number, url: boolean): string {
  const all = Buffer.concat([Buffer.alloc(offset), value]).toString(url ? 'base64url' : 'base64');
  return all.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + value.length)) / 6));
}

/** Every encoded form of `value` worth looking for (shorter than 8 characters: none, they would match by chance). */
export function encodedForms(value: string): EncodedForm[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: EncodedForm[] = [];
  for (const offset of [0, 1, 2]) {
    out.push({ form: 'base64', text: base64Core(bytes, offset, false) });
    out.push({ form: 'base64url', text: base64Core(bytes, offset, true) });
  }
  const hex = bytes.toString('hex');
  out.push({ form: 'hex', text: hex }, { form: 'hex', text: hex.toUpperCase() });
  const url = encodeURIComponent(value);
  if (url !== value) out.push({ form: 'url', text: url });
  const seen = new Set<string>([value]);
  return out.filter((f) => f.text.length >= 8 && !seen.has(f.text) && seen.add(f.text));
}

/** `text` with every encoded form of the values replaced by [REDACTED:encoded_secret], and how many were. */
export function redactEncoded(text: string, values: string[]): { text: string; count: number } {
  let out = text;
  let count = 0;
  const forms = values
    .flatMap((v) => (v.length >= 8 ? encodedForms(v) : []))
    .sort((a, b) => b.text.length - a.text.length);
  for (const f of forms) {
    if (!out.includes(f.text)) continue;
    const parts = out.split(f.text);
    count += parts.length - 1;
    out = parts.join('[REDACTED:encoded_secret]');
  }
  // Escapes (percent, \x, \u, octal, HTML entities) mixed with plain characters, and base64 or hex of any of these,
  // layer on layer: each word whose decodings hold a value is cut whole (`%73\x6b-ant…`, base64 of `\u0073k…`).
  const bytes = values.filter((v) => v.length >= 8).map((v) => Buffer.from(v, 'utf8').toString('latin1'));
  if (bytes.length)
    out = out.replace(/[^\s"'`<>]{8,}/g, (word) => {
      // A raw value is left to the rules and the known values (they name its kind).
      if (bytes.some((v) => word.includes(v)) || !holds(word, bytes, 3)) return word;
      count++;
      return '[REDACTED:encoded_secret]';
    });
  return { text: out, count };
}

const ESCAPE =
  /%[0-9A-Fa-f]{2}|\\x[0-9A-Fa-f]{2}|\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|\\[0-7]{1,3}|&#x[0-9A-Fa-f]+;|&#\d+;/g;

const HAS_ESCAPE = new RegExp(ESCAPE.source);

/** Every escape of `text` turned into its bytes (a code point's as UTF-8), plain characters as UTF-8: one byte a char. */
function unescapeBytes(text: string): string {
  const cp = (n: number) => Buffer.from(String.fromCodePoint(n), 'utf8').toString('latin1');
  let out = '';
  let at = 0;
  for (const m of text.matchAll(ESCAPE)) {
    out += Buffer.from(text.slice(at, m.index), 'utf8').toString('latin1');
    const e = m[0];
    if (e.startsWith('%')) out += String.fromCharCode(Number.parseInt(e.slice(1), 16));
    else if (e.startsWith('\\x')) out += String.fromCharCode(Number.parseInt(e.slice(2), 16));
    else if (e.startsWith('\\u{')) out += cp(Math.min(Number.parseInt(e.slice(3, -1), 16), 0x10ffff));
    else if (e.startsWith('\\u')) out += cp(Number.parseInt(e.slice(2), 16));
    else if (e.startsWith('\\')) out += String.fromCharCode(Number.parseInt(e.slice(1), 8) & 0xff);
    else if (e.startsWith('&#x')) out += cp(Math.min(Number.parseInt(e.slice(3, -1), 16), 0x10ffff));
    else out += cp(Math.min(Number.parseInt(e.slice(2, -1), 10), 0x10ffff));
    at = m.index + e.length;
  }
  return out + Buffer.from(text.slice(at), 'utf8').toString('latin1');
}

/** The byte strings `word` decodes to one layer down: its escapes, its base64 runs (four shifts), its hex runs (two). */
function decodings(word: string): string[] {
  const out: string[] = [];
  if (HAS_ESCAPE.test(word)) out.push(unescapeBytes(word));
  for (const run of word.match(/[A-Za-z0-9+/_-]{12,}/g) ?? [])
    for (let s = 0; s < 4; s++)
      out.push(Buffer.from(run.slice(s).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
  for (const run of word.match(/[0-9A-Fa-f]{16,}/g) ?? [])
    for (let s = 0; s < 2; s++) out.push(Buffer.from(run.slice(s), 'hex').toString('latin1'));
  return out;
}

/** Whether `word`, or what it decodes to within `depth` layers, holds one of `values` (byte strings). */
function holds(word: string, values: string[], depth: number): boolean {
  if (values.some((v) => word.includes(v))) return true;
  return depth > 0 && decodings(word).some((d) => d.length >= 8 && holds(d, values, depth - 1));
}
