// vitest setupFiles (vitest.config.ts): runs in the worker before each test file. The file gets a TMPDIR of its own
// inside the run's (test/global-setup.ts), so os.tmpdir() here and in every child spawned with process.env points
// there. After the file's tests (its own afterAll hooks run first): every folder made by tempDir() is removed, then
// anything else left in that TMPDIR fails the file, listed (a temporary folder the product or a test did not
// remove: a killed process's leftovers are for the test that killed it to remove); the folder goes either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll } from 'vitest';
import { listLeftovers } from './global-setup.js';
import { removeTempDirs } from './helpers/temp.js';

const run = process.env.TEST_RUN_TMPDIR;
if (!run)
  throw new Error(
    'test/setup.ts: TEST_RUN_TMPDIR is not set (test/global-setup.ts sets it; run vitest with vitest.config.ts)',
  );
const mine = mkdtempSync(join(run, 'file-'));
process.env.TMPDIR = mine;

// biome-ignore lint/correctness/noEmptyPattern: vitest 4 hands hooks a fixture object first, the file second.
afterAll(({}, suite) => {
  removeTempDirs();
  let left: string[];
  try {
    // tsx's compile cache (tmpdir()/tsx-<uid>), made by the children a test starts with `node --import tsx`: a cache, not a leak.
    rmSync(join(mine, `tsx-${process.getuid?.() ?? ''}`), { recursive: true, force: true });
    left = listLeftovers(mine);
  } finally {
    rmSync(mine, { recursive: true, force: true, maxRetries: 3 });
  }
  const file = 'filepath' in suite ? relative(join(import.meta.dirname, '..'), String(suite.filepath)) : suite.name;
  if (left.length)
    throw new Error(`${file} left ${left.length} path(s) in its TMPDIR (removed now):\n${left.join('\n')}`);
});
