// Our preload for node --test's test-file processes: node:assert's and node:test's functions replaced during a test
// file's run, or a file's process that never reached its exit, mean the code under test rewrote results from inside.
import { WITNESS_FILE } from './pytest-witness.js';

/** The record's path, for the test files' processes only: the witness takes it out of their environment. */
const NODE_WITNESS_ENV = 'JUDGELOOP_NODE_WITNESS';

/**
 * The witnesses' watch on reads of files (node --test's and the JS runners'): `caller()`, the first frame outside
 * node's own code and the witness (`me`; '?' when the stack was emptied), and fs's read functions wrapped to call the
 * witness's `seen(path, how)` first. Module text: it needs `fs`, `me`, `fileURLToPath`, `syncBuiltinESMExports`.
 */
export const WATCH_FS_READS = String.raw`  const caller = () => {
    const lines = (new Error().stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    if (!lines.length) return '?';
    for (const l of lines) {
      const m = /[(\s]((?:file:\/\/)?\/[^():]+)(?::\d+){0,2}\)?\s*$/.exec(l);
      if (!m) continue;
      const f = m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
      if (f !== me) return f;
    }
    return null;
  };
  for (const [o, names, tag] of [
    [fs, ['readFileSync', 'readFile', 'openSync', 'open', 'createReadStream'], 'fs.'],
    [fs.promises, ['readFile', 'open'], 'fs.promises.'],
  ])
    for (const k of names) {
      const was = o[k];
      o[k] = function (p, ...rest) {
        seen(p, tag + k);
        return was.call(this, p, ...rest);
      };
    }
  syncBuiltinESMExports();
`;

const NODE_WITNESS_JS = `// judgeloop's witness: node:assert's and node:test's functions replaced while a test file ran, or the test file
// read by the code under test.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.${NODE_WITNESS_ENV};
// A test file's own process (node --test runs each in one): not the runner, a worker, or a node a test starts.
if (file && isMainThread && (process.env.NODE_TEST_CONTEXT ?? '').startsWith('child')) {
  delete process.env.${NODE_WITNESS_ENV};
  const require = createRequire(import.meta.url);
  const fs = require('node:fs');
  const { fileURLToPath } = require('node:url');
  // Held here: code under test that replaces fs's functions later does not write (or silence) this record.
  const append = fs.appendFileSync;
  const realpath = fs.realpathSync;
  const owners = { assert: require('node:assert'), 'assert.strict': require('node:assert/strict'), test: require('node:test') };
  const parts = [];
  for (const [name, o] of Object.entries(owners))
    for (const k of Object.getOwnPropertyNames(o)) if (typeof o[k] === 'function') parts.push([name + '.' + k, o, k, o[k]]);
  append(file, 'loaded\\n');
  const real = (p) => {
    try {
      return realpath(p instanceof URL ? fileURLToPath(p) : String(p));
    } catch {
      return null;
    }
  };
  const testFile = process.argv[1] ? real(process.argv[1]) : null;
  const me = fileURLToPath(import.meta.url);
  const seen = (p, how) => {
    if (testFile === null || typeof p === 'number' || real(p) !== testFile) return;
    const who = caller();
    if (who && (who === '?' || real(who) !== testFile))
      append(file, 'peeked\\t' + testFile + '\\t' + how + '\\t' + who + '\\n');
  };
${WATCH_FS_READS}  process.on('exit', () => {
    let out = '';
    for (const [name, o, k, was] of parts) if (o[k] !== was) out += 'replaced\\t' + name + '\\n';
    append(file, out + 'finished\\n');
  });
}
`;

/** The plan's witness for a node --test command: the preload written beside the report, loaded through NODE_OPTIONS. */
export function nodeWitness(
  dir: string,
  env: NodeJS.ProcessEnv,
): { files: Record<string, string>; env: Record<string, string> } {
  // Under the run's own name, in judgeloop's fresh folder outside the tree: nothing there can stand in for it.
  const module = `judgeloop-w-${(dir.split('/').pop() ?? '').replace(/[^A-Za-z0-9]/g, '-')}.mjs`;
  const preload = `--import=file://${dir}/${module}`;
  return {
    files: { [module]: NODE_WITNESS_JS },
    env: {
      NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${preload}` : preload,
      [NODE_WITNESS_ENV]: `${dir}/${WITNESS_FILE}`,
    },
  };
}
