// The encoded forms of a secret: one of the base64 cores is inside any blob that encodes it, whatever bytes come
// before and after; hex in either case; URL-encoding only when it differs; nothing for a short value.
import { describe, expect, it } from 'vitest';
import { encodedForms, redactEncoded } from '../../lib/secrets/encoded.js';
import { ALNUM, rnd } from './tokens.js';

const secret = `${rnd(ALNUM, 20)}/+=`;

describe('encodedForms', () => {
  it.each(['base64', 'base64url'] as const)(
    '%s: a core is inside every blob holding the secret (prefixes 0–5 bytes)',
    (enc) => {
      // A base64url core equal to the base64 one is listed once.
      const cores = encodedForms(secret)
        .filter((f) => f.form.startsWith('base64'))
        .map((f) => f.text);
      for (let pre = 0; pre < 6; pre++)
        for (let post = 0; post < 3; post++) {
          const blob = Buffer.from(`${'p'.repeat(pre)}${secret}${'s'.repeat(post)}`).toString(enc);
          expect(
            cores.some((c) => blob.includes(c)),
            `${pre}/${post}`,
          ).toBe(true);
        }
    },
  );
  it('hex in both cases, URL-encoding when it differs, nothing under 8 characters', () => {
    const forms = encodedForms(secret);
    expect(forms.filter((f) => f.form === 'hex').map((f) => f.text)).toEqual([
      Buffer.from(secret).toString('hex'),
      Buffer.from(secret).toString('hex').toUpperCase(),
    ]);
    expect(forms.find((f) => f.form === 'url')?.text).toBe(encodeURIComponent(secret));
    expect(encodedForms('abcdefghij').some((f) => f.form === 'url')).toBe(false);
    expect(redactEncoded(Buffer.from('short').toString('base64'), ['short']).count).toBe(0);
  });
  it('percent-escapes of every byte, in either case or mixed with plain characters, are cut', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const full = [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const upper = full.toUpperCase();
    const mixed = key.replace(/[a-f]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    for (const enc of [full, upper, mixed]) {
      const r = redactEncoded(`curl "https://x.example/?k=${enc}" done`, [key]);
      expect(r.text, enc).toBe('curl "[REDACTED:encoded_secret]" done');
      expect(r.count).toBe(1);
    }
    // Escapes that decode to something else are left alone.
    expect(redactEncoded('a%20b%2Fc', [key])).toEqual({ text: 'a%20b%2Fc', count: 0 });
  });
  it('any mix of escapes, percent, base64 and hex, layer on layer, is cut; text that decodes to something else is not', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const hex = (t: string) => Buffer.from(t).toString('hex');
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const x = [...key].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
    const u = [...key].map((c, i) => (i % 2 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');
    const mix = [...key]
      .map(
        (c, i) =>
          [
            `%${hex(c)}`,
            `\\x${hex(c)}`,
            `\\u{${hex(c)}}`,
            `\\${c.charCodeAt(0).toString(8)}`,
            `&#${c.charCodeAt(0)};`,
            c,
          ][i % 6],
      )
      .join('');
    for (const enc of [
      x,
      u,
      mix,
      b64(x),
      hex(b64(key)),
      b64(encodeURIComponent(key).replace(/-/g, '%2D')),
      `%${hex('s')}${b64(`${key.slice(1)}!`).slice(0, 0)}${key.slice(1).replace(/a/g, '\\x61')}`,
    ]) {
      const r = redactEncoded(`const k = "${enc}";`, [key]);
      expect(r.text, enc).toBe('const k = "[REDACTED:encoded_secret]";');
    }
    const other = [...'sk-ant-api03-zzzz'].map((c) => `\\x${hex(c)}`).join('');
    expect(redactEncoded(`"${other}" ${b64('hello world, nothing here')}`, [key]).count).toBe(0);
  });
  it('redactEncoded cuts each occurrence and counts it', () => {
    const text = `a ${Buffer.from(secret).toString('base64')} b ${encodeURIComponent(secret)} c`;
    const r = redactEncoded(text, [secret]);
    expect(r.count).toBe(2);
    expect(r.text).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20));
    expect(r.text).toMatch(/^a \[REDACTED:encoded_secret\]\S* b \[REDACTED:encoded_secret\] c$/);
  });
});
