// The TypeScript compiler (9 MB), loaded on first use (never by `bin/race --help`) with the build's V8 code cache
// (dist/v8/), else one kept in the state folder (docs/design/race.md, "What a race costs"): ~0.25 s less per load.
import { createHash, randomBytes } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Script } from 'node:vm';
import type TS from 'typescript';
import { projectRoot } from '../base/paths.js';
import { compileCommonJs, runCommonJs, sealedCacheData, tellWarmUp } from '../schema/code-cache.js';

let mod: typeof TS | undefined;
let cacheDir: string | null = null;
let builtDir: string | undefined;

/**
 * Keep the compiler's compiled code in `<state>/cache/v8/` (a folder no check sees: docs/design/threat-model.md) when
 * the build's cache (`built`, read-only: dist/v8/ unless a test names another) is missing or not taken.
 */
export function keepCompiledIn(stateRoot: string, built?: string): void {
  cacheDir = join(stateRoot, 'cache', 'v8');
  builtDir = built;
}

const load = (): typeof TS => {
  if (mod) return mod;
  const file = createRequire(import.meta.url).resolve('typescript');
  try {
    mod = loadCached(file, builtDir ?? join(projectRoot(), 'dist', 'v8'), cacheDir);
  } catch {
    // Any failure of the cache (unreadable source, a folder we cannot write): the plain require below.
  }
  mod ??= createRequire(import.meta.url)(file) as typeof TS;
  return mod;
};

/** The cache file of one compiler source under one node (pure): V8 trusts cached code, so the key is the source's hash. */
export function codeCacheName(nodeVersion: string, arch: string, tsVersion: string, sourceSha: string): string {
  return `${nodeVersion}-${arch}-typescript-${tsVersion}-${sourceSha.slice(0, 32)}.bin`;
}

/**
 * typescript.js compiled as CommonJS does (the module wrapper), with the build's sealed cache from `built`, else the
 * one in `dir`; with neither taken (another V8, other flags), `dir`'s is written at exit with every function compiled.
 */
function loadCached(file: string, built: string, dir: string | null): typeof TS {
  const bytes = readFileSync(file);
  // ASCII (typescript.js is): a one-byte string without UTF-8 decoding.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const { version } = JSON.parse(readFileSync(join(dirname(file), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const name = codeCacheName(process.version, process.arch, String(version), sha);
  const read = (at: string): Buffer | undefined => {
    try {
      return readFileSync(at);
    } catch {
      return undefined;
    }
  };
  const cacheFile = join(built, name);
  let cachedData = sealedCacheData(bytes, read(cacheFile));
  let script = cachedData ? compileCommonJs(file, source, cachedData) : undefined;
  const at = dir ? join(dir, name) : undefined;
  if (!script || script.cachedDataRejected) {
    cachedData = at ? read(at) : undefined;
    script = compileCommonJs(file, source, cachedData);
    if (at && (!cachedData || script.cachedDataRejected))
      process.once('exit', () => writeCache(at, () => (script as Script).createCachedData()));
  }
  tellWarmUp(file, script, { source: bytes, cacheFile, cachedData });
  return runCommonJs(script, file) as typeof TS;
}

/** Written whole or not at all (temp file + rename: a reader never sees half a cache); a failure keeps nothing. */
function writeCache(at: string, data: () => Buffer): void {
  const tmp = `${at}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // The state folder itself is never made here (one removed before the exit stays removed).
    if (!existsSync(join(dirname(at), '..', '..'))) return;
    mkdirSync(dirname(at), { recursive: true });
    writeFileSync(tmp, data());
    renameSync(tmp, at);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // No folder, no temp file.
    }
  }
}

/** `ts` as if imported, loaded at the first property read. */
export const ts: typeof TS = new Proxy({} as typeof TS, { get: (_target, key) => Reflect.get(load(), key) });
