// A known secret value in the encodings text carries it: base64 and base64url (at each of the three byte alignments,
// so it is found inside a longer encoded blob), hex (either case) and URL-encoding (pure).

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
  return { text: out, count };
}
