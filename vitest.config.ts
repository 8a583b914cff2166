import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on 2 cores (vitest's default is one fewer worker than cores: one at a time here).
    maxWorkers: 2,
    // Checks dist/ is built and fresh, and gives the run a TMPDIR that must be empty at the end.
    globalSetup: ['test/global-setup.ts'],
    // A TMPDIR per test file; the folders tempDir() made are removed and nothing else may be left there.
    setupFiles: ['test/setup.ts'],
    // The default console, then a table of the slowest files (test/timing-reporter.ts).
    reporters: ['default', './test/timing-reporter.ts'],
  },
});
