// Our preload for node --test's test-file processes: node:assert's and node:test's functions replaced during a test
// file's run, or a file's process that never reached its exit, mean the code under test rewrote results from inside.
import { WITNESS_FILE } from './pytest-witness.js';

const NODE_WITNESS_MODULE = 'judgeloop-witness.mjs';
/** The record's path, for the test files' processes only: the witness takes it out of their environment. */
const NODE_WITNESS_ENV = 'JUDGELOOP_NODE_WITNESS';

const NODE_WITNESS_JS = `// judgeloop's witness: node:assert's and node:test's functions replaced while a test file ran.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.${NODE_WITNESS_ENV};
// A test file's own process (node --test runs each in one): not the runner, a worker, or a node a test starts.
if (file && isMainThread && (process.env.NODE_TEST_CONTEXT ?? '').startsWith('child')) {
  delete process.env.${NODE_WITNESS_ENV};
  const require = createRequire(import.meta.url);
  const owners = { assert: require('node:assert'), 'assert.strict': require('node:assert/strict'), test: require('node:test') };
  const parts = [];
  for (const [name, o] of Object.entries(owners))
    for (const k of Object.getOwnPropertyNames(o)) if (typeof o[k] === 'function') parts.push([name + '.' + k, o, k, o[k]]);
  appendFileSync(file, 'loaded\\n');
  process.on('exit', () => {
    let out = '';
    for (const [name, o, k, was] of parts) if (o[k] !== was) out += 'replaced\\t' + name + '\\n';
    appendFileSync(file, out + 'finished\\n');
  });
}
`;

/** The plan's witness for a node --test command: the preload written beside the report, loaded through NODE_OPTIONS. */
export function nodeWitness(
  dir: string,
  env: NodeJS.ProcessEnv,
): { files: Record<string, string>; env: Record<string, string> } {
  const preload = `--import=file://${dir}/${NODE_WITNESS_MODULE}`;
  return {
    files: { [NODE_WITNESS_MODULE]: NODE_WITNESS_JS },
    env: {
      NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${preload}` : preload,
      [NODE_WITNESS_ENV]: `${dir}/${WITNESS_FILE}`,
    },
  };
}
