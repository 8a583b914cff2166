// Public entry of the output parsers: detect the tool, then hand normalized lines to its module.
import type { LintParser, TestParser } from './_parser.js';
import { biome } from './biome.js';
import { cargo } from './cargo.js';
import { clippy } from './clippy.js';
import { eslint } from './eslint.js';
import { flake8 } from './flake8.js';
import { go } from './go.js';
import { jest } from './jest.js';
import { junit } from './junit.js';
import { mocha } from './mocha.js';
import { mypy } from './mypy.js';
import { nodeTap } from './node-tap.js';
import { nodeTest } from './node-test.js';
import { normalizeLines, omittedBytes } from './normalize.js';
import { pylint } from './pylint.js';
import { pytest } from './pytest.js';
import { ruff } from './ruff.js';
import { shellcheck } from './shellcheck.js';
import { tap } from './tap.js';
import { tsc } from './tsc.js';
import { unittest } from './unittest.js';
import { vitest } from './vitest.js';
import type { LintCounts, ParseOptions, TestCounts } from './types.js';

export type { LintCounts, ParseOptions, TestCounts } from './types.js';
export { normalizeLines, stripAnsi } from './normalize.js';

// Detection order: most specific first; go -json, JUnit and the TAP dialects before the generic TAP reader.
const TEST_PARSERS: readonly TestParser[] = [junit, cargo, pytest, unittest, vitest, jest, nodeTest, nodeTap, mocha, go, tap];
// Biome before ruff (both say "Found N errors."), shellcheck's gcc format before flake8/mypy lookalikes.
const LINT_PARSERS: readonly LintParser[] = [eslint, biome, ruff, tsc, mypy, pylint, shellcheck, clippy, flake8];

export const TEST_RUNNERS: readonly string[] = TEST_PARSERS.map((p) => p.name);
export const LINTERS: readonly string[] = LINT_PARSERS.map((p) => p.name);

function truncationNote(lines: readonly string[]): string | null {
  const omitted = omittedBytes(lines);
  return omitted === null ? null : `output was cut (${omitted} bytes omitted): counts read from the kept head and tail`;
}

function withNote<T extends { notes?: string[] }>(counts: T, note: string | null): T {
  if (note) counts.notes = [...(counts.notes ?? []), note];
  return counts;
}

export function detectTestRunner(text: string): string | null {
  const lines = normalizeLines(text);
  return TEST_PARSERS.find((p) => p.detect(lines))?.name ?? null;
}

export function detectLinter(text: string): string | null {
  const lines = normalizeLines(text);
  return LINT_PARSERS.find((p) => p.detect(lines))?.name ?? null;
}

/** Test counts from one command's combined output; null when no known runner's output is recognised. */
export function parseTestOutput(text: string, opts: ParseOptions = {}): TestCounts | null {
  const lines = normalizeLines(text);
  if (opts.name !== undefined) {
    const parser = TEST_PARSERS.find((p) => p.name === opts.name);
    if (!parser) throw new Error(`unknown test runner "${opts.name}"; expected one of: ${TEST_RUNNERS.join(', ')}`);
    const counts = parser.parse(lines);
    return counts && withNote(counts, truncationNote(lines));
  }
  for (const parser of TEST_PARSERS) {
    if (!parser.detect(lines)) continue;
    const counts = parser.parse(lines);
    if (counts) return withNote(counts, truncationNote(lines));
  }
  return null;
}

/** Lint counts from one command's combined output; null when no known linter's output is recognised. */
export function parseLintOutput(text: string, opts: ParseOptions = {}): LintCounts | null {
  const lines = normalizeLines(text);
  if (opts.name !== undefined) {
    const parser = LINT_PARSERS.find((p) => p.name === opts.name);
    if (!parser) throw new Error(`unknown linter "${opts.name}"; expected one of: ${LINTERS.join(', ')}`);
    const counts = parser.parse(lines, true);
    return counts && withNote(counts, truncationNote(lines));
  }
  for (const parser of LINT_PARSERS) {
    if (!parser.detect(lines)) continue;
    const counts = parser.parse(lines, false);
    if (counts) return withNote(counts, truncationNote(lines));
  }
  return null;
}
