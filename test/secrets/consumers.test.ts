// The three users of the one table: the race's secret finding, the collector's env scrub, the judge's redaction.
import { describe, expect, it } from 'vitest';
import { scanAddedLines } from '../../lib/change/scan.js';
import type { FilePatch } from '../../lib/git/diff-parse.js';
import { scrubEnv } from '../../lib/process/env-scrub.js';
import { knownSecretValues, redactRequest } from '../../lib/judge/redact.js';
import { loadSecretTable } from '../../lib/secrets/index.js';
import { ALNUM, HEX, LETTERS, URLSAFE, rnd } from './tokens.js';

const patch = (path: string, lines: string[]): FilePatch =>
  ({
    path,
    oldPath: null,
    created: true,
    deleted: false,
    binary: false,
    added: lines.map((text, i) => ({ line: i + 1, text })),
  }) as FilePatch;

describe('race: secret findings come from the table', () => {
  const gitlab = `glpat-${rnd(URLSAFE, 20)}`;
  const hf = `hf_${rnd(LETTERS, 34)}`;
  const pw = rnd(ALNUM, 16);
  it('vendor formats the old list missed, and an unquoted YAML password, are found and shown shortened', () => {
    const found = scanAddedLines([
      patch('deploy/app.yaml', [`gitlab: ${gitlab}`, `hub = "${hf}"`, `password: ${pw}`, 'user: app']),
    ]).filter((f) => f.kind === 'secret');
    expect(found.map((f) => f.line)).toEqual([1, 2, 3]);
    expect(found[0]!.name).toContain('gitlab_token');
    expect(found[2]!.name).toContain('hard-coded credential');
    for (const s of [gitlab, hf, pw]) expect(JSON.stringify(found)).not.toContain(s);
  });
  it('near misses are not findings', () => {
    const found = scanAddedLines([
      patch('src/a.ts', ['const apiKey = process.env.API_KEY;', 'password: string;', `const id = "${rnd(HEX, 12)}";`]),
    ]);
    expect(found.filter((f) => f.kind === 'secret')).toEqual([]);
  });
});

describe('collector: the env scrub uses the table', () => {
  it('drops secret-looking names and token-format values under innocent names; keeps PATH, HOME, PWD', () => {
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      PWD: '/work',
      SOMEVENDOR_KEY: rnd(ALNUM, 20),
      CI_NOTE: `ghp_${rnd(ALNUM, 36)}`,
      DB_PASS: 'x',
    };
    expect(scrubEnv(env, ['^AWS_'])).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/u', PWD: '/work' });
  });
});

describe("judge: judgeloop's own secrets", () => {
  it('random values under secret names and token-format values are cut; names, words and paths under such names are not', () => {
    const dd = rnd(HEX, 32);
    const gh = `ghp_${rnd(ALNUM, 36)}`;
    const known = knownSecretValues(
      {
        DATADOG_API_KEY: dd,
        NOTE: gh,
        GIT_AUTHOR_NAME: 'Jane Doe',
        AUTH_MODE: 'password',
        SSH_AUTH_SOCK: '/tmp/ssh-abc/agent.1',
        PATH: '/usr/bin',
      },
      loadSecretTable(),
    );
    expect(known.sort()).toEqual([dd, gh].sort());
  });
});

describe('judge: the final request is redacted whatever assembled it', () => {
  it('system prompt and every message', () => {
    const tok = `dop_v1_${rnd(HEX, 64)}`;
    const req = {
      model: 'm',
      system: `rubric ${tok}`,
      messages: [
        { role: 'user' as const, content: `a ${tok}` },
        { role: 'assistant' as const, content: `b ${tok}` },
      ],
      schema: {},
      maxTokens: 1,
      effort: null,
      timeoutMs: 1,
      maxRetries: 0,
      retryBackoffMs: 0,
      retryBackoffMaxMs: 0,
    };
    const { request, redacted } = redactRequest(req, loadSecretTable());
    expect(JSON.stringify(request)).not.toContain(tok);
    expect(redacted).toEqual({ count: 3, kinds: { digitalocean_token: 3 } });
  });
});
