// Preloaded (`node --require`) by dev/build-code-cache.mjs only: at exit, writes the code cache of each command body and
// validator this process ran (dist/bundle/load.cjs, lib/schema/code-cache.ts), with the functions the run compiled.
'use strict';
const { writeFileSync } = require('node:fs');
const { sealCache } = require('./bundle-loader.cjs');

const seen = [];
globalThis[Symbol.for('judgeloop.code-cache')] = (_name, script, { source, cacheFile }) =>
  seen.push({ script, source, cacheFile });
process.on('exit', () => {
  for (const { script, source, cacheFile } of seen)
    writeFileSync(cacheFile, sealCache(source, script.createCachedData()));
});
