// Generated from schemas/*.schema.json by `npm run gen:types`. Do not edit by hand.
/* eslint-disable */
/**
 * The base commit's check results, computed once per (base commit, commands): state/baselines/<key>.json.
 */
export interface Baseline {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * sha256 of commit and commands (hex prefix); the file name.
 */
key: string
/**
 * Base commit id.
 */
commit: string
commands: CommandsUsed
/**
 * When the baseline was computed, ISO 8601.
 */
computed_at: string
/**
 * Time spent computing it, milliseconds.
 */
duration_ms?: number
/**
 * One entry per check on a clean checkout of the base commit; null when not configured.
 */
checks: {
/**
 * The build check; null when no build command is configured.
 */
build: (Check | null)
/**
 * The test check; null when no test command is configured.
 */
test: (Check | null)
/**
 * The lint check; null when no lint command is configured.
 */
lint: (Check | null)
/**
 * The type check; null when no type check command is configured.
 */
typecheck: (Check | null)
}
}
/**
 * The commands the checks ran (null = not configured), after config and run record were merged.
 */
export interface CommandsUsed {
/**
 * Build command.
 */
build: (string | null)
/**
 * Test command.
 */
test: (string | null)
/**
 * Lint command.
 */
lint: (string | null)
/**
 * Type check command.
 */
typecheck: (string | null)
}
/**
 * One check (build, test, lint or typecheck) on the agent's work.
 */
export interface Check {
/**
 * passed: exit 0; failed: non-zero exit; timeout: killed at the configured timeout; skipped: not run (see skipped_reason); error: could not be started.
 */
status: ("passed" | "failed" | "timeout" | "skipped" | "error")
/**
 * Exit code, null when killed or not run.
 */
exit_code: (number | null)
/**
 * Signal that ended it, if any.
 */
signal?: (string | null)
/**
 * Wall time, milliseconds; null when not run.
 */
duration_ms: (number | null)
/**
 * Who ran it: the collector, the orchestrator (run record), or nobody.
 */
source: ("collector" | "run_record" | "none")
/**
 * Why a check was not run (e.g. the build failed).
 */
skipped_reason?: string
/**
 * Captured output; null when the check did not run.
 */
output: (Output | null)
/**
 * Test counts parsed from the output; null when nothing was recognised or this is not the test check.
 */
tests?: (TestCounts | null)
/**
 * Lint counts parsed from the output; null when nothing was recognised or this is not the lint check.
 */
lint?: (LintCounts | null)
}
/**
 * Captured combined stdout and stderr, capped: the head and the tail are kept with a marker between.
 */
export interface Output {
/**
 * The kept output (decoded as UTF-8, invalid bytes replaced).
 */
text: string
/**
 * Bytes the command printed in all.
 */
bytes: number
/**
 * True when the middle was cut.
 */
truncated: boolean
}
/**
 * Counts parsed from a test run; null means the output could not tell.
 */
export interface TestCounts {
/**
 * Detected or named test runner.
 */
runner: string
/**
 * Tests that passed.
 */
passed: (number | null)
/**
 * Tests that ran and failed (incl. timeouts, strict xpass, crashes).
 */
failed: number
/**
 * Skipped, pending, ignored and todo tests.
 */
skipped: number
/**
 * Errors apart from test failures (collection, load, compile).
 */
errors: number
/**
 * Tests counted in all.
 */
total: (number | null)
/**
 * Expected failures.
 */
xfailed?: number
/**
 * Unexpected passes (non-strict).
 */
xpassed?: number
/**
 * Why a count is missing or uncertain.
 */
notes?: string[]
}
/**
 * Counts parsed from a linter run.
 */
export interface LintCounts {
/**
 * Detected or named linter.
 */
linter: string
/**
 * Diagnostics counted as errors.
 */
errors: number
/**
 * Diagnostics counted as warnings.
 */
warnings: number
/**
 * Details.
 */
notes?: string[]
}
/**
 * judgeloop configuration: config/defaults.json, overridden by a file named by JUDGELOOP_CONFIG or --config, then JUDGE_* variables, then flags.
 */
export interface Config {
/**
 * How checks are run.
 */
collector: {
commands: Commands
/**
 * Force a test runner or linter name for parsing instead of detecting it; null detects.
 */
runners: {
/**
 * Test runner name.
 */
test?: (string | null)
/**
 * Linter name.
 */
lint?: (string | null)
}
/**
 * Per-check timeout, seconds; the whole process tree is killed at it.
 */
timeouts_seconds: {
/**
 * Seconds.
 */
build: number
/**
 * Seconds.
 */
test: number
/**
 * Seconds.
 */
lint: number
/**
 * Seconds.
 */
typecheck: number
}
/**
 * Seconds between SIGTERM and SIGKILL at a timeout.
 */
kill_grace_seconds: number
/**
 * Bytes of output kept per check (half head, half tail).
 */
output_cap_bytes: number
/**
 * Speed reference for a run with no race, seconds.
 */
time_budget_seconds: number
/**
 * Regular expressions (case-insensitive) of environment variable names never passed to checks.
 */
secret_env_patterns: string[]
/**
 * How long a collector waits for another process computing the same baseline, seconds.
 */
baseline_lock_wait_seconds: number
}
/**
 * Seed 000's mechanical scoring.
 */
scoring: {
/**
 * Relative weights of the five dimensions (any scale; re-normalised over the dimensions present).
 */
weights: {
/**
 * Weight.
 */
build: number
/**
 * Weight.
 */
tests: number
/**
 * Weight.
 */
lint: number
/**
 * Weight.
 */
diff_size: number
/**
 * Weight.
 */
speed: number
}
/**
 * Seed 000's thresholds, 0-100 like the document.
 */
thresholds: {
/**
 * Auto-merge if the winner scores above this, 0-100.
 */
auto_merge_minimum: number
/**
 * 'All agents failed' below this, 0-100.
 */
fail_maximum: number
}
}
/**
 * The Opus judge.
 */
judge: {
/**
 * JUDGE_ENABLED: call the judge at all.
 */
enabled: boolean
/**
 * JUDGE_MODEL: alias or model id.
 */
model: string
/**
 * JUDGE_PHASE, seed 003's rollout phase 1-4; each includes the ones below.
 */
phase: number
/**
 * JUDGE_BACKEND.
 */
backend: ("sdk" | "claude-cli")
/**
 * JUDGE_MAX_PER_HOUR: judge calls in any sliding hour, across processes.
 */
max_per_hour: number
}
/**
 * bin/race and bin/accept: seed 001 categories, ranking, auto-acceptance, learning.
 */
race?: {
/**
 * Score the ranking uses: categories (seed 001's overall) or composite (seed 000's).
 */
rank_by: ("categories" | "composite")
/**
 * Seed 001 category weights, 0-1 (re-normalised over the categories present).
 */
weights: {
/**
 * Weight, 0-1.
 */
correctness: number
/**
 * Weight, 0-1.
 */
quality: number
/**
 * Weight, 0-1.
 */
efficiency: number
/**
 * Weight, 0-1.
 */
completeness: number
/**
 * Weight, 0-1.
 */
safety: number
}
/**
 * Solutions evaluated at once.
 */
concurrency: number
/**
 * Seed 001's AutoAcceptanceConfig (scores 0-1).
 */
auto_accept: {
/**
 * Auto-accept at all (off by default: explicit opt-in).
 */
enabled: boolean
/**
 * Winner's minimum overall score, 0-1.
 */
min_score: number
/**
 * Winner's minimum evaluation confidence, 0-1.
 */
min_confidence: number
/**
 * Hard floor per category, 0-1.
 */
category_minimums: {
/**
 * Floor, 0-1.
 */
correctness: number
/**
 * Floor, 0-1.
 */
quality: number
/**
 * Floor, 0-1.
 */
efficiency: number
/**
 * Floor, 0-1.
 */
completeness: number
/**
 * Floor, 0-1.
 */
safety: number
}
/**
 * Minimum lead over #2, 0-1.
 */
min_score_gap: number
}
/**
 * Category-weight learning from choices that overrode the winner.
 */
learning: {
/**
 * Apply the learned adjustments to later races (always shown, applied only when true).
 */
apply: boolean
/**
 * Weight moved per overriding choice and category, scaled by the score difference, 0-1.
 */
rate: number
/**
 * Bound on the total adjustment of one category weight, 0-1.
 */
max_adjustment: number
/**
 * No category weight goes below this after adjustment, 0-1.
 */
min_weight: number
}
/**
 * Optional benchmark for the efficiency category.
 */
benchmark: {
/**
 * Shell command run in the base checkout and in each worktree; wall time and peak memory are compared. null: no runtime/memory criteria.
 */
command: (string | null)
/**
 * Seconds.
 */
timeout_seconds: number
}
/**
 * Shortest run of identical tokens that counts as a clone (duplication).
 */
clone_min_tokens: number
}
}
/**
 * Shell commands for the checks, run with sh -c inside the worktree; they override config. null disables a check; absent falls back to config.
 */
export interface Commands {
/**
 * Build command.
 */
build?: (string | null)
/**
 * Test command.
 */
test?: (string | null)
/**
 * Lint command.
 */
lint?: (string | null)
/**
 * Optional type check command.
 */
typecheck?: (string | null)
}
/**
 * Seed 003's outcome classes; defined precisely in AGENTS.md.
 */
export type Outcome = ("full_pass" | "partial_pass" | "agent_failure" | "infra_failure" | "timeout")

/**
 * The collector's mechanical signals for one agent run: state/feedback/<bead>.json.
 */
export interface Feedback {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
run: Run
/**
 * When the collector wrote this record, ISO 8601 UTC.
 */
collected_at: string
/**
 * judgeloop version that wrote this record.
 */
collector_version?: string
base?: CommitRef
head?: CommitRef
commands: CommandsUsed
/**
 * One entry per check; null when the check's command is not configured.
 */
checks: {
/**
 * The build check; null when no build command is configured.
 */
build: (Check | null)
/**
 * The test check; null when no test command is configured.
 */
test: (Check | null)
/**
 * The lint check; null when no lint command is configured.
 */
lint: (Check | null)
/**
 * The type check; null when no type check command is configured.
 */
typecheck: (Check | null)
}
/**
 * The base commit's own check results, or null when no baseline could be taken (the reason is in integrity.notes).
 */
baseline: (BaselineSummary | null)
/**
 * What the agent changed against the merge base of base and its work (committed, uncommitted and untracked files); null when the worktree could not be read.
 */
diff: (Diff | null)
/**
 * Seed 000's five dimension scores, each 0-1 (the document's 0-100 divided by 100); null when the dimension is excluded (command not configured, or not measurable).
 */
scores: {
/**
 * Build dimension, 0-1: 1 exit 0, 0 otherwise.
 */
build: (number | null)
/**
 * Tests dimension, 0-1: pass rate plus new-test bonus minus regression penalty, clamped.
 */
tests: (number | null)
/**
 * Lint dimension, 0-1: 1 minus new errors x0.10 and new warnings x0.02 plus resolved x0.01, clamped.
 */
lint: (number | null)
/**
 * Diff size dimension, 0-1: 0.6 churn score + 0.4 file score.
 */
diff_size: (number | null)
/**
 * Speed dimension, 0-1: fastest duration (or budget) / this duration, capped at 1.
 */
speed: (number | null)
}
/**
 * The weights actually applied after dropping excluded dimensions, re-normalised to sum to 1.
 */
weights_used: {
/**
 * Share of the composite, 0-1.
 */
build?: number
/**
 * Share of the composite, 0-1.
 */
tests?: number
/**
 * Share of the composite, 0-1.
 */
lint?: number
/**
 * Share of the composite, 0-1.
 */
diff_size?: number
/**
 * Share of the composite, 0-1.
 */
speed?: number
}
/**
 * Seed 000's weighted composite, 0-1; null when no dimension could be scored (e.g. infra_failure).
 */
composite: (number | null)
/**
 * How the speed score was reached.
 */
speed: {
/**
 * race: relative to the fastest known run of the same race; budget: relative to the configured time budget; none: not scored.
 */
basis: ("race" | "budget" | "none")
/**
 * completed_at - started_at of the agent run, seconds.
 */
duration_seconds: (number | null)
/**
 * The fastest race duration or the budget the score is relative to, seconds.
 */
reference_seconds: (number | null)
}
outcome: Outcome
/**
 * Why this outcome, in one sentence.
 */
outcome_reason: string
/**
 * Flags that say a number should not be trusted at face value.
 */
integrity: {
/**
 * A test command is configured but no test ran: nothing parsed, zero tests, 'no tests found', or the runner crashed.
 */
tests_not_run: boolean
/**
 * The test command exited non-zero but no failure or error was parsed, or exited 0 with failures parsed.
 */
exit_code_contradicts_counts: boolean
/**
 * Fewer tests ran than on the base commit (tests deleted or skipped).
 */
test_count_below_baseline: boolean
/**
 * Details behind the flags and anything else a reader should know, one sentence each.
 */
notes: string[]
}
/**
 * The judge's verdict carried over from state/judgments/<bead>.json when one exists (JUDGE_PHASE >= 2); null otherwise.
 */
judgment: (JudgmentSummary | null)
}
/**
 * The run record's facts that scoring needs, copied so that feedback files stand alone.
 */
export interface Run {
/**
 * Task id.
 */
task_id: string
/**
 * Task type, for template selection.
 */
task_type?: string
/**
 * Task complexity, 1-10.
 */
complexity?: number
/**
 * Orchestrator command name.
 */
command?: string
/**
 * Kind of work.
 */
discipline?: string
/**
 * Prompt template id.
 */
template: string
/**
 * Agent slug; file-name safe.
 */
agent: string
/**
 * Agent model id.
 */
model?: string
/**
 * Race id, when the run is part of a race.
 */
race_id?: string
/**
 * Orchestrator job id.
 */
job_id?: string
/**
 * Agent start, ISO 8601.
 */
started_at: string
/**
 * Agent end, ISO 8601; trends are ordered by this.
 */
completed_at: string
/**
 * The orchestrator's status.
 */
status: ("completed" | "failed" | "timeout" | "infra_failure")
/**
 * The orchestrator's failure reason.
 */
failure_reason?: (string | null)
/**
 * Agent exit code.
 */
exit_code: (number | null)
/**
 * Retries after the first attempt.
 */
iterations?: number
/**
 * Tokens and cost of the run.
 */
usage?: {
/**
 * Input tokens.
 */
input_tokens?: number
/**
 * Output tokens.
 */
output_tokens?: number
/**
 * Total tokens.
 */
total_tokens?: number
/**
 * Cost, US dollars.
 */
cost_usd?: number
}
/**
 * Absolute path of the run record this was collected from.
 */
record_path?: string
/**
 * Absolute worktree path.
 */
worktree?: string
}
/**
 * A ref and the commit it resolved to.
 */
export interface CommitRef {
/**
 * The ref as given.
 */
ref: string
/**
 * The commit id it resolved to.
 */
commit: string
/**
 * Tree id of the measured state (for head: including uncommitted and untracked files).
 */
tree?: string
}
/**
 * The commands the checks ran (null = not configured), after config and run record were merged.
 */
export interface BaselineSummary {
/**
 * Cache key: hash of base commit and commands (state/baselines/<key>.json).
 */
key: string
/**
 * Base commit id.
 */
commit: string
/**
 * Whether the base built; null when no build command.
 */
build_passed: (boolean | null)
/**
 * Test counts parsed from the output; null when nothing was recognised or this is not the test check.
 */
tests: (TestCounts | null)
/**
 * Lint counts parsed from the output; null when nothing was recognised or this is not the lint check.
 */
lint: (LintCounts | null)
}
/**
 * git diff --numstat between the merge base and the agent's work.
 */
export interface Diff {
/**
 * Commit the diff is taken from (merge base of base_ref and HEAD).
 */
merge_base: string
/**
 * Files changed.
 */
files_changed: number
/**
 * Lines added (binary files count 0).
 */
lines_added: number
/**
 * Lines removed (binary files count 0).
 */
lines_removed: number
/**
 * Per-file changes.
 */
files: {
/**
 * Path in the repository (new path for renames).
 */
path: string
/**
 * Old path, for renames.
 */
old_path?: string
/**
 * Lines added.
 */
added: number
/**
 * Lines removed.
 */
removed: number
/**
 * True for binary files (no line counts).
 */
binary: boolean
/**
 * True when the file was not committed by the agent (uncommitted or untracked).
 */
untracked?: boolean
}[]
}
/**
 * The judge's verdict as merged into feedback.
 */
export interface JudgmentSummary {
/**
 * Verdict computed from the dimensions.
 */
verdict: ("pass" | "partial" | "fail")
/**
 * Judge composite, 0-1 (weights .4/.2/.2/.2).
 */
score: number
/**
 * The judge's four dimensions, each 0-1.
 */
dimensions?: {
/**
 * 0-1.
 */
correctness?: number
/**
 * 0-1.
 */
scope_adherence?: number
/**
 * 0-1.
 */
code_quality?: number
/**
 * 0-1.
 */
completeness?: number
}
/**
 * The judge's issues, copied for template scoring (recurring-issue triggers).
 */
issues?: {
/**
 * Severity.
 */
severity: ("major" | "minor")
/**
 * The issue in words.
 */
description: string
/**
 * Short machine-comparable tag (e.g. scope_creep, test_written_to_pass, stub).
 */
category?: string
}[]
/**
 * Judge model id.
 */
model?: string
/**
 * When the judgment was made.
 */
judged_at: string
}
/**
 * Seed 001's EvaluationFeedback: the user's choice on one race, state/race-choices/<race>.json; the latest choice stands.
 */
export interface RaceChoice {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The race id (seed 001's rankingId).
 */
ranking_id: string
/**
 * Seed 001's userChoice.
 */
user_choice: ("accepted_winner" | "chose_other" | "rejected_all" | "manual_edit")
/**
 * The race's winner (or #1 when there was no winner) when the choice was made.
 */
recommended_solution_id: (string | null)
/**
 * The solution chosen; null for rejected_all and for manual_edit without --solution.
 */
chosen_solution_id: (string | null)
/**
 * The user's notes.
 */
feedback_notes?: string
/**
 * When the choice was made, ISO 8601 UTC.
 */
timestamp: string
/**
 * The category scores of the chosen and the recommended solution at the time, for learning; null when there is no pair to compare.
 */
categories: ({
chosen: RaceChoiceScores
recommended: RaceChoiceScores
} | null)
/**
 * What --merge did.
 */
merge?: {
/**
 * merged; dry_run (would merge cleanly, nothing changed); refused (a gate failed and no --force); conflict (git could not merge; aborted).
 */
status: ("merged" | "dry_run" | "refused" | "conflict")
/**
 * The branch merged.
 */
branch: string
/**
 * The base branch merged into.
 */
into: string
/**
 * The merge (or fast-forward) commit, when merged.
 */
commit?: string
/**
 * A failed gate was overridden with --force.
 */
forced: boolean
/**
 * What happened, in words.
 */
detail: string
}
}
/**
 * Category scores, 0-1; null when the category could not be measured.
 */
export interface RaceChoiceScores {
/**
 * 0-1.
 */
correctness: (number | null)
/**
 * 0-1.
 */
quality: (number | null)
/**
 * 0-1.
 */
efficiency: (number | null)
/**
 * 0-1.
 */
completeness: (number | null)
/**
 * 0-1.
 */
safety: (number | null)
}
/**
 * One of seed 001's five categories.
 */
export type RaceCategory = ("correctness" | "quality" | "efficiency" | "completeness" | "safety")

/**
 * One race: several solutions of one task evaluated, ranked and (maybe) auto-accepted: state/races/<id>.json.
 */
export interface Race {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * Race id; the file name.
 */
race_id: string
/**
 * The task every solution worked on.
 */
task_id: string
/**
 * The task's prompt, from the first run record.
 */
task_prompt?: string
/**
 * When the race was evaluated, ISO 8601 UTC.
 */
created_at: string
settings: RaceSettings
/**
 * Every solution, in rank order; failed evaluations last (rank null).
 */
solutions: RaceSolution[]
ranking: RaceRanking
/**
 * Seed 001's pairwise comparisons: one per pair of ranked solutions and category where both have a score.
 */
comparisons: RaceComparison[]
auto_accept: RaceAutoAcceptDecision
/**
 * How long the race took.
 */
timing: {
/**
 * Wall time of the whole evaluation, milliseconds.
 */
wall_ms: number
/**
 * Solutions evaluated at once.
 */
concurrency: number
}
/**
 * Anything a reader should know about the race as a whole, one sentence each.
 */
notes?: string[]
}
/**
 * The settings the race was evaluated with.
 */
export interface RaceSettings {
/**
 * categories: seed 001's overall score; composite: seed 000's composite.
 */
rank_by: ("categories" | "composite")
category_weights: RaceCategoryWeights
/**
 * Learned adjustments applied to the configured category weights; null when learning was not applied.
 */
learning_adjustments: (RaceCategoryAdjustments | null)
/**
 * Seed 000's configured dimension weights (any scale).
 */
composite_weights: {
/**
 * Weight.
 */
build: number
/**
 * Weight.
 */
tests: number
/**
 * Weight.
 */
lint: number
/**
 * Weight.
 */
diff_size: number
/**
 * Weight.
 */
speed: number
}
/**
 * Seed 000's 'all agents failed' threshold on the composite, 0-100.
 */
fail_maximum: number
/**
 * Seed 000's auto-merge threshold on the composite, 0-100.
 */
auto_merge_minimum: number
}
/**
 * Weights of the five categories, summing to 1 (before re-normalisation over categories present).
 */
export interface RaceCategoryWeights {
/**
 * Weight, 0-1.
 */
correctness: number
/**
 * Weight, 0-1.
 */
quality: number
/**
 * Weight, 0-1.
 */
efficiency: number
/**
 * Weight, 0-1.
 */
completeness: number
/**
 * Weight, 0-1.
 */
safety: number
}
/**
 * Additive adjustment per category weight, bounded by race.learning.max_adjustment.
 */
export interface RaceCategoryAdjustments {
/**
 * Added to the weight, -1..1.
 */
correctness: number
/**
 * Added to the weight, -1..1.
 */
quality: number
/**
 * Added to the weight, -1..1.
 */
efficiency: number
/**
 * Added to the weight, -1..1.
 */
completeness: number
/**
 * Added to the weight, -1..1.
 */
safety: number
}
/**
 * One solution (one agent run).
 */
export interface RaceSolution {
/**
 * The run's bead id.
 */
id: string
/**
 * Agent slug.
 */
agent: string
/**
 * Prompt template id.
 */
template: string
/**
 * evaluated, or failed (the evaluation itself could not be done; see failure).
 */
status: ("evaluated" | "failed")
/**
 * Why the evaluation failed, or null.
 */
failure: (string | null)
/**
 * Absolute path of the run record.
 */
run_record: string
/**
 * Absolute worktree path.
 */
worktree: string
/**
 * The run's head_ref (the branch to merge), or null when the run record names none.
 */
branch: (string | null)
/**
 * The commit base_ref resolved to, or null when it could not be resolved.
 */
base_commit: (string | null)
/**
 * completed_at - started_at of the agent run, seconds.
 */
duration_seconds: number
breakdown: RaceBreakdown
/**
 * Seed 000's composite, 0-1; null when nothing could be scored.
 */
composite: (number | null)
/**
 * Seed 001's evaluation; null when the evaluation failed.
 */
evaluation: (RaceEvaluation | null)
gates: RaceGates
/**
 * Defects found.
 */
flags: RaceFlag[]
/**
 * Raw figures behind the criteria; a field is absent when not measured.
 */
metrics: {
/**
 * Highest cyclomatic complexity of a changed TS/JS function.
 */
max_complexity?: number
/**
 * Mean cyclomatic complexity of the changed TS/JS functions.
 */
mean_complexity?: number
/**
 * Longest changed TS/JS function, lines.
 */
max_function_lines?: number
/**
 * Changed TS/JS functions measured.
 */
functions_measured?: number
/**
 * Largest changed text file, lines.
 */
max_file_lines?: number
/**
 * Added tokens inside a clone of at least the configured window.
 */
duplicated_tokens?: number
/**
 * Tokens on added lines.
 */
added_tokens?: number
/**
 * Changed files whose change disappears when whitespace is ignored.
 */
formatting_only_files?: number
/**
 * Benchmark wall time, milliseconds.
 */
benchmark_ms?: number
/**
 * Benchmark peak resident memory, kilobytes.
 */
benchmark_max_rss_kb?: number
}
/**
 * 1 = best; null when the evaluation failed.
 */
rank: (number | null)
/**
 * The score it was ranked by (see settings.rank_by), 0-1.
 */
score: (number | null)
/**
 * Key advantages, in words.
 */
strengths: string[]
/**
 * Key disadvantages, in words.
 */
weaknesses: string[]
}
/**
 * Seed 000's five dimensions, each 0-1 (the document's 0-100 divided by 100); null when excluded.
 */
export interface RaceBreakdown {
/**
 * 0-1.
 */
build: (number | null)
/**
 * 0-1.
 */
tests: (number | null)
/**
 * 0-1.
 */
lint: (number | null)
/**
 * 0-1.
 */
diff_size: (number | null)
/**
 * 0-1: the race's fastest duration / this duration.
 */
speed: (number | null)
}
/**
 * Seed 001's evaluation of one solution.
 */
export interface RaceEvaluation {
/**
 * The five categories.
 */
categories: {
correctness: RaceCategoryScore
quality: RaceCategoryScore
efficiency: RaceCategoryScore
completeness: RaceCategoryScore
safety: RaceCategoryScore
}
/**
 * Weighted mean of the categories present (weights re-normalised), 0-1; null when none.
 */
overall: (number | null)
/**
 * Confidence of the evaluation, 0-1: the category-weighted share of criteria measured (judge criteria counted at their own confidence).
 */
confidence: number
}
/**
 * One category of one solution.
 */
export interface RaceCategoryScore {
/**
 * Mean of the criteria present, 0-1; null when none could be measured.
 */
overall: (number | null)
/**
 * Share of the applicable criteria that were measured, each weighted by its confidence, 0-1.
 */
coverage: number
/**
 * Criteria measured.
 */
criteria: RaceCriterion[]
/**
 * Criteria not scored, with why.
 */
absent: RaceAbsentCriterion[]
}
/**
 * One measured criterion.
 */
export interface RaceCriterion {
/**
 * Criterion name (e.g. tests_pass, complexity, requirement_coverage).
 */
name: string
/**
 * Score, 0-1, higher is better.
 */
score: number
/**
 * mechanical: measured by a tool; judge: the judge's criterion.
 */
source: ("mechanical" | "judge")
/**
 * How much the measurement can be trusted, 0-1: 1 for a tool's measurement, the judge's own confidence for a judge criterion.
 */
confidence: number
/**
 * What was measured, in words (raw figures).
 */
detail: string
}
/**
 * A criterion with no score: its weight is re-normalised over the criteria present.
 */
export interface RaceAbsentCriterion {
/**
 * Criterion name.
 */
name: string
/**
 * unmeasured: could not be measured (lowers the evaluation's confidence); not_applicable: does not apply to this change (does not).
 */
reason: ("unmeasured" | "not_applicable")
/**
 * Why, in words.
 */
detail: string
}
/**
 * Mergeability gates, kept apart from the rank.
 */
export interface RaceGates {
/**
 * The build passed; null when no build command is configured.
 */
build_passes: (boolean | null)
/**
 * No fewer tests passed and no fewer ran than on the base commit; null when it could not be told.
 */
no_test_regression: (boolean | null)
/**
 * No gate is false and the evaluation did not fail.
 */
mergeable: boolean
/**
 * Why a gate is false or unknown, one sentence each.
 */
reasons: string[]
}
/**
 * A defect found in the solution.
 */
export interface RaceFlag {
/**
 * What kind of defect.
 */
kind: ("build_failed" | "tests_failed" | "test_regression" | "tests_removed" | "typecheck_failed" | "lint_errors" | "api_break" | "dangerous_op" | "disabled_check" | "secret" | "stub" | "formatting_churn" | "duplication" | "evaluation_failed")
/**
 * The defect in words.
 */
detail: string
/**
 * File it is in, when known.
 */
file?: string
/**
 * Line in the solution's version of the file, when known.
 */
line?: number
}
/**
 * The ranking.
 */
export interface RaceRanking {
/**
 * Ranked solution ids, best first.
 */
order: string[]
/**
 * The winner's id; null when the ranking confidence is below 0.6, all failed, or nothing was ranked.
 */
winner: (string | null)
/**
 * Why there is or is not a winner.
 */
winner_reason: string
/**
 * Seed 001's ranking confidence, 0-1: gap/0.1 (capped) x0.4 + mean evaluation confidence x0.3 + category consistency x0.3; 1 for a single solution.
 */
confidence: number
/**
 * The three factors of the confidence; null when fewer than two solutions were ranked.
 */
factors: {
/**
 * Score of #1 minus score of #2, 0-1 scale.
 */
gap: (number | null)
/**
 * min(1, gap / 0.1).
 */
gap_confidence: (number | null)
/**
 * Mean of the ranked solutions' evaluation confidences.
 */
mean_evaluation_confidence: (number | null)
/**
 * Share of the five categories where #1 beats #2.
 */
consistency: (number | null)
}
/**
 * Every solution's composite is below fail_maximum (or could not be computed): 'all agents failed'.
 */
all_failed: boolean
}
/**
 * Seed 001's ComparisonDetail.
 */
export interface RaceComparison {
/**
 * The better-ranked solution's id.
 */
solution_a: string
/**
 * The other solution's id.
 */
solution_b: string
category: RaceCategory
/**
 * Id of the solution with the higher category score, or 'tie' (difference under 0.005).
 */
winner: string
/**
 * a's category score minus b's, 0-1 scale.
 */
score_diff: number
/**
 * Why, in words: the criteria that differ most.
 */
reasoning: string
}
/**
 * Seed 001's shouldAutoAccept plus seed 000's auto_merge_minimum.
 */
export interface RaceAutoAcceptDecision {
/**
 * Whether auto-acceptance was enabled.
 */
enabled: boolean
/**
 * Whether the winner is accepted without review.
 */
accept: boolean
/**
 * Why, in words (the first rule that failed, or 'All criteria met').
 */
reason: string
/**
 * The solution accepted, or null.
 */
solution: (string | null)
}
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
export type Bead = string
/**
 * Agent slug; file-name safe.
 */
export type Slug = string

/**
 * What an orchestrator writes when one agent run ends. judgeloop reads it; it never writes it.
 */
export interface RunRecord {
/**
 * Version of this contract, semver; 1.x is what this judgeloop reads.
 */
schema_version: string
bead: Bead
/**
 * The task the agent was given.
 */
task: {
/**
 * Task id; runs of the same task share it.
 */
id: string
/**
 * The original prompt given to the agent, verbatim.
 */
prompt: string
/**
 * Predicted task complexity, 1 (trivial) to 10 (hardest).
 */
complexity?: number
/**
 * The orchestrator command that ran the agent (e.g. work-on-tasks); budgets are kept per command.
 */
command?: string
/**
 * Kind of work (e.g. backend, architecture, planning); architecture and planning also update reasoning_rating.
 */
discipline?: string
/**
 * Task type used for template selection (e.g. bugfix, feature).
 */
type?: string
}
/**
 * The agent that did the work.
 */
agent: {
slug: Slug
/**
 * Model id the agent ran on.
 */
model?: string
}
/**
 * Prompt template id the agent's prompt was built from.
 */
template: string
/**
 * Shared by runs that compete on the same task (a race); file-name safe.
 */
race_id?: string
/**
 * The orchestrator's job id, for cross-reference.
 */
job_id?: string
/**
 * Path of the git worktree holding the agent's work; relative paths are resolved against the run record's directory.
 */
worktree: string
/**
 * Git ref or commit the agent started from; the diff and the baseline are taken against it.
 */
base_ref: string
/**
 * Branch or commit holding the agent's work; informational: the worktree's current state (including uncommitted and untracked files) is what is measured.
 */
head_ref?: string
/**
 * When the agent started, ISO 8601 with zone.
 */
started_at: string
/**
 * When the agent ended, ISO 8601 with zone.
 */
completed_at: string
/**
 * The agent process's exit code; null when it was killed by a signal.
 */
exit_code: (number | null)
/**
 * How the agent run ended as the orchestrator saw it.
 */
status: ("completed" | "failed" | "timeout" | "infra_failure")
/**
 * Why the run failed, timed out or hit an infrastructure failure, in words.
 */
failure_reason?: (string | null)
/**
 * What the run consumed, summed over all iterations.
 */
usage?: {
/**
 * Input tokens, all iterations.
 */
input_tokens?: number
/**
 * Output tokens, all iterations.
 */
output_tokens?: number
/**
 * Total tokens, all iterations.
 */
total_tokens?: number
/**
 * Cost in US dollars as the orchestrator computed it.
 */
cost_usd?: number
}
/**
 * Retries: number of extra attempts after the first (0 = first attempt succeeded).
 */
iterations?: number
commands?: Commands
/**
 * Check results the orchestrator already has; when present the collector parses these instead of running the command again.
 */
checks?: {
build?: ReportedCheck
test?: ReportedCheck
lint?: ReportedCheck
typecheck?: ReportedCheck
}
}
/**
 * Shell commands for the checks, run with sh -c inside the worktree; they override config. null disables a check; absent falls back to config.
 */
export interface ReportedCheck {
/**
 * Exit code; null when killed by a signal or timed out.
 */
exit_code: (number | null)
/**
 * Combined stdout and stderr of the check.
 */
output: string
/**
 * Wall time of the check in milliseconds.
 */
duration_ms?: number
/**
 * True when the orchestrator killed the check at its timeout.
 */
timed_out?: boolean
/**
 * Test runner or linter name to parse the output with, instead of detecting it.
 */
runner?: string
}
