// The Go build cache on a real go module, real sandbox: written by the base's checks only, copied for each candidate;
// a candidate that rewrites, chmods and plants entries in its $GOCACHE changes nothing the next one or the base reads.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as collectRun } from '../../scripts/collect.js';
import { goCacheKey, openGoCache, wantsGoCache } from '../../lib/collector/go-cache.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { makeRepo, tempDir } from '../helpers/repo.js';
import { agentWorktree, makeIo, readJson, runRecord, writeRecord, type Project } from './_project.js';

// Keeps the toolchain's absence loud (no skipping): the install command is in the failure.
const GO = 'go';
try {
  execFileSync(GO, ['version'], { stdio: 'ignore' });
} catch {
  throw new Error('go is needed by this test: apt-get install -y golang-go');
}

describe('wantsGoCache and goCacheKey', () => {
  const base = { goMod: true, commands: ['go test ./...'], env: {}, program: '/usr/bin/go 1 2' };
  it('a Go project with go on PATH and no cache of the user gets one; anything else none', () => {
    expect(wantsGoCache(base)).toBe(true);
    expect(wantsGoCache({ ...base, goMod: false })).toBe(true);
    expect(wantsGoCache({ ...base, goMod: false, commands: ['cd svc && go vet ./...'] })).toBe(true);
    expect(wantsGoCache({ ...base, goMod: false, commands: ['npm test', 'cargo build'] })).toBe(false);
    expect(wantsGoCache({ ...base, program: undefined })).toBe(false);
    expect(wantsGoCache({ ...base, env: { GOCACHE: '/home/u/.cache/go-build' } })).toBe(false);
    expect(wantsGoCache({ ...base, commands: ['GOCACHE=/x go test ./...'] })).toBe(false);
  });
  it('the key follows the go program, GOROOT and the platform', () => {
    const k = goCacheKey('/usr/bin/go 1 2', undefined, 'linux-x64');
    expect(k).toMatch(/^[0-9a-f]{32}$/);
    expect(goCacheKey('/usr/bin/go 1 2', undefined, 'linux-x64')).toBe(k);
    const other = [
      goCacheKey('/usr/bin/go 1 3', undefined, 'linux-x64'),
      goCacheKey('/usr/bin/go 1 2', '/opt/go', 'linux-x64'),
      goCacheKey('/usr/bin/go 1 2', undefined, 'linux-arm64'),
    ];
    expect(new Set([k, ...other]).size).toBe(4);
  });
  it('a project that is not Go makes no folder and reads nothing', async () => {
    const dir = tempDir('judgeloop-nogo-');
    writeFileSync(join(dir, 'package.json'), '{}');
    const root = join(dir, 'kept');
    const r = await openGoCache({ root, keep: true }, dir, ['npm test'], { PATH: process.env.PATH });
    expect(r).toBeNull();
    expect(existsSync(root)).toBe(false);
  });
});

const CODE = 'package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n';
const FIXED = CODE.replace('a - b', 'a + b');
const TESTS = [
  'package calc',
  '',
  'import "testing"',
  '',
  'func TestAdd(t *testing.T) {',
  '\tif Add(2, 3) != 5 {',
  '\t\tt.Fatal("2+3")',
  '\t}',
  '}',
  '',
  'func TestZero(t *testing.T) {',
  '\tif Add(0, 0) != 0 {',
  '\t\tt.Fatal("0+0")',
  '\t}',
  '}',
  '',
].join('\n');

/** Go code that rewrites every output in $GOCACHE (`<hash>-d`, same size: go checks only that), chmods all, plants. */
const poison = (kept: string) => `package calc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func init() {
	dir := os.Getenv("GOCACHE")
	n := 0
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		os.Chmod(p, 0o777)
		if info.Mode().IsRegular() && strings.HasSuffix(p, "-d") {
			n++
			os.WriteFile(p, bytes.Repeat([]byte{'x'}, int(info.Size())), 0o666)
		}
		return nil
	})
	os.WriteFile(filepath.Join(dir, "planted"), []byte("x"), 0o666)
	os.WriteFile(${JSON.stringify(join(kept, 'planted'))}, []byte("x"), 0o666)
	fmt.Println("poisoned", n, "files")
}
`;

/** The same poisoning from here: what a shared cache would hold after the hostile candidate. */
function poisonTree(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    chmodSync(p, 0o777);
    if (e.isDirectory()) poisonTree(p);
    else if (e.isFile() && e.name.endsWith('-d')) writeFileSync(p, 'x'.repeat(lstatSync(p).size));
  }
}

/** Every file of a tree: its path, mode and content hash. */
function snapshot(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = join(rel, e.name);
    const mode = (lstatSync(join(dir, r)).mode & 0o7777).toString(8);
    if (e.isDirectory()) out.push(`${r}/ ${mode}`, ...snapshot(dir, r));
    else
      out.push(
        `${r} ${mode} ${createHash('sha256')
          .update(readFileSync(join(dir, r)))
          .digest('hex')}`,
      );
  }
  return out.sort();
}

describe('a go module collected with the kept Go build cache (real sandbox, real go)', () => {
  it('the base writes it; each candidate reads a private copy; a poisoning candidate changes nothing', async () => {
    const repo = makeRepo({ 'go.mod': 'module example.com/calc\n\ngo 1.19\n', 'calc.go': CODE, 'calc_test.go': TESTS });
    const dir = tempDir('judgeloop-gocache-');
    const p: Project = { repo, dir, state: join(dir, 'state') };
    const cfg = join(dir, 'judgeloop.json');
    const collector = { commands: { build: 'go build ./...', test: 'go test ./...' }, sandbox: 'required' };
    writeFileSync(cfg, JSON.stringify({ collector }));
    const collect = async (bead: string, wt: string) => {
      const rec = writeRecord(p, bead, runRecord({ bead, worktree: wt, commands: undefined }));
      const { io, err } = makeIo(p, { GOFLAGS: '-mod=mod', GOPROXY: 'off' });
      const code = await collectRun(['--config', cfg, rec], io);
      return { code, err: err.join(''), fb: readJson<Feedback>(join(p.state, 'feedback', `${bead}.json`)) };
    };
    const root = join(p.state, 'cache', 'go-build');

    const a = await collect('bd-a', agentWorktree(p, 'a', { commit: { 'calc.go': FIXED } }));
    expect(a.fb.outcome, a.err).toBe('full_pass');
    // The base's checks kept their cache (one per toolchain); the graded checkout had a copy, not the folder.
    const keys = readdirSync(root).filter((n) => !n.startsWith('.'));
    expect(keys).toHaveLength(1);
    const kept = join(root, keys[0]!);
    expect(readdirSync(kept)).toContain('README');
    const before = snapshot(kept);
    expect(before.length).toBeGreaterThan(50);

    // The hostile candidate: its code (run by the graded tests) and its own test (its own checkout) rewrite, chmod
    // and plant in $GOCACHE, and write to the kept folder's path (hidden from every check).
    const bad = await collect(
      'bd-p',
      agentWorktree(p, 'p', {
        commit: {
          'calc.go': FIXED,
          'poison.go': poison(kept),
          'own_test.go': 'package calc\n\nimport "testing"\n\nfunc TestOwn(t *testing.T) {}\n',
        },
      }),
    );
    expect(bad.fb.checks.test?.output?.text, bad.err).toMatch(/poisoned [1-9]\d* files/);
    expect(bad.fb.own_tests?.check?.output?.text).toMatch(/poisoned [1-9]\d* files/);
    expect(snapshot(kept)).toEqual(before);
    expect(existsSync(join(kept, 'planted'))).toBe(false);

    // The next candidate reads the clean cache: its graded tests and its own three run its real code.
    const own = TESTS.replaceAll('TestAdd', 'TestOwnAdd').replaceAll('TestZero', 'TestOwnZero');
    const b = await collect(
      'bd-b',
      agentWorktree(p, 'b', {
        commit: {
          'calc.go': FIXED,
          'own_test.go': `${own}\nfunc TestOwnThree(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n`,
        },
      }),
    );
    expect(b.fb.outcome, b.err).toBe('full_pass');
    expect(b.fb.checks.test?.tests).toMatchObject({ passed: 2, failed: 0 });
    expect(b.fb.own_tests?.check?.tests).toMatchObject({ passed: 5, failed: 0 });
    expect(snapshot(kept)).toEqual(before);

    // The control: the same poisoning in a cache that B's `go test` did read breaks B (a shared cache would be
    // poisoned). Outside the sandbox, on a copy.
    const shared = join(tempDir('judgeloop-gocache-shared-'), 'go-build');
    cpSync(kept, shared, { recursive: true });
    poisonTree(shared);
    const env = { ...process.env, GOCACHE: shared, GOFLAGS: '-mod=mod', GOPROXY: 'off' };
    const r = spawnSync(GO, ['test', './...'], { cwd: join(dir, 'wt-b'), env, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).not.toBe(0);
  }, 300_000);
});
