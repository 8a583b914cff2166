import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on 2 cores (vitest's default is one fewer worker than cores: one at a time here).
    maxWorkers: 2,
    // A worker runs file after file (vitest and the modules stay loaded): ~0.45 s of CPU less per file, 0.84 → 0.39 s
    // over the 65 lightest files (docs/design/conventions.md). Each file still gets its own TMPDIR (test/setup.ts).
    isolate: false,
    // Checks dist/ is built and fresh, and gives the run a TMPDIR that must be empty at the end.
    globalSetup: ['test/global-setup.ts'],
    // A TMPDIR per test file; the folders tempDir() made are removed and nothing else may be left there.
    setupFiles: ['test/setup.ts'],
    // The default console, then a table of the slowest files (test/timing-reporter.ts).
    reporters: ['default', './test/timing-reporter.ts'],
  },
});
