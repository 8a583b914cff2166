// Temporary folders for tests: `tempDir()` makes one under os.tmpdir() (the suite sets TMPDIR to a folder per
// test file: test/setup.ts) and registers it; test/setup.ts removes every registered folder after the file's
// tests, then fails the file if anything else is left in its TMPDIR (a leak of the product or of a test).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** The names in os.tmpdir() now: before starting a process a test will kill, for `removeLeftTemps` after. */
export function tempEntries(): Set<string> {
  return new Set(readdirSync(tmpdir()));
}

/**
 * Removes what appeared in os.tmpdir() since `before` and is not a tempDir() folder: the temporary folders of a
 * process the test SIGKILLed (its report folder, throwaway index, baseline checkout: a SIGKILL runs no cleanup).
 * Returns the names removed, for the test to report or assert on.
 */
export function removeLeftTemps(before: Set<string>): string[] {
  const left = readdirSync(tmpdir()).filter((n) => !before.has(n) && !made.has(join(tmpdir(), n)));
  for (const n of left) rmSync(join(tmpdir(), n), { recursive: true, force: true, maxRetries: 3 });
  return left;
}
