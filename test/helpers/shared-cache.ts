// Caches shared by the suite's test files (test/global-setup.ts makes their folder and removes it after the run): each
// is built once, by the first file that asks, under a lock; files only read it or take a copy, so none changes it for another.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

const WAIT = new Int32Array(new SharedArrayBuffer(4));
const GO = 'go';

/** The run's cache folder (TEST_RUN_CACHE, set by test/global-setup.ts). */
function cacheRoot(): string {
  const root = process.env.TEST_RUN_CACHE;
  if (!root)
    throw new Error('TEST_RUN_CACHE is not set (test/global-setup.ts sets it; run vitest with vitest.config.ts)');
  return root;
}

/**
 * The folder `name` in the run's cache, made by `build(dir)` the first time any file asks (the others wait for it):
 * built in a scratch folder and renamed into place, so a reader never sees half of it. Treat it as read-only.
 */
function sharedCache(name: string, build: (dir: string) => void, timeoutMs = 300_000): string {
  const dir = join(cacheRoot(), name);
  const lock = `${dir}.lock`;
  for (const started = Date.now(); !existsSync(dir); Atomics.wait(WAIT, 0, 0, 100)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another file builds it: wait, unless its builder died (a lock older than the timeout).
      if (Date.now() - started > timeoutMs || Date.now() - statSync(lock).mtimeMs > timeoutMs)
        throw new Error(`the shared test cache ${dir} was not built within ${timeoutMs} ms (lock ${lock})`);
      continue;
    }
    const scratch = `${dir}.building`;
    try {
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch);
      build(scratch);
      renameSync(scratch, dir);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

/** A module importing what the suite's Go projects import (fmt, strconv, strings, errors, testing). */
const WARM_GO = {
  'go.mod': 'module example.com/warm\n\ngo 1.19\n',
  'warm.go':
    'package warm\n\nimport (\n\t"errors"\n\t"fmt"\n\t"strconv"\n\t"strings"\n)\n\n// Parse is here to be compiled.\nfunc Parse(s string) (int, error) {\n\tif strings.TrimSpace(s) == "" {\n\t\treturn 0, errors.New("empty")\n\t}\n\tn, err := strconv.Atoi(s)\n\treturn n, fmt.Errorf("%w", err)\n}\n',
  'warm_test.go':
    'package warm\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif _, err := Parse(""); err == nil {\n\t\tt.Fatal("empty")\n\t}\n}\n',
};

/**
 * A Go build cache (GOCACHE) of the caller's own, writable, in a tempDir: a copy of one the run warmed once with
 * `go build` and `go test -json` of a small module (a cold cache costs a `go test` ~6 s of CPU).
 */
export function goBuildCache(): string {
  try {
    execFileSync(GO, ['version'], { stdio: 'ignore' });
  } catch {
    throw new Error('go is needed by this test: apt-get install -y golang-go');
  }
  const warm = sharedCache('gocache', (dir) => {
    const mod = join(dir, 'module');
    mkdirSync(mod);
    for (const [f, text] of Object.entries(WARM_GO)) writeFileSync(join(mod, f), text);
    const env = { ...process.env, GOCACHE: join(dir, 'gocache'), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
    for (const args of [
      ['build', './...'],
      ['vet', './...'],
      ['test', '-json', './...'],
    ])
      execFileSync(GO, args, { cwd: mod, env, stdio: 'ignore' });
    rmSync(mod, { recursive: true });
  });
  const mine = join(tempDir('judgeloop-gocache-'), 'gocache');
  cpSync(join(warm, 'gocache'), mine, { recursive: true });
  if (!readdirSync(mine).length) throw new Error(`the shared Go build cache ${warm} is empty`);
  return mine;
}
