// The TypeScript compiler's V8 code cache (lib/change/typescript.ts) in real node processes loading the built module
// (needs `npm run build`): the build's sealed one (dist/v8/) first, else the state's, written at exit when missing or rejected.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { codeCacheName } from '../../lib/change/typescript.js';
import { tempDir } from '../helpers/temp.js';

const MODULE = join(import.meta.dirname, '..', '..', 'dist', 'lib', 'change', 'typescript.js');
const TS_VERSION = (createRequire(import.meta.url)('typescript/package.json') as { version: string }).version;

const BUILT = join(import.meta.dirname, '..', '..', 'dist', 'v8');

/** One process that loads the compiler with `state` as the state folder and parses a line: what the parse found. */
function load(state: string, built = tempDir('judgeloop-v8-none-')): string {
  const code = [
    `import { keepCompiledIn, ts } from ${JSON.stringify(MODULE)};`,
    `keepCompiledIn(${JSON.stringify(state)}, ${JSON.stringify(built)});`,
    "const f = ts.createSourceFile('a.ts', 'export const x: number = 1;', ts.ScriptTarget.Latest);",
    'console.log(`${ts.version} ${f.statements.length}`);',
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('codeCacheName', () => {
  it('names node, the architecture, the compiler version and the source hash', () => {
    const sha = 'ab'.repeat(32);
    expect(codeCacheName('v20.20.2', 'x64', '5.9.3', sha)).toBe(`v20.20.2-x64-typescript-5.9.3-${'ab'.repeat(16)}.bin`);
    expect(codeCacheName('v22.1.0', 'x64', '5.9.3', sha)).not.toBe(codeCacheName('v20.20.2', 'x64', '5.9.3', sha));
    expect(codeCacheName('v20.20.2', 'x64', '5.9.3', 'cd'.repeat(32))).not.toBe(
      codeCacheName('v20.20.2', 'x64', '5.9.3', sha),
    );
  });
});

describe("the build's cache (dist/v8/, sealed)", () => {
  it('is taken as it is: nothing written in the state folder; a copy whose seal does not match is not', () => {
    const built = readdirSync(BUILT);
    expect(built).toHaveLength(1);
    expect(built[0]).toMatch(
      new RegExp(`^${process.version}-${process.arch}-typescript-${TS_VERSION}-[0-9a-f]{32}\\.bin$`),
    );
    const state = tempDir('judgeloop-v8-');
    expect(load(state, BUILT)).toBe(`${TS_VERSION} 1`);
    expect(existsSync(join(state, 'cache'))).toBe(false);
    // One byte of V8's data changed (the seal is the first 32 bytes): never given to V8; the state's cache is made.
    const damaged = tempDir('judgeloop-v8-built-');
    cpSync(join(BUILT, built[0]!), join(damaged, built[0]!));
    const bytes = readFileSync(join(damaged, built[0]!));
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(join(damaged, built[0]!), bytes);
    expect(load(state, damaged)).toBe(`${TS_VERSION} 1`);
    expect(readdirSync(join(state, 'cache', 'v8'))).toEqual([built[0]]);
  }, 60_000);
});

describe('the compiler loaded with a code cache folder', () => {
  it('compiles from source and writes the cache once, then loads from it; data V8 rejects is written again', () => {
    const state = tempDir('judgeloop-v8-');
    const dir = join(state, 'cache', 'v8');
    const parsed = `${TS_VERSION} 1`;
    expect(load(state)).toBe(parsed);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1); // no temp file left beside it
    expect(files[0]).toMatch(
      new RegExp(`^${process.version}-${process.arch}-typescript-${TS_VERSION}-[0-9a-f]{32}\\.bin$`),
    );
    const file = join(dir, files[0]!);
    // Each write is a new file renamed into place: the same inode means V8 took the cache and nothing was written.
    const first = statSync(file).ino;
    expect(load(state)).toBe(parsed);
    expect(statSync(file).ino).toBe(first);
    // Bytes V8 does not take (another V8, other flags, a broken write): compiled again and the cache replaced.
    const junk = Buffer.alloc(4096, 7);
    writeFileSync(file, junk);
    const junked = statSync(file).ino;
    expect(load(state)).toBe(parsed);
    expect(readFileSync(file).equals(junk)).toBe(false);
    const rewritten = statSync(file).ino;
    expect(rewritten).not.toBe(junked);
    expect(load(state)).toBe(parsed);
    expect(statSync(file).ino).toBe(rewritten);
    expect(readdirSync(dir)).toHaveLength(1);
  }, 60_000);

  it('works without it when the folder cannot be written (a file where the folder should be)', () => {
    const root = tempDir('judgeloop-v8-');
    writeFileSync(join(root, 'cache'), 'not a folder');
    expect(load(root)).toBe(`${TS_VERSION} 1`);
    expect(readdirSync(root)).toEqual(['cache']);
    expect(readFileSync(join(root, 'cache'), 'utf8')).toBe('not a folder');
  }, 60_000);

  it('never makes the state folder itself (one removed before the exit stays removed)', () => {
    const gone = join(tempDir('judgeloop-v8-'), 'state');
    expect(load(gone)).toBe(`${TS_VERSION} 1`);
    expect(existsSync(gone)).toBe(false);
  }, 60_000);
});
