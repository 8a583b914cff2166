// The TypeScript compiler (9 MB), loaded on first use (never by `bin/race --help`); with a cache folder its compiled
// code is kept in a V8 code cache there (docs/design/race.md, "What a race costs"): ~0.25 s less per load.
import { createHash, randomBytes } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type TS from 'typescript';
import { compileCommonJs, runCommonJs } from '../schema/code-cache.js';

let mod: typeof TS | undefined;
let cacheDir: string | null = null;

/** Keep the compiler's compiled code in `<state>/cache/v8/` (a folder no check sees: docs/design/threat-model.md). */
export function keepCompiledIn(stateRoot: string): void {
  cacheDir = join(stateRoot, 'cache', 'v8');
}

const load = (): typeof TS => {
  if (mod) return mod;
  const file = createRequire(import.meta.url).resolve('typescript');
  if (cacheDir)
    try {
      mod = loadCached(file, cacheDir);
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
 * typescript.js compiled as CommonJS does (the module wrapper), with the code cache read from `dir`; a missing or
 * rejected cache (another V8, other flags) is written at exit, with every function compiled by then.
 */
function loadCached(file: string, dir: string): typeof TS {
  const bytes = readFileSync(file);
  // ASCII (typescript.js is): a one-byte string without UTF-8 decoding.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const { version } = JSON.parse(readFileSync(join(dirname(file), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const at = join(dir, codeCacheName(process.version, process.arch, String(version), sha));
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(at);
  } catch {
    cachedData = undefined;
  }
  const script = compileCommonJs(file, source, cachedData);
  const exports = runCommonJs(script, file) as typeof TS;
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => writeCache(at, () => script.createCachedData()));
  return exports;
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
