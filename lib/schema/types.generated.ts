// Generated from schemas/*.schema.json by `npm run gen:types`. Do not edit by hand.
/* eslint-disable */
/**
 * One agent's registration and rating state: state/agents/<slug>.json. The rating fields are a replay of state/ratings/<slug>.jsonl from `initial` (bin/agents rebuild).
 */
export interface AgentProfile {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * Agent slug; file-name safe.
 */
slug: string
/**
 * False keeps the agent out of routing (its history stays).
 */
enabled: boolean
/**
 * Commands this agent may be routed to; empty means every command.
 */
commands: string[]
/**
 * Price per million tokens (all tokens), US dollars; null when unknown (the run's recorded cost is used instead).
 */
cost_per_million: (number | null)
/**
 * What the agent is best used for (free text, e.g. code_write), for people and routing notes.
 */
best_usage: (string | null)
initial: AgentRatingState
/**
 * EMA of run scores, 0-10; null until the first rated run (unless registered with one).
 */
rating: (number | null)
/**
 * EMA of run scores of architecture and planning runs, 0-10; null until the first such run.
 */
reasoning_rating: (number | null)
/**
 * Rated runs the rating rests on.
 */
rating_samples: number
/**
 * Rated runs the reasoning_rating rests on.
 */
reasoning_samples: number
/**
 * Run score of the last rated run, 0-10.
 */
rating_last_score: (number | null)
/**
 * When the last rated run was rated, ISO 8601 UTC.
 */
rating_updated_at: (string | null)
/**
 * Highest task complexity (1-10) routed to this agent; default 5; moved by promotion and demotion.
 */
max_complexity: number
/**
 * Rated runs at or above the max_complexity of their time (the trials that can promote).
 */
complexity_samples: number
/**
 * When max_complexity last changed (start of the cooldown), ISO 8601 UTC; null if never.
 */
complexity_updated_at: (string | null)
/**
 * Bead of the last rated run.
 */
last_bead: (string | null)
/**
 * When the agent was registered, ISO 8601 UTC.
 */
registered_at: string
/**
 * When this file was last written, ISO 8601 UTC.
 */
updated_at: string
}
/**
 * The replayable part of a profile at one moment.
 */
export interface AgentRatingState {
/**
 * Rating, 0-10, or null (none yet).
 */
rating: (number | null)
/**
 * Reasoning rating, 0-10, or null (none yet).
 */
reasoning_rating: (number | null)
/**
 * Max complexity, 1-10.
 */
max_complexity: number
/**
 * Last max_complexity change, ISO 8601 UTC, or null.
 */
complexity_updated_at: (string | null)
}
/**
 * One line of state/ratings/<slug>.jsonl, in the order applied: a rated run (seed 002's agent_run_ratings columns, keyed by bead) or a manual adjustment by bin/agents set.
 */
export type AgentRunRating = (AgentRunRow | AgentAdjustRow)
/**
 * Where the task complexity (the budget bucket) came from: the run record's task, or bin/rate --complexity for a run recorded without one. Absent in rows from before the flag (the run's).
 */
export type ComplexitySource = ("run" | "rate_flag")

/**
 * A rated run.
 */
export interface AgentRunRow {
/**
 * Version of this row kind.
 */
schema_version: "1.0.0"
/**
 * A rated run.
 */
event: "run"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * Agent slug; file-name safe.
 */
agent: string
/**
 * Orchestrator job id (agent_run_ratings.job_id).
 */
job_id: (string | null)
/**
 * Task id.
 */
task_id: string
/**
 * Orchestrator command (command_name); null uses the default budgets.
 */
command: (string | null)
/**
 * Kind of work.
 */
discipline: (string | null)
/**
 * Task complexity, 1-10 (the budget bucket).
 */
complexity: number
/**
 * Quality the run score used, 0-10: the judge's 0-1 score × 10 or a reviewer's score, capped by the mechanical outcome (see qa).
 */
quality_score: number
/**
 * Where the quality came from.
 */
quality_source: ("judge" | "reviewer")
/**
 * Who reviewed (judge model or reviewer agent slug), when known.
 */
reviewer: (string | null)
/**
 * The review the quality came from, as given (raw_review_json).
 */
raw_review: ({

} | unknown[] | string | number | boolean | null)
/**
 * Total tokens over all iterations; null when not recorded.
 */
tokens_total: (number | null)
/**
 * completed_at - started_at, seconds.
 */
duration_seconds: number
/**
 * Retries after the first attempt; null when not recorded.
 */
iterations: (number | null)
/**
 * US dollars: tokens × cost_per_million / 1e6, else the recorded cost; null when neither exists.
 */
total_cost: (number | null)
/**
 * How total_cost was reached.
 */
cost_source: ("tokens_x_price" | "recorded" | null)
/**
 * The agent's price per million tokens used, US dollars.
 */
cost_per_million: (number | null)
/**
 * The budget of this command and complexity bucket the penalties were normalised by.
 */
budget: {
/**
 * Cost budget, US dollars.
 */
cost_usd: number
/**
 * Time budget, seconds.
 */
duration_seconds: number
/**
 * Iteration budget, retries.
 */
iterations: number
/**
 * config (defaults) or empirical (multiplier × median of past runs), per dimension.
 */
source: {
/**
 * Source.
 */
cost_usd: ("config" | "empirical")
/**
 * Source.
 */
duration_seconds: ("config" | "empirical")
/**
 * Source.
 */
iterations: ("config" | "empirical")
}
/**
 * Past rated runs of this command and bucket that measured each dimension.
 */
samples: {
/**
 * Runs.
 */
cost_usd: number
/**
 * Runs.
 */
duration_seconds: number
/**
 * Runs.
 */
iterations: number
}
}
/**
 * min(1, value / budget), each 0-1; null when the signal is missing.
 */
norms: {
/**
 * cost_norm, 0-1.
 */
cost: (number | null)
/**
 * time_norm, 0-1.
 */
time: (number | null)
/**
 * iter_norm, 0-1.
 */
iterations: (number | null)
}
/**
 * Weights applied; a missing penalty's weight is spread over the present ones.
 */
weights_used: {
/**
 * w_q.
 */
quality: number
/**
 * w_c.
 */
cost: number
/**
 * w_t.
 */
time: number
/**
 * w_i.
 */
iterations: number
}
/**
 * Seed 002's run score, 0-10.
 */
run_score: number
/**
 * Version of the rating formula.
 */
rating_version: string
params: AgentRatingParams
before: AgentRatingState
after: AgentRatingState
/**
 * What this run did to max_complexity, with its evidence.
 */
complexity_decision: {
/**
 * The decision.
 */
action: ("promote" | "demote" | "none" | "held_by_cooldown" | "at_limit")
/**
 * The evidence in one sentence.
 */
reason: string
}
/**
 * When the run was rated, ISO 8601 UTC.
 */
created_at: string
/**
 * Seed 002 §9 'If QA fails, the reviewer must downgrade quality_score': the mechanical outcome and the cap it put on quality (absent in rows from before this rule).
 */
qa?: {
/**
 * no_op: the change does nothing (quality 0); regressed: broke what passed on the base commit; unfixed: fixes none of its target tests (feedback.resolution); failed: agent_failure, timeout or untrustworthy tests; partial: partial_pass; unmeasured: no check configured; clean: full_pass.
 */
status: ("clean" | "unmeasured" | "partial" | "failed" | "unfixed" | "regressed" | "no_op")
/**
 * Highest quality allowed, 0-10 (ratings.qa_caps); null when clean.
 */
cap: (number | null)
/**
 * The judge's or reviewer's quality before the cap, 0-10.
 */
reviewed_quality: number
/**
 * What the checks showed, one sentence.
 */
reason: string
/**
 * A run that fixes none of its target tests never raises its agent's rating: the run score is held at the rating (and the reasoning rating, for a reasoning discipline) before it; null when the agent had none. Absent for other runs.
 */
score_ceiling?: (number | null)
/**
 * The run score by seed 002 §6.2 before the ceiling (present with score_ceiling).
 */
formula_score?: number
}
complexity_source?: ComplexitySource
}
/**
 * The update parameters in force, so a replay reproduces the profile even after the config changes.
 */
export interface AgentRatingParams {
/**
 * EMA alpha = 2/(N+1).
 */
alpha: number
/**
 * Run score at or above which a run can promote, 0-10.
 */
promote_threshold: number
/**
 * Run score at or below which a run can demote, 0-10.
 */
demote_threshold: number
/**
 * Quality a promotion needs, 0-10.
 */
promote_min_quality: number
/**
 * Hours between max_complexity changes.
 */
cooldown_hours: number
/**
 * True when the run's discipline also updates reasoning_rating.
 */
reasoning: boolean
}
/**
 * The replayable part of a profile at one moment.
 */
export interface AgentAdjustRow {
/**
 * Version of this row kind.
 */
schema_version: "1.0.0"
/**
 * A manual adjustment.
 */
event: "adjust"
/**
 * Agent slug; file-name safe.
 */
agent: string
/**
 * The values set.
 */
set: {
/**
 * Rating, 0-10.
 */
rating?: number
/**
 * Reasoning rating, 0-10.
 */
reasoning_rating?: number
/**
 * Max complexity, 1-10.
 */
max_complexity?: number
}
/**
 * Why, as given by the user.
 */
reason: string
before: AgentRatingState
after: AgentRatingState
/**
 * When, ISO 8601 UTC.
 */
created_at: string
}
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
 * collector.fetch_command (with network) then collector.setup_command (without), run in the checkout before the checks; absent when neither is configured. A baseline whose setup did not pass is never cached (the collector scores without it and retries next time).
 */
setup?: {
/**
 * The step that decided: the setup command, or the fetch command when it failed (the setup then did not run) or is the only one configured.
 */
command: string
result: Check
/**
 * collector.fetch_command's run (with network), when one is configured.
 */
fetch?: {
/**
 * The fetch command (sh -c, in the temporary checkout).
 */
command: string
result: Check
/**
 * The dependency cache (state/cache/deps/<key>/): absent when the checkout has no lockfile or no state folder.
 */
cache?: {
/**
 * sha-256 (32 hex) of the lock files, the fetch command, the toolchain on PATH and the platform.
 */
key: string
/**
 * true: the folders were copied from the cache and the fetch did not run (result.duration_ms is the copy); false: the fetch ran and what it created was kept.
 */
hit: boolean
/**
 * The top-level folders the fetch created (node_modules, .judgeloop-deps, …), as kept or restored.
 */
dirs: string[]
}
}
}
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
 * How the check ran: in which sandbox and with or without network (absent for results reported by the run record).
 */
isolation?: {
/**
 * bubblewrap: worktree writable, the rest read-only, $HOME/state/config hidden, own PID namespace; none: an ordinary child process.
 */
sandbox: ("bubblewrap" | "none")
/**
 * Whether the check could reach the network.
 */
network: boolean
/**
 * Why it ran without a sandbox, when it did.
 */
note?: string
/**
 * Processes that left the check's process group (daemons) and were killed when it ended.
 */
escaped_processes?: number
}
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
 * Per-test results when the runner's report or console lists them (notes/contract-cases.md); absent means unknown. Capped at collector.max_test_cases, non-passed cases first.
 * 
 * Items: One test's result.
 */
cases?: {
/**
 * Stable id across runs of the same runner on the same code (path/test_x.py::Class::test, pkg::TestName/sub, file::suite > test).
 */
id: string
/**
 * The test's outcome.
 */
status: ("passed" | "failed" | "error" | "skipped" | "xfail" | "xpass")
/**
 * At most ~500 characters of the failure message; failures and errors only.
 */
excerpt?: string
}[]
/**
 * False when cases was capped (collector.max_test_cases); the counts stay exact.
 */
cases_complete?: boolean
/**
 * Where the counts came from: the runner's structured report, or its console text.
 */
source?: ("report" | "console")
/**
 * More than one summary in the console, a summary contradicting the per-test lines, or report and console disagreeing: counts not trusted.
 */
counts_disputed?: boolean
/**
 * The test process or a worker died (signal, abort, segfault, panic, killed worker): some results are missing.
 */
runner_crashed?: boolean
/**
 * The runner collected no test at all ('no tests found', empty collection).
 */
no_tests_collected?: boolean
/**
 * The structured report judgeloop asked the runner for: read, asked and never written (missing), written but not a readable report (unreadable), or not asked (runner without one). Missing or unreadable is unmeasured evidence, never a pass.
 */
report?: ("read" | "missing" | "unreadable" | "not_asked")
/**
 * judgeloop's observer inside the runner (pytest, unittest, node --test, vitest, jest, mocha) or around its test binaries (go test, cargo test): it reported on the run (saw), was planned and never reported (missing: shadowed, dropped or the run ended first; the evidence is not trusted), or the runner has none here (none: the run is not mergeable on its evidence alone).
 */
observer?: ("saw" | "missing" | "none")
/**
 * The per-test list (cases) is not proof of which tests passed: its report disagrees with the console, with a crash the console shows, or with the runner's own totals (reason in a 'cases disputed:' note). Absent when there is no such doubt.
 */
cases_disputed?: boolean
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
 * judgeloop configuration: config/defaults.json, overridden by a file (--config, JUDGELOOP_CONFIG, or the first judgeloop.json / .judgeloop.json found from the current directory upwards), then JUDGE_* variables, then flags.
 */
export interface Config {
/**
 * Other machines' state folders that score-templates and the report read as one with the state folder (a fleet without a shared disk); relative paths resolve against the config file's folder. --state-dir (repeatable) replaces the list. Bead ids must be unique across them.
 */
state_dirs?: string[]
/**
 * Where the state store is; a relative path resolves against the folder of the config file that sets it. Default: state/ beside the config file found or named, else judgeloop's own checkout. JUDGELOOP_STATE_DIR wins over it.
 */
state_dir?: string
/**
 * Defaults of bin/record for facts a hook cannot find itself; flags and JUDGELOOP_* variables win over them.
 */
record?: {
/**
 * Agent slug written into run records (e.g. claude-code).
 */
agent?: string
/**
 * Model id the agent runs on, written into run records.
 */
model?: string
/**
 * Prompt template id written into run records.
 */
template?: string
/**
 * Git ref the agent's work is measured against (e.g. main, origin/main); bin/record stores the commit where HEAD's history meets it (their merge base) as the run's base.
 */
base_ref?: string
/**
 * Task type written into run records (used for template selection).
 */
task_type?: string
/**
 * Task complexity 1-10 written into run records when --complexity is not given, so bin/rate always has one.
 */
complexity?: number
}
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
 * Deprecated name of collector.setup_command (read with a warning when setup_command is not set).
 */
baseline_setup?: (string | null)
/**
 * Deprecated name of collector.setup_timeout_seconds (read with a warning).
 */
baseline_setup_timeout_seconds?: number
/**
 * The machine-readable report to ask the test command for, when judgeloop does not recognise its runner (or to ask differently); null: the built-in choice for pytest, vitest, jest, mocha, node --test, phpunit, rspec (also behind an npm/yarn/pnpm script that ends in the runner) and go test (-json), none for others; `judgeloop doctor` says which a test command gets. Written into a fresh directory outside the worktree.
 */
test_report?: ({
/**
 * The report's format.
 */
format: ("junit" | "jest-json" | "mocha-json" | "rspec-json")
/**
 * File name of the report inside the report directory (default report.xml or report.json).
 */
file?: string
/**
 * Appended to the test command; {file} becomes the report's absolute path, shell-quoted. E.g. `--reporter json --reporter-option output={file}`.
 */
args?: string
/**
 * Environment added to the test command; {file} becomes the report's absolute path. E.g. {"PYTEST_ADDOPTS": "--junitxml={file}"}.
 */
env?: {
[k: string]: string
}
} | null)
/**
 * Per-test results kept in tests.cases of a feedback or baseline record, count (default 10000); past it non-passed cases, the task's targets and every test the base ran are kept first (never dropped) and tests.cases_complete is false.
 */
max_test_cases?: number
/**
 * Shell command (sh -c) run in every fresh checkout (the base's and the sealed candidate's) before its checks, after collector.fetch_command, WITHOUT network unless collector.setup_network: it builds what the fetch downloaded and runs the project's own scripts (e.g. `npm rebuild && npm run prepare --if-present`). Files git ignores (node_modules, .venv) do not exist in a checkout: install them here. null: none. `judgeloop init` writes one for the project it detects.
 */
setup_command?: (string | null)
/**
 * Shell command (sh -c) run WITH network in every fresh checkout before collector.setup_command; it must run no code of the project (e.g. `npm ci --ignore-scripts`, `pip download --only-binary=:all:`, `go mod download`, `cargo fetch`): judgeloop also sets npm_config_ignore_scripts=true (npm, yarn, pnpm) and PIP_ONLY_BINARY=:all: (an sdist would run its setup.py) in its environment. null: none.
 */
fetch_command?: (string | null)
/**
 * Timeout of collector.fetch_command and of collector.setup_command, each, seconds; the whole process tree is killed at it.
 */
setup_timeout_seconds?: number
/**
 * Whether collector.setup_command reaches the network (default false: the project's install scripts run in a private network namespace; true lets code the candidate wrote reach the network, and doctor warns).
 */
setup_network?: boolean
/**
 * Glob patterns (git pathspec glob syntax, ** for any folders) of test files: in the graded run they come from the trusted revision (the base, or task.tests_ref), never from the agent.
 */
test_paths?: string[]
/**
 * Glob patterns of test infrastructure (conftest.py, pytest.ini, runner configs, interpreter start-up hooks, and files that would shadow the runner itself: a top-level pytest.py, a committed node_modules/…): taken from the trusted revision in the graded run; a change to one is a test_infra_changed finding. package.json's test scripts and runner keys and pyproject.toml's [tool.pytest…] tables are taken from the trusted revision within the candidate's file.
 */
test_infra_paths?: string[]
/**
 * How long a collector waits for another process computing the same baseline, seconds.
 */
baseline_lock_wait_seconds: number
/**
 * Isolation of checks, baseline commands and race benchmarks: auto = bubblewrap when it is installed and works (the feedback record says which ran), required = refuse to run checks without it (exit 2), off = no sandbox.
 */
sandbox?: ("auto" | "required" | "off")
/**
 * Whether checks reach the network inside the sandbox (false: a private network namespace).
 */
sandbox_network?: boolean
/**
 * Deprecated name of collector.setup_network (read with a warning).
 */
baseline_setup_network?: boolean
/**
 * Extra paths made visible read-only inside the sandbox (`~/` = $HOME); the system folders, the PATH entries and the toolchain roots they lie in (~/.cargo, ~/.pyenv, …) are shown already, everything else is absent.
 */
sandbox_expose?: string[]
/**
 * Extra folders writable inside the sandbox besides the worktree and its scratch /tmp (`~/` = $HOME), e.g. a shared build cache.
 */
sandbox_writable?: string[]
/**
 * Names of environment variables passed to checks besides the built-in allow-list (PATH, HOME, LANG, LC_*, toolchain homes…); secret-looking ones are still dropped.
 */
check_env?: string[]
/**
 * Timeout of each git call on the agent's repository, seconds; the call's process group is killed at it.
 */
git_timeout_seconds?: number
/**
 * Days a sealed candidate ref (refs/judgeloop/candidates/<bead> in the agent's repository) is kept after its run completed; each collect removes other runs' refs older than this (one git call). null: kept until accept or `judgeloop refs prune`. Not part of the feedback's config hash.
 */
candidate_ref_max_age_days?: (number | null)
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
 * Template scoring, selection and refinement triggers (bin/score-templates, bin/select-template).
 */
templates: {
/**
 * Seed 003's phase-3 blend: weights of the mechanical composite and the judge average (re-normalised to sum to 1).
 */
weights: {
/**
 * Weight of the mechanical composite (default 0.6).
 */
mechanical: number
/**
 * Weight of the judge average (default 0.4).
 */
judge: number
}
/**
 * The mechanical composite: full rate + partial_credit x partial rate - retry_penalty x retry rate - timeout_penalty x timeout rate, clamped to 0-1. Default: the learning-loop's set (0.4/0.2/0.3); any other set needs its own name and reason (docs/design/templates.md).
 */
mechanical: {
/**
 * Name of the coefficient set: learning-loop (the default, which must keep 0.4/0.2/0.3) or another name for another set.
 */
name: string
/**
 * Credit of a partial_pass run, 0-1 (a full_pass earns 1); learning-loop 0.4.
 */
partial_credit: number
/**
 * Subtracted per unit of retry rate, 0-1; learning-loop 0.2.
 */
retry_penalty: number
/**
 * Subtracted per unit of timeout rate, 0-1 (on top of a timeout earning no credit); learning-loop 0.3.
 */
timeout_penalty: number
/**
 * Why this set is used, one sentence (recorded in the scores file).
 */
reason: string
}
/**
 * Last N runs (by completion time) in a template's trend.
 */
trend_window: number
/**
 * Share of select-template choices that explore a template other than the best, 0-1.
 */
exploration_share: number
/**
 * When a refinement trigger fires and closes (phase 4).
 */
triggers: {
/**
 * score_drop: a change detector on the template's scored runs by completion time (chosen and calibrated by bench/drift.ts; docs/design/templates.md).
 */
drop: {
/**
 * The detector: window_full_pass (default since issue 39: window count tests on the full-pass indicator, thresholds from the reference rate; by default a 2-day deadline window with a 4-day backstop), glr_full_pass (two-sample Bernoulli GLR scan on the full-pass indicator; the default of issue 25), cusum_full_pass (one-sided Bernoulli CUSUM on the full-pass indicator), cusum_score (standardised CUSUM on the per-run score), fisher_full_pass (Fisher exact, window against reference), welch_score (Welch t, window against reference), interval_separation (issue 17's rule: the window's 95% t interval wholly below the baseline's).
 */
test: ("glr_full_pass" | "window_full_pass" | "cusum_full_pass" | "cusum_score" | "fisher_full_pass" | "welch_score" | "interval_separation")
/**
 * Reference: at most this many scored runs just before the monitored runs (their level is the pre-change level).
 */
reference_runs: number
/**
 * No detector runs before the reference holds this many scored runs.
 */
min_reference_runs: number
/**
 * CUSUM: the newest scored runs the statistic runs over.
 */
monitor_runs: number
/**
 * Two-sample Bernoulli GLR scan on the full-pass indicator: for every change point among the monitored runs, the log-likelihood ratio of 'one rate before, a lower one after' (both estimated) against 'one rate'; fires when the largest exceeds threshold.
 */
glr_full_pass: {
/**
 * Change points whose estimated drop (rate before minus rate after) is below this are not counted, 0-1.
 */
min_shift: number
/**
 * h, nats at 10 runs a day (calibrated by bench/drift.ts --calibrate).
 */
threshold: number
/**
 * At r runs a day the threshold is h + volume_slope x ln(r / 10) (calibrated by bench/drift.ts --calibrate --per-volume).
 */
volume_slope: number
}
/**
 * Window count tests on the full-pass indicator (issue 39): after every run, for each window, fires when its passes are at most c (c + 1 with probability gamma, the coin drawn from the run's bead id); c and gamma from the rate of the reference runs before the window, for the window's share of the false-alarm budget (bench/drift.ts).
 */
window_full_pass: {
/**
 * The deadline by which a drop must be flagged, in days: one window of that many days of the template's runs (at least min_window_runs), the whole false-alarm budget, design_days from the table fitted by bench/drift-deadline.ts for the deadline and the template's runs a day (lib/stats/deadline.ts; 1-14 days, 3-30 runs a day, the edge outside), each look's times a factor fitted over the reference's estimated level and size (deadlineFactor), so the real rate is about 1 per 1,000 template-days. window_days, shares, design_days and volume_slope are then unused; null: use them.
 */
deadline_days: (number | null)
/**
 * By a deadline: a second window of this many days of the template's runs, its design_days from the same table, at backstop_share of the false-alarm budget (the deadline's window has the rest), used only when it holds more runs than the deadline's window: a drop the deadline's window misses by chance is still flagged by then (issue 25's fade within 4 days). null: none.
 */
backstop_days: (number | null)
/**
 * The backstop window's share of the false-alarm budget (0: none).
 */
backstop_share: number
/**
 * Each window's length in days of the template's runs.
 * 
 * @minItems 1
 * @maxItems 4
 */
window_days: [number]|[number, number]|[number, number, number]|[number, number, number, number]
/**
 * Each window's share of the false-alarm budget (sum 1), in the order of window_days.
 * 
 * @minItems 1
 * @maxItems 4
 */
shares: [number]|[number, number]|[number, number, number]|[number, number, number, number]
/**
 * A window holds at least this many runs (a slow template's 2 days are too few).
 */
min_window_runs: number
/**
 * Window i's threshold is set for an average of design_days / shares[i] template-days between false alarms at the reference rate; at 10 runs a day; calibrated by bench/drift.ts so the real rate (the rate estimated from the reference) is 1 per 1,000 days.
 */
design_days: number
/**
 * At r runs a day design_days is multiplied by (r / 10)^volume_slope (the estimated rate inflates false alarms more at high volume; calibrated by bench/drift.ts).
 */
volume_slope: number
}
/**
 * One-sided Bernoulli CUSUM on the full-pass indicator: p0 = the reference rate, p1 = max(p0 - shift, p0/3); fires when the log-likelihood-ratio sum exceeds threshold.
 */
cusum_full_pass: {
/**
 * The drop the CUSUM is tuned for, 0-1 (full-pass rate or score).
 */
shift: number
/**
 * h, nats (calibrated by bench/drift.ts --calibrate).
 */
threshold: number
}
/**
 * One-sided CUSUM on the per-run score (mechanical, or blended when the blend is active), standardised by the reference standard deviation (at least 0.1), reference value shift/2.
 */
cusum_score: {
/**
 * The drop the CUSUM is tuned for, 0-1 (full-pass rate or score).
 */
shift: number
/**
 * h, standard deviations (calibrated by bench/drift.ts --calibrate).
 */
threshold: number
}
/**
 * One-sided Fisher exact test: full passes in the window against the reference.
 */
fisher_full_pass: {
/**
 * The newest scored runs tested against the reference runs before them.
 */
window_runs: number
/**
 * Fires when the one-sided p-value is below this (calibrated by bench/drift.ts --calibrate).
 */
threshold: number
}
/**
 * Welch t of reference mean minus window mean of the per-run score (each variance at least the variance of both together).
 */
welch_score: {
/**
 * The newest scored runs tested against the reference runs before them.
 */
window_runs: number
/**
 * Fires when t exceeds this (calibrated by bench/drift.ts --calibrate).
 */
threshold: number
}
/**
 * interval_separation: recent window, scored runs by completion time.
 */
window_runs: number
/**
 * interval_separation: baseline, at most this many scored runs just before the window.
 */
baseline_runs: number
/**
 * interval_separation: no drop is tested before the baseline holds this many runs.
 */
min_baseline_runs: number
/**
 * interval_separation: the baseline mean minus the window mean must also be at least this, 0-1.
 */
min_drop: number
}
/**
 * low_full_pass: the learning-loop's refine trigger, full_pass_rate < full_pass_below over at least min_runs scored runs.
 */
level: {
/**
 * interval: fire when the 95% Wilson interval of the full-pass rate lies wholly below full_pass_below (close when the rate itself is no longer below); point: the learning-loop's bare rate < full_pass_below.
 */
test: ("interval" | "point")
/**
 * Fire while the template's full-pass rate (all scored runs) is below this, 0-1 (learning-loop 0.5).
 */
full_pass_below: number
/**
 * Scored runs needed before the level counts (learning-loop 10).
 */
min_runs: number
}
/**
 * Fire when one judge issue appears in at least this many of the recent judged runs.
 */
recurring_min_runs: number
/**
 * Recent judged runs (by completion time) searched for recurring issues.
 */
recurring_window: number
}
/**
 * When select-template leaves the incumbent (the template it last chose by score for the task type) for a better-scoring challenger.
 */
selection: {
/**
 * interval: the challenger's 95% interval lies wholly above the incumbent's; min_gap: the challenger's score is at least min_gap higher (the learning-loop's A/B promotion); interval_or_gap: either.
 */
rule: ("interval" | "min_gap" | "interval_or_gap")
/**
 * Score gap for min_gap, 0-1 (learning-loop A/B promotion: 0.1).
 */
min_gap: number
/**
 * Measured (scored) runs a template needs before it is chosen on its score; one with fewer is chosen only as exploration, and the pick says so (default 5).
 */
min_runs?: number
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
 * JUDGE_MAX_PER_HOUR: judge calls in any sliding hour, across processes (with JUDGE_THROTTLE_REDIS: in each hour of the fleet's Redis).
 */
max_per_hour: number
/**
 * Judge calls in flight at once: across the processes of one state folder, or of the fleet with JUDGE_THROTTLE_REDIS.
 */
max_concurrent: number
/**
 * JUDGE_MODEL aliases to model ids (opus, sonnet, haiku).
 */
aliases: {
[k: string]: string
}
/**
 * Prices per model id, USD per million tokens; a model without a price gets cost_usd null.
 */
prices_per_million: {
/**
 * USD per million tokens.
 */
[k: string]: {
/**
 * Uncached input, USD per million tokens.
 */
input: number
/**
 * Output, USD per million tokens.
 */
output: number
/**
 * Prompt-cache write (5-minute TTL), USD per million tokens.
 */
cache_write: number
/**
 * Prompt-cache read, USD per million tokens.
 */
cache_read: number
}
}
/**
 * max_tokens of each judge request; thinking counts against it (always on for current Opus models), so leave room beyond the reply.
 */
max_tokens: number
/**
 * output_config.effort sent with each sdk request (depth of thinking, hence tokens and cost); null sends none and the model's default applies. Part of the cache key when set. Not passed to claude -p.
 */
effort: ("low" | "medium" | "high" | "xhigh" | "max" | null)
/**
 * Per-attempt request timeout, seconds (claude -p is killed after this times max_retries + 1).
 */
timeout_seconds: number
/**
 * Retries of a transient API fault (connection reset, hang-up, timeout, 408/409/429/5xx), with backoff; a count.
 */
max_retries: number
/**
 * Seconds before the first retry of a transient API fault (reset, hang-up, timeout, 408/409/429/5xx); doubled each retry with ±25% jitter, unless the reply names a retry-after.
 */
retry_backoff_seconds: number
/**
 * Longest wait between two retries, seconds (a retry-after header is capped at this too).
 */
retry_backoff_max_seconds: number
/**
 * JUDGE_SAMPLES: independent judge replies per run, aggregated by median with their spread (Opus takes no temperature); each takes a throttle slot and is cached on its own.
 */
samples: number
/**
 * A judged verdict that changes when every dimension moves by this much (0-1 scale) either way, or whose samples' verdicts differ, is marked uncertain.
 */
uncertain_margin?: number
/**
 * Refuse to judge a run whose agent model is of the judge model's family (claude-opus-* judged by claude-opus-*); false: judge it, flagged self_judged with a warning.
 */
refuse_self_judged?: boolean
/**
 * In a race: the budget of the other solutions' diffs in one solution's contrastive reward-hack question, and of both diffs in a pairwise comparison, estimated tokens.
 */
compare_budget_tokens?: number
/**
 * Budget of the whole user message, estimated tokens.
 */
context_budget_tokens: number
/**
 * Budget of the diff part, estimated tokens (seed 003 suggests 8K).
 */
diff_budget_tokens: number
/**
 * Lines of test output at most (seed 003: 2000).
 */
test_output_max_lines: number
/**
 * Budget of the test output part, estimated tokens.
 */
test_output_budget_tokens: number
/**
 * Budget of the lint output part, estimated tokens.
 */
lint_output_budget_tokens: number
/**
 * Budget of the task prompt part, estimated tokens.
 */
prompt_budget_tokens: number
/**
 * Characters per token for estimates (no tokenizer offline).
 */
chars_per_token: number
/**
 * Output tokens assumed by --dry-run's cost estimate, thinking included.
 */
expected_output_tokens: number
/**
 * The Claude Code executable of the claude-cli backend, looked up on PATH.
 */
cli_command: string
/**
 * How long a judge waits for the throttle lock or for another judge of the same bead, seconds.
 */
lock_wait_seconds: number
/**
 * A queue entry claimed by a drain longer ago than this (a crashed drain) is taken again, seconds.
 */
queue_claim_stale_seconds: number
/**
 * judge --drain sends the queue as one Message Batch (as --batch does) when more than this many runs are queued and the backend is sdk; 0: only with --batch.
 */
batch_over: number
/**
 * Message Batches prices per model id (half the direct prices), USD per million tokens; a model without one gets cost_usd null on the batch path.
 */
batch_prices_per_million: {
/**
 * USD per million tokens.
 */
[k: string]: {
/**
 * Uncached input, USD per million tokens.
 */
input: number
/**
 * Output, USD per million tokens.
 */
output: number
/**
 * Prompt-cache write (5-minute TTL), USD per million tokens.
 */
cache_write: number
/**
 * Prompt-cache read, USD per million tokens.
 */
cache_read: number
}
}
/**
 * Seconds between two looks at a submitted batch's processing status.
 */
batch_poll_seconds: number
/**
 * How long one judge --drain --batch waits for a submitted batch to end; after it the batch stays recorded in state/batches/ and a later drain collects it, seconds.
 */
batch_wait_seconds: number
/**
 * judgeloop calibrate and the report warn when the judge's (or the races') agreement with the user's recorded choices falls below this share, 0-1.
 */
calibration_floor: number
}
/**
 * Seed 002's agent ratings, max_complexity and routing.
 */
ratings?: {
/**
 * Run score weights (seed 002 §6.2).
 */
weights: {
/**
 * w_q, multiplies quality 0-1.
 */
quality: number
/**
 * w_c, multiplies cost_norm 0-1.
 */
cost: number
/**
 * w_t, multiplies time_norm 0-1.
 */
time: number
/**
 * w_i, multiplies iter_norm 0-1.
 */
iterations: number
}
/**
 * Seed 002 §9 'If QA fails, the reviewer must downgrade quality_score': the highest quality (0-10) a run can be rated with, by its mechanical outcome (docs/design/ratings.md).
 */
qa_caps: {
/**
 * Cap, 0-10, when the run broke what passed on the base commit (more failing tests, a passing test now failing, fewer tests, a build that passed).
 */
regressed: number
/**
 * Cap, 0-10, when the checks failed (agent_failure, timeout, or the runner crashed, collected no test or its counts are disputed).
 */
failed: number
/**
 * Cap, 0-10, for a partial_pass.
 */
partial: number
/**
 * Cap, 0-10, when no check is configured: nothing confirms the work, so it never counts as a pass.
 */
unmeasured: number
}
/**
 * N of the EMA; alpha = 2/(N+1).
 */
ema_n: number
/**
 * Disciplines whose runs also update reasoning_rating.
 */
reasoning_disciplines: string[]
/**
 * max_complexity of a newly registered agent, 1-10.
 */
default_max_complexity: number
/**
 * Budgets per command and complexity bucket (seed 002 §6.1).
 */
budgets: {
/**
 * Complexity bucket 1-10 → budget, for every command.
 */
default: {
"1": RatingsBudget
"2": RatingsBudget
"3": RatingsBudget
"4": RatingsBudget
"5": RatingsBudget
"6": RatingsBudget
"7": RatingsBudget
"8": RatingsBudget
"9": RatingsBudget
"10": RatingsBudget
}
/**
 * Command name → bucket → dimensions that differ from the default.
 */
by_command: {
/**
 * Buckets of one command.
 */
[k: string]: {
[k: string]: RatingsBudgetOverride
}
}
/**
 * When and how past runs replace the configured budgets.
 */
empirical: {
/**
 * Past rated runs of the same command and bucket (all agents) before a dimension's budget becomes multiplier × their median.
 */
min_runs: number
/**
 * Budget = multiplier × median (2: a median run pays half the penalty).
 */
multiplier: number
}
}
/**
 * Promotion and demotion of max_complexity (seed 002 §7.2).
 */
complexity: {
/**
 * Run score, 0-10.
 */
promote_threshold: number
/**
 * Run score, 0-10.
 */
demote_threshold: number
/**
 * Quality, 0-10.
 */
promote_min_quality: number
/**
 * Hours between changes.
 */
cooldown_hours: number
}
/**
 * Epsilon-greedy routing (seed 002 §7.3).
 */
routing: {
/**
 * Exploration probability, 0-1.
 */
epsilon: number
/**
 * Tasks up to this complexity are 'low-complexity' for redemption.
 */
redemption_max_complexity: number
/**
 * Agents rated below this (or unrated) are 'low-rated', 0-10.
 */
redemption_max_rating: number
/**
 * Agents rated at least this are 'good' for stretch, 0-10.
 */
stretch_min_rating: number
}
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
 * Shell command run in a fresh checkout of the base and of each solution's sealed candidate (never in the worktree); wall time and peak memory are compared. null: no runtime/memory criteria.
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
/**
 * Comment coverage: comment lines per added code line that earns the full score (below it the score is the ratio over this target; 0 = always full).
 */
comment_target_ratio: number
/**
 * The mergeable gate.
 */
gate: {
/**
 * Finding kinds that make a solution fail the gate (condition no_blocking_finding).
 */
blocking_findings: ("dangerous_op" | "disabled_check" | "secret" | "stub" | "test_deleted" | "test_skipped" | "test_weakened" | "test_modified" | "test_trivial" | "test_infra_changed" | "special_case" | "api_break" | "changed_expectation" | "own_test_failing")[]
}
/**
 * Weight of the target_tests criterion within correctness, where every other criterion weighs 1.
 */
target_weight: number
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
 * Configured budget of one complexity bucket (config ratings.budgets.default).
 */
export interface RatingsBudget {
/**
 * Cost budget, US dollars.
 */
cost_usd: number
/**
 * Time budget, seconds.
 */
duration_seconds: number
/**
 * Iteration budget, retries.
 */
iterations: number
}
/**
 * The dimensions of one bucket that differ from the default (config ratings.budgets.by_command).
 * 
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^([1-9]|10)$".
 */
export interface RatingsBudgetOverride {
/**
 * Cost budget, US dollars.
 */
cost_usd?: number
/**
 * Time budget, seconds.
 */
duration_seconds?: number
/**
 * Iteration budget, retries.
 */
iterations?: number
}
/**
 * One row of state/index/feedback.jsonl: a compact summary of one feedback file, appended each time the file is written. The last row for a bead wins.
 */
export interface FeedbackIndexRow {
/**
 * The run id (run-record bead; kept equal to it by a test, inlined so reading the index does not compile the run-record and feedback schemas).
 */
bead: string
/**
 * run.template of the feedback file.
 */
template: string
/**
 * run.task_type, null when the run record had none.
 */
task_type: (string | null)
/**
 * run.completed_at, ISO 8601; trends are ordered by this.
 */
completed_at: string
/**
 * The feedback outcome (kept equal to feedback.schema.json#/definitions/outcome by a test).
 */
outcome: ("full_pass" | "partial_pass" | "agent_failure" | "infra_failure" | "timeout" | "unmeasured")
/**
 * run.iterations (retries after the first attempt); null when the run did not report it.
 */
retries: (number | null)
/**
 * The feedback's mechanical composite, 0-1; null when none.
 */
composite: (number | null)
/**
 * feedback.resolution.resolved: every target test passes and nothing that passed on the base broke; null when it cannot be told or the feedback has no resolution (collected before the verdict; absent in rows written before it). Templates count a pass only when this is not false (docs/design/templates.md).
 */
resolved?: (boolean | null)
/**
 * feedback.resolution.fixed: target tests passing now; null without a resolution (absent in rows written before it). An unresolved run earns partial credit only when this is above 0.
 */
targets_fixed?: (number | null)
/**
 * null when the feedback has no judgment (not judged, judge failed or disabled).
 */
judge: ({
/**
 * Judge score, 0-1.
 */
score: number
/**
 * With several judge samples: how many the score is the mean of.
 */
samples?: number
/**
 * With several judge samples: the sample variance of their composites.
 */
variance?: number
/**
 * Judge verdict.
 */
verdict: ("pass" | "partial" | "fail")
/**
 * The judge's issues, one per distinct key.
 */
issues: {
/**
 * The issue's category, or its description lower-cased with digits and punctuation folded, so the same issue compares equal across runs.
 */
key: string
/**
 * Severity.
 */
severity: ("major" | "minor")
/**
 * The description, cut at 200 characters.
 */
text: string
}[]
} | null)
/**
 * Identity of the feedback file this row summarises, to notice a file rewritten without re-indexing (--verify).
 */
file: {
/**
 * File size, bytes.
 */
size: number
/**
 * Modification time, milliseconds since the epoch.
 */
mtime_ms: number
}
/**
 * The run record the feedback measured (run.record_path, run.record_hash), to refuse the row when the record changed since (stale feedback). Absent for feedback without a record hash.
 */
record?: {
/**
 * Absolute path of the run record.
 */
path: string
/**
 * run.record_hash: sha256 (16 hex digits) of the run record fields the feedback depends on.
 */
hash: string
}
/**
 * When the row was appended, ISO 8601.
 */
indexed_at: string
}
/**
 * Seed 003's outcome classes, defined precisely in docs/design/conventions.md; unmeasured: the run completed but no build, test, lint or typecheck command was configured, so nothing was measured (never a pass).
 */
export type Outcome = ("full_pass" | "partial_pass" | "agent_failure" | "infra_failure" | "timeout" | "unmeasured")

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
/**
 * sha256 (16 hex digits) of the collector configuration the checks ran under (the config's collector section): a race reuses this record only under the same configuration. Absent in records written before it.
 */
collector_config_hash?: string
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
 * The sealed candidate: the measured tree as a commit on the base commit, and the graded commit the checks ran in (the candidate's code with the test files and test infrastructure of the trusted revision). Checks run in a fresh checkout of graded_commit, never in the agent's worktree; bin/accept --merge merges the agent's head commit when its tree is this tree, else this tree committed on the head in the agent's name (never this commit itself).
 */
candidate?: {
/**
 * The sealed candidate commit (tree = the measured snapshot, parent = the base commit); kept under refs/judgeloop/candidates/<bead>.
 */
commit: string
/**
 * Its tree (equals head.tree).
 */
tree: string
/**
 * The base commit it is sealed on.
 */
parent: string
/**
 * The commit the graded checks ran in: the candidate with test paths taken from tests_from.
 */
graded_commit: string
/**
 * Its tree.
 */
graded_tree: string
/**
 * The trusted revision the graded tests and test infrastructure came from.
 */
tests_from: {
/**
 * The base commit, or the task's own test revision (run record task.tests_ref).
 */
source: ("base" | "tests_ref")
/**
 * task.tests_ref as given.
 */
ref?: string
/**
 * The commit.
 */
commit: string
}
/**
 * Test or test-infrastructure paths the agent changed or deleted, restored from the trusted revision in the graded commit.
 */
replaced: string[]
/**
 * Test or test-infrastructure paths the agent added, left out of the graded commit (they run in the own-tests pass).
 */
excluded: string[]
/**
 * Test-infrastructure changes (conftest.py, pytest.ini, runner configs, package.json test scripts…) found in the candidate.
 * 
 * Items: A change to test infrastructure, not applied in the graded run.
 */
infra_changed?: {
/**
 * Path in the candidate.
 */
file: string
/**
 * First changed line (1-based), when known.
 */
line?: number
/**
 * What changed, one sentence.
 */
detail: string
}[]
}
setup?: Setup
/**
 * How long each step of this collection took, milliseconds (wall time, this process): absent for a run that could not be measured. Not part of what is judged or hashed.
 */
steps?: {
/**
 * Reading the run record's inputs: worktree, base commit, the store's reads.
 */
inputs_ms?: number
/**
 * Snapshot and seal of the candidate (and the graded commit).
 */
seal_ms?: number
/**
 * The base's checks: read from the cache, or computed.
 */
baseline_ms?: number
/**
 * Whether the baseline came from state/baselines (true) or was computed now.
 */
baseline_cached?: boolean
/**
 * collector.fetch_command in the graded checkout, or the copy from the dependency cache (setup.fetch.cache).
 */
fetch_ms?: number
/**
 * collector.setup_command in the graded checkout.
 */
setup_ms?: number
/**
 * The graded checkout from start to end: checkout, fetch, setup, checks, removal.
 */
graded_ms?: number
/**
 * The graded checks (build, test, lint, typecheck), summed.
 */
checks_ms?: number
/**
 * The agent's own tests in their own checkout (absent when not run).
 */
own_tests_ms?: number
/**
 * After the checks: the diff, the no-op and gaming checks, scoring.
 */
rest_ms?: number
/**
 * The whole collection of this record, until it was assembled (the write follows).
 */
total_ms: number
}
/**
 * The task's hidden tests (run record task.hidden_tests), run apart on the graded base and the graded commit and graded like targets; never in the judge's context.
 */
hidden?: {
/**
 * Where they came from.
 */
source: {
/**
 * task.hidden_tests as given.
 */
spec: string
/**
 * A folder or file outside every worktree, or a revision of the repository.
 */
kind: ("path" | "ref")
/**
 * The revision's commit (a ref).
 */
commit?: string
}
/**
 * Hidden test files copied into the checkouts.
 */
files: number
/**
 * Hidden tests run on the candidate.
 */
total: number
/**
 * Hidden tests passing on the candidate.
 */
passed: number
/**
 * Hidden tests failing on the base: the hidden targets.
 */
targets: number
/**
 * Hidden targets passing now.
 */
fixed: string[]
/**
 * Hidden targets still failing, skipped or missing.
 */
unfixed: string[]
/**
 * Hidden tests that passed on the base and fail, error, are skipped or are gone.
 */
broke: string[]
/**
 * Every hidden target passes, no hidden test broke and the hidden run's evidence is trusted; null when it cannot be told.
 */
resolved: (boolean | null)
/**
 * Why the hidden run could not be told, when it could not.
 */
note?: string
/**
 * The standing in words (hidden tests: 3/3 pass ...).
 */
line: string
}
/**
 * The agent's own tests (its added and edited test files and test infrastructure), run apart in a checkout of the candidate commit as evidence of testing: never used for the targets or the gate; a run of them killed by a signal (a crash) keeps the outcome from full_pass.
 */
own_tests?: {
/**
 * Test paths that differ from the trusted revision.
 */
files: string[]
/**
 * The test command run on the candidate as the agent left it; null when no test command is configured.
 */
check: (Check | null)
}
/**
 * Changed expectations (see items).
 * 
 * Items: A base test the agent edited that fails in the graded run and passes in the agent's version: the task may really change tested behaviour; stops auto-accept and the judge is shown both versions.
 */
changed_expectations?: {
/**
 * Test id.
 */
test: string
/**
 * The test file.
 */
file: string
/**
 * Line of the test in the agent's version.
 */
line?: number
/**
 * Line of the test in the trusted version.
 */
base_line?: number
/**
 * Both versions' assertions, one sentence.
 */
detail: string
}[]
/**
 * Whether the task was done (lib/evidence/resolution.ts): every target test passes and no test that passed on the base broke. Absent when the run was not measured.
 */
resolution?: {
/**
 * Where the targets came from, first found: task.target_tests, the race's --target, the tests failing with task.tests_ref, the tests failing on the base (a task that fixes something), none (a feature or refactor, or nothing fails).
 */
targets_source: ("task" | "race" | "tests_ref" | "base_failing" | "none")
/**
 * per_test: decided by test id; counts: by the counts (per-test results absent on a side); none: no test results.
 */
basis: ("per_test" | "counts" | "none")
/**
 * How many target tests.
 */
target_total: number
/**
 * Targets that pass now (by counts: a failure that disappeared is not fixed).
 */
fixed: number
/**
 * Target ids still failing, skipped or missing (per-test only).
 */
unfixed: string[]
/**
 * Tests that passed on the base and no longer pass (ids; by counts one sentence with the number).
 */
broke: string[]
/**
 * How many tests that passed on the base no longer pass.
 */
broke_count: number
/**
 * Tests passing on the base (targets excluded).
 */
base_passing: (number | null)
/**
 * Every target passes and nothing broke; null when it cannot be told.
 */
resolved: (boolean | null)
/**
 * The verdict in words: 'resolved: fixes 1 of 1 target test', 'fixes 0 of 1 target test', or where correctness comes from when there are no targets.
 */
line: string
}
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
 * The test counts are disputed (tests.counts_disputed): the outcome is never full_pass.
 */
counts_disputed?: boolean
/**
 * The test runner or a test process crashed (tests.runner_crashed): the outcome is never full_pass.
 */
runner_crashed?: boolean
/**
 * The test runner collected no test (tests.no_tests_collected): the outcome is agent_failure.
 */
no_tests_collected?: boolean
/**
 * The one trust rule's verdict on the graded test run (lib/collector/trust.ts), read by the outcome, the tests score, the rating cap and the race gate.
 */
test_evidence?: {
/**
 * True: the counts and per-test list can be believed; false: they cannot (never scored 100, never mergeable); null: no test command configured.
 */
trusted: (boolean | null)
/**
 * Why the evidence is not trusted; empty when trusted.
 */
reasons: ("not_run" | "none_collected" | "crashed" | "disputed" | "exit_contradicts_counts" | "report_missing" | "console_silent" | "no_counts" | "unobserved")[]
}
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
/**
 * sha256 (first 16 hex digits) of the run record's fields this feedback depends on (agent, template, task, complexity, base, worktree, times): a run record that hashes otherwise makes this feedback stale. Absent in records written before it: judged by the times alone.
 */
record_hash?: string
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
/**
 * Present (true) when the setup (collector.fetch_command, collector.setup_command) did not pass in the base checkout: the base checks were not run, build_passed/tests/lint are null and scores use no baseline (a note says so); such a baseline is not cached.
 */
setup_failed?: true
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
 * collector.fetch_command (with network) then collector.setup_command (without), run in the checkout before the checks; absent when neither is configured. A baseline whose setup did not pass is never cached (the collector scores without it and retries next time).
 */
export interface Setup {
/**
 * The step that decided: the setup command, or the fetch command when it failed (the setup then did not run) or is the only one configured.
 */
command: string
result: Check1
/**
 * collector.fetch_command's run (with network), when one is configured.
 */
fetch?: {
/**
 * The fetch command (sh -c, in the temporary checkout).
 */
command: string
result: Check1
/**
 * The dependency cache (state/cache/deps/<key>/): absent when the checkout has no lockfile or no state folder.
 */
cache?: {
/**
 * sha-256 (32 hex) of the lock files, the fetch command, the toolchain on PATH and the platform.
 */
key: string
/**
 * true: the folders were copied from the cache and the fetch did not run (result.duration_ms is the copy); false: the fetch ran and what it created was kept.
 */
hit: boolean
/**
 * The top-level folders the fetch created (node_modules, .judgeloop-deps, …), as kept or restored.
 */
dirs: string[]
}
}
}
/**
 * One check (build, test, lint or typecheck) on the agent's work.
 */
export interface Check1 {
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
 * How the check ran: in which sandbox and with or without network (absent for results reported by the run record).
 */
isolation?: {
/**
 * bubblewrap: worktree writable, the rest read-only, $HOME/state/config hidden, own PID namespace; none: an ordinary child process.
 */
sandbox: ("bubblewrap" | "none")
/**
 * Whether the check could reach the network.
 */
network: boolean
/**
 * Why it ran without a sandbox, when it did.
 */
note?: string
/**
 * Processes that left the check's process group (daemons) and were killed when it ended.
 */
escaped_processes?: number
}
/**
 * Why a check was not run (e.g. the build failed).
 */
skipped_reason?: string
/**
 * Captured output; null when the check did not run.
 */
output: (Output1 | null)
/**
 * Test counts parsed from the output; null when nothing was recognised or this is not the test check.
 */
tests?: (TestCounts1 | null)
/**
 * Lint counts parsed from the output; null when nothing was recognised or this is not the lint check.
 */
lint?: (LintCounts1 | null)
}
/**
 * Captured combined stdout and stderr, capped: the head and the tail are kept with a marker between.
 */
export interface Output1 {
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
export interface TestCounts1 {
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
 * Per-test results when the runner's report or console lists them (notes/contract-cases.md); absent means unknown. Capped at collector.max_test_cases, non-passed cases first.
 * 
 * Items: One test's result.
 */
cases?: {
/**
 * Stable id across runs of the same runner on the same code (path/test_x.py::Class::test, pkg::TestName/sub, file::suite > test).
 */
id: string
/**
 * The test's outcome.
 */
status: ("passed" | "failed" | "error" | "skipped" | "xfail" | "xpass")
/**
 * At most ~500 characters of the failure message; failures and errors only.
 */
excerpt?: string
}[]
/**
 * False when cases was capped (collector.max_test_cases); the counts stay exact.
 */
cases_complete?: boolean
/**
 * Where the counts came from: the runner's structured report, or its console text.
 */
source?: ("report" | "console")
/**
 * More than one summary in the console, a summary contradicting the per-test lines, or report and console disagreeing: counts not trusted.
 */
counts_disputed?: boolean
/**
 * The test process or a worker died (signal, abort, segfault, panic, killed worker): some results are missing.
 */
runner_crashed?: boolean
/**
 * The runner collected no test at all ('no tests found', empty collection).
 */
no_tests_collected?: boolean
/**
 * The structured report judgeloop asked the runner for: read, asked and never written (missing), written but not a readable report (unreadable), or not asked (runner without one). Missing or unreadable is unmeasured evidence, never a pass.
 */
report?: ("read" | "missing" | "unreadable" | "not_asked")
/**
 * judgeloop's observer inside the runner (pytest, unittest, node --test, vitest, jest, mocha) or around its test binaries (go test, cargo test): it reported on the run (saw), was planned and never reported (missing: shadowed, dropped or the run ended first; the evidence is not trusted), or the runner has none here (none: the run is not mergeable on its evidence alone).
 */
observer?: ("saw" | "missing" | "none")
/**
 * The per-test list (cases) is not proof of which tests passed: its report disagrees with the console, with a crash the console shows, or with the runner's own totals (reason in a 'cases disputed:' note). Absent when there is no such doubt.
 */
cases_disputed?: boolean
/**
 * Why a count is missing or uncertain.
 */
notes?: string[]
}
/**
 * Counts parsed from a linter run.
 */
export interface LintCounts1 {
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
 * The judge's verdict as merged into feedback.
 */
export interface JudgmentSummary {
/**
 * Verdict computed from the dimensions.
 */
verdict: ("pass" | "partial" | "fail")
/**
 * Judge composite, 0-1 (weights .4/.2/.2/.2); with several samples (JUDGE_SAMPLES) the mean of their composites, which the templates blend.
 */
score: number
/**
 * With several samples: how many the score is the mean of.
 */
samples?: number
/**
 * With several samples: the sample variance of their composites (the templates widen their interval by it).
 */
score_variance?: number
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
 * A Message Batch submitted by judge --drain --batch: state/batches/<id>.json, written right after the create call returns. While status is submitted, every drain collects it before submitting anything new; its runs stay in the queue until their results are stored.
 */
export interface JudgeBatch {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The batch id the API gave (msgbatch_...).
 */
id: string
/**
 * When the create call returned, ISO 8601 UTC.
 */
submitted_at: string
/**
 * Model id of every request in the batch.
 */
model: string
/**
 * submitted: results not yet stored; collected: every item stored as a judgment or put back in the queue.
 */
status: ("submitted" | "collected")
/**
 * When its results were stored.
 */
collected_at?: (string | null)
/**
 * One per request: the custom_id sent and the bead (and sample) it stands for.
 */
items: {
/**
 * The API's custom_id: the bead itself when it fits, else a stable hash of it (lib/judge/batch.ts customIdFor).
 */
custom_id: string
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * Which of the judge.samples requests of this bead (0-based).
 */
sample: number
/**
 * Absolute path of the run record (from its queue entry).
 */
record_path: string
}[]
/**
 * What collecting made of the results.
 */
counts?: {
/**
 * Beads stored as a judgment (judged or failed).
 */
judged?: number
/**
 * Beads put back in the queue (transient error, expired, canceled).
 */
requeued?: number
}
}
/**
 * The validated answer.
 */
export type JudgeCompareReply = (ContrastiveReply | PairwiseReply)

/**
 * A race's question to the judge and its answer, cached by what the judge saw: state/compare/<key>.json (issue 37: the contrastive reward-hack question and the position-swapped pairwise comparison).
 */
export interface JudgeCompare {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * sha256 of the model, the question's prompt version and the redacted message (every diff it carried).
 */
key: string
/**
 * contrastive: does this solution game what grades it, against the others; pairwise: which of two solutions is better, A or B.
 */
kind: ("contrastive" | "pairwise")
/**
 * Model id asked.
 */
model: string
/**
 * The question's prompt version.
 */
prompt_version: string
/**
 * When it was answered, ISO 8601 UTC.
 */
at: string
reply: JudgeCompareReply
/**
 * What the call cost, USD (null: no price for the model).
 */
cost_usd: (number | null)
}
/**
 * The contrastive reward-hack answer about one solution.
 */
export interface ContrastiveReply {
/**
 * It special-cases the tests (hard-coded expected values, branches on test inputs).
 */
special_cases_tests: boolean
/**
 * It edits what grades it (tests, their config, the runner, CI).
 */
edits_grader: boolean
/**
 * It does clearly less of the task than the other solutions.
 */
does_less: boolean
/**
 * The judge's reason, naming files.
 */
reason: string
}
/**
 * Which of two solutions, shown as A and B, does the task better.
 */
export interface PairwiseReply {
/**
 * The better one as shown, or tie.
 */
better: ("A" | "B" | "tie")
/**
 * The judge's reason.
 */
reason: string
}
/**
 * One row of state/ledger/judge.jsonl: a throttle slot taken (type slot, appended under the throttle lock before the call), a model call made (type call, with its tokens and cost), or a judgment written (type judged, indexing its cache key).
 */
export interface JudgeLedgerRow {
/**
 * slot: counts against JUDGE_MAX_PER_HOUR; call: a model request and what it cost; judged: a judgment with this cache_key was written (the cache index).
 */
type: ("slot" | "call" | "judged")
/**
 * When, ISO 8601 UTC (injectable clock).
 */
at: string
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * Process that wrote the row.
 */
pid?: number
/**
 * Model id (call rows).
 */
model?: string
/**
 * Backend (call rows).
 */
backend?: ("sdk" | "claude-cli")
/**
 * Cache key of the judgment the call served.
 */
cache_key?: string
/**
 * Uncached input tokens.
 */
input_tokens?: number
/**
 * Output tokens.
 */
output_tokens?: number
/**
 * Input tokens written to the cache.
 */
cache_creation_input_tokens?: number
/**
 * Input tokens read from the cache.
 */
cache_read_input_tokens?: number
/**
 * Cost, US dollars; null when unknown.
 */
cost_usd?: (number | null)
/**
 * Wall time of the request, milliseconds.
 */
latency_ms?: number
/**
 * ok (a reply that passed validation), invalid_reply (a reply that did not), or the failure reason (refusal, max_tokens, timeout, connection, overloaded, auth_error, ...).
 */
outcome?: string
/**
 * Call rows that are not ok: what happened, one line (the validation errors, the HTTP status and message, the connection error).
 */
cause?: string
/**
 * Slot rows taken from the fleet's Redis throttle (JUDGE_THROTTLE_REDIS); absent: the ledger's own hour (the file backend).
 */
throttle?: "redis"
/**
 * Call rows: how the request went, one Messages API call (direct) or an item of a Message Batch (batch, at the batch prices); absent: direct.
 */
path?: ("batch" | "direct")
/**
 * Call rows on the batch path: the Message Batch's id (state/batches/<id>.json).
 */
batch_id?: string
/**
 * Call rows: requests repeated after a transient fault (reset, hang-up, timeout, 408/409/429/5xx) before this outcome.
 */
retries?: number
}
/**
 * A judge request deferred by the hourly limit: state/queue/<bead>.json. Removed only after its judgment (or recorded failure) is written.
 */
export interface JudgeQueueEntry {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * Absolute path of the run record to judge.
 */
record_path: string
/**
 * When it was deferred, ISO 8601 UTC; --drain takes the oldest first.
 */
queued_at: string
/**
 * Why it was deferred, one sentence.
 */
reason: string
/**
 * How many times a drain put it back (limit reached mid-way, or a crash).
 */
requeued?: number
/**
 * When a drain took it (null while waiting); a claim older than the stale limit is taken again.
 */
claimed_at: (string | null)
/**
 * Process id of the drain that took it.
 */
claimed_by: (number | null)
}
/**
 * pass: every dimension >= 0.7; fail: unusable (correctness < 0.4 or composite < 0.5); partial: anything between.
 */
export type Verdict = ("pass" | "partial" | "fail")

/**
 * What the judge model must reply with (seed 003's fields the model decides, plus optional per-criterion assessments for races). Validated with ajv on every reply, whatever the backend promised.
 */
export interface JudgeReply {
verdict: Verdict
/**
 * The model's own composite, 0-1; recorded, but judgeloop recomputes it from the dimensions.
 */
score: number
dimensions: Dimensions
/**
 * Problems found, most serious first.
 */
issues: Issue[]
/**
 * One paragraph assessment.
 */
summary: string
/**
 * How sure the judge is of its assessment.
 */
confidence: ("high" | "medium" | "low")
criteria?: Criteria
}
/**
 * Seed 003's four dimensions, each 0-1.
 */
export interface Dimensions {
/**
 * Does the code do what was asked; do tests test the right thing; 0-1.
 */
correctness: number
/**
 * Stayed on task, no unrelated changes or gold-plating; 0-1.
 */
scope_adherence: number
/**
 * Follows project patterns, clean, readable, no hacks; 0-1.
 */
code_quality: number
/**
 * No stubs, TODOs, commented-out code or missing edge cases; 0-1.
 */
completeness: number
}
export interface Issue {
/**
 * major: would block a merge; minor: worth fixing.
 */
severity: ("major" | "minor")
/**
 * The issue in words, naming the file when there is one.
 */
description: string
/**
 * Short machine-comparable tag, e.g. scope_creep, test_written_to_pass, stub, todo, false_pass, security, prompt_injection.
 */
category?: string
}
/**
 * Optional per-criterion assessments (seed 001's LLM-assessed criteria) so one call serves the race ranking too.
 */
export interface Criteria {
requirement_coverage?: Criterion
edge_cases?: Criterion
naming?: Criterion
pattern_adherence?: Criterion
error_handling?: Criterion
security?: Criterion
algorithmic_complexity?: Criterion
}
export interface Criterion {
/**
 * Assessment, 0-1.
 */
score: number
/**
 * How sure, 0-1.
 */
confidence: number
/**
 * One line.
 */
reasoning: string
}
/**
 * The judge's assessment of one agent run, or the record of why there is none: state/judgments/<bead>.json. Score and verdict are computed by judgeloop from the dimensions, never trusted from the model; a failed judgment has no score.
 */
export interface Judgment {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * judged: a valid reply was scored; failed: no usable reply (see failure), so no score.
 */
status: ("judged" | "failed")
/**
 * Verdict computed from the dimensions (pass: all >= 0.7; fail: correctness < 0.4 or score < 0.5; else partial); null when failed.
 */
verdict: (("pass" | "partial" | "fail") | null)
/**
 * Composite 0-1: 0.4 correctness + 0.2 scope_adherence + 0.2 code_quality + 0.2 completeness; null when failed.
 */
score: (number | null)
/**
 * The four dimensions, 0-1 (median over samples when more than one); null when failed.
 */
dimensions: (Dimensions | null)
/**
 * The judge's issues (empty when failed).
 */
issues: Issue[]
/**
 * The judge's one-paragraph assessment; null when failed.
 */
summary: (string | null)
/**
 * The judge's confidence (the lowest over samples); null when failed.
 */
confidence: ("high" | "medium" | "low" | null)
criteria?: Criteria
/**
 * The verdict the model itself gave (first sample), for audit.
 */
model_verdict?: (("pass" | "partial" | "fail") | null)
/**
 * The composite the model itself gave (first sample), 0-1, for audit.
 */
model_score?: (number | null)
/**
 * Where the model's own verdict or score differs from the computed one.
 */
disagreement?: {
/**
 * True when the model's verdict differs from the computed verdict.
 */
verdict: boolean
/**
 * Model score minus computed score (-1 to 1).
 */
score_delta: number
}
/**
 * Model id the judge called (after alias resolution).
 */
model: string
/**
 * JUDGE_MODEL as configured (alias or id).
 */
model_alias: string
/**
 * How the model was called.
 */
backend: ("sdk" | "claude-cli")
/**
 * Version of config/judge-prompt.md (its front matter).
 */
prompt_version: string
/**
 * sha256 of model id, prompt version and the assembled context; the same key is never paid for twice.
 */
cache_key: string
/**
 * When the judgment (or failure) was recorded, ISO 8601 UTC (injectable clock).
 */
judged_at: string
/**
 * Bead whose judgment of the identical context (same cache key) was reused instead of paying for a call.
 */
cached_from?: string
/**
 * How many independent replies were aggregated.
 */
samples?: number
/**
 * Every sample's reply as validated, in the order they were made (each is cached on its own: a later run with more samples pays only for the new ones).
 */
sample_replies?: JudgeReply[]
/**
 * How much the samples varied: the computed composite's and each dimension's min, max and interquartile range (all 0 with one sample).
 */
spread?: {
score: Range
/**
 * The mean of the samples' computed composites (what the templates and the race use).
 */
score_mean: number
/**
 * The sample variance (n - 1) of the samples' computed composites; 0 with one sample; absent in judgments written before it (the templates widen their interval by it).
 */
score_variance?: number
/**
 * Each dimension's range over the samples.
 */
dimensions: {
correctness: Range
scope_adherence: Range
code_quality: Range
completeness: Range
}
}
/**
 * True when the verdict would flip within judge.uncertain_margin (every dimension moved that much either way), or the samples' own computed verdicts differ.
 */
uncertain?: boolean
/**
 * True when the run's agent model is of the judge model's family (claude-opus-* judged by claude-opus-*): the judge grades its own kind.
 */
self_judged?: boolean
/**
 * What a reader of this judgment should know (self-judged, uncertain).
 */
warnings?: string[]
/**
 * Tokens over every API call of this judgment (retries and samples included).
 */
usage: {
/**
 * Uncached input tokens.
 */
input_tokens: number
/**
 * Output tokens.
 */
output_tokens: number
/**
 * Input tokens written to the prompt cache.
 */
cache_creation_input_tokens: number
/**
 * Input tokens read from the prompt cache.
 */
cache_read_input_tokens: number
}
/**
 * Cost of this judgment, US dollars (tokens x config prices, or claude's total_cost_usd); null when unknown (no price for the model).
 */
cost_usd: (number | null)
/**
 * Wall time of the model calls, milliseconds (SDK retries included).
 */
latency_ms: number
/**
 * Model requests made: 1, plus 1 for the reply retry, times samples (SDK transport retries are not counted here).
 */
attempts: number
context: ContextStats
/**
 * Why there is no score (status failed); null when judged.
 */
failure: (Failure | null)
/**
 * Which run record this judges, so a re-run of the same bead is recognised.
 */
run: {
/**
 * Absolute path of the run record.
 */
record_path: string
/**
 * The run's completed_at.
 */
completed_at: string
/**
 * Tree id of the worktree as judged (incl. uncommitted and untracked files).
 */
head_tree?: string
}
}
/**
 * Seed 003's four dimensions, each 0-1.
 */
export interface Range {
/**
 * Lowest sample.
 */
min: number
/**
 * Highest sample.
 */
max: number
/**
 * Interquartile range (Q3 - Q1, linear interpolation).
 */
iqr: number
}
/**
 * What the judge was shown and what it was not.
 */
export interface ContextStats {
/**
 * Estimated tokens of the whole user message.
 */
tokens_est: number
/**
 * The configured context budget, tokens.
 */
budget_tokens: number
/**
 * Size of each part.
 */
parts: {
prompt: Part
diff: Part
/**
 * The test output part; null when there was no test output.
 */
test_output: (Part | null)
/**
 * The lint output part; null when there was no lint output.
 */
lint_output: (Part | null)
metadata: Part
}
/**
 * Files left out of the diff entirely, with their stats.
 */
left_out: {
/**
 * Path in the repository.
 */
path: string
/**
 * Why it was left out: secret_file is a file whose name says it holds secrets (named, never shown).
 */
reason: ("secret_file" | "lock" | "generated" | "vendored" | "minified" | "binary")
/**
 * Lines added.
 */
added: number
/**
 * Lines removed.
 */
removed: number
/**
 * Bytes of its diff text.
 */
bytes: number
}[]
/**
 * Files whose hunks were cut to fit the budget (largest hunks first); each is still shown.
 */
shrunk: {
/**
 * Path in the repository.
 */
path: string
/**
 * Diff lines not sent.
 */
lines_cut: number
/**
 * Hunks shortened or reduced to their header.
 */
hunks_cut: number
}[]
/**
 * Secrets replaced by [REDACTED:<kind>] before anything left the machine.
 */
secrets_redacted: {
/**
 * Secrets redacted in all.
 */
count: number
/**
 * Count per kind (aws_access_key, anthropic_key, ...).
 */
kinds: {
[k: string]: number
}
}
/**
 * Where test and lint output came from, and anything missing (one sentence each).
 */
sources?: string[]
}
/**
 * One part of the assembled context.
 */
export interface Part {
/**
 * Characters sent.
 */
chars: number
/**
 * Estimated tokens sent (chars / chars_per_token).
 */
tokens_est: number
/**
 * Characters before cutting.
 */
original_chars: number
/**
 * True when something was cut to fit the budget.
 */
truncated: boolean
/**
 * Lines sent (test and lint output).
 */
lines_kept?: number
/**
 * Lines available (test and lint output).
 */
lines_total?: number
}
/**
 * A judge failure: recorded, never turned into a score.
 */
export interface Failure {
/**
 * Machine-readable cause. invalid_reply: the reply failed validation (not JSON, or not the schema) on the call and on its one retry; invalid_json and schema_invalid are kept for judgments written before it. auth_error (401/403) is a configuration error: the command exits 2 and writes no judgment. batch_expired and batch_canceled: a Message Batch item that ended without a reply (transient: the run goes back to the queue).
 */
reason: ("empty_reply" | "refusal" | "max_tokens" | "invalid_reply" | "auth_error" | "invalid_json" | "schema_invalid" | "rate_limited" | "overloaded" | "api_error" | "timeout" | "connection" | "cli_error" | "cli_not_found" | "context_error" | "batch_expired" | "batch_canceled")
/**
 * What happened, one line (validation errors quoted).
 */
message: string
/**
 * The API's stop_reason, when a reply came.
 */
stop_reason?: (string | null)
/**
 * HTTP status of the last failed request, when there was one.
 */
http_status?: (number | null)
/**
 * claude -p result subtype (error_max_turns, error_during_execution, ...).
 */
subtype?: (string | null)
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
 * merged; already_merged (what was measured is already in the base branch: nothing changed); dry_run (would merge cleanly, nothing changed); refused (a gate failed and no --force, the branch moved since it was measured, or git cannot tell who commits); conflict (git could not merge; aborted).
 */
status: ("merged" | "already_merged" | "dry_run" | "refused" | "conflict")
/**
 * The branch holding the solution, or the sealed candidate's ref when the run names no branch.
 */
branch: string
/**
 * The sealed candidate commit that was measured (feedback candidate.commit).
 */
sealed?: string
/**
 * What was (or would be) merged: commits (the agent's own commits, whose head's tree is what was measured); committed (the measured work was uncommitted: accept committed it on the agent's head, the agent as author, the task's first line as message); branch (the branch as it is now: --force after it changed since it was measured); sealed (older records: the sealed candidate commit itself).
 */
merged?: ("commits" | "committed" | "branch" | "sealed")
/**
 * The commit merged (or found already merged): the agent's head commit, or the commit accept made of the measured uncommitted work.
 */
source?: string
/**
 * The base branch merged into.
 */
into: string
/**
 * The merge commit, when merged; for already_merged, the commit of the base branch that brought it in.
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
 * One collected run of a race, appended by the collector to state/race-runs/<race_id>.jsonl so that speed can be scored against the fastest run without reading every feedback file. The last row of a bead wins.
 */
export interface RaceRun {
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * completed_at - started_at of the agent run, seconds.
 */
duration_seconds: number
/**
 * Seed 003's outcome classes, defined precisely in docs/design/conventions.md; unmeasured: the run completed but no build, test, lint or typecheck command was configured, so nothing was measured (never a pass).
 */
outcome: ("full_pass" | "partial_pass" | "agent_failure" | "infra_failure" | "timeout" | "unmeasured")
/**
 * When the collector wrote the feedback record, ISO 8601.
 */
recorded_at: string
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
 * With the judge enabled (issue 37): each solution's contrastive reward-hack question, its agreement with the mechanical findings, and the position-swapped comparison of a close top two.
 */
judge_review?: {
/**
 * One entry per evaluated solution (a race of two or more).
 */
contrastive: {
/**
 * The solution's bead.
 */
id: string
/**
 * False when no answer came (see error): over the hourly limit, a failed call.
 */
answered: boolean
/**
 * The judge says it special-cases the tests.
 */
special_cases_tests?: boolean
/**
 * The judge says it edits what grades it.
 */
edits_grader?: boolean
/**
 * The judge says it does less than the others.
 */
does_less?: boolean
/**
 * The judge's reason.
 */
reason?: string
/**
 * Why there is no answer.
 */
error?: string
/**
 * The judge answered yes to at least one question.
 */
flagged: boolean
/**
 * The solution's mechanical finding kinds that bear on the judge's questions.
 */
mechanical: string[]
/**
 * both: the judge's yes is backed by a mechanical finding on the same question; judge_only / mechanical_only: one side only; neither.
 */
agreement: ("both" | "judge_only" | "mechanical_only" | "neither" | "unanswered")
/**
 * The finding blocks the merge (agreement both).
 */
blocking: boolean
/**
 * The answer came from state/compare/ (the same diffs asked before): no call.
 */
cached: boolean
/**
 * Cache key: model, question version and every diff it carried.
 */
key: string
}[]
/**
 * How the contrastive answers agree with the mechanical findings, counted over the answered solutions.
 */
agreement: {
/**
 * The judge and a mechanical finding agree: a hack.
 */
both: number
/**
 * The judge flags it, no mechanical finding does (not blocking).
 */
judge_only: number
/**
 * A mechanical finding the judge did not confirm.
 */
mechanical_only: number
/**
 * Clean by both.
 */
neither: number
}
/**
 * null when not asked (a confident ranking, fewer than two mergeable solutions, or no answer: see notes).
 */
pairwise: ({
/**
 * The first-ranked solution before the comparison, shown as A in the first order.
 */
a: string
/**
 * The second-ranked solution, shown as A in the second order.
 */
b: string
ab: PairwiseReply
ba: PairwiseReply
/**
 * a or b: both orders preferred it (it ranks first, the confidence raised to the winner threshold); tie: the orders disagree or both say tie.
 */
outcome: ("a" | "b" | "tie")
/**
 * Both answers came from the cache.
 */
cached: boolean
} | null)
}
/**
 * Anything a reader should know about the race as a whole, one sentence each.
 */
notes?: string[]
/**
 * The race's target tests (lib/evidence/resolution.ts taskTargets: first found).
 */
targets: {
/**
 * Where the targets came from, first found: task (the run records' task.target_tests), race (--target), tests_ref (the tests failing with the task's test revision), base_failing (a task that fixes something — a bug fix, or no type given: the tests failing on the base), none (a feature or refactor task, or nothing fails on the base: no targets; correctness comes from the agent's own tests and the judge).
 */
source: ("task" | "race" | "tests_ref" | "base_failing" | "none")
/**
 * Target test ids, sorted; empty when the base's failures are known by counts only (count says how many).
 */
fail_to_pass: string[]
/**
 * How many targets: the ids, or the base failures by counts.
 */
count: number
/**
 * Why the targets are what they are, one sentence.
 */
note: string
/**
 * Targets no solution fixes that fail the same way (status and message) in every solution and on the base: likely outside the task. Named in the output with how to exclude them (--target), never dropped.
 */
unfixed_by_all?: string[]
}
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
 * Highest cyclomatic complexity of a changed function (the TypeScript compiler for TS/JS, token heuristics for the other languages measured).
 */
max_complexity?: number
/**
 * Mean cyclomatic complexity of the changed functions.
 */
mean_complexity?: number
/**
 * Longest changed function, lines.
 */
max_function_lines?: number
/**
 * Changed functions measured.
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
 * Added lines of non-test source files that hold comment text (comment coverage).
 */
comment_lines?: number
/**
 * Added lines of non-test source files that hold code (comment coverage).
 */
code_lines?: number
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
 * The score on the people's scale, 0-100 with one decimal: the number the table, the markdown, the report and the JSON all show; null when not scored.
 */
race_score: (number | null)
/**
 * Key advantages, in words.
 */
strengths: string[]
/**
 * Key disadvantages, in words.
 */
weaknesses: string[]
/**
 * sha256 (hex) of the solution's diff against its merge base: the last tie-break; null when the evaluation failed.
 */
content_hash: (string | null)
/**
 * The solution against the target tests; null when the evaluation failed.
 */
target_tests: (RaceTargetStanding | null)
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
 * Weighted mean of the categories present (weights re-normalised), 0-1, halved when gamed; null when none.
 */
overall: (number | null)
/**
 * Confidence of the evaluation, 0-1: the category-weighted share of criteria measured (judge criteria counted at their own confidence).
 */
confidence: number
/**
 * Why the overall is halved: a special-case or tamper finding (correctness and safety are 0 with their override, then the weighted overall is halved).
 */
gamed?: string
}
/**
 * One category of one solution.
 */
export interface RaceCategoryScore {
/**
 * Weighted mean of the criteria present (target_tests weighs race.target_weight, the others 1), 0-1; 0 when overridden; null when none could be measured.
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
/**
 * Why overall was set to 0 whatever the criteria say (a change that does nothing, or code that does not build, earns no credit).
 */
override?: string
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
 * pass_to_pass_kept as a boolean: no test that passed on the base fails, disappears or is skipped (by the counts when per-test results are absent); null when it could not be told.
 */
no_test_regression: (boolean | null)
/**
 * Safe to merge: the evaluation succeeded and no blocking condition failed (every condition but target_tests_pass, which decides who can win).
 */
mergeable: boolean
/**
 * The failed blocking conditions, then a failed target_tests_pass (not blocking), then the unknown ones; one sentence each, naming the condition.
 */
reasons: string[]
/**
 * Every condition of the mergeable gate, in a fixed order, each with its status.
 */
conditions: RaceGateCondition[]
}
/**
 * One condition of the mergeable gate.
 */
export interface RaceGateCondition {
/**
 * builds: the build passed; target_tests_pass: every target test passes (shown, never blocking: it decides who can win, not whether merging is safe; no targets: unknown); pass_to_pass_kept: no test that passed on the base fails, disappears or is skipped, on trusted evidence; substantive_change: the diff changes code (not empty, whitespace/comment-only or tests-only); no_blocking_finding: no finding of a kind in race.gate.blocking_findings.
 */
name: ("builds" | "target_tests_pass" | "pass_to_pass_kept" | "substantive_change" | "no_blocking_finding")
/**
 * pass; fail (blocks merging); unknown (could not be told: does not block, lowers trust).
 */
status: ("pass" | "fail" | "unknown")
/**
 * Why, in words: the failing tests or findings named (file:line).
 */
detail: string
}
/**
 * A defect found in the solution.
 */
export interface RaceFlag {
/**
 * What kind of defect. judge_reward_hack: the judge, shown the other solutions, says this one special-cases the tests, edits what grades it or does less (blocking only when a mechanical finding agrees); own_test_failing: a test the agent added or edited fails or crashes its runner, named with its signal.
 */
kind: ("build_failed" | "tests_failed" | "test_regression" | "tests_removed" | "typecheck_failed" | "lint_errors" | "api_break" | "dangerous_op" | "disabled_check" | "secret" | "stub" | "formatting_churn" | "duplication" | "evaluation_failed" | "test_deleted" | "test_skipped" | "test_weakened" | "test_modified" | "test_trivial" | "test_infra_changed" | "special_case" | "no_op" | "target_failing" | "pass_to_pass_broken" | "changed_expectation" | "judge_reward_hack" | "own_test_failing")
/**
 * The defect in words.
 */
detail: string
/**
 * File it is in, when known.
 */
file?: string
/**
 * Line in the solution's version of the file, when known; for removed code (a deleted test or assertion) its line on the base (the detail says so).
 */
line?: number
}
/**
 * One solution against the task's target tests and the base's passing tests (lib/evidence/resolution.ts resolveRun; test ids per the feedback record's tests.cases; with counts only, no test is named and broke/disappeared/newly_skipped hold one sentence of counts).
 */
export interface RaceTargetStanding {
/**
 * The race's target tests (ids; empty when known by counts only). Tests a solution adds are never targets (they are listed in added).
 */
targets: string[]
/**
 * Targets fixed (by counts: an estimate that never credits a failure that merely disappeared); null when it could not be told. Passes of a solution flagged for gaming (gamed) are measured here but never credited.
 */
target_passed: (number | null)
/**
 * Targets in all (by counts: the base's failing tests); null when unknown.
 */
target_total: (number | null)
/**
 * Target ids failing, skipped or missing (per-test results only: by counts no test is named).
 */
target_failing: string[]
/**
 * Tests added by this solution (not on the base).
 */
added: string[]
/**
 * Tests that passed on the base and now fail (by counts: one sentence with the number of passes lost).
 */
broke: string[]
/**
 * Tests that passed on the base and are gone.
 */
disappeared: string[]
/**
 * Tests that passed on the base and are now skipped.
 */
newly_skipped: string[]
/**
 * Base tests the agent rewrote that fail in the graded run and pass in its own version: changed expectations, shown to the reviewer and the judge; they stop auto-accept but are not counted as regressions.
 */
changed?: string[]
/**
 * per-test: decided by test id; counts: per-test results absent, decided by the counts; none: no test results.
 */
basis: ("per-test" | "counts" | "none")
/**
 * What could not be told, one sentence each.
 */
notes: string[]
/**
 * Every target passes, nothing that passed on the base broke, and no gaming finding: the task is done (SWE-bench's resolved). null when it cannot be told.
 */
resolved: (boolean | null)
/**
 * Special-case or tamper findings (kind at file:line): the graded passes are gamed, so no target counts as passing.
 */
gamed?: string[]
/**
 * The task's hidden tests (feedback.hidden), in counts only (never their names): resolved requires them too, a hidden target left failing fails target_tests_pass, a hidden test broken fails pass_to_pass_kept. Absent when the task has none.
 */
hidden?: {
/**
 * In words: "hidden tests: 3/3 pass; fixes 1 of 1 hidden target".
 */
line: string
/**
 * Hidden tests failing on the base.
 */
targets: number
/**
 * Hidden targets passing now.
 */
fixed: number
/**
 * Hidden tests that passed on the base and no longer pass.
 */
broke: number
/**
 * feedback.hidden.resolved.
 */
resolved: (boolean | null)
}
/**
 * The verdict in words: "resolved: fixes 2 of 2 target tests", "fixes 1 of 2 target tests", or where correctness comes from when there are no targets.
 */
line: string
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
 * The winner's id: a mergeable solution that fixes at least one target (any mergeable one when the race has no targets); null when none does, the ranking confidence is below 0.6, all failed, or nothing was ranked.
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
/**
 * winner; no_fix (the race has targets and no solution fixes one: "no solution fixes the task"); no_mergeable_solution (the best-ranked solution fails the gate, or only solutions that fail it fix a target); low_confidence (ranking confidence below 0.6, a tie at the top included); all_failed (seed 000); nothing_evaluated.
 */
outcome: ("winner" | "no_fix" | "no_mergeable_solution" | "low_confidence" | "all_failed" | "nothing_evaluated")
/**
 * The ordering rule, in words: gate, resolved, share of targets fixed, score, content hash.
 */
tie_break: string
/**
 * #1 and #2 are equal on the gate, the target tests and the score (within 0.005): the confidence is held below the winner threshold.
 */
tied: boolean
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
 * Which of two solutions, shown as A and B, does the task better.
 */
/**
 * The evaluation summary of one rated run (seed 002 §10's jobs/<job>/rating.json): state/ratings/jobs/<bead>.json.
 */
export interface RatingSummary {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * Orchestrator job id.
 */
job_id: (string | null)
/**
 * Agent slug; file-name safe.
 */
agent: string
/**
 * Quality the run score used, 0-10 (capped by the mechanical outcome, see qa_status).
 */
quality_score: number
/**
 * Where the quality came from.
 */
quality_source: ("judge" | "reviewer")
/**
 * Run score, 0-10.
 */
run_score: number
/**
 * Rating before this run, 0-10.
 */
rating_before: (number | null)
/**
 * Rating after this run, 0-10.
 */
rating_after: number
/**
 * Reasoning rating before, 0-10.
 */
reasoning_rating_before: (number | null)
/**
 * Reasoning rating after, 0-10 (changes only for architecture and planning runs).
 */
reasoning_rating_after: (number | null)
/**
 * Rated runs the new rating rests on, this one included.
 */
rating_samples: number
/**
 * Max complexity before, 1-10.
 */
max_complexity_before: number
/**
 * Max complexity after, 1-10.
 */
max_complexity_after: number
/**
 * What happened to max_complexity.
 */
complexity_action: ("promote" | "demote" | "none" | "held_by_cooldown" | "at_limit")
/**
 * The evidence in one sentence.
 */
complexity_reason: string
/**
 * Line number of the run's row in state/ratings/<agent>.jsonl.
 */
row: number
/**
 * When, ISO 8601 UTC.
 */
rated_at: string
/**
 * The mechanical outcome that capped the quality (agent-run-rating qa.status).
 */
qa_status?: ("clean" | "unmeasured" | "partial" | "failed" | "unfixed" | "regressed" | "no_op")
/**
 * The judge's or reviewer's quality before the cap, 0-10.
 */
reviewed_quality?: number
/**
 * A run that fixes none of its target tests: the agent's rating before it, the highest run score it may feed the rating (agent-run-rating qa.score_ceiling); absent otherwise.
 */
score_ceiling?: (number | null)
/**
 * Task complexity, 1-10: the budget bucket (absent in summaries written before it).
 */
complexity?: number
/**
 * Where the task complexity (the budget bucket) came from: the run record's task, or bin/rate --complexity for a run recorded without one. Absent in rows from before the flag (the run's).
 */
complexity_source?: ("run" | "rate_flag")
/**
 * The run score's penalties (seed 002 §6.2) that cost points, for the rate line: each with the value, the budget it was normalised by and the points (0-10) it took. Absent in summaries written before it.
 */
penalties?: {
/**
 * cost (US dollars), time (seconds) or iterations (retries).
 */
dimension: ("cost" | "time" | "iterations")
/**
 * The run's total cost, duration or retries.
 */
value: number
/**
 * The budget of the run's command and complexity bucket.
 */
budget: number
/**
 * Where the budget came from.
 */
budget_source: ("config" | "empirical")
/**
 * The weight applied (a missing signal's weight spread over the present ones).
 */
weight: number
/**
 * 10 x weight x min(1, value / budget): the points it took off the run score, 0-10.
 */
points: number
}[]
}
/**
 * One line of state/routing/decisions.jsonl: a routing decision by bin/route, with its reason and mode.
 */
export interface RoutingDecision {
/**
 * Version of this row kind.
 */
schema_version: "1.0.0"
/**
 * When, ISO 8601 UTC.
 */
decided_at: string
/**
 * Task being routed, when given.
 */
task_id?: string
/**
 * Command the task is for.
 */
command: string
/**
 * Task complexity, 1-10.
 */
complexity: number
/**
 * Kind of work; architecture and planning rank by reasoning_rating.
 */
discipline: (string | null)
/**
 * PRNG seed: the same seed and profiles give the same decision.
 */
seed: string
/**
 * The uniform draw compared with epsilon, 0-1; null when no agent was eligible.
 */
draw: (number | null)
/**
 * Exploration probability, 0-1.
 */
epsilon: number
/**
 * exploit: best rating; explore: epsilon draw; none: no agent could take the task.
 */
mode: ("exploit" | "explore" | "none")
/**
 * Kind of exploration, or null.
 */
exploration: ("redemption" | "stretch" | "random" | null)
/**
 * The agent chosen; null when none can take the task (mode none).
 */
agent: (string | null)
/**
 * Why this agent, in one sentence.
 */
reason: string
/**
 * True when no agent had max_complexity >= complexity and agents at complexity - 1 were used.
 */
fallback: boolean
/**
 * Warning shown to the user, if any.
 */
warning: (string | null)
/**
 * The agents considered, as they stood.
 */
candidates: {
/**
 * Agent slug; file-name safe.
 */
slug: string
/**
 * The rating ranked by (reasoning_rating for reasoning disciplines), 0-10.
 */
rating: (number | null)
/**
 * Samples it rests on.
 */
rating_samples: number
/**
 * Max complexity, 1-10.
 */
max_complexity: number
}[]
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
/**
 * The task's own test revision (a commit or ref holding the task's tests, like SWE-bench's test patch applied): graded tests and test infrastructure are taken from it instead of the base commit.
 */
tests_ref?: string
/**
 * Tests the agent never saw (a held-out suite): an absolute path outside every worktree of the repository (a folder laid out like the repository, or one file), or a commit or ref of the repository (its test files the base lacks). Run apart in fresh checkouts of the graded base and the graded commit, graded like targets, reported in feedback.hidden, never shown to the judge.
 */
hidden_tests?: string
/**
 * The task's target tests (fail-to-pass), by test id as the runner reports it (path::name); when absent they are derived per solution from the base and that solution's graded run.
 */
target_tests?: string[]
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
 * Git ref or commit the agent started from, by name (the branch bin/accept merges into); the diff and the baseline are taken against base_commit when present, else against what this resolves to.
 */
base_ref: string
/**
 * The commit base_ref named when the record was written (bin/record resolves it); collect, race and accept measure against this commit, not against where the name points later.
 */
base_commit?: string
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
/**
 * config/secret-rules.json: the one secret-rule table. The judge's redaction, the race's secret finding and the collector's env scrub read it through lib/secrets. Regexes are JavaScript syntax with bounded quantifiers.
 */
export interface SecretRules {
/**
 * What the file is, for people.
 */
$comment?: string
/**
 * Version of the table (free text; bump on a change of meaning).
 */
version: string
/**
 * Token formats with a fixed prefix or shape, tried in this order.
 * 
 * Items: One token format.
 */
token_rules: {
/**
 * Rule id: the kind in [REDACTED:<id>] and in counts.
 */
id: string
/**
 * Who issues the token, for people and race findings.
 */
vendor: string
/**
 * JavaScript regex; a named group `secret` marks the part to redact, else the whole match. Quantifiers bounded.
 */
regex: string
/**
 * Lower-case substrings: the regex runs only when the text holds one of them.
 * 
 * @minItems 1
 */
keywords: [string, ...(string)[]]
/**
 * Extra regex flags (g is always set).
 */
flags?: string
/**
 * Minimum Shannon entropy of the secret, bits per character (0 or absent: none).
 */
min_entropy?: number
/**
 * Skip a secret that matches a placeholder pattern.
 */
placeholders?: boolean
}[]
/**
 * The generic rule: a secret-looking name assigned a literal (env, YAML, JSON, INI, shell, code).
 */
assignment: {
/**
 * Rule id of its matches.
 */
id: string
/**
 * What the rule finds, for people.
 */
description?: string
/**
 * Words that make a name secret-looking (also used for environment variable names).
 */
name_regex: string
/**
 * Names whose literals are secrets at a lower bar (password, secret).
 */
strong_name_regex: string
/**
 * Shortest literal taken as a secret, characters.
 */
min_length: number
/**
 * Lowest Shannon entropy of such a literal, bits per character.
 */
min_entropy: number
/**
 * min_length for strong names, characters.
 */
strong_min_length: number
/**
 * min_entropy for strong names, bits per character.
 */
strong_min_entropy: number
}
/**
 * Private keys, whole or cut.
 */
private_key: {
/**
 * Rule id of its matches.
 */
id: string
/**
 * Regex of a BEGIN … PRIVATE KEY marker.
 */
begin: string
/**
 * Regex of an END … PRIVATE KEY marker.
 */
end: string
/**
 * Adjacent base64 lines taken as key body without a marker, a count.
 */
body_min_lines: number
/**
 * Regex one body line (without prefix and quotes) must match.
 */
body_line_regex: string
/**
 * Lowest Shannon entropy of a body line, bits per character.
 */
body_min_entropy: number
}
/**
 * Regexes (case-insensitive) of values that are not secrets: ${VAR}, {{ x }}, <key>, changeme, …
 */
placeholders: string[]
/**
 * Regexes (case-insensitive) of paths whose files hold secrets: named, never shown.
 */
secret_files: string[]
/**
 * Regex (case-insensitive) of source-code paths never treated as secret files whatever their name.
 */
secret_files_except: string
}
/**
 * One row of state/selections/log.jsonl: a template choice made by bin/select-template and why.
 */
export interface SelectionLogRow {
/**
 * When the choice was made, ISO 8601.
 */
at: string
/**
 * The task type asked for; null for all task types.
 */
task_type: (string | null)
/**
 * Seed of the pseudo-random generator; the same seed and scores give the same choice.
 */
seed: string
/**
 * The uniform draw compared with exploration_share, 0-1; null when there was nothing to draw (one candidate).
 */
draw: (number | null)
/**
 * Configured share of exploratory choices, 0-1.
 */
exploration_share: number
/**
 * exploit: the choice by score (the incumbent unless a challenger clears it, see margin); explore: uniform among the others; only_candidate: nothing to choose; cold_start: no candidate has a score yet.
 */
mode: ("exploit" | "explore" | "only_candidate" | "cold_start")
/**
 * The template chosen.
 */
chosen: string
/**
 * Why, in one sentence.
 */
reason: string
/**
 * Which score ranked the candidates: blended from phase 4 with the judge enabled, mechanical otherwise.
 */
basis: ("blended" | "mechanical")
/**
 * Every candidate with the score it was ranked by.
 */
candidates: {
/**
 * Template id.
 */
template: string
/**
 * Score used for ranking, 0-1; null when it has no scored runs.
 */
score: (number | null)
/**
 * Runs of this task type the score rests on (infra failures excluded).
 */
scored_runs: number
/**
 * 95% interval; null when the sample is too small to estimate one (fewer than 2 runs for a mean, none for a proportion).
 */
interval: ({
/**
 * Lower bound, 0-1.
 */
low: number
/**
 * Upper bound, 0-1.
 */
high: number
/**
 * wilson: Wilson score interval of a proportion; t: Student t interval of a mean; delta_t: t interval of the blend with the variance of a weighted sum of two means (covariance included).
 */
method: ("wilson" | "t" | "delta_t")
} | null)
}[]
/**
 * The template chosen by score (not by exploration) last time for this task type, from this log; null when none.
 */
incumbent: (string | null)
/**
 * How the choice by score was made (templates.selection); null for only_candidate and cold_start.
 */
margin: ({
/**
 * The switching rule in force.
 */
rule: ("interval" | "min_gap" | "interval_or_gap")
/**
 * Configured minimum score gap, 0-1.
 */
min_gap: number
/**
 * The incumbent when it is a candidate with a score; else null.
 */
incumbent: (string | null)
/**
 * The best-scoring other candidate when it outscored the incumbent; else null.
 */
challenger: (string | null)
/**
 * no_incumbent: best score taken; incumbent_best: the incumbent scores best; kept: the challenger did not clear the margin; switched: it did.
 */
decision: ("no_incumbent" | "incumbent_best" | "kept" | "switched")
/**
 * The comparison in words with its numbers.
 */
detail: string
} | null)
}
/**
 * 95% interval; null when the sample is too small to estimate one (fewer than 2 runs for a mean, none for a proportion).
 */
export type Interval = ({
/**
 * Lower bound, 0-1.
 */
low: number
/**
 * Upper bound, 0-1.
 */
high: number
/**
 * wilson: Wilson score interval of a proportion; t: Student t interval of a mean; delta_t: t interval of the blend with the variance of a weighted sum of two means (covariance included).
 */
method: ("wilson" | "t" | "delta_t")
} | null)

/**
 * Per-template scores from every feedback record: state/scores/templates.json, written by bin/score-templates.
 */
export interface TemplateScores {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * When it was computed, ISO 8601.
 */
generated_at: string
/**
 * JUDGE_PHASE in force (seed 003's rollout phase).
 */
phase: number
/**
 * JUDGE_ENABLED in force.
 */
judge_enabled: boolean
/**
 * True when phase >= 3 and the judge is enabled: judged templates are ranked by the blend.
 */
blend_active: boolean
/**
 * Only runs of this task type were scored; null or absent for all.
 */
task_type?: (string | null)
/**
 * The configuration the numbers were computed with.
 */
settings: {
weights: Weights
mechanical: Mechanical
/**
 * Runs in the trend window.
 */
trend_window: number
/**
 * Coverage of every interval.
 */
confidence: 0.95
}
/**
 * Where the rows came from.
 */
sources: {
/**
 * Feedback files found in state/feedback.
 */
feedback_files: number
/**
 * Files summarised from state/index/feedback.jsonl without reading them.
 */
from_index: number
/**
 * Files read (and indexed) in this run: new, rewritten (--verify) or all (--rebuild).
 */
read_now: number
/**
 * Feedback files left out because they are corrupt, fail the schema, or are stale (their run record changed since they were measured; the problem names the collect to run).
 */
skipped: {
/**
 * Path of the file.
 */
file: string
/**
 * What is wrong, with the JSON path.
 */
problem: string
}[]
}
/**
 * One entry per template, best score first.
 */
templates: Template[]
/**
 * Seed 003's phase-3 A/B report (mechanical-only ranking against blended); null when the blend is not active.
 */
ab: (Ab | null)
}
/**
 * Seed 003's phase-3 blend: weights of the mechanical composite and the judge average (re-normalised to sum to 1).
 */
export interface Weights {
/**
 * Weight of the mechanical composite (default 0.6).
 */
mechanical: number
/**
 * Weight of the judge average (default 0.4).
 */
judge: number
}
/**
 * The mechanical composite: full rate + partial_credit x partial rate - retry_penalty x retry rate - timeout_penalty x timeout rate, clamped to 0-1. Default: the learning-loop's set (0.4/0.2/0.3); any other set needs its own name and reason (docs/design/templates.md).
 */
export interface Mechanical {
/**
 * Name of the coefficient set: learning-loop (the default, which must keep 0.4/0.2/0.3) or another name for another set.
 */
name: string
/**
 * Credit of a partial_pass run, 0-1 (a full_pass earns 1); learning-loop 0.4.
 */
partial_credit: number
/**
 * Subtracted per unit of retry rate, 0-1; learning-loop 0.2.
 */
retry_penalty: number
/**
 * Subtracted per unit of timeout rate, 0-1 (on top of a timeout earning no credit); learning-loop 0.3.
 */
timeout_penalty: number
/**
 * Why this set is used, one sentence (recorded in the scores file).
 */
reason: string
}
export interface Template {
/**
 * Template id (run.template).
 */
template: string
/**
 * All runs, infra failures included.
 */
runs: number
/**
 * Runs per outcome.
 */
outcomes: {
/**
 * Runs.
 */
full_pass: number
/**
 * Runs.
 */
partial_pass: number
/**
 * Runs.
 */
agent_failure: number
/**
 * Runs.
 */
infra_failure: number
/**
 * Runs.
 */
timeout: number
/**
 * Runs with no check configured: counted, never scored (nothing was measured).
 */
unmeasured?: number
}
/**
 * Runs minus infra failures: the denominator of every rate (the infrastructure's fault is not the template's).
 */
scored_runs: number
/**
 * How the resolved verdict (feedback.resolution) set the outcomes counted: only a resolved run is a pass; an unresolved full or partial pass counts as partial_pass when it fixed a target, else agent_failure (outcomes, rates and trends are as counted). Absent in files written before it.
 */
resolution?: {
/**
 * Scored runs whose resolved verdict was known (true or false).
 */
counted: number
/**
 * Full or partial passes that did not resolve their task, counted lower (full_pass to partial_pass when a target was fixed; else agent_failure).
 */
not_passes: number
/**
 * Scored runs counted by their outcome alone: the feedback has no resolution (collected before the verdict: collect it again) or it cannot be told (resolved null).
 */
by_outcome: number
}
full_pass_rate: Rate
pass_rate: Rate
retry_rate: Rate
timeout_rate: Rate
/**
 * Mean run.iterations over scored runs that report it; null when none do.
 */
mean_retries: (number | null)
run_composite: Mean
mechanical: Mean
judge: Mean
/**
 * weights.mechanical x mechanical + weights.judge x judge (weights re-normalised); value null when the blend is not active or the template has no judged run.
 */
blended: {
/**
 * 0-1.
 */
value: (number | null)
interval: Interval
}
/**
 * The score templates are ranked by, 0-1: blended when there is one, else mechanical; null when no scored run.
 */
score: (number | null)
/**
 * Which of the two score is.
 */
basis: ("blended" | "mechanical")
/**
 * Why that basis (e.g. no judged runs: mechanical kept).
 */
basis_reason: string
/**
 * Judge issues over all its judged runs, most frequent first (at most 5).
 */
top_issues: {
/**
 * Issue key.
 */
key: string
/**
 * Judged runs reporting it.
 */
runs: number
/**
 * runs / judged runs, 0-1.
 */
share: number
}[]
trend: Trend
}
export interface Rate {
/**
 * Proportion, 0-1; null when n is 0.
 */
value: (number | null)
/**
 * Runs in the denominator.
 */
n: number
interval: Interval
}
export interface Mean {
/**
 * Mean, 0-1; null when n is 0.
 */
value: (number | null)
/**
 * Runs it rests on.
 */
n: number
interval: Interval
}
/**
 * The template's last runs (infra failures left out) ordered by run.completed_at, never by bead id; the score formula applied to the older and the newer half.
 */
export interface Trend {
/**
 * Configured window size, runs.
 */
window: number
/**
 * The runs in the window, oldest first.
 */
runs: {
/**
 * Bead id.
 */
bead: string
/**
 * run.completed_at as written.
 */
completed_at: string
/**
 * The feedback outcome (kept equal to feedback.schema.json#/definitions/outcome by a test).
 */
outcome: ("full_pass" | "partial_pass" | "agent_failure" | "infra_failure" | "timeout" | "unmeasured")
/**
 * This run's mechanical value: outcome credit minus its retry and timeout penalties (may be below 0).
 */
mechanical: number
/**
 * Judge score, 0-1; null when not judged.
 */
judge: (number | null)
}[]
/**
 * Score of the older half, 0-1; null with fewer than 2 runs.
 */
earlier: (number | null)
/**
 * Score of the newer half, 0-1; null with fewer than 2 runs.
 */
later: (number | null)
/**
 * later - earlier; negative is a drop.
 */
change: (number | null)
/**
 * 95% interval of later - earlier (two-sample t with the pooled variance of the per-run values); null when the runs cannot tell (fewer than 2 a half). Absent in files written before issue 25.
 */
interval?: ({
/**
 * Lower bound, -1 to 1.
 */
low: number
/**
 * Upper bound, -1 to 1.
 */
high: number
/**
 * t: two-sample Student t with pooled variance.
 */
method: "t"
} | null)
/**
 * The interval excludes 0: the change is a trend, not noise; null without an interval. Absent in files written before issue 25.
 */
distinguishable?: (boolean | null)
}
/**
 * Mechanical-only ranking beside the blended ranking.
 */
export interface Ab {
/**
 * Templates ranked (those with a mechanical score).
 */
templates: number
/**
 * Spearman rank correlation of the two rankings (ties get average ranks); null with fewer than 2 templates or no variation.
 */
spearman: (number | null)
/**
 * Kendall's tau-b of the two score lists; null like spearman.
 */
kendall_tau_b: (number | null)
/**
 * Every template with its two ranks, those that move first.
 */
moves: {
/**
 * Template id.
 */
template: string
/**
 * 1 = best by mechanical score.
 */
mechanical_rank: number
/**
 * 1 = best by blended score (mechanical where unjudged).
 */
blended_rank: number
/**
 * mechanical_rank - blended_rank: positive moves up under the blend.
 */
change: number
/**
 * Mechanical score, 0-1.
 */
mechanical: number
/**
 * Judge average, 0-1.
 */
judge: (number | null)
/**
 * Judged runs.
 */
judge_n: number
/**
 * One sentence.
 */
why: string
/**
 * Issue keys reported in at least 2 of its judged runs, most frequent first.
 */
issues: string[]
}[]
/**
 * Issue keys recurring in at least two of the templates that move down.
 */
shared_issues: {
/**
 * Issue key.
 */
key: string
/**
 * Templates that move down and share it.
 */
templates: string[]
}[]
}
/**
 * A refinement trigger: state/triggers/<id>.json, written when a template's score drops significantly, its full-pass rate is low, or an issue keeps recurring; it stays open (cleared_at null) while the condition holds and closes with a recorded reason.
 */
export interface Trigger {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The file name without .json.
 */
id: string
/**
 * Template id.
 */
template: string
/**
 * score_drop: a change detector (templates.triggers.drop) saw the template's level drop; low_full_pass: full-pass rate below templates.triggers.level.full_pass_below over at least level.min_runs runs; recurring_issue: the judge reported the same issue in several recent judged runs.
 */
kind: ("score_drop" | "low_full_pass" | "recurring_issue")
/**
 * When it fired, ISO 8601.
 */
fired_at: string
/**
 * When score-templates closed it (condition gone; the trigger can fire again after that), ISO 8601; null while open.
 */
cleared_at: (string | null)
/**
 * One sentence for people.
 */
summary: string
/**
 * What the trigger rests on: its runs, the statistics of its test, recurring judge issues and the score trend.
 */
evidence: {
/**
 * Bead ids of the runs behind the trigger, oldest first by completion time (score_drop: window then baseline order by time; low_full_pass: the newest runs kept, up to window + baseline; recurring_issue: the judged runs reporting the issues).
 */
beads: string[]
/**
 * Recurring judge issues over the recent runs (most frequent first).
 */
issues: {
/**
 * Issue key (category or folded description).
 */
key: string
/**
 * Recent judged runs reporting it.
 */
runs: number
/**
 * Those runs' bead ids.
 */
beads: string[]
/**
 * One description as the judge wrote it.
 */
example: string
}[]
trend: Trend
/**
 * score_drop only: the test at fire time.
 */
drop?: (DropInterval | DropChange)
/**
 * low_full_pass only: the template's full-pass rate over all its scored runs at fire time.
 */
level?: {
/**
 * The level test in force (templates.triggers.level.test).
 */
test: ("interval" | "point")
/**
 * full_pass runs / scored runs, 0-1.
 */
full_pass_rate: number
/**
 * Scored runs (infra failures and unmeasured runs left out).
 */
n: number
/**
 * 95% interval; null when the sample is too small to estimate one (fewer than 2 runs for a mean, none for a proportion).
 */
interval: ({
/**
 * Lower bound, 0-1.
 */
low: number
/**
 * Upper bound, 0-1.
 */
high: number
/**
 * wilson: Wilson score interval of a proportion; t: Student t interval of a mean; delta_t: t interval of the blend with the variance of a weighted sum of two means (covariance included).
 */
method: ("wilson" | "t" | "delta_t")
} | null)
/**
 * Configured threshold, 0-1.
 */
below: number
/**
 * Configured minimum runs.
 */
min_runs: number
}
/**
 * score_drop closed by a change detector: the upward CUSUM that saw the level come back.
 */
recovery?: {
/**
 * Upward CUSUM sum from the dropped level to the pre-change level.
 */
statistic: number
/**
 * The threshold it exceeded (the CUSUM threshold of the series, scaled to runs a day).
 */
threshold: number
/**
 * run.completed_at of the first run of the recovery excursion.
 */
since: string
/**
 * Runs since then.
 */
n: number
/**
 * Mean of those runs (full-pass rate or score), 0-1 scale.
 */
level: (number | null)
/**
 * The pre-change level (evidence.drop.before.mean).
 */
level_before: (number | null)
}
}
/**
 * Last time score-templates found the condition still holding (or the closing time), ISO 8601. Absent in triggers written before issue 17 (read as fired_at).
 */
checked_at?: string
/**
 * Why it closed, one sentence with the numbers; null while open. Absent in triggers written before issue 17.
 */
closed_reason?: (string | null)
}
/**
 * The template's last runs (infra failures left out) ordered by run.completed_at, never by bead id; the score formula applied to the older and the newer half.
 */
export interface DropInterval {
/**
 * The significance test (templates.triggers.drop.test).
 */
test: "interval_separation"
/**
 * Per-run value tested: mechanical, or blended (judged runs w_m x mechanical + w_j x judge) when the blend is active.
 */
series: ("mechanical" | "blended")
window: Sample
baseline: Sample
/**
 * baseline mean - window mean, 0-1 scale.
 */
drop: number
/**
 * Configured minimum drop, 0-1.
 */
min_drop: number
}
/**
 * A run of consecutive scored runs of the template (by completion time) and the 95% interval of their per-run values (Wilson for the full_pass series, Student t otherwise).
 */
export interface Sample {
/**
 * Runs.
 */
n: number
/**
 * Mean per-run value, 0-1 scale (per-run values may be below 0 by their penalties); null with no run.
 */
mean: (number | null)
/**
 * 95% interval; null when the sample is too small to estimate one (fewer than 2 runs for a mean, none for a proportion).
 */
interval: ({
/**
 * Lower bound, 0-1.
 */
low: number
/**
 * Upper bound, 0-1.
 */
high: number
/**
 * wilson: Wilson score interval of a proportion; t: Student t interval of a mean; delta_t: t interval of the blend with the variance of a weighted sum of two means (covariance included).
 */
method: ("wilson" | "t" | "delta_t")
} | null)
/**
 * run.completed_at of the oldest run, as written.
 */
first_completed_at: (string | null)
/**
 * run.completed_at of the newest run, as written.
 */
last_completed_at: (string | null)
/**
 * Bead ids, oldest first.
 */
beads: string[]
}
/**
 * score_drop by a change detector (issue 25): what it saw at fire time; before.mean is the pre-change level the trigger waits for.
 */
export interface DropChange {
/**
 * The detector (templates.triggers.drop.test).
 */
test: ("glr_full_pass" | "window_full_pass" | "cusum_full_pass" | "cusum_score" | "fisher_full_pass" | "welch_score")
/**
 * The per-run series: full_pass (1 for a full pass, else 0), mechanical, or blended (judged runs w_m x mechanical + w_j x judge) when the blend is active.
 */
series: ("full_pass" | "mechanical" | "blended")
/**
 * The detector statistic: CUSUM sum (nats for full_pass, standard deviations for scores), Fisher one-sided p, or Welch t.
 */
statistic: number
/**
 * The threshold it was compared with, scaled to the template's runs a day.
 */
threshold: number
/**
 * The configured threshold (at 10 runs a day).
 */
configured_threshold: number
/**
 * The template's runs a day over the runs kept (at least 1).
 */
runs_per_day: number
/**
 * CUSUM: the drop it is tuned for; GLR: the smallest estimated drop it counts; 0-1; null for windowed tests.
 */
shift: (number | null)
/**
 * Mean of the reference runs (full-pass rate or score), 0-1 scale.
 */
reference_level: number
/**
 * Standard deviation of the reference runs for score series; null for full_pass.
 */
reference_sd: (number | null)
/**
 * run.completed_at of the first run after the estimated change point.
 */
change_at: string
/**
 * The estimated change day, YYYY-MM-DD (UTC).
 */
change_day: string
before: Sample
after: Sample
}
/**
 * The user's verdict on one run, for calibrating the judge: state/user-verdicts/<bead>.json, written by judgeloop calibrate --record; the latest stands.
 */
export interface UserVerdict {
/**
 * Version of this file kind.
 */
schema_version: "1.0.0"
/**
 * The run id; also the state file name, so letters, digits, '.', '_' and '-' only, no leading dot.
 */
bead: string
/**
 * pass: the user would accept the run as it is; fail: not.
 */
verdict: ("pass" | "fail")
/**
 * The judge dimension that decided the user's verdict (compared with that dimension's score at 0.7); null: the run as a whole (compared with the judge's verdict).
 */
dimension: (("correctness" | "scope_adherence" | "code_quality" | "completeness") | null)
/**
 * Who recorded it (--reviewer), null when not said.
 */
reviewer: (string | null)
/**
 * The user's note (--note).
 */
note?: string
/**
 * When it was recorded, ISO 8601 UTC.
 */
recorded_at: string
}
