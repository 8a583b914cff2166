// The contract between the output parsers and everything that consumes their counts.

/** Counts read from one test run's output. A null count means the output cannot tell it. */
export interface TestCounts {
  runner: string;
  passed: number | null;
  failed: number;
  skipped: number;
  errors: number;
  total: number | null;
  xfailed?: number;
  xpassed?: number;
  /** Why a count is null or uncertain, in words (e.g. "plain go test does not list passing tests"). */
  notes?: string[];
}

/** Counts read from one linter run's output. */
export interface LintCounts {
  linter: string;
  errors: number;
  warnings: number;
  notes?: string[];
}

export interface ParseOptions {
  /** Force a runner or linter instead of detecting it from the output. */
  name?: string;
}
