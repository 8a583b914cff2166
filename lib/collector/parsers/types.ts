// The contract between the output parsers and everything that consumes their counts.

export type CaseStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'xfail' | 'xpass';

/** One test's result; `id` is stable across runs of the same runner on the same code (docs/design/parsers.md). */
export interface TestCase {
  id: string;
  status: CaseStatus;
  /** At most ~500 characters of the failure message; failures and errors only. */
  excerpt?: string;
}

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
  /** Per-test results when the output or report lists them; absent means unknown. */
  cases?: TestCase[];
  /** False when `cases` was capped (every non-passed case kept first). */
  cases_complete?: boolean;
  /** Where the counts came from: the runner's structured report, or its console text. */
  source?: 'report' | 'console';
  /** More than one summary, or the summary contradicts the per-test lines or the report: counts not trusted. */
  counts_disputed?: boolean;
  /** The test process or a worker died (signal, abort, segfault, panic): some results are missing. */
  runner_crashed?: boolean;
  /** The runner collected no test at all ("no tests found", empty collection). */
  no_tests_collected?: boolean;
  /** The structured report asked of the runner: read, missing (asked, never written), unreadable, not asked. */
  report?: 'read' | 'missing' | 'unreadable' | 'not_asked';
  /**
   * `cases` is not proof of which tests passed: the report it came from disagrees with the console, with a crash the
   * console shows, or with the runner's own totals. Set only when true; the reason is a `cases disputed:` note.
   */
  cases_disputed?: boolean;
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
