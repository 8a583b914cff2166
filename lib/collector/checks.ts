// Runs (or reads from the run record) build → test → lint → typecheck in one directory and parses their output.
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import type { ChecksSet } from './outcome.js';
import { HeadTailBuffer, runCommand, type RunResult } from '../process/runner.js';
import { collectorCheckEnv, type SandboxPolicy } from '../process/sandbox.js';
import { readTreeFile } from '../git/tree-read.js';
import { noWitness, parseWitness, WITNESS_FILE, WITNESS_MARK, type Witnessed } from './parsers/pytest-witness.js';
import type { Check, CommandsUsed, Config, ReportedCheck, RunRecord } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

export const CHECK_NAMES = ['build', 'test', 'lint', 'typecheck'] as const;
type CheckName = (typeof CHECK_NAMES)[number];

/** Record commands win over config; a record's explicit null disables a check; absent falls back to config. */
export function resolveCommands(record: Pick<RunRecord, 'commands'>, config: Config['collector']): CommandsUsed {
  const out = {} as CommandsUsed;
  for (const k of CHECK_NAMES) {
    const fromRecord = record.commands?.[k];
    out[k] = fromRecord !== undefined ? fromRecord : (config.commands[k] ?? null);
  }
  return out;
}

export interface ChecksOptions {
  cwd: string;
  commands: CommandsUsed;
  /** Results the orchestrator already has; parsed instead of running the command. */
  reported?: RunRecord['checks'];
  collector: Config['collector'];
  /** The full environment; secrets are scrubbed here before any check sees it. */
  env: NodeJS.ProcessEnv;
  /** Where the checks run (bubblewrap per collector.sandbox); see sandbox.ts. */
  sandbox: SandboxPolicy;
  /** Skip test, lint and typecheck after a failed build (the agent's worktree); off for the baseline. */
  shortCircuit: boolean;
  /** Test ids never dropped from a capped per-test list (the base's tests, the task's targets). */
  keepCases?: ReadonlySet<string>;
  /** The graded run: which tracked files (tests apart from code) changed by the time the tests ended (checkout.ts). */
  trustedChanges?: () => Promise<{ tests: string[]; code: string[] }>;
  /** The kept Go build caches: the checks get a private copy as GOCACHE (go-cache.ts); `keep` (the base) writes it back. */
  goCache?: import('./go-cache.js').GoCacheSpec;
  log?: (msg: string) => void;
}

export function emptyChecks(): ChecksSet {
  return { build: null, test: null, lint: null, typecheck: null };
}

function statusOf(r: { spawnError: string | null; timedOut: boolean; exitCode: number | null }): Check['status'] {
  if (r.spawnError) return 'error';
  if (r.timedOut) return 'timeout';
  return r.exitCode === 0 ? 'passed' : 'failed';
}

export function fromRun(r: RunResult): Check {
  const isolation: NonNullable<Check['isolation']> = { ...r.isolation };
  if (r.escaped > 0) isolation.escaped_processes = r.escaped;
  return {
    status: statusOf(r),
    exit_code: r.exitCode,
    signal: r.signal,
    duration_ms: Math.round(r.durationMs),
    source: 'collector',
    isolation,
    output: r.output,
  };
}

/** The orchestrator's own result, its output capped like the collector's. */
function fromReported(rc: ReportedCheck, capBytes: number): Check {
  const buf = new HeadTailBuffer(Math.floor(capBytes / 2), Math.ceil(capBytes / 2));
  buf.push(Buffer.from(rc.output, 'utf8'));
  const timedOut = rc.timed_out === true;
  return {
    status: statusOf({ spawnError: null, timedOut, exitCode: rc.exit_code }),
    exit_code: timedOut ? null : rc.exit_code,
    signal: null,
    duration_ms: rc.duration_ms ?? null,
    source: 'run_record',
    output: buf.result(),
  };
}

export function skipped(reason: string): Check {
  return {
    status: 'skipped',
    exit_code: null,
    signal: null,
    duration_ms: null,
    source: 'none',
    skipped_reason: reason,
    output: null,
  };
}

type Parsers = typeof import('./parsers/index.js');

function parse(name: CheckName, check: Check, parsers: Parsers, runner: string | undefined): void {
  const text = check.output?.text;
  if (text === undefined || check.status === 'error') return;
  const opts = runner ? { name: runner } : {};
  if (name === 'test') check.tests = stripUndefined(parsers.parseTestOutput(text, opts));
  if (name === 'lint') {
    check.lint = stripUndefined(parsers.parseLintOutput(text, opts));
    // Linters print nothing when clean (eslint, ruff, tsc…): exit 0 with blank output means no issue, not "unknown".
    if (check.lint === null && check.status === 'passed' && text.trim() === '') {
      check.lint = { linter: runner ?? 'unknown', errors: 0, warnings: 0, notes: ['no output and exit 0: no issues'] };
    }
  }
}

/** Drops keys whose value is undefined (the schema's additionalProperties/required see them otherwise). */
function stripUndefined<T extends object>(v: T | null): T | null {
  if (v === null) return null;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as T;
}

/** The test report asked of a recognised runner: written to a fresh directory outside the worktree. */
export interface ReportRun {
  dir: string;
  plan: import('./parsers/report-plan.js').ReportPlan;
  startedMs: number;
  /** What the pytest witness saw (read with the report). */
  witnessed: Witnessed;
  /** Removes the directory (also on SIGINT/TERM/HUP while the check runs). */
  dispose: () => void;
}

/** package.json's scripts in `cwd` (in a graded checkout: its test scripts are the trusted revision's); null if none. */
export function packageScripts(cwd: string): Record<string, unknown> | null {
  const r = readTreeFile(cwd, 'package.json', 1 << 20);
  if (!r.ok) return null;
  try {
    const scripts = (JSON.parse(r.text) as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null && !Array.isArray(scripts)
      ? (scripts as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export async function prepareReport(
  command: string,
  collector: Config['collector'],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<ReportRun | null> {
  const { planConfiguredReport, planObserved, planReport } = await import('./parsers/report-plan.js');
  const runner = collector.runners.test ?? null;
  // A new empty directory per run, never inside the worktree: nothing in it can have been planted beforehand.
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-report-'));
  const scripts = packageScripts(cwd);
  const planned = collector.test_report
    ? planConfiguredReport(command, dir, runner, collector.test_report)
    : planReport(command, dir, runner, env, scripts);
  // vitest, jest, mocha: their observer goes wherever NODE_OPTIONS reaches, whether a report could be asked for or not.
  const observed = planned?.witness ? null : planObserved(command, dir, runner, env, scripts);
  const plan = planned && observed ? { ...planned, witness: observed.witness } : (planned ?? observed);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (!plan) {
    remove();
    return null;
  }
  // A script (go's and cargo's wrapper) is run by the runner itself: executable, by its owner only.
  for (const [name, text] of Object.entries(plan.witness?.files ?? {}))
    writeFileSync(join(dir, name), text, text.startsWith('#!') ? { mode: 0o700 } : {});
  const off = onAbort(remove);
  return {
    dir,
    plan,
    startedMs: Date.now(),
    witnessed: noWitness(),
    dispose: () => {
      off();
      remove();
    },
  };
}

/** Reads the runner's report (a regular file written during this run), reconciles it with the console counts. */
async function readReportInto(check: Check, rr: ReportRun, cwd: string): Promise<void> {
  const { readReport } = await import('./parsers/reports.js');
  const { reconcile } = await import('./parsers/reconcile.js');
  let report = null;
  let note: string | null = null;
  let status: 'read' | 'missing' | 'unreadable' = 'unreadable';
  try {
    if (rr.plan.witness) rr.witnessed = parseWitness(readFileSync(join(rr.dir, WITNESS_FILE), 'utf8'));
  } catch {
    // No witness file: the runner never loaded it, or never started.
  }
  // The runner's per-test results are its console (go test -json, unittest under our observer): read by its parser.
  if (rr.plan.file === null) {
    const runner = rr.plan.runner;
    if ((runner === 'go' || runner === 'cargo') && rr.plan.witness) {
      const { observeNative } = await import('./native-observe.js');
      if (check.tests) check.tests.report = runner === 'go' ? 'read' : 'not_asked';
      observeNative(check, rr.dir, runner, cwd);
      rr.dispose();
      return;
    }
    rr.dispose();
    const t = check.tests;
    if (t) t.report = rr.plan.witness ? 'not_asked' : 'read';
    if (t) t.observer = rr.plan.witness ? 'saw' : 'none';
    if (t && rr.plan.witness) observe(t, rr, check.output?.text ?? '');
    return;
  }
  const file = rr.plan.file;
  const format = rr.plan.format as import('./parsers/reports.js').ReportFormat;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) note = `the ${rr.plan.runner} report is not a regular file: ignored`;
    else if (st.mtimeMs + 1000 < rr.startedMs) note = `the ${rr.plan.runner} report predates the run: ignored`;
    else {
      report = readReport(format, readFileSync(file, 'utf8'), { runner: rr.plan.runner, cwd });
      if (!report) note = `the ${rr.plan.runner} report could not be read (${format})`;
      else status = 'read';
    }
  } catch {
    status = 'missing';
    note = `the ${rr.plan.runner} runner wrote no report: the run is unmeasured (the console alone is not proof)`;
  } finally {
    rr.dispose();
  }
  check.tests = stripUndefined(reconcile(check.tests ?? null, report, note));
  // The build stopped before the runner ran, or the runner never started: nothing was asked of it.
  if (check.tests) check.tests.report = status;
  const t = check.tests;
  if (t) t.observer = rr.plan.witness ? 'saw' : 'none';
  if (t && rr.plan.witness) observe(t, rr, check.output?.text ?? '');
}

const JS_OBSERVED = new Set(['vitest', 'jest', 'mocha']);

/** What the planned observer saw, or that it never reported (then the evidence is not trusted: fail closed). */
function observe(t: NonNullable<Check['tests']>, rr: ReportRun, console: string): void {
  const w = rr.witnessed;
  // The node observers (node --test's, and vitest's, jest's and mocha's) say nothing on the console.
  const js = JS_OBSERVED.has(rr.plan.runner);
  const node = js || rr.plan.runner === 'node-test';
  const seen: string[] = [];
  if (w.rewritten.length) {
    const r = w.rewritten[0]!;
    seen.push(
      `${plural(w.rewritten.length, 'test phase')} raised and ${w.rewritten.length === 1 ? 'was' : 'were'} reported passed (${r.id}, ${r.when}: ${r.raised})`,
    );
  }
  if (w.replaced.length) seen.push(`the runner's own ${w.replaced.slice(0, 3).join(', ')} replaced during the run`);
  if (w.universal.length) {
    const u = w.universal[0]!;
    seen.push(
      `${w.universal.length} comparison(s) with a value equal to everything (${u.id}: ${u.how}, the ${u.side} value, a ${u.type})`,
    );
  }
  if (w.peeked.length) {
    const p = w.peeked[0]!;
    seen.push(`the code under test read the graded tests (${p.id}: ${p.event} from ${p.file})`);
  }
  // The witness said it loaded, and its file is gone or emptied: removed from inside the run. node's witness says
  // nothing on the console: a run that reported tests must have loaded it in some test file's process.
  const ran = (t.passed ?? 0) + t.failed > 0;
  if (!w.loaded && (node ? ran : console.includes(WITNESS_MARK)))
    seen.push("the witness's record was removed during the run");
  // Loaded and never saw its session end: unregistered, or the process left before pytest finished.
  if (w.finished.sessions < w.sessions) seen.push('the witness did not see the session end');
  // Planned and never reported: shadowed, dropped by a wrapper, or the run ended before it loaded. vitest's, jest's and
  // mocha's: each test process that loaded it must also have reported its end (none left without a word).
  if (!w.loaded || !w.finished.sessions || (js && w.finished.sessions < w.sessions)) {
    t.observer = 'missing';
    t.notes = [
      ...(t.notes ?? []),
      `judgeloop's ${rr.plan.runner} observer was planned and never reported: the run is unobserved`,
    ];
  }
  const f = w.finished;
  // A clean result from a run in which it saw failures. (Not a count against a count: subtests are reported once
  // each and once more in their test, and pytest's summary and JUnit count them differently.)
  const bad = t.failed + t.errors;
  if (f.counted && bad === 0 && f.failed + f.errors > 0)
    seen.push(`the witness saw ${f.failed + f.errors} failed or in error, the results say ${bad}`);
  if (f.counted && t.passed !== null && t.passed > f.passed)
    seen.push(`the results say ${t.passed} passed, the witness saw ${f.passed}`);
  // mocha's JSON reporter leaves the console silent: the runner's own events, counted inside it, stand in for it.
  const silent = 'the console output was not recognised: counts from the report alone';
  if (js && f.counted && t.notes?.includes(silent) && t.passed === f.passed && bad === f.failed + f.errors)
    t.notes = t.notes.map((n) =>
      n === silent
        ? `the console showed no result: counts from the report, as judgeloop's ${t.runner} observer counted them`
        : n,
    );
  if (seen.length) believeWitness(t, w, seen);
}

/** Tests whose report was rewritten inside the run: failed (or errors, outside the call), and the counts disputed. */
function believeWitness(t: NonNullable<Check['tests']>, w: Witnessed, seen: string[]): void {
  t.counts_disputed = true;
  for (const r of w.rewritten) {
    const c = t.cases?.find((x) => x.id === r.id);
    if (c) c.status = r.when === 'call' ? 'failed' : 'error';
  }
  t.notes = [
    ...(t.notes ?? []),
    `the runner's results were rewritten inside the run: ${seen.join('; ')}; judgeloop's ${t.runner === 'node-test' ? 'node --test' : t.runner === 'unittest' || JS_OBSERVED.has(t.runner) ? t.runner : 'pytest'} witness saw it`,
  ];
}

/** A process ended by a signal (or sh's 128+N for one) crashed, whatever the parsed counts say. */
function markCrash(check: Check): void {
  const t = check.tests;
  if (!t || t.runner_crashed) return;
  const code = check.exit_code;
  if (check.signal || (code !== null && code > 128 && code < 160)) {
    t.runner_crashed = true;
    t.notes = [
      ...(t.notes ?? []),
      `runner crashed: the test command ended with ${check.signal ?? `exit ${code} (a signal)`}`,
    ];
  }
}

export async function runChecks(opts: ChecksOptions): Promise<ChecksSet> {
  const scrubbed = collectorCheckEnv(opts.collector, opts.env);
  const go = opts.goCache ? await openGoCache(opts, scrubbed) : null;
  try {
    const env = go ? { ...scrubbed, GOCACHE: go.dir } : scrubbed;
    const out = await checksIn(opts, env, go ? [go.dir] : []);
    if (go && opts.goCache?.keep) await (await import('./go-cache.js')).keepGoCache(opts.goCache.root, go);
    return out;
  } finally {
    go?.dispose();
  }
}

/** The checks' private Go build cache, when a command will run in a Go project (go-cache.ts). */
async function openGoCache(opts: ChecksOptions, env: NodeJS.ProcessEnv) {
  const run = CHECK_NAMES.filter((k) => opts.commands[k] !== null && opts.reported?.[k] === undefined);
  if (!run.length || !opts.goCache) return null;
  const gc = await import('./go-cache.js');
  const go = await gc.openGoCache(
    opts.goCache,
    opts.cwd,
    run.map((k) => opts.commands[k]!),
    env,
  );
  if (go)
    opts.log?.(`go build cache: ${go.warm ? 'a private copy of the kept one' : 'empty'} (${go.key.slice(0, 12)})`);
  return go;
}

async function checksIn(opts: ChecksOptions, env: NodeJS.ProcessEnv, writable: string[]): Promise<ChecksSet> {
  const out = emptyChecks();
  const needParsers =
    opts.commands.test !== null ||
    opts.commands.lint !== null ||
    opts.reported?.test !== undefined ||
    opts.reported?.lint !== undefined;
  // Loaded only when a test or lint output has to be read: bin/collect's start-up stays lean.
  const parsers: Parsers | null = needParsers ? await import('./parsers/index.js') : null;
  let buildFailed = false;
  for (const name of CHECK_NAMES) {
    let report: ReportRun | null = null;
    const reported = opts.reported?.[name];
    const command = opts.commands[name];
    if (!reported && command === null) continue;
    if (buildFailed && name !== 'build') {
      out[name] = skipped('the build failed');
      continue;
    }
    let check: Check;
    if (reported) {
      check = fromReported(reported, opts.collector.output_cap_bytes);
    } else {
      opts.log?.(`${name}: ${command}`);
      report = name === 'test' && parsers ? await prepareReport(command!, opts.collector, env, opts.cwd) : null;
      const run = () =>
        runCommand(report?.plan.command ?? command!, {
          cwd: opts.cwd,
          env: report ? { ...env, ...report.plan.env, ...report.plan.witness?.env } : env,
          timeoutMs: opts.collector.timeouts_seconds[name] * 1000,
          killGraceMs: opts.collector.kill_grace_seconds * 1000,
          capBytes: opts.collector.output_cap_bytes,
          sandbox: opts.sandbox,
          writableDirs: [...writable, ...(report ? [report.dir] : [])],
        }).catch((e: unknown) => {
          report?.dispose();
          throw e;
        });
      // A witness that cannot load is never worked around by a run without it: that run is unobserved (fail closed).
      const r = await run();
      check = fromRun(r);
      if (r.spawnError) check.skipped_reason = `could not start: ${r.spawnError}`;
    }
    if (parsers)
      parse(
        name,
        check,
        parsers,
        reported?.runner ??
          (name === 'test' ? opts.collector.runners.test : name === 'lint' ? opts.collector.runners.lint : null) ??
          undefined,
      );
    if (report) await readReportInto(check, report, opts.cwd);
    else if (name === 'test' && check.tests) {
      check.tests.source = 'console';
      check.tests.observer = 'none';
      if (!reported) check.tests.report = 'not_asked';
    }
    if (name === 'test') {
      markCrash(check);
      capCases(check, opts.collector.max_test_cases ?? 10000, opts.keepCases);
      // Before lint (a `--fix` may rewrite a test legitimately): the setup, the build and the tests have run.
      const t = check.tests;
      const changed = t && !reported ? await opts.trustedChanges?.() : undefined;
      const list = (xs: string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? ', …' : ''}`;
      const by = 'by the setup, the build or the code under test';
      if (t && changed?.tests.length) {
        t.counts_disputed = true;
        t.notes = [
          ...(t.notes ?? []),
          `the graded tests were changed in the checkout before they ended (${by}): ${list(changed.tests)}`,
        ];
      }
      // What the static checks and the judge read is the graded commit: code rewritten in the checkout is not it.
      if (t && changed?.code.length) {
        t.counts_disputed = true;
        t.notes = [
          ...(t.notes ?? []),
          `the graded code was changed in the checkout before the tests ended (${by}): ${list(changed.code)}`,
        ];
      }
    }
    out[name] = check;
    if (name === 'build' && check.status !== 'passed' && opts.shortCircuit) buildFailed = true;
  }
  return out;
}

/**
 * Caps the per-test list past `max`: every non-passed case and every case in `keep` (the tests the gate reads:
 * the task's targets, every test the base ran) stay whatever the cap; other passed ones fill up to it.
 */
export function capCases(check: Check, max: number, keep: ReadonlySet<string> = new Set()): void {
  const t = check.tests;
  if (!t?.cases) return;
  if (t.cases.length <= max) {
    t.cases_complete = true;
    return;
  }
  const kept = t.cases.filter((c) => c.status !== 'passed' || keep.has(c.id));
  const rest = t.cases.filter((c) => c.status === 'passed' && !keep.has(c.id));
  t.cases = [...kept, ...rest.slice(0, Math.max(0, max - kept.length))];
  t.cases_complete = false;
}
