// A known secret value in the encodings text carries it: base64 and base64url (at each of the three byte alignments,
// so it is found inside a longer encoded blob), hex (either case) and percent-escapes of any bytes, mixed or not.

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
  // Percent-escapes of any bytes, in any case, mixed with plain characters (`%73%6B-ant…`, `sk%2Dant…`): each run
  // holding an escape is decoded, and cut whole when a value is inside it.
  const long = values.filter((v) => v.length >= 8);
  out = out.replace(/[^\s"'`<>()[\]{},;]*%[0-9A-Fa-f]{2}[^\s"'`<>()[\]{},;]*/g, (run) => {
    const decoded = percentDecode(run);
    if (!long.some((v) => decoded.includes(v))) return run;
    count++;
    return '[REDACTED:encoded_secret]';
  });
  return { text: out, count };
}

/** `text` with every `%XX` turned into its byte (as UTF-8, then read back as text); other characters as they are. */
function percentDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '%' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
