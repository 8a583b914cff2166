// Temporary folders for tests: `tempDir()` makes one under os.tmpdir() (the suite sets TMPDIR to a folder per
// test file: test/setup.ts) and registers it; test/setup.ts removes every registered folder after the file's
// tests, then fails the file if anything else is left in its TMPDIR (a leak of the product or of a test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A new empty folder, removed after the test file (earlier by `removeTempDir`). */
export function tempDir(prefix = 'judgeloop-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes one folder made by `tempDir` now (a test that wants its space back early). */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  made.delete(dir);
}

/** Removes every folder `tempDir` made in this process (test/setup.ts, after each file). */
export function removeTempDirs(): void {
  for (const dir of [...made]) removeTempDir(dir);
}
