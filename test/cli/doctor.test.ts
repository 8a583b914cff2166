// judgeloop init and doctor, spawned for real (per-test findings: their entries here): init writes what the flags
// say and refuses to overwrite; doctor's findings and exit code follow the set-up (config, checks, key, the key tested
// against a loopback Messages API with --online, an unusable state folder); a writing command refuses that folder.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandRun } from '../../lib/cli/cli.js';
import { runHere } from '../helpers/in-process.js';
import { run as doctorRun } from '../../scripts/doctor.js';
import { run as initRun } from '../../scripts/init.js';
import { startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { tempDir } from '../helpers/repo.js';
import { runProc } from '../integrations/_setup.js';

const ROOT = join(import.meta.dirname, '..', '..');
let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: 'ok' });
});
afterAll(async () => server.close());

/** Spawned without blocking: the loopback server in this process must answer while doctor waits. */
async function jlAsync(args: string[], cwd: string, extra: Record<string, string>) {
  const env = { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8', TMPDIR: process.env.TMPDIR, ...extra };
  return runProc(join(ROOT, 'bin', 'judgeloop'), args, { cwd, env });
}

function jl(args: string[], cwd: string, extra: Record<string, string> = {}) {
  const env = { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8', TMPDIR: process.env.TMPDIR, ...extra };
  const r = spawnSync(join(ROOT, 'bin', 'judgeloop'), args, { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/**
 * `judgeloop init|doctor …` through the command's entry in this process (bin/judgeloop's prefix in its text): for the
 * cases whose subject is what init and doctor find, not the CLI (the other cases spawn it).
 */
async function jlHere(args: string[], cwd: string) {
  const [name, ...rest] = args as ['init' | 'doctor', ...string[]];
  const run: CommandRun = name === 'init' ? initRun : doctorRun;
  const env = { PATH: process.env.PATH, HOME: cwd, LANG: 'C.UTF-8', TMPDIR: process.env.TMPDIR };
  return runHere(run, rest, env, cwd, 'judgeloop');
}
const findings = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as { findings: { check: string; level: string; detail: string }[] }).findings.map((f) => [
      f.check,
      f,
    ]),
  );

describe('judgeloop init', () => {
  it('writes the flags as judgeloop.json, refuses to overwrite it, --force does', () => {
    const dir = tempDir('judgeloop-init-');
    const r = jl(['init', '--agent', 'codex-cli', '--base', 'main', '--test', 'npm test', '--judge'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(dir, 'judgeloop.json')}\n`);
    expect(JSON.parse(readFileSync(join(dir, 'judgeloop.json'), 'utf8'))).toEqual({
      record: { agent: 'codex-cli', base_ref: 'main' },
      collector: { commands: { test: 'npm test' } },
      judge: { enabled: true },
    });
    expect(jl(['init', '--agent', 'x'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${join(dir, 'judgeloop.json')} exists already; --force overwrites it\n`,
    });
    expect(jl(['init', '--agent', 'x', '--force'], dir).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'judgeloop.json'), 'utf8'))).toEqual({ record: { agent: 'x' } });
    // A bad value is refused by the schema, naming the file.
    const bad = jl(['init', '--agent', 'no spaces', '--force'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/judgeloop\.json.*\/record\/agent: must match pattern/);
  });
});

describe('per-test results or counts only: init and doctor say which, and what to set', () => {
  it('npm test behind a chain ending in vitest: per-test; one ending in another command: counts only, with the fix', async () => {
    const dir = tempDir('judgeloop-pertest-');
    const pkg = (test: string) =>
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { test } }));
    pkg('tsc -p . && vitest run');
    const good = await jlHere(['init', '--test', 'npm test'], dir);
    expect(good.stderr).not.toContain('counts only');
    expect(findings((await jlHere(['doctor', '--json'], dir)).stdout)['per-test']).toMatchObject({
      level: 'ok',
      detail: 'vitest: judgeloop asks it for its junit report',
    });
    pkg('vitest run && eslint .');
    const bad = await jlHere(['init', '--test', 'npm test', '--force'], dir);
    expect(bad.code).toBe(0);
    expect(bad.stderr).toContain('init: `npm test` gives counts only (');
    expect(bad.stderr).toContain('set collector.test_report');
    const f = findings((await jlHere(['doctor', '--json'], dir)).stdout)['per-test'] as unknown as Record<
      string,
      string
    >;
    expect(f).toMatchObject({ level: 'warn' });
    expect(f.detail).toMatch(/^`npm test`: the script's runner is not its last command .*: only counts come back/);
    expect(f.fix).toMatch(/^set collector\.test_report/);
    // Setting it is what the finding asks: then the report is named.
    writeFileSync(
      join(dir, 'judgeloop.json'),
      JSON.stringify({ collector: { commands: { test: 'npm test' }, test_report: { format: 'junit', args: '-- x' } } }),
    );
    expect(findings((await jlHere(['doctor', '--json'], dir)).stdout)['per-test']).toMatchObject({ level: 'ok' });
    // go test and cargo test: per-test without anything set.
    for (const [test, detail] of [
      [
        'go test ./...',
        "go: judgeloop runs `go test -json ./...` (per-test events on the console), each test binary under judgeloop's observer",
      ],
      [
        'cargo test',
        "cargo: libtest's `test name ... ok` line for every test, each test binary under judgeloop's observer",
      ],
    ]) {
      expect((await jlHere(['init', '--test', test!, '--force'], dir)).stderr).not.toContain('counts only');
      expect(findings((await jlHere(['doctor', '--json'], dir)).stdout)['per-test']).toMatchObject({
        level: 'ok',
        detail,
      });
    }
    expect((await jlHere(['init', '--test', 'make test', '--force'], dir)).stderr).toContain(
      'init: `make test` gives counts only (judgeloop does not recognise its runner: only counts come back, no test is named)',
    );
  });
});

describe('judgeloop doctor', () => {
  it('what to fix, in order, and an exit code that says whether anything must be', () => {
    const dir = tempDir('judgeloop-doctor-');
    const none = jl(['doctor', '--json'], dir);
    expect(none.code).toBe(1);
    const f0 = findings(none.stdout);
    expect(f0.config).toMatchObject({ level: 'warn', detail: 'no judgeloop.json here or above' });
    expect(f0.state!.detail).toBe(`${join(dir, '.local', 'state', 'judgeloop')} (user)`);
    expect(f0.checks).toMatchObject({ level: 'fail' });
    expect(jl(['init', '--test', 'npm test', '--judge'], dir).code).toBe(0);
    const noKey = jl(['doctor', '--json'], dir);
    expect(noKey.code).toBe(1);
    expect(findings(noKey.stdout).judge).toMatchObject({ level: 'fail', detail: 'ANTHROPIC_API_KEY is not set' });
    const withKey = jl(['doctor'], dir, { ANTHROPIC_API_KEY: 'sk-ant-x' });
    expect(withKey.code, withKey.stdout).toBe(0);
    expect(withKey.stdout).toContain(`ok   config: ${join(dir, 'judgeloop.json')} (found upwards)\n`);
    expect(withKey.stdout).toContain('ok   checks: test: npm test\n');
    expect(server.requests).toHaveLength(0);
  });

  it('--online sends one request: a refused key fails, an accepted one passes', async () => {
    const dir = tempDir('judgeloop-doctor-');
    writeFileSync(
      join(dir, 'judgeloop.json'),
      JSON.stringify({ collector: { commands: { test: 'true' } }, judge: { enabled: true } }),
    );
    const env = { ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_BASE_URL: server.url };
    server.script.push({ kind: 'status', status: 401, errorType: 'authentication_error' });
    const before = server.requests.length;
    const refused = await jlAsync(['doctor', '--online', '--json'], dir, env);
    expect(refused.code).toBe(1);
    expect(findings(refused.stdout).judge).toMatchObject({ level: 'fail', detail: 'key refused (HTTP 401)' });
    const accepted = await jlAsync(['doctor', '--online', '--json'], dir, env);
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(findings(accepted.stdout).judge!.level).toBe('ok');
    expect(server.requests.length - before).toBe(2);
    expect(server.requests.at(-1)!.body).toMatchObject({ max_tokens: 1 });
  });

  it('a state folder below a file: doctor fails it; collect refuses it in one line before measuring anything', () => {
    const dir = tempDir('judgeloop-doctor-');
    writeFileSync(join(dir, 'afile'), '');
    const env = { JUDGELOOP_STATE_DIR: join(dir, 'afile', 'state') };
    const d = jl(['doctor', '--json'], dir, env);
    expect(d.code).toBe(1);
    expect(findings(d.stdout).state).toMatchObject({ level: 'fail' });
    writeFileSync(join(dir, 'run.json'), '{}');
    const c = jl(['collect', 'run.json'], dir, env);
    expect(c).toEqual({
      code: 2,
      stdout: '',
      stderr: `state folder ${join(dir, 'afile', 'state')}: not writable (ENOTDIR); set JUDGELOOP_STATE_DIR or "state_dir" in judgeloop.json\n`,
    });
  });
});
