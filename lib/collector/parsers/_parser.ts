// The shape every runner and linter module has: detect on normalized lines, then parse them.
import type { LintCounts, TestCounts } from './types.js';

export interface TestParser {
  name: string;
  /** True when the lines look like this runner's output (cheap; used only without a forced name). */
  detect(lines: readonly string[]): boolean;
  /** Counts, or null when nothing of this runner's output is recognised. */
  parse(lines: readonly string[]): TestCounts | null;
  /** For bin/parse-output --explain: the lines that can be the runner's summary, and the per-test failure marks. */
  explain?: { summary: RegExp; marks: RegExp };
}

export interface LintParser {
  name: string;
  detect(lines: readonly string[]): boolean;
  /** forced: the caller named this linter, so output with no diagnostics at all means a clean run. */
  parse(lines: readonly string[], forced: boolean): LintCounts | null;
}
