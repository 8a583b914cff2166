// No encoded form of a known secret leaves the machine (issue 23): a value of judgeloop's own environment and a token
// the rules find raw in the test output are planted in the agent's diff base64-, base64url-, hex- and URL-encoded
// (alone, and inside a longer encoded blob). The body the loopback Messages API received holds none of them: every
// run of the body in each alphabet is decoded back at each alignment and searched for the secret.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { Judgment } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';
import { makeRun, removeRun, type RunFixture, removeRuns } from './helpers/fixtures.js';
import { ALNUM, rnd } from '../secrets/tokens.js';
import { captureIo, judgeConfigFile } from './helpers/feedback.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

// Known from the environment only (no format names it); its `/`, `+` and `=` make URL-encoding differ from it.
const OWN = `${rnd(ALNUM, 14)}/${rnd(ALNUM, 9)}+${rnd(ALNUM, 9)}=`;
// Known from the rules: a GitHub token printed raw in the test output.
const GH = `ghp_${rnd(ALNUM, 36)}`;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const hex = (s: string) => Buffer.from(s).toString('hex');

/** Every character a different escape (percent, \\x, \\u{}, octal, HTML entity, plain), as code or a URL carries it. */
const mixed = (s: string) =>
  [...s]
    .map((c, i) => {
      const n = c.charCodeAt(0);
      return [
        `%${n.toString(16)}`,
        `\\x${n.toString(16)}`,
        `\\u{${n.toString(16)}}`,
        `\\${n.toString(8)}`,
        `&#${n};`,
        c,
      ][i % 6];
    })
    .join('');
/** The escapes of `mixed` undone (the test's own decoder, apart from the product's). */
const unescapeAll = (t: string) =>
  t.replace(/%([0-9a-f]{2})|\\x([0-9a-f]{2})|\\u\{([0-9a-f]+)\}|\\([0-7]{1,3})|&#(\d+);/gi, (_m, p, x, u, o, d) =>
    String.fromCharCode(Number.parseInt(p ?? x ?? u ?? o ?? d, p || x || u ? 16 : o ? 8 : 10)),
  );

const forms = {
  base64: (s: string) => [b64(s), b64(`Authorization: Basic user:${s}`), b64(`xx${s}yy`)],
  base64url: (s: string) => [b64url(s), b64url(`{"token":"${s}"}`), b64url(`x${s}`)],
  hex: (s: string) => [hex(s), hex(`key=${s}`).toUpperCase()],
  url: (s: string) => [encodeURIComponent(s), `https://example.test/cb?token=${encodeURIComponent(s)}&x=1`],
};

/** Whether any run of base64/base64url, hex or %-escaped text in `body` decodes (at any alignment) to hold `secret`. */
function decodesTo(body: string, secret: string): string[] {
  const found: string[] = [];
  for (const run of body.match(/[A-Za-z0-9+/_-]{12,}/g) ?? [])
    for (let s = 0; s < 4; s++) if (Buffer.from(run.slice(s), 'base64').includes(secret)) found.push(`base64 ${run}`);
  for (const run of body.match(/[0-9a-fA-F]{16,}/g) ?? [])
    for (let s = 0; s < 2; s++) if (Buffer.from(run.slice(s), 'hex').includes(secret)) found.push(`hex ${run}`);
  for (const run of body.match(/[^\s"\\]*%[0-9A-Fa-f]{2}[^\s"\\]*/g) ?? []) {
    try {
      if (decodeURIComponent(run).includes(secret)) found.push(`url ${run}`);
    } catch {
      /* not a whole escape */
    }
  }
  return found;
}

let fx: RunFixture;
let server: MessagesServer;
let sent = '';
const dirs: string[] = [];

beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
  const files: Record<string, string> = {};
  files['fixtures/mixed.js'] =
    `const a = "${mixed(OWN)}";\nconst b = "${mixed(GH)}";\nconst c = "${b64(mixed(GH))}";\n`;
  for (const [form, encode] of Object.entries(forms))
    files[`fixtures/${form}.txt`] = [...encode(OWN), ...encode(GH)].map((t, i) => `value${i} = ${t}`).join('\n') + '\n';
  fx = makeRun({
    bead: 'bd-encoded',
    files,
    record: {
      checks: {
        test: {
          exit_code: 1,
          output: ` FAIL test/api.test.ts > calls github\n   token ${GH} rejected\n Tests 1 failed (1)\n`,
        },
      },
    },
  });
  const state = tempDir('judgeloop-state-');
  const config = judgeConfigFile({ backend: 'sdk', max_retries: 0, timeout_seconds: 20 });
  dirs.push(state, join(config, '..'));
  const env = {
    JUDGE_ENABLED: 'true',
    ANTHROPIC_API_KEY: 'sk-test-dummy',
    ANTHROPIC_BASE_URL: server.url,
    JUDGELOOP_STATE_DIR: state,
    JUDGELOOP_CONFIG: config,
  };
  const io = captureIo(env, { ...process.env, DATADOG_API_KEY: OWN });
  expect(await run([fx.recordPath], io)).toBe(0);
  expect(new StateStore(state).read<Judgment>('judgments', 'bd-encoded')?.status).toBe('judged');
  expect(server.requests).toHaveLength(1);
  sent = server.requests[0]!.raw;
}, 180_000);
afterAll(async () => {
  await server.close();
  removeRun(fx);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('encoded secrets never reach the Messages API', () => {
  it('the decoder sees every planted form (so the checks below can fail)', () => {
    // A token of letters and digits URL-encodes to itself: the raw check covers it.
    for (const [form, encode] of Object.entries(forms))
      for (const s of form === 'url' ? [OWN] : [OWN, GH])
        for (const t of encode(s)) expect(decodesTo(t, s), form).not.toEqual([]);
  });

  it('the request still carries the work: the fixture files and the redaction markers', () => {
    expect(sent).toContain('fixtures/base64.txt');
    expect(sent).toContain('[REDACTED:encoded_secret]');
  });

  it.each(Object.keys(forms))(
    '%s: neither the own-environment value nor the rules-found token, alone or embedded',
    (form) => {
      const encode = forms[form as keyof typeof forms];
      for (const s of [OWN, GH]) {
        for (const t of encode(s)) expect(sent).not.toContain(t);
        expect(decodesTo(sent, s)).toEqual([]);
      }
    },
  );

  it('any mix of escapes, and base64 of one, neither: every string of the request decoded by hand holds no value', () => {
    for (const x of [OWN, GH]) expect(unescapeAll(mixed(x))).toBe(x);
    const body = JSON.parse(sent) as { system?: unknown; messages: { content: unknown }[] };
    const text = JSON.stringify([body.system, body.messages.map((m) => m.content)]);
    const strings = (JSON.parse(text) as unknown[]).flat(4).filter((v): v is string => typeof v === 'string');
    expect(strings.join('\n')).toContain('fixtures/mixed.js');
    for (const str of strings)
      for (const x of [OWN, GH]) {
        expect(unescapeAll(str)).not.toContain(x);
        expect(decodesTo(str, mixed(x))).toEqual([]);
      }
  });

  it('the raw values are gone too', () => {
    expect(sent).not.toContain(OWN);
    expect(sent).not.toContain(GH);
  });
});
