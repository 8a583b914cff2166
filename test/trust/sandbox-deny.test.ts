// Deny by default (issue 23): the check sandbox starts from an empty root, so what is not named is absent. A check run
// through runCommand with the collector's policy cannot connect to a path socket in /run or under $XDG_RUNTIME_DIR, nor
// to an abstract socket with the network off, nor read /dev/shm; a PATH entry under ~/.config exposes that folder
// alone; judgeloop.env beside the config file is hidden; real toolchains (pytest under pyenv, npm scripts, cargo, go)
// still work inside. Each hostile case is shown reachable without the sandbox first, so the test can fail.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../lib/process/runner.js';
import { collectorCheckEnv, collectorSandbox, type SandboxPolicy } from '../../lib/process/sandbox.js';
import type { Config } from '../../lib/schema/types.generated.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { agentWorktree, makeProject, runRecord, writeRecord } from '../collector/_project.js';
import { tempDir } from '../helpers/repo.js';

const ROOT = join(import.meta.dirname, '..', '..');
const outside: string[] = [];
const servers: Server[] = [];

beforeAll(() => {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true']);
  if (probe.status !== 0) throw new Error('bubblewrap is needed for these tests (apt-get install -y bubblewrap)');
});
afterAll(() => {
  for (const s of servers) s.close();
  for (const d of outside) rmSync(d, { recursive: true, force: true });
});

const DEFAULTS = (JSON.parse(readFileSync(join(ROOT, 'config', 'defaults.json'), 'utf8')) as Config).collector;
const collector = (over: Partial<Config['collector']> = {}): Config['collector'] => ({
  ...DEFAULTS,
  sandbox: 'required',
  ...over,
});

/** A unix socket server answering `pong` (a path, or `\0name` for the abstract namespace). */
async function listen(path: string): Promise<void> {
  const s = createServer((c) => c.end('pong\n'));
  servers.push(s);
  await new Promise<void>((res) => s.listen(path, res));
}

/** A command that prints CONNECTED:<reply> or REFUSED:<code>. */
const connect = (path: string) =>
  `node -e "require('net').connect(${JSON.stringify(path).replace(/"/g, "'")}).on('data', (d) => { console.log('CONNECTED:' + d); process.exit(0) }).on('error', (e) => { console.log('REFUSED:' + e.code); process.exit(1) })"`;

/** `command` in `cwd` through runCommand: sandboxed by the collector's policy for `env`, or plain (policy null). */
async function check(command: string, cwd: string, env: NodeJS.ProcessEnv, policy: SandboxPolicy | null) {
  const c = collector();
  const r = await runCommand(command, {
    cwd,
    env: collectorCheckEnv(c, env),
    timeoutMs: 120_000,
    capBytes: 1 << 20,
    ...(policy ? { sandbox: policy } : {}),
  });
  return { ...r, text: r.output.text };
}

const policyFor = (env: NodeJS.ProcessEnv, over: Partial<Config['collector']> = {}, state = tempDir('jl-state-')) =>
  collectorSandbox(collector(over), env, state);

describe('filesystem and abstract sockets', () => {
  let wt: string;
  beforeAll(() => {
    wt = tempDir('judgeloop-sock-wt-');
  });

  it('a server listening on a socket in /run: reachable without the sandbox, not from a check', async () => {
    const dir = mkdtempSync('/run/judgeloop-sock-');
    outside.push(dir);
    const sock = join(dir, 'bus.sock');
    await listen(sock);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    expect((await check(connect(sock), wt, env, null)).text).toContain('CONNECTED:pong');
    const inside = await check(
      `${connect(sock)}; ls /run || echo NO-RUN; ls /var/run || echo NO-VAR-RUN`,
      wt,
      env,
      policyFor(env),
    );
    expect(inside.isolation.sandbox).toBe('bubblewrap');
    expect(inside.text).toMatch(/REFUSED:(ENOENT|ECONNREFUSED)/);
    expect(inside.text).not.toContain('CONNECTED');
    expect(inside.text).toContain('NO-RUN');
    expect(inside.text).toContain('NO-VAR-RUN');
  });

  it('$XDG_RUNTIME_DIR is hidden even inside a folder collector.sandbox_expose shows', async () => {
    const shared = mkdtempSync('/run/judgeloop-shared-');
    outside.push(shared);
    const runtime = join(shared, 'user-0');
    mkdirSync(runtime, { mode: 0o700 });
    writeFileSync(join(shared, 'visible.txt'), 'shared file\n');
    const sock = join(runtime, 'agent.sock');
    await listen(sock);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_RUNTIME_DIR: runtime };
    const policy = policyFor(env, { sandbox_expose: [shared] });
    const r = await check(`cat ${shared}/visible.txt; ${connect(sock)}`, wt, env, policy);
    expect(r.text).toContain('shared file');
    expect(r.text).toMatch(/REFUSED:(ENOENT|ECONNREFUSED)/);
    expect(r.text).not.toContain('CONNECTED');
  });

  it('an abstract socket: reachable without the sandbox, not with the network off (its own namespace)', async () => {
    const name = `\0judgeloop-abstract-${process.pid}-${Date.now()}`;
    await listen(name);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    expect((await check(connect(name), wt, env, null)).text).toContain('CONNECTED:pong');
    const inside = await check(connect(name), wt, env, policyFor(env));
    expect(inside.isolation.network).toBe(false);
    expect(inside.text).toContain('REFUSED:ECONNREFUSED');
  });

  it('/dev/shm: the host files are not there', async () => {
    const file = `/dev/shm/judgeloop-shm-${process.pid}`;
    writeFileSync(file, 'shared memory secret\n');
    outside.push(file);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    expect((await check(`cat ${file}`, wt, env, null)).text).toContain('shared memory secret');
    const r = await check(`cat ${file} || echo SHM-UNREADABLE`, wt, env, policyFor(env));
    expect(r.text).not.toContain('shared memory secret');
    expect(r.text).toContain('SHM-UNREADABLE');
  });

  it('/mnt, /media, /home, /srv, /opt and /root are absent; /etc/shadow is masked', async () => {
    // PATH within the system folders: a PATH entry under /root would bring /root/<entry> (and only it) along.
    const env = { PATH: '/usr/bin:/bin', HOME: tempDir('judgeloop-home-') };
    const dirs = ['/mnt', '/media', '/home', '/srv', '/root', '/opt', '/sys', '/var/lib'];
    const r = await check(
      `${dirs.map((d) => `test -e ${d} && echo PRESENT:${d}`).join('; ')}; wc -c < /etc/shadow; echo done`,
      wt,
      env,
      policyFor(env),
    );
    expect(r.text).not.toContain('PRESENT:');
    expect(r.text).not.toMatch(/root:/);
    expect(r.text).toContain('done');
  });
});

describe('a PATH entry exposes its folder, never its parent', () => {
  it('~/.config/tool/bin on PATH: the tool runs, ~/.config/gh/hosts.yml is not there', async () => {
    const home = tempDir('judgeloop-home-');
    const bin = join(home, '.config', 'tool', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'mytool'), '#!/bin/sh\necho TOOL-RAN\n');
    chmodSync(join(bin, 'mytool'), 0o755);
    mkdirSync(join(home, '.config', 'gh'));
    writeFileSync(join(home, '.config', 'gh', 'hosts.yml'), 'github.com:\n  oauth_token: gho_plantedtoken123\n');
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    mkdirSync(join(home, '.local', 'share', 'keyrings'), { recursive: true });
    writeFileSync(join(home, '.local', 'share', 'keyrings', 'login.keyring'), 'keyring secret\n');
    const env = { PATH: `${bin}:${join(home, '.local', 'bin')}:${process.env.PATH}`, HOME: home };
    const wt = tempDir('judgeloop-wt-');
    const cmd = `mytool; cat ~/.config/gh/hosts.yml 2>/dev/null || echo GH-UNREADABLE; cat ~/.local/share/keyrings/login.keyring 2>/dev/null || echo KEYRING-UNREADABLE; echo "CONFIG:$(ls -A ~/.config | tr '\\n' ' ')"`;
    expect((await check(cmd, wt, env, null)).text).toContain('gho_plantedtoken123');
    const r = await check(cmd, wt, env, policyFor(env));
    expect(r.text).toContain('TOOL-RAN');
    expect(r.text).toContain('GH-UNREADABLE');
    expect(r.text).toContain('KEYRING-UNREADABLE');
    expect(r.text).not.toContain('gho_plantedtoken123');
    expect(r.text).not.toContain('keyring secret');
    expect(r.text).toContain('CONFIG:tool \n');
  });
});

describe('collector.sandbox_expose', () => {
  it('a named folder inside a private one is shown; the rest of the private folder is not', async () => {
    const state = tempDir('judgeloop-state-');
    mkdirSync(join(state, 'tools'));
    writeFileSync(join(state, 'tools', 'lib.txt'), 'named tool\n');
    writeFileSync(join(state, 'feedback.json'), 'private state\n');
    const env = { PATH: process.env.PATH, HOME: tempDir('judgeloop-home-') };
    const policy = policyFor(env, { sandbox_expose: [join(state, 'tools')] }, state);
    const r = await check(
      `cat ${state}/tools/lib.txt; cat ${state}/feedback.json 2>/dev/null || echo STATE-UNREADABLE`,
      tempDir('judgeloop-wt-'),
      env,
      policy,
    );
    expect(r.text).toContain('named tool');
    expect(r.text).toContain('STATE-UNREADABLE');
    expect(r.text).not.toContain('private state');
  });
});

describe('the folder of the config file', () => {
  it('judgeloop.env beside the config (in /etc, which checks see) is hidden from a check run by bin/collect', () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const cfgDir = mkdtempSync('/etc/judgeloop-test-');
    outside.push(cfgDir);
    const cfg = join(cfgDir, 'judgeloop.json');
    writeFileSync(cfg, JSON.stringify({ collector: { sandbox: 'required' } }));
    writeFileSync(join(cfgDir, 'judgeloop.env'), 'ANTHROPIC_API_KEY=sk-ant-planted-beside-config\n');
    const build = `cat /etc/hostname >/dev/null && echo ETC-VISIBLE; cat ${cfgDir}/judgeloop.env || echo ENV-UNREADABLE; cat ${cfg} || echo CONFIG-UNREADABLE`;
    const rec = writeRecord(p, 'a', runRecord({ commands: { build, test: null, lint: null, typecheck: null } }));
    const r = spawnSync(join(ROOT, 'bin', 'collect'), ['--quiet', '--config', cfg, rec], {
      cwd: p.dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: tempDir('judgeloop-home-'), TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state },
    });
    expect(r.status, r.stderr).toBe(0);
    const fb = JSON.parse(readFileSync(join(p.state, 'feedback', 'bd-1.json'), 'utf8')) as Feedback;
    const out = fb.checks.build!.output!.text;
    expect(out).toContain('ETC-VISIBLE');
    expect(out).toContain('ENV-UNREADABLE');
    expect(out).toContain('CONFIG-UNREADABLE');
    expect(out).not.toContain('sk-ant-planted-beside-config');
    expect(fb.checks.build!.isolation).toEqual({ sandbox: 'bubblewrap', network: false });
  });
});

describe('real toolchains still work inside', () => {
  // The PATH as the user had it (global setup takes pyenv's shims off the suite's PATH): this case is about the shims.
  const env = { PATH: process.env.TEST_ORIGINAL_PATH ?? process.env.PATH, HOME: process.env.HOME };
  const project = (files: Record<string, string>): string => {
    const dir = tempDir('judgeloop-tool-');
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    return dir;
  };
  const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

  it('python3 with pytest (pyenv shims under $HOME)', async () => {
    const dir = project({
      'test_add.py': 'def test_add():\n    assert 1 + 1 == 2\n\ndef test_sub():\n    assert 2 - 1 == 1\n',
    });
    const r = await check(
      'python3 -m pytest -q -p no:cacheprovider -p no:hypothesispytest -p no:benchmark',
      dir,
      env,
      policyFor(env),
    );
    expect(r.isolation.sandbox).toBe('bubblewrap');
    expect(r.text).toMatch(/2 passed/);
    expect(r.exitCode).toBe(0);
  });

  it('node with an npm script', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'node --test' } }),
      'test/a.test.js': "require('node:test')('adds', () => require('node:assert').equal(1 + 1, 2));\n",
    });
    const r = await check('npm test --silent', dir, env, policyFor(env));
    expect(r.text).toMatch(/# pass 1/);
    expect(r.exitCode).toBe(0);
  });

  it('cargo test (~/.cargo and ~/.rustup)', async () => {
    expect(has('cargo'), 'cargo is not installed: apt-get install cargo').toBe(true);
    const dir = project({
      'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod t { #[test] fn adds() { assert_eq!(super::add(1, 2), 3); } }\n',
    });
    const r = await check('cargo test --offline -q', dir, env, policyFor(env));
    expect(r.text, r.text).toMatch(/test result: ok\. 1 passed/);
    expect(r.exitCode).toBe(0);
  });

  it('go test (go from Debian: .ci/run installs golang-go)', async () => {
    expect(has('go'), 'go is not installed: apt-get install golang-go').toBe(true);
    const dir = project({
      'go.mod': 'module x\n\ngo 1.19\n',
      'add.go': 'package x\n\nfunc Add(a, b int) int { return a + b }\n',
      'add_test.go':
        'package x\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n',
    });
    const r = await check('go test ./...', dir, env, policyFor(env));
    expect(r.text, r.text).toMatch(/^ok\s+x/m);
    expect(r.exitCode).toBe(0);
  });
});
