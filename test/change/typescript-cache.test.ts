// The TypeScript compiler's V8 code cache (lib/change/typescript.ts) in real node processes loading the built module
// (needs `npm run build`): written at exit, read next time, rejected data rewritten, any failure a plain require.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { codeCacheName } from '../../lib/change/typescript.js';
import { tempDir } from '../helpers/temp.js';

const MODULE = join(import.meta.dirname, '..', '..', 'dist', 'lib', 'change', 'typescript.js');
const TS_VERSION = (createRequire(import.meta.url)('typescript/package.json') as { version: string }).version;

/** One process that loads the compiler with `dir` as its cache and parses a line: how it was loaded. */
function load(dir: string): string {
  const code = [
    `import { keepCompiledIn, ts, compilerLoadedFrom } from ${JSON.stringify(MODULE)};`,
    `keepCompiledIn(${JSON.stringify(dir)});`,
    "const f = ts.createSourceFile('a.ts', 'export const x: number = 1;', ts.ScriptTarget.Latest);",
    'console.log(`${compilerLoadedFrom()} ${f.statements.length}`);',
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
    const dir = join(tempDir('judgeloop-v8-'), 'cache', 'v8');
    expect(load(dir)).toBe('source 1');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1); // no temp file left beside it
    expect(files[0]).toMatch(
      new RegExp(`^${process.version}-${process.arch}-typescript-${TS_VERSION}-[0-9a-f]{32}\\.bin$`),
    );
    const file = join(dir, files[0]!);
    const written = statSync(file).mtimeMs;
    expect(load(dir)).toBe('code cache 1');
    expect(statSync(file).mtimeMs).toBe(written);
    // Bytes V8 does not take (another V8, flags, a broken write): compiled again and the cache replaced.
    writeFileSync(file, Buffer.alloc(4096, 7));
    expect(load(dir)).toBe('source 1');
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(load(dir)).toBe('code cache 1');
  }, 60_000);

  it('works without it when the folder cannot be written (a file where the folder should be)', () => {
    const root = tempDir('judgeloop-v8-');
    const blocked = join(root, 'cache');
    writeFileSync(blocked, 'not a folder');
    expect(load(join(blocked, 'v8'))).toBe('source 1');
    expect(load(join(blocked, 'v8'))).toBe('source 1');
    expect(readdirSync(root)).toEqual(['cache']);
  }, 60_000);
});
