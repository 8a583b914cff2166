// A CommonJS file of ours run with V8's code cache kept beside it by `npm run build` (`<file>.cache`): the same
// format as dist/bundle/load.cjs (dev/bundle-loader.cjs) — sha256(source ‖ data), then V8's data.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

const HASH_BYTES = 32;

/**
 * The V8 data of a cache file's bytes when its first 32 bytes are sha256(source ‖ data), else undefined. V8 checks
 * only its version, its flags and the source's length (and in a release build not the data's checksum): a stale or
 * damaged cache must never reach it.
 */
export function sealedCacheData(source: Buffer, cache: Buffer | undefined): Buffer | undefined {
  if (!cache || cache.length <= HASH_BYTES) return undefined;
  const data = cache.subarray(HASH_BYTES);
  const sum = createHash('sha256').update(source).update(data).digest();
  return sum.equals(cache.subarray(0, HASH_BYTES)) ? data : undefined;
}

type Hook = (name: string, script: Script, at: { source: Buffer; cacheFile: string; cachedData?: Buffer }) => void;

/** `require(file)` for a CommonJS file with no state of its own, compiled with `<file>.cache` when it is sealed for it. */
export function requireCached(file: string): unknown {
  const source = readFileSync(file);
  const cacheFile = `${file}.cache`;
  let cache: Buffer | undefined;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    cache = undefined;
  }
  const cachedData = sealedCacheData(source, cache);
  const script = compileCommonJs(file, source.toString('utf8'), cachedData);
  tellWarmUp(file, script, { source, cacheFile, cachedData });
  return runCommonJs(script, file);
}

/** Hands a compiled script to the build's warm-up (or a test) when one listens: it writes `cacheFile` at exit. */
export function tellWarmUp(file: string, script: Script, at: Parameters<Hook>[2]): void {
  const hook = (globalThis as Record<symbol, unknown>)[Symbol.for('judgeloop.code-cache')];
  if (typeof hook === 'function') (hook as Hook)(file, script, at);
}

/** A CommonJS body compiled as node's module wrapper compiles it, with V8's `cachedData` when given. */
export function compileCommonJs(file: string, source: string, cachedData?: Buffer): Script {
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
}

/** Runs a compiled CommonJS body as `file` (its own require, __filename, __dirname): its exports. */
export function runCommonJs(script: Script, file: string): unknown {
  const mod = { exports: {} as unknown };
  const run = script.runInThisContext() as (...a: unknown[]) => void;
  run.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  return mod.exports;
}
