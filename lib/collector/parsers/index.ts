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
import { phpunit } from './phpunit.js';
import { normalizeLines, omittedBytes } from './normalize.js';
import { pylint } from './pylint.js';
import { pytest } from './pytest.js';
import { rspec } from './rspec.js';
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
const TEST_PARSERS: readonly TestParser[] = [
  junit,
  cargo,
  pytest,
  unittest,
  phpunit,
  rspec,
  vitest,
  jest,
  nodeTest,
  nodeTap,
  mocha,
  go,
  tap,
];
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

export interface ExplainLine {
  /** 1-based line number in the output, or 0 for a report entry. */
  line: number;
  text: string;
  role: string;
}

const MAX_MARKS = 50;

/**
 * Which lines of the output produced the counts: every summary-shaped line (the one agreeing with the counts marked
 * as used, the others as passed over) and the per-test failure marks the summary was checked against.
 */
export function explainTestOutput(text: string, counts: TestCounts): ExplainLine[] {
  const parser =
    TEST_PARSERS.find((p) => p.name === counts.runner) ?? (counts.runner === 'mocha' ? nodeTap : undefined);
  if (!parser?.explain) return [];
  const lines = normalizeLines(text);
  const { summary, marks } = parser.explain;
  const summaries: number[] = [];
  const out: ExplainLine[] = [];
  let markCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (l.length > 2000) continue;
    if (summary.test(l)) summaries.push(i);
    else if (marks.test(l) && markCount++ < MAX_MARKS) out.push({ line: i + 1, text: l.trim(), role: 'failure mark' });
  }
  // The used summary: the last one whose numbers include the counts read (a heuristic for display only).
  const has = (l: string, n: number | null) => n === null || n === 0 || new RegExp(`\\b${n}\\b`).test(l);
  let used = -1;
  for (let k = summaries.length - 1; k >= 0 && used < 0; k--) {
    const l = lines[summaries[k] as number] as string;
    if (has(l, counts.passed) && has(l, counts.failed)) used = summaries[k] as number;
  }
  for (const i of summaries)
    out.push({
      line: i + 1,
      text: (lines[i] as string).trim(),
      role: i === used ? 'summary (used)' : 'summary-shaped line',
    });
  if (markCount > MAX_MARKS)
    out.push({ line: 0, text: `${markCount - MAX_MARKS} more failure marks`, role: 'failure mark' });
  return out.sort((a, b) => a.line - b.line);
}
