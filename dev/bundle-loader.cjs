// dist/bundle/load.cjs (copied by dev/build-bundles.mjs): runs a command's code, dist/bundle/<command>.cjs, with
// V8's code cache dist/bundle/<command>.cache when that cache was written for exactly these bytes; else a plain compile.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { createHash } = require('node:crypto');
const { pathToFileURL, fileURLToPath } = require('node:url');
const Module = require('node:module');
const vm = require('node:vm');

const HASH_BYTES = 32;

/** The function a command's body is compiled as (the same text at build and at run time, or V8 rejects the cache). */
const wrap = (source) =>
  `(function (exports, require, module, __filename, __dirname, __jl_url) {${source.toString('utf8')}\n})`;

/** A cache file's bytes: sha256(source ‖ data), then V8's data. */
const sealCache = (source, data) => Buffer.concat([createHash('sha256').update(source).update(data).digest(), data]);

/**
 * The cache's V8 data when its first 32 bytes are sha256(source ‖ data), else undefined. V8 itself checks only its
 * version, its flags and the source's length, and in a release build not the data's checksum: a stale or damaged
 * cache must never reach it.
 */
function cachedDataFor(source, cacheFile) {
  let cache;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (cache.length <= HASH_BYTES) return undefined;
  const data = cache.subarray(HASH_BYTES);
  const sum = createHash('sha256').update(source).update(data).digest();
  return sum.equals(cache.subarray(0, HASH_BYTES)) ? data : undefined;
}

/**
 * Evaluates dist/bundle/<name>.cjs as the ES module at `url` (dist/bundle/<name>.mjs, the stub that calls this) would
 * be: strict, `import.meta.url` is `url`, `require` resolves from there. Returns the module's exports.
 */
function load(name, url) {
  const file = join(__dirname, `${name}.cjs`);
  const source = readFileSync(file);
  const cacheFile = join(__dirname, `${name}.cache`);
  const cachedData = cachedDataFor(source, cacheFile);
  const script = new vm.Script(wrap(source), { filename: file, cachedData });
  const hook = globalThis[Symbol.for('judgeloop.code-cache')]; // set only by the build's warm-up and by tests
  if (typeof hook === 'function') hook(name, script, { source, cacheFile, cachedData });
  const mod = { exports: {} };
  const mjs = fileURLToPath(url);
  script.runInThisContext()(mod.exports, Module.createRequire(mjs), mod, mjs, __dirname, pathToFileURL(mjs).href);
  return mod.exports;
}

module.exports = { load, wrap, sealCache, cachedDataFor };

// `node load.cjs <command> args…` (the bin/ shims): as `node <command>.mjs args…`, without the ES module loader's
// start (~18 ms of CPU); the command sees the argv that would have.
if (require.main === module) {
  const name = process.argv[2] ?? '';
  if (!/^[a-z][a-z-]*$/.test(name)) throw new Error(`load.cjs: no command named '${name}'`);
  const mjs = join(__dirname, `${name}.mjs`);
  process.argv.splice(1, 2, mjs);
  load(name, pathToFileURL(mjs).href);
}
