// The claude-cli backend's process handling, with stand-in `claude` programs: the group is killed at the timeout
// and at exit, stdout is kept head + tail, a missing program is named.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallRequest } from '../../lib/judge/backend.js';
import { createCliBackend } from '../../lib/judge/cli-backend.js';
import { removeRuns, scratchDir } from './helpers/fixtures.js';

afterAll(removeRuns);

const dir = scratchDir('judgeloop-claude-proc-');
const req = (timeoutMs: number): CallRequest => ({
  model: 'm',
  system: 's',
  messages: [{ role: 'user', content: 'judge this' }],
  schema: { type: 'object' },
  maxTokens: 100,
  effort: null,
  timeoutMs,
  maxRetries: 0,
  retryBackoffMs: 0,
  retryBackoffMaxMs: 0,
});
const result = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'ok',
  structured_output: { verdict: 'pass' },
  total_cost_usd: 0.01,
  usage: { input_tokens: 1, output_tokens: 2 },
});

function stand(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

const readPid = (file: string): number => Number(readFileSync(file, 'utf8').trim());

describe('claude-cli backend processes', () => {
  it('at the timeout: a timeout failure, and what claude started (its process group) is killed too', async () => {
    const pidFile = join(dir, 'timeout.pid');
    const cmd = stand('claude-hang', `sleep 30 &\necho $! > ${pidFile}\nsleep 30`);
    const t0 = Date.now();
    const r = await createCliBackend({ command: cmd, env: { PATH: process.env.PATH }, killGraceMs: 200 }).call(
      req(500),
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.failure.reason).toBe('timeout');
    // Well before the stand's `sleep 30` ends (a wait for it would take 30 s and more).
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(existsSync(pidFile)).toBe(true);
    expect(await waitDead(readPid(pidFile))).toBe(true);
  });

  it('ends when claude exits even if a process it left holds stdout open; that process is killed', async () => {
    const pidFile = join(dir, 'leftover.pid');
    const cmd = stand(
      'claude-leaves',
      `cat > /dev/null\nprintf '%s\\n' '${result}'\nsleep 30 &\necho $! > ${pidFile}\nexit 0`,
    );
    const t0 = Date.now();
    const r = await createCliBackend({ command: cmd, env: { PATH: process.env.PATH } }).call(req(20_000));
    expect(r.ok).toBe(true);
    // Well before the stand's `sleep 30` ends (a wait for it would take 30 s and more).
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(await waitDead(readPid(pidFile))).toBe(true);
  });

  it('stdout beyond the cap: the head and tail are kept, so the result line at the end still parses', async () => {
    const cmd = stand(
      'claude-chatty',
      `cat > /dev/null\nyes 'progress line that is not json' | head -c 3000000\necho\nprintf '%s\\n' '${result}'`,
    );
    const r = await createCliBackend({ command: cmd, env: { PATH: process.env.PATH }, stdoutCapBytes: 64 * 1024 }).call(
      req(20_000),
    );
    expect(r.ok).toBe(true);
    expect(r.ok && r.structured).toEqual({ verdict: 'pass' });
  });

  it('the prompt goes to stdin, and a missing program is cli_not_found', async () => {
    const got = join(dir, 'stdin.txt');
    const cmd = stand('claude-echo', `cat > ${got}\nprintf '%s\\n' '${result}'`);
    const r = await createCliBackend({ command: cmd, env: { PATH: process.env.PATH } }).call(req(20_000));
    expect(r.ok).toBe(true);
    expect(readFileSync(got, 'utf8')).toBe('judge this');
    const missing = await createCliBackend({
      command: join(dir, 'no-such-claude'),
      env: { PATH: process.env.PATH },
    }).call(req(1000));
    expect(!missing.ok && missing.failure.reason).toBe('cli_not_found');
  });
});

describe('the judge has no hands', () => {
  it('a stand-in claude on PATH sees no tool-enabling argv, an empty folder and no secret but its own key', async () => {
    const bin = scratchDir('judgeloop-claude-bin-');
    const log = join(dir, 'hands.json');
    writeFileSync(
      join(bin, 'claude'),
      `#!/usr/bin/env node
const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), files: fs.readdirSync('.') }));
process.stdin.resume();
process.stdin.on('end', () => process.stdout.write(${JSON.stringify(result)}));
`,
    );
    chmodSync(join(bin, 'claude'), 0o755);
    const planted = {
      GITHUB_TOKEN: 'ghp_plantedPlantedPlanted0123456789abcd',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTEDKEY',
      DATADOG_API_KEY: '0123456789abcdef0123456789abcdef',
      JUDGELOOP_STATE_DIR: '/somewhere/state',
      SSH_AUTH_SOCK: '/run/user/0/ssh-agent.sock',
    };
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: dir, ANTHROPIC_API_KEY: 'sk-ant-own-key', ...planted };
    const r = await createCliBackend({ command: 'claude', env }).call(req(20_000));
    expect(r.ok).toBe(true);
    const got = JSON.parse(readFileSync(log, 'utf8')) as {
      argv: string[];
      env: Record<string, string>;
      cwd: string;
      files: string[];
    };
    const flag = (name: string) => got.argv[got.argv.indexOf(name) + 1];
    expect(flag('--tools')).toBe('');
    expect(flag('--setting-sources')).toBe('');
    expect(flag('--permission-mode')).toBe('dontAsk');
    expect(got.argv).toContain('--strict-mcp-config');
    const enabling =
      /^--(allowed-?tools|allowedTools|mcp-config|add-dir|settings|dangerously-skip-permissions|agents?|plugin-dir)$/i;
    expect(got.argv.filter((a) => enabling.test(a))).toEqual([]);
    expect(got.argv.filter((a) => /bypassPermissions|acceptEdits/.test(a))).toEqual([]);
    for (const [k, v] of Object.entries(planted)) {
      expect(got.env[k]).toBeUndefined();
      expect(JSON.stringify(got.env)).not.toContain(v);
    }
    expect(got.env.ANTHROPIC_API_KEY).toBe('sk-ant-own-key');
    expect(got.files).toEqual([]);
    expect(got.cwd).not.toBe(dir);
    expect(existsSync(got.cwd)).toBe(false);
  });
});
