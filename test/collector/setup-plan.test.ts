// planSetup: the npm setup parts that would do nothing are not started; checked against npm's own lock files and
// what a real `npm rebuild` does in the same trees.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSetup, setupFiles, type SetupFiles } from '../../lib/collector/setup-plan.js';
import { tempDir, writeTree } from '../helpers/repo.js';

const SETUP = 'npm rebuild --foreground-scripts && npm run postinstall --if-present && npm run prepare --if-present';
const lock = (packages: Record<string, object>, v = 3) =>
  JSON.stringify({ lockfileVersion: v, packages: { '': { name: 'p' }, ...packages } });
const files = (over: Partial<SetupFiles> = {}): SetupFiles => ({
  lock: lock({ 'node_modules/a': { version: '1.0.0' } }),
  packageJson: JSON.stringify({ name: 'p', scripts: { test: 'node --test' } }),
  bindingGyp: false,
  installed: { 'node_modules/a': { bindingGyp: false, scripts: ['test'] } },
  ...over,
});

describe('planSetup', () => {
  it('starts nothing when no package has an install script and the scripts named are absent', () => {
    const p = planSetup(SETUP, files());
    expect(p.run).toBeNull();
    expect(p.skipped.map((s) => s.part)).toEqual(SETUP.split(' && '));
    expect(p.skipped[2]!.why).toBe('package.json has no prepare script');
  });
  it('keeps the rebuild for an install script in the lock, a link, the root scripts, a binding.gyp, a v1 lock', () => {
    const keeps = [
      files({ lock: lock({ 'node_modules/a': { hasInstallScript: true } }) }),
      files({ lock: lock({ 'packages/w': { version: '1.0.0' }, 'node_modules/w': { link: true } }) }),
      files({ packageJson: JSON.stringify({ scripts: { install: 'node-gyp rebuild' } }) }),
      files({ packageJson: JSON.stringify({ scripts: { preinstall: 'x' } }) }),
      files({ bindingGyp: true }),
      files({ installed: { 'node_modules/a': { bindingGyp: true, scripts: [] } } }),
      files({ installed: { 'node_modules/a': { bindingGyp: false, scripts: ['postinstall'] } } }),
      files({ installed: { 'node_modules/a': { bindingGyp: false, scripts: null } } }),
      files({ lock: lock({}, 1) }),
      files({ lock: null }),
      files({ lock: '{not json' }),
      files({ packageJson: null }),
    ];
    for (const f of keeps) expect(planSetup('npm rebuild', f)).toEqual({ run: 'npm rebuild', skipped: [] });
  });
  it('keeps `npm run X --if-present` when X, preX or postX exists, and runs only what may do something', () => {
    for (const name of ['prepare', 'preprepare', 'postprepare']) {
      const f = files({ packageJson: JSON.stringify({ scripts: { [name]: 'tsc' } }) });
      expect(planSetup('npm run prepare --if-present', f).run).toBe('npm run prepare --if-present');
    }
    const f = files({ packageJson: JSON.stringify({ scripts: { prepare: 'tsc' } }) });
    const p = planSetup(SETUP, f);
    // The root's prepare also makes the rebuild keep (npm runs the root's build scripts there).
    expect(p.run).toBe('npm rebuild --foreground-scripts && npm run prepare --if-present');
    expect(p.skipped.map((s) => s.part)).toEqual(['npm run postinstall --if-present']);
    expect(planSetup('npm run --if-present postinstall', files()).run).toBeNull();
  });
  it('runs anything else as configured: other commands, other shell syntax, flags it does not know', () => {
    for (const c of [
      'npm ci',
      'npm rebuild; curl x',
      'npm rebuild || true',
      'npm rebuild --ignore-scripts=false',
      'npm run prepare',
      'npm run "$X" --if-present',
      'FOO=1 npm rebuild',
      'pnpm rebuild',
    ])
      expect(planSetup(c, files()).run).toBe(c);
    expect(planSetup('npm rebuild && make', files())).toMatchObject({
      run: 'make',
      skipped: [{ part: 'npm rebuild' }],
    });
  });
});

/** A package packed to a tarball in `dir` (tar, as npm packs: a `package/` folder); its file name. */
function pack(dir: string, name: string, extra: Record<string, string>, scripts?: Record<string, string>): string {
  const src = join(dir, `${name}-src`);
  writeTree(join(src, 'package'), { 'package.json': JSON.stringify({ name, version: '1.0.0', scripts }), ...extra });
  execFileSync('tar', ['-czf', join(dir, `${name}-1.0.0.tgz`), '-C', src, 'package'], { stdio: 'pipe' });
  return `${name}-1.0.0.tgz`;
}

/** An npm project depending on the given tarballs, locked and installed by npm with scripts off. */
function project(dir: string, name: string, tarballs: string[]): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'vendor'), { recursive: true });
  for (const t of tarballs) copyFileSync(join(dir, t), join(root, 'vendor', t));
  const deps = Object.fromEntries(tarballs.map((t) => [t.replace(/-1\.0\.0\.tgz$/, ''), `file:vendor/${t}`]));
  writeTree(root, { 'package.json': JSON.stringify({ name, version: '1.0.0', private: true, dependencies: deps }) });
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, stdio: 'pipe' });
  return root;
}

/** Every path under node_modules with its mtime: what a rebuild would change. */
function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out.push(`${relative(root, p)} ${statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 'link'}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(join(root, 'node_modules'));
  return out.sort();
}

describe('planSetup against real npm', () => {
  it('skips the rebuild exactly where `npm rebuild` builds nothing, keeps it where a package has an install script', () => {
    const dir = tempDir('judgeloop-setup-plan-');
    const plain = pack(dir, 'plain-dep', { 'cli.js': '#!/usr/bin/env node\n' });
    const built = pack(dir, 'built-dep', {}, { install: "node -e \"require('fs').writeFileSync('built.txt', '1')\"" });
    const gyp = pack(dir, 'gyp-dep', { 'binding.gyp': '{"targets": []}\n' });

    const idle = project(dir, 'idle', [plain]);
    expect(planSetup('npm rebuild --foreground-scripts', setupFiles(idle)).run).toBeNull();
    const before = listing(idle);
    execFileSync('npm', ['rebuild', '--foreground-scripts'], { cwd: idle, stdio: 'pipe' });
    expect(listing(idle)).toEqual(before);

    const busy = project(dir, 'busy', [plain, built]);
    expect(planSetup('npm rebuild --foreground-scripts', setupFiles(busy)).run).toBe(
      'npm rebuild --foreground-scripts',
    );
    execFileSync('npm', ['rebuild', '--foreground-scripts'], { cwd: busy, stdio: 'pipe' });
    expect(listing(busy)).toContainEqual(expect.stringMatching(/^node_modules\/built-dep\/built\.txt /));

    // A package with a binding.gyp: its lock entry may not say so, but npm rebuild runs node-gyp there.
    const native = project(dir, 'native', [gyp]);
    expect(planSetup('npm rebuild', setupFiles(native)).run).toBe('npm rebuild');
  });
});
