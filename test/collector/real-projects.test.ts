// Real projects in temp dirs set up the way their CI does: an npm project whose lock resolves to a local tarball (a
// dependency with a bin and an install script), a pip project with a setup.py, a go module. init detects them, doctor
// advises, the base failing the same way is infra_failure, and install scripts the candidate adds reach no network.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as collectRun } from '../../scripts/collect.js';
import { run as initRun } from '../../scripts/init.js';
import { run as doctorRun } from '../../scripts/doctor.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { runSetup, withCheckout } from '../../lib/collector/checkout.js';
import { loadConfig } from '../../lib/config/config.js';
import { collectorSandbox } from '../../lib/process/sandbox.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';
import { agentWorktree, makeIo, readJson, runRecord, writeRecord, type Project } from './_project.js';

/** A loopback TCP listener counting the connections it sees. */
async function listener(): Promise<{ port: number; seen: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, seen: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

const connect = (port: number, tag: string) =>
  `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>console.log('${tag} connected')).on('error',(e)=>console.log('${tag} '+e.code))"`;

/** tiny-dep: a bin (`tinybuild`) and an install script writing built.txt, packed to a tarball outside the repo. */
function tarball(dir: string): string {
  writeTree(dir, {
    'package.json': JSON.stringify({
      name: 'tiny-dep',
      version: '1.0.0',
      bin: { tinybuild: 'bin.js' },
      scripts: { postinstall: "node -e \"require('fs').writeFileSync('built.txt','ok')\"" },
    }),
    'bin.js': '#!/usr/bin/env node\nconsole.log("tinybuild: built");\n',
    'index.js': 'exports.double = (x) => 2 * x;\n',
  });
  execFileSync('npm', ['pack', '-q'], { cwd: dir, stdio: 'pipe' });
  return join(dir, 'tiny-dep-1.0.0.tgz');
}

const NPM_TEST = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { existsSync } = require('node:fs');",
  "const { double } = require('tiny-dep');",
  "const { add } = require('../src/add.js');",
  "test('adds', () => assert.strictEqual(add(1, 2), 3));",
  "test('uses the dependency', () => assert.strictEqual(double(add(1, 1)), 4));",
  "test('the dependency was built', () => assert.ok(existsSync(require.resolve('tiny-dep/package.json').replace('package.json', 'built.txt'))));",
  '',
].join('\n');

/** The npm project: package.json, the package-lock npm writes for it (the tarball committed in vendor/), a test. */
function npmProject(): Project & { pkg: Record<string, unknown> } {
  const dir = tempDir('judgeloop-npm-');
  const tgz = tarball(join(dir, 'dep'));
  const pkg = {
    name: 'proj',
    version: '1.0.0',
    private: true,
    scripts: { build: 'tinybuild', test: 'node --test test/' },
    dependencies: { 'tiny-dep': 'file:vendor/tiny-dep-1.0.0.tgz' },
  };
  const repo = makeRepo({
    '.gitignore': 'node_modules/\n.judgeloop-deps/\n',
    'package.json': JSON.stringify(pkg, null, 2),
    'src/add.js': 'exports.add = (a, b) => a + b;\n',
    'test/add.test.js': NPM_TEST,
  });
  mkdirSync(join(repo, 'vendor'));
  copyFileSync(tgz, join(repo, 'vendor', 'tiny-dep-1.0.0.tgz'));
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: repo,
    stdio: 'pipe',
  });
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'lock and vendored dependency');
  return { repo, dir, state: join(dir, 'state'), pkg };
}

async function collect(p: Project, bead: string, wt: string, collector: Record<string, unknown>) {
  const cfg = join(p.dir, `${bead}.config.json`);
  writeFileSync(cfg, JSON.stringify({ collector }));
  const rec = writeRecord(p, bead, runRecord({ bead, worktree: wt, commands: undefined }));
  const { io, out, err } = makeIo(p);
  const code = await collectRun(['--config', cfg, rec], io);
  const fb = readJson<Feedback>(join(p.state, 'feedback', `${bead}.json`));
  return { code, out: out.join(''), err: err.join(''), fb };
}

/** The fetch and setup alone, as the collector runs them, in a fresh checkout of the worktree's HEAD. */
async function setupAt(wt: string, collector: Record<string, unknown>) {
  const c = loadConfig({ env: {}, cwd: wt, overrides: { collector } }).collector;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir() };
  const sandbox = collectorSandbox(c, env, tempDir('judgeloop-state-'));
  const head = gitIn(wt, 'rev-parse', 'HEAD').trim();
  return withCheckout(wt, head, (dir) => runSetup(dir, { collector: c, env, sandbox, label: 'control' }));
}

/** init in a fresh folder for the project in `repo`: the config it wrote and what it said. */
async function init(repo: string, extra: string[] = []) {
  const dir = tempDir('judgeloop-init-');
  const { io, err } = makeIo({ repo, dir, state: join(dir, 'state') });
  const code = await initRun(['--project', repo, ...extra], io);
  return { code, err: err.join(''), config: readJson(join(dir, 'judgeloop.json')) };
}

describe('an npm project whose lock resolves to a local tarball', () => {
  const p = npmProject();
  let net: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    net = await listener();
  });
  afterAll(async () => net.close());

  it('init detects it and writes the fetch, the offline setup and the checks package.json has', async () => {
    const r = await init(p.repo);
    expect(r.code).toBe(0);
    expect(r.err).toContain('init: detected npm (package-lock.json)\n');
    expect(r.config).toEqual({
      collector: {
        commands: { build: 'npm run build', test: 'npm test' },
        fetch_command: 'npm ci --ignore-scripts --no-audit --no-fund',
        setup_command:
          'npm rebuild --foreground-scripts && npm run postinstall --if-present && npm run prepare --if-present',
      },
    });
    // A flag wins; an empty one writes none.
    const flags = await init(p.repo, ['--setup', 'npm ci', '--fetch', '', '--test', 'npm run test']);
    expect(flags.config.collector).toEqual({
      commands: { build: 'npm run build', test: 'npm run test' },
      setup_command: 'npm ci',
    });
  });

  it('without a setup: doctor names the missing command and the fix; collect blames the environment', async () => {
    const cfg = join(p.dir, 'judgeloop.json');
    writeFileSync(cfg, JSON.stringify({ collector: { commands: { build: 'npm run build', test: 'npm test' } } }));
    const { io, out } = makeIo(p);
    const code = await doctorRun(['--json', '--config', cfg, '--project', p.repo], io);
    const f = Object.fromEntries(
      (
        JSON.parse(out.join('')) as { findings: { check: string; level: string; detail: string; fix?: string }[] }
      ).findings.map((x) => [x.check, x]),
    );
    expect(code).toBe(1);
    expect(f.build).toMatchObject({
      level: 'fail',
      detail: expect.stringMatching(/npm run build exit 127 on the base [0-9a-f]{12}: .*tinybuild: not found/),
    });
    expect(f.build!.fix).toBe(
      'set collector.setup_command, for this npm (package-lock.json) project: collector.fetch_command "npm ci --ignore-scripts --no-audit --no-fund", collector.setup_command "npm rebuild --foreground-scripts && npm run postinstall --if-present && npm run prepare --if-present" (judgeloop init --force writes them)',
    );
    // The agent's correct change: the build fails for want of node_modules on the base as in the sealed checkout.
    const wt = agentWorktree(p, 'fix', { commit: { 'src/add.js': 'exports.add = (a, b) => b + a;\n' } });
    const r = await collect(p, 'bd-nosetup', wt, { commands: { build: 'npm run build', test: 'npm test' } });
    expect(r.code).toBe(0);
    expect(r.fb.outcome).toBe('infra_failure');
    expect(r.fb.outcome_reason).toMatch(
      /^the build check fails the same way on the base \(a command is not found\): .*tinybuild: not found$/,
    );
    expect(r.out).toMatch(
      /^bd-nosetup\s+infra_failure .*infra: the build check fails the same way on the base.*tinybuild: not found\n$/,
    );
  });

  it("with init's setup, the base installs and passes; the candidate's prepare and postinstall reach no network", async () => {
    const collector = (await init(p.repo)).config.collector;
    const scripts = {
      ...(p.pkg.scripts as object),
      prepare: connect(net.port, 'prepare'),
      postinstall: connect(net.port, 'postinstall'),
    };
    const wt = agentWorktree(p, 'net', {
      commit: {
        'package.json': JSON.stringify({ ...p.pkg, scripts }, null, 2),
        'src/add.js': 'exports.add = (a, b) => 0 + a + b;\n',
      },
    });
    const r = await collect(p, 'bd-net', wt, collector);
    expect(
      r.fb.checks.build?.status,
      JSON.stringify([r.fb.checks.build, r.fb.integrity.notes, r.fb.outcome_reason]),
    ).toBe('passed');
    expect(r.fb.checks.test?.tests).toMatchObject({ passed: 3, failed: 0 });
    expect(r.fb.baseline?.tests).toMatchObject({ passed: 3, failed: 0 });
    expect(r.fb.outcome).toBe('full_pass');
    expect(net.seen()).toBe(0);
    // The same install with setup_network: the candidate's scripts do reach the listener (what the default stops).
    const open = await setupAt(wt, { ...collector, setup_network: true });
    expect(open?.result.status).toBe('passed');
    expect(open?.result.output?.text).toMatch(/prepare connected/);
    expect(net.seen()).toBeGreaterThan(0);
  }, 300_000);
});

describe('a pip project with a setup.py', () => {
  it('init detects it; a setup.py the candidate makes call out, run by the setup, reaches no network', async () => {
    const repo = makeRepo({
      '.gitignore': '.venv/\nbuild/\n*.egg-info/\n',
      'requirements.txt': '# nothing beyond the standard library\n',
      'setup.py': 'from setuptools import setup\nsetup(name="pkg", version="0.1", py_modules=["pkg"])\n',
      'pkg.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_pkg.py': 'from pkg import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    });
    const r = await init(repo);
    expect(r.err).toContain('init: detected pip (requirements.txt, setup.py)\n');
    expect(r.config.collector).toEqual({
      commands: { test: '.venv/bin/python -m pytest' },
      fetch_command:
        'mkdir -p .judgeloop-deps/wheels && python3 -m pip download -q -d .judgeloop-deps/wheels -r requirements.txt',
      setup_command:
        'python3 -m venv --system-site-packages --without-pip .venv && { .venv/bin/python -I -c "import pip" 2>/dev/null || .venv/bin/python -I -m ensurepip; } && .venv/bin/python -I -m pip install -q --no-index --find-links .judgeloop-deps/wheels -r requirements.txt && .venv/bin/python -I -m pip install -q --no-index --find-links .judgeloop-deps/wheels --no-build-isolation --no-deps -e .',
    });
    // Collected with a setup that runs setup.py alone (pip's editable install needs the `wheel` package, absent here).
    const net = await listener();
    try {
      const dir = tempDir('judgeloop-pip-');
      const p: Project = { repo, dir, state: join(dir, 'state') };
      const py = (port: number) =>
        `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("setup.py connected")\nexcept OSError as e:\n    print("setup.py", e)\n`;
      const wt = agentWorktree(p, 'py', {
        commit: {
          'setup.py': `${py(net.port)}from setuptools import setup\nsetup(name="pkg", version="0.1", py_modules=["pkg"])\n`,
          'pkg.py': 'def add(a, b):\n    return b + a\n',
        },
      });
      const collector = {
        commands: { test: 'python3 -m pytest -p no:hypothesispytest -p no:benchmark -q tests' },
        setup_command: 'python3 setup.py -q build',
      };
      const c = await collect(p, 'bd-py', wt, collector);
      expect(c.fb.checks.test?.tests, c.fb.checks.test?.output?.text).toMatchObject({ passed: 1, failed: 0 });
      expect(c.fb.outcome).toBe('full_pass');
      expect(net.seen()).toBe(0);
      const open = await setupAt(wt, { ...collector, setup_network: true });
      expect(open?.result.output?.text).toMatch(/setup\.py connected/);
      expect(net.seen()).toBeGreaterThan(0);
    } finally {
      await net.close();
    }
  }, 300_000);
});

describe('a go module', () => {
  it('init detects it; its commands build and test it in a clean checkout, the module cache inside it', async () => {
    const repo = makeRepo({
      'go.mod': 'module example.com/calc\n\ngo 1.18\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("add")\n\t}\n}\n',
    });
    const r = await init(repo);
    expect(r.err).toContain('init: detected go (go.mod)\n');
    const env = 'GOMODCACHE="$(pwd)/.judgeloop-deps/gomod" GOFLAGS="-mod=readonly -modcacherw"';
    expect(r.config.collector).toEqual({
      commands: { build: `${env} go build ./...`, test: `${env} go test ./...` },
      fetch_command: `${env} go mod download`,
    });
    // The fetch and the test as written, in a clean clone (what the sealed checkout is).
    const clone = join(tempDir('judgeloop-go-'), 'c');
    gitIn(repo, 'clone', '-q', repo, clone);
    const sh = (cmd: string) => spawnSync('sh', ['-c', cmd], { cwd: clone, encoding: 'utf8' });
    expect(sh(r.config.collector.fetch_command).status).toBe(0);
    const t = sh(r.config.collector.commands.test);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^ok\s+example\.com\/calc/m);
  });
});
