// The TypeScript compiler's V8 code cache (lib/change/typescript.ts) in real node processes loading the built module
// (needs `npm run build`): written at exit when missing or rejected (a new file: temp + rename), else left as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { codeCacheName } from '../../lib/change/typescript.js';
import { tempDir } from '../helpers/temp.js';

const MODULE = join(import.meta.dirname, '..', '..', 'dist', 'lib', 'change', 'typescript.js');
const TS_VERSION = (createRequire(import.meta.url)('typescript/package.json') as { version: string }).version;

/** One process that loads the compiler with `state` as the state folder and parses a line: what the parse found. */
function load(state: string): string {
  const code = [
    `import { keepCompiledIn, ts } from ${JSON.stringify(MODULE)};`,
    `keepCompiledIn(${JSON.stringify(state)});`,
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
