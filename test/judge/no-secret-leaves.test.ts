// No secret leaves the machine: secrets planted the ways agents and people leave them (added lines, context
// lines, the text git prints after a hunk header, a file name, a key whose BEGIN line is outside the hunk, a
// .env under a path with spaces, test and lint output, the task prompt) never appear in the request as it
// arrives: the body the loopback Messages API received (sdk backend) and the argv + stdin a stand-in
// `claude -p` received (claude-cli backend). --dry-run --show-request prints exactly that request.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { Judgment } from '../../lib/schema/types.generated.js';
import { gitIn, tempDir } from '../helpers/repo.js';
import { makeRun, removeRun, type RunFixture, removeRuns } from './helpers/fixtures.js';
import { ALNUM, B64, HEX, LETTERS, URLSAFE, pemBody, rnd } from '../secrets/tokens.js';
import { captureIo, judgeConfigFile } from './helpers/feedback.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

const an = (n: number) => rnd(ALNUM, n);
const S = {
  hunkHeader: `glpat-${rnd(URLSAFE, 20)}`,
  context: `SG.${rnd(URLSAFE, 22)}.${rnd(URLSAFE, 43)}`,
  added: `hf_${rnd(LETTERS, 34)}`,
  yamlPassword: an(18),
  vendorKey: an(32),
  fileName: `sk-ant-api03-${rnd(URLSAFE, 60)}AA`,
  envValue: `dop_v1_${rnd(HEX, 64)}`,
  quotedEnvValue: an(24),
  leftOutName: `shpat_${rnd(HEX, 32)}`,
  testBearer: an(40),
  testSlack: `xoxb-${rnd('0123456789', 12)}-${rnd('0123456789', 12)}-${an(24)}`,
  lint: `sk_live_${an(24)}`,
  prompt: `AKIA${rnd('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`,
  base64Secret: rnd(B64, 40),
  inCodeNamedLikeSecrets: `gsk_${an(52)}`,
  // No known format: only judgeloop's own environment says it is a secret (DATADOG_API_KEY below).
  ownEnvValue: rnd(HEX, 32),
};
const key = pemBody(20);

const filler = (n: number) => Array.from({ length: n }, (_, i) => `  const step${i} = ${i};`).join('\n');
const base = {
  // Column-0 line far above the change: git prints it after the hunk header as function context.
  'src/client.ts': `export function connect(token = '${S.hunkHeader}') {\n${filler(20)}\n  const mail = '${S.context}';\n  return step0;\n}\n`,
  'src/certs.ts': `export const CERT = \`-----BEGIN RSA PRIVATE KEY-----\n${key.join('\n')}\n-----END RSA PRIVATE KEY-----\`;\n`,
  'README.md': '# demo\n',
};
const agent = {
  'src/client.ts': base['src/client.ts'].replace('  return step0;', `  const hub = '${S.added}';\n  return step0 + 1;`),
  'src/certs.ts': base['src/certs.ts'].replace(key[17]!, key[17]!.split('').reverse().join('')),
  'config/app.yaml': `db:\n  user: app\n  password: ${S.yamlPassword}\n`,
  'scripts/deploy.sh': `#!/bin/sh\nSOMEVENDOR_KEY=${S.vendorKey}\nexport AWS_SECRET_ACCESS_KEY=${S.base64Secret}\n`,
  [`docs/${S.fileName}.md`]: 'notes\n',
  'my config/.env': `API_TOKEN=${S.envValue}\nDEBUG=1\n`,
  'tést/.env.local': `PASSWORD=${S.quotedEnvValue}\n`,
  [`vendor/${S.leftOutName}/lib.js`]: 'module.exports = 1;\n',
  // Code named like a secret file: still shown to the judge (an agent must not hide work behind a name).
  'src/auth/credentials.ts': `export const groq = '${S.inCodeNamedLikeSecrets}';\nexport function isAllowed() {\n  return true; // bypass\n}\n`,
};

const dirs: string[] = [];
let fx: RunFixture;
let repo: string;
let recordPath: string;
let server: MessagesServer;
const stand = tempDir('judgeloop-fake-claude-');
const log = join(stand, 'calls.jsonl');
dirs.push(stand);

beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
  fx = makeRun({
    bead: 'bd-leak',
    base,
    files: agent,
    record: {
      task: { id: 'task-leak', prompt: `Wire the client. The old key ${S.prompt} is revoked.` },
      checks: {
        test: {
          exit_code: 1,
          output: ` ✓ test/a.test.ts (1 test)\n FAIL test/b.test.ts > calls the API\n   request headers: { Authorization: 'Bearer ${S.testBearer}' }\n   slack: ${S.testSlack}\n   dd: ${S.ownEnvValue}\n Tests  1 failed | 1 passed (2)\n`,
        },
        lint: { exit_code: 1, output: `src/client.ts:3:3  error  hard-coded key ${S.lint}  no-secrets\n` },
      },
    },
  });
  repo = fx.repo;
  recordPath = fx.recordPath;
  // The stand-in claude logs what it was given and answers with a valid structured reply.
  writeFileSync(
    join(stand, 'claude'),
    `#!/usr/bin/env node
const fs = require('node:fs');
let stdin = '';
process.stdin.on('data', (c) => (stdin += c));
process.stdin.on('end', () => {
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), stdin }) + '\\n');
  process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: '', structured_output: ${goodReply()}, total_cost_usd: 0.01, usage: { input_tokens: 10, output_tokens: 10 } }));
});
`,
  );
  chmodSync(join(stand, 'claude'), 0o755);
});
afterAll(async () => {
  await server.close();
  removeRun(fx);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const planted = (): string[] => [
  ...Object.values(S),
  ...key.map((l) => l.slice(10, 40)),
  key[17]!.split('').reverse().join('').slice(10, 40),
];

function envFor(backend: 'sdk' | 'claude-cli', extra: Record<string, string> = {}) {
  const state = tempDir('judgeloop-state-');
  const config = judgeConfigFile({ backend, max_retries: 0, timeout_seconds: 20 });
  dirs.push(state, join(config, '..'));
  return {
    JUDGE_ENABLED: 'true',
    ANTHROPIC_API_KEY: 'sk-test-dummy',
    ANTHROPIC_BASE_URL: server.url,
    JUDGELOOP_STATE_DIR: state,
    JUDGELOOP_CONFIG: config,
    ...extra,
  };
}

describe('the planted secrets are in what the agent left', () => {
  it('git shows each of them: in the hunk header, the context, added lines, file names, a key tail without its BEGIN', () => {
    const diff = gitIn(repo, 'diff', 'main', 'HEAD');
    expect(diff).toMatch(new RegExp(`^@@ [^\\n]*@@ export function connect\\(token = '${S.hunkHeader}'`, 'm'));
    expect(diff).toContain(` const mail = '${S.context}'`);
    expect(diff).toContain(`+  const hub = '${S.added}'`);
    expect(diff).toContain('+++ b/my config/.env\t');
    expect(diff).toContain('"b/t\\303\\251st/.env.local"');
    expect(diff).toContain(S.fileName);
    expect(diff).toContain(' -----END RSA PRIVATE KEY-----');
    expect(diff).not.toContain('BEGIN RSA PRIVATE KEY');
  });
});

describe.each(['sdk', 'claude-cli'] as const)('%s backend', (backend) => {
  let sent = '';
  let shown = '';
  beforeAll(async () => {
    server.requests.length = 0;
    writeFileSync(log, '');
    const procEnv = { ...process.env, PATH: `${stand}:${process.env.PATH}`, DATADOG_API_KEY: S.ownEnvValue };
    const env = envFor(backend);
    const io = captureIo(env, procEnv);
    expect(await run([recordPath], io)).toBe(0);
    const state = new StateStore(io.env.JUDGELOOP_STATE_DIR!);
    expect(state.read<Judgment>('judgments', 'bd-leak')?.status).toBe('judged');
    if (backend === 'sdk') {
      expect(server.requests).toHaveLength(1);
      sent = server.requests[0]!.raw;
    } else {
      const calls = readFileSync(log, 'utf8').trim().split('\n');
      expect(calls).toHaveLength(1);
      sent = calls[0]!;
    }
    // Same state: the feedback the real run collected is current, so the dry run assembles the same context.
    const dry = captureIo(env, procEnv);
    expect(await run(['--dry-run', '--show-request', recordPath], dry)).toBe(0);
    shown = dry.out.join('');
  });

  it('no planted secret is in the request as it arrived', () => {
    const leaked = planted().filter((s) => sent.includes(s) || sent.includes(JSON.stringify(s).slice(1, -1)));
    expect(leaked).toEqual([]);
    expect(sent).toContain('[REDACTED:');
  });

  it('the secret files are named, never shown; the rest of the work is there', () => {
    expect(sent).toContain('my config/.env: secret_file');
    expect(sent).toContain('tést/.env.local: secret_file');
    expect(sent).not.toContain('DEBUG=1');
    expect(sent).toContain('const hub =');
    expect(sent).toContain('config/app.yaml');
    expect(sent).toContain('return true; // bypass');
  });

  it('--dry-run --show-request prints exactly the request that was sent', () => {
    const printed = JSON.parse(shown) as Record<string, unknown>;
    if (backend === 'sdk') expect(printed).toEqual(JSON.parse(sent));
    else {
      const got = JSON.parse(sent) as { argv: string[]; stdin: string };
      expect(printed).toEqual({ backend: 'claude-cli', argv: ['claude', ...got.argv], stdin: got.stdin });
    }
  });
});
