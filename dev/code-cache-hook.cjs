// Preloaded (`node --require`) by dev/build-code-cache.mjs only: at exit, writes the code cache of each command body
// load.cjs ran in this process, with the functions the run compiled (so a later start compiles none of them).
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { sealCache } = require('./bundle-loader.cjs');

const seen = [];
globalThis[Symbol.for('judgeloop.code-cache')] = (name, script, { source }) => seen.push({ name, script, source });
process.on('exit', () => {
  const dir = process.env.JUDGELOOP_BUNDLE_DIR;
  for (const { name, script, source } of seen)
    writeFileSync(join(dir, `${name}.cache`), sealCache(source, script.createCachedData()));
});
