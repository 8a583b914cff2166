// planSetup: the npm setup parts that would do nothing are not started; checked against npm's own lock files and
// what a real `npm rebuild` does in the same trees.
import { execFileSync, spawnSync } from 'node:child_process';
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

describe('planSetup: pip', () => {
  const VENV =
    'python3 -m venv --system-site-packages --without-pip .venv && { .venv/bin/python -I -c "import pip" 2>/dev/null || .venv/bin/python -I -m ensurepip; }';
  const PIP =
    '.venv/bin/python -I -m pip install -q --no-index --find-links .judgeloop-deps/wheels -r requirements.txt';
  const reqs = (text: string) => files({ requirements: { 'requirements.txt': text } });

  it("skips `pip install -r` of a file with only blanks and comments, keeps the rest of init's chain as written", () => {
    expect(planSetup(`${VENV} && ${PIP}`, reqs('# none\n\n  # still none\n'))).toEqual({
      run: VENV,
      skipped: [{ part: PIP, why: 'requirements.txt names no requirement' }],
    });
    const editable = '.venv/bin/python -I -m pip install -q --no-deps -e .';
    expect(planSetup(`${VENV} && ${PIP} && ${editable}`, reqs('')).run).toBe(`${VENV} && ${editable}`);
  });

  it('keeps it for a requirement, an option or include line, another file, other flags, or after a cd or a variable', () => {
    for (const text of ['tinydep==1.0\n', '# x\n-r other.txt\n', '-e .\n', '--index-url x\n', 'a \\\n'])
      expect(planSetup(PIP, reqs(text)).run, text).toBe(PIP);
    expect(planSetup(PIP, files()).run).toBe(PIP);
    for (const c of [
      PIP.replace('requirements.txt', 'other.txt'),
      PIP.replace('-q', '--upgrade pip'),
      `${PIP} tinydep`,
      `cd sub && ${PIP}`,
      `export PIP_REQUIREMENT=x && ${PIP}`,
      `X=1 && ${PIP}`,
      `{ cd sub; } && ${PIP}`,
      `${PIP}; true`,
      `echo "a && b" && ${PIP} | cat`,
      `true \\\n && ${PIP}`,
    ])
      expect(planSetup(c, reqs('')).run, c).toBe(c);
  });

  it('splits only at the top level: quotes, braces and parentheses hold their own &&', () => {
    const group = '{ a && b; }';
    expect(planSetup(`${group} && ${PIP} && echo "c && d"`, reqs('')).run).toBe(`${group} && echo "c && d"`);
    expect(planSetup(`( ${PIP} ) && true`, reqs('')).run).toBe(`( ${PIP} ) && true`);
    for (const c of [`{ a && ${PIP}`, `echo "x && ${PIP}`, `} && ${PIP}`]) expect(planSetup(c, reqs('')).run).toBe(c);
  });
});

describe('planSetup against real pip', () => {
  it('the skipped part installs nothing and exits 0 when run (a file with only comments)', () => {
    const dir = tempDir('judgeloop-pip-');
    writeTree(dir, { 'requirements.txt': '# nothing\n' });
    const f = setupFiles(dir);
    const part = 'python3 -m pip install -q --no-index --find-links wheels -r requirements.txt';
    expect(planSetup(part, f).run).toBeNull();
    // Run as configured but without -q, to see what pip does: it exits 0 and collects nothing.
    const args = part
      .split(' ')
      .slice(1)
      .filter((a) => a !== '-q');
    const r = spawnSync('python3', args, { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Looking in links: /);
    expect(r.stdout + r.stderr).not.toMatch(/Collecting|Installing|Successfully|ERROR/);
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
