// The dependency cache on a real npm project whose lock resolves to a local tarball: one fetch per lockfile for the
// base, the graded and own-tests checkouts of every candidate; a candidate that writes into it poisons nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as collectRun } from '../../scripts/collect.js';
import { depCacheKey, npmManifestPart, type KeyMaterial } from '../../lib/collector/dep-cache.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';
import { agentWorktree, makeIo, readJson, runRecord, writeRecord, type Project } from './_project.js';

describe('depCacheKey', () => {
  const m: KeyMaterial = {
    files: { 'package-lock.json': '{"lockfileVersion":3}', 'package.json': npmManifestPart('{"dependencies":{}}') },
    fetch: 'npm ci --ignore-scripts',
    toolchain: { node: '/usr/bin/node 1 2' },
    platform: 'linux-x64',
  };
  it('is the same for the same material in any order, and differs when any part differs', () => {
    const k = depCacheKey(m);
    expect(k).toMatch(/^[0-9a-f]{32}$/);
    expect(depCacheKey({ ...m, files: Object.fromEntries(Object.entries(m.files).reverse()) })).toBe(k);
    const changed = [
      { ...m, files: { ...m.files, 'package-lock.json': '{"lockfileVersion":2}' } },
      { ...m, fetch: 'npm ci' },
      { ...m, toolchain: { node: '/usr/bin/node 1 3' } },
      { ...m, platform: 'linux-arm64' },
    ].map(depCacheKey);
    expect(new Set([k, ...changed]).size).toBe(5);
  });
  it('package.json counts by its dependency fields, not its scripts (they never run in the fetch)', () => {
    const pkg = { name: 'p', dependencies: { a: '1' }, scripts: { test: 'x' } };
    const part = npmManifestPart(JSON.stringify(pkg));
    expect(npmManifestPart(JSON.stringify({ ...pkg, scripts: { prepare: 'curl evil' } }))).toBe(part);
    expect(npmManifestPart(JSON.stringify({ ...pkg, dependencies: { a: '2' } }))).not.toBe(part);
    expect(npmManifestPart('not json')).toBe('not json');
  });
});

/**
 * tiny-dep: `double`, a tarball the repository vendors (packed as npm packs: one `package/` folder), and the lock
 * that resolves it there (written as npm writes it, without the integrity, as test/e2e/_npm.ts does).
 */
function npmProject(): Project {
  const dir = tempDir('judgeloop-depcache-');
  writeTree(join(dir, 'dep', 'package'), {
    'package.json': JSON.stringify({ name: 'tiny-dep', version: '1.0.0' }),
    'index.js': 'exports.double = (x) => 2 * x;\n',
  });
  const tarball = 'file:vendor/tiny-dep-1.0.0.tgz';
  const pkg = { name: 'proj', version: '1.0.0', private: true, dependencies: { 'tiny-dep': tarball } };
  const repo = makeRepo({
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify({ ...pkg, scripts: { test: 'node --test test/' } }),
    'package-lock.json': JSON.stringify(
      {
        ...pkg,
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'proj', version: '1.0.0', dependencies: pkg.dependencies },
          'node_modules/tiny-dep': { version: '1.0.0', resolved: tarball },
        },
      },
      null,
      2,
    ),
    'src/add.js': 'exports.add = (a, b) => a - b;\n',
    'test/add.test.js': [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const { double } = require('tiny-dep');",
      "const { add } = require('../src/add.js');",
      "test('adds', () => assert.strictEqual(add(1, 2), 3));",
      "test('doubles', () => assert.strictEqual(double(add(1, 1)), 4));",
      '',
    ].join('\n'),
  });
  mkdirSync(join(repo, 'vendor'));
  execFileSync('tar', ['-czf', join(repo, 'vendor', 'tiny-dep-1.0.0.tgz'), '-C', join(dir, 'dep'), 'package']);
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'vendored dependency');
  return { repo, dir, state: join(dir, 'state') };
}

describe('an npm project collected with the dependency cache', () => {
  it('fetches once per lockfile; a candidate writing into its install and into the cache poisons nothing', async () => {
    const p = npmProject();
    // Each fetch that runs appends a line to a file outside the checkout: the installs, counted.
    const counter = tempDir('judgeloop-installs-');
    // The tests run by `node --test` (what `npm test` runs, without npm's own start: 9 runs): the fetch is the subject.
    const collector = {
      commands: { test: 'node --test test/' },
      fetch_command: `npm ci --ignore-scripts --no-audit --no-fund && echo fetched >> ${counter}/installs`,
      setup_command: 'npm rebuild --foreground-scripts',
      sandbox: 'required',
      sandbox_writable: [counter],
    };
    const cfg = join(p.dir, 'judgeloop.json');
    writeFileSync(cfg, JSON.stringify({ collector }));
    const installs = () =>
      existsSync(join(counter, 'installs'))
        ? readFileSync(join(counter, 'installs'), 'utf8').split('\n').length - 1
        : 0;
    const collect = async (bead: string, wt: string) => {
      const rec = writeRecord(p, bead, runRecord({ bead, worktree: wt, commands: undefined }));
      const { io, err } = makeIo(p);
      // As on a terminal: the steps' durations are printed.
      const code = await collectRun(['--config', cfg, rec], { ...io, tty: true });
      return { code, err: err.join(''), fb: readJson<Feedback>(join(p.state, 'feedback', `${bead}.json`)) };
    };
    const fix = { 'src/add.js': 'exports.add = (a, b) => a + b;\n' };
    const deps = join(p.state, 'cache', 'deps');

    const a = await collect('bd-a', agentWorktree(p, 'a', { commit: fix }));
    expect(a.fb.outcome, a.err).toBe('full_pass');
    // The base fetched (and kept what it created); the graded checkout copied it.
    expect(installs()).toBe(1);
    expect(a.err).toMatch(/bd-a graded: fetch: from the dependency cache \([0-9a-f]{12}: node_modules\)/);
    const [key] = readdirSync(deps).filter((n) => !n.startsWith('.'));
    // The graded checkout's fetch and setup are in the record, with every step's duration (printed on a terminal).
    expect(a.fb.setup?.fetch?.cache).toEqual({ key, hit: true, dirs: ['node_modules'] });
    expect(a.fb.setup).toMatchObject({ command: 'npm rebuild --foreground-scripts', result: { status: 'passed' } });
    const st = a.fb.steps!;
    expect(st).toMatchObject({ baseline_cached: false, fetch_ms: a.fb.setup?.fetch?.result.duration_ms });
    expect(st.setup_ms).toBe(a.fb.setup?.result.duration_ms);
    expect(st.checks_ms).toBe(a.fb.checks.test?.duration_ms);
    const parts = st.inputs_ms! + st.seal_ms! + st.baseline_ms! + st.graded_ms! + (st.own_tests_ms ?? 0) + st.rest_ms!;
    expect(parts).toBeLessThanOrEqual(st.total_ms + 5);
    expect(st.graded_ms).toBeGreaterThanOrEqual(st.fetch_ms! + st.setup_ms! + st.checks_ms!);
    const secs = (ms: number | undefined) => (ms! / 1000).toFixed(2);
    expect(a.err).toContain(
      `collect: bd-a: ${secs(st.total_ms)} s: inputs ${secs(st.inputs_ms)} · seal ${secs(st.seal_ms)} · baseline ${secs(st.baseline_ms)} (computed) · fetch ${secs(st.fetch_ms)} · setup ${secs(st.setup_ms)} · checks ${secs(st.checks_ms)} · rest ${secs(st.rest_ms)}\n`,
    );
    const kept = join(deps, key!, 'tree', 'node_modules', 'tiny-dep', 'index.js');
    const clean = readFileSync(kept, 'utf8');

    // A hostile candidate: its own test (run in the own-tests checkout) and its code (run by the graded tests)
    // rewrite the installed dependency, and try the cache folder itself.
    const poison = [
      "const fs = require('node:fs');",
      "fs.writeFileSync(require.resolve('tiny-dep'), 'exports.double = () => 0;\\n');",
      `try { fs.writeFileSync(${JSON.stringify(kept)}, 'exports.double = () => 0;\\n'); } catch {}`,
      `try { fs.mkdirSync(${JSON.stringify(join(deps, 'planted'))}, { recursive: true }); } catch {}`,
    ].join('\n');
    const b = await collect(
      'bd-b',
      agentWorktree(p, 'b', {
        commit: {
          'src/add.js': `${poison}\nexports.add = (a, b) => a + b;\n`,
          'test/own.test.js': `${poison}\nrequire('node:test')('own', () => {});\n`,
        },
      }),
    );
    expect(b.fb.own_tests?.check?.status, b.err).toBe('passed');
    expect(installs()).toBe(1);
    expect(readFileSync(kept, 'utf8')).toBe(clean);
    expect(existsSync(join(deps, 'planted'))).toBe(false);

    // The next candidate sees the clean tree: its tests pass with the real dependency.
    const c = await collect('bd-c', agentWorktree(p, 'c', { commit: fix }));
    expect(c.fb.outcome, c.err).toBe('full_pass');
    expect(c.fb.checks.test?.tests).toMatchObject({ passed: 2, failed: 0 });
    expect(c.fb.steps?.baseline_cached).toBe(true);
    expect(c.err).toMatch(/collect: bd-c: [\d.]+ s: .*baseline [\d.]+ \(cached\) · fetch [\d.]+ · setup/);
    expect(installs()).toBe(1);

    // A hostile candidate commits the folder the cache holds (node_modules, with a planted dependency that makes
    // `doubles` pass on the unfixed code): a real `npm ci` replaces it, so a cache hit must not copy beside it.
    const planted = agentWorktree(p, 'e', {
      commit: {
        'test/own.test.js':
          "require('node:test')('planted', () => require('node:assert').strictEqual(require('tiny-dep').double(0), 4));\n",
      },
    });
    writeTree(planted, { 'node_modules/tiny-dep/index.js': 'exports.double = () => 4;\n' });
    gitIn(planted, 'add', '-f', 'node_modules');
    gitIn(planted, 'commit', '-q', '-m', 'planted install');
    const e = await collect('bd-e', planted);
    expect(e.fb.checks.test?.tests, e.err).toMatchObject({ passed: 0, failed: 2 });
    // Its own tests run in a checkout of its tree, committed folder included: the fetch runs there as without the
    // cache (one more install), never a copy beside the committed folder.
    expect(e.fb.own_tests?.check?.status, e.err).toBe('failed');
    expect(installs()).toBe(2);

    // A candidate whose lockfile differs fetches, and gets its own entry.
    const lock = JSON.parse(readFileSync(join(p.repo, 'package-lock.json'), 'utf8'));
    lock.version = '1.0.1';
    lock.packages[''].version = '1.0.1';
    const pkg = JSON.parse(readFileSync(join(p.repo, 'package.json'), 'utf8'));
    const d = await collect(
      'bd-d',
      agentWorktree(p, 'd', {
        commit: {
          ...fix,
          'package.json': JSON.stringify({ ...pkg, version: '1.0.1' }),
          'package-lock.json': JSON.stringify(lock, null, 2),
        },
      }),
    );
    expect(d.fb.outcome, d.err).toBe('full_pass');
    expect(installs()).toBe(3);
    expect(readdirSync(deps).filter((n) => !n.startsWith('.')).length).toBe(2);
  }, 300_000);
});
