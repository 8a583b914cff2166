// bin/record: writes a run record from what the worktree, a commit or a Claude Code hook tells, plus flags; validates
// it, prints its path, and with --collect / --judge hands it on (in the background with --background).
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isSafeId } from '../lib/store/bead.js';
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { announceState, withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { RECORD } from '../lib/cli/commands/record.js';
import { nowIso } from '../lib/base/clock.js';
import { assertConfigOutside, chooseConfigFile, loadConfig, type Config } from '../lib/config/config.js';
import { UserError } from '../lib/base/errors.js';
import { parseRunRecord } from '../lib/collector/run-record.js';
import { assembleRunRecord, beadFrom, type RecordFacts } from '../lib/record/assemble.js';
import { parseClaudeHookInput, summarizeTranscript, type TranscriptFacts } from '../lib/record/claude-hook.js';
import { baseCommit, commitFacts, worktreeFacts, type CommitFacts } from '../lib/record/git-facts.js';
import { workingTreeHolding } from '../lib/git/hidden-path.js';
import { handOnBackground, handOnForeground } from '../lib/record/hand-on.js';
import type { StateStore } from '../lib/store/store.js';
import { writeFileAtomic } from '../lib/store/state-write.js';
import type { RunRecord } from '../lib/schema/types.generated.js';

const USAGE = usage(RECORD);

export interface RecordIo extends Io {
  /** Reads all of stdin (--claude-hook, --prompt-file -). */
  readStdin?: () => string;
}

// A transcript past this is not read (its facts are then missing, never guessed).
const TRANSCRIPT_MAX_BYTES = 256 * 1024 * 1024;

function wholeNumber(flag: string, v: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) > max)
    throw new UserError(
      `--${flag} ${JSON.stringify(v)}: expected a whole number from 0${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`,
    );
  return Number(v);
}

function isoTime(what: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t) || !/\d{4}-\d{2}-\d{2}/.test(v))
    throw new UserError(`${what} ${JSON.stringify(v)}: expected an ISO 8601 time, e.g. 2026-11-24T10:00:00Z`);
  return new Date(t).toISOString();
}

function exitCode(v: string | undefined): number | null {
  if (v === undefined) return 0;
  if (v === 'signal' || v === 'null') return null;
  if (!/^-?\d+$/.test(v))
    throw new UserError(`--exit-code ${JSON.stringify(v)}: expected a whole number (or "signal")`);
  return Number(v);
}

const STATUSES = ['completed', 'failed', 'timeout', 'infra_failure'] as const;

function readText(file: string, io: RecordIo, what: string): string {
  if (file === '-') return (io.readStdin ?? (() => readFileSync(0, 'utf8')))();
  try {
    return readFileSync(resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UserError(`${what} ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function readTranscript(path: string | null, io: RecordIo): TranscriptFacts | null {
  if (!path) return null;
  try {
    if (statSync(path).size > TRANSCRIPT_MAX_BYTES) {
      io.stderr(`record: transcript ${path} is over ${TRANSCRIPT_MAX_BYTES} bytes; not read\n`);
      return null;
    }
    return summarizeTranscript(readFileSync(path, 'utf8'));
  } catch (e) {
    io.stderr(
      `record: transcript ${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); its facts are missing\n`,
    );
    return null;
  }
}

/**
 * --hidden-tests: a path that exists is made absolute and refused inside a working tree of the repository (the agent
 * reads those: the tests would not be hidden); anything else is a revision, checked by collect.
 */
async function hiddenTests(spec: string | undefined, top: string, cwd: string): Promise<string | undefined> {
  if (spec === undefined) return undefined;
  const path = resolve(cwd, spec);
  if (!existsSync(path)) return spec;
  const tree = await workingTreeHolding(top, path);
  if (tree)
    throw new UserError(
      `--hidden-tests ${spec}: inside the repository's working tree ${tree}: the agent could read it, so it would not be hidden; keep hidden tests outside every worktree (or in a ref)`,
    );
  return path;
}

const first = <T>(...xs: (T | undefined | null)[]): T | undefined =>
  xs.find((x) => x !== undefined && x !== null && x !== '') ?? undefined;

export async function run(argv: string[], io: RecordIo): Promise<number> {
  const { values: v } = parse(RECORD, argv);
  refuseFlagCombos(v);
  const env = io.env;
  const config: Config = loadConfig({ env, configFile: v.config, cwd: io.cwd });
  const rc = config.record ?? {};

  const hook = v['claude-hook'] ? parseClaudeHookInput((io.readStdin ?? (() => readFileSync(0, 'utf8')))()) : null;
  const start = resolve(io.cwd, v.worktree ?? hook?.cwd ?? '.');
  const wt = await worktreeFacts(start);
  const transcript = hook ? readTranscript(hook.transcript_path, io) : null;
  const commit: CommitFacts | null = v['from-commit'] ? await commitFacts(wt.top, wt.head) : null;

  const baseRef = first(v.base, env.JUDGELOOP_BASE_REF, commit ? undefined : rc.base_ref);
  let base: string | undefined;
  if (baseRef !== undefined) base = await baseCommit(wt.top, baseRef);
  else if (commit) {
    if (!commit.parent)
      throw new UserError(
        `${wt.top}: HEAD (${wt.head.slice(0, 12)}) is a root commit: there is no parent to measure it against (give --base REF)`,
      );
    base = commit.parent;
  }
  const promptFile = first(v['prompt-file'], env.JUDGELOOP_PROMPT_FILE);
  const prompt = first(
    v.prompt,
    promptFile !== undefined ? readText(promptFile, io, 'prompt file') : undefined,
    commit?.message,
    transcript?.prompt,
  );
  const usage = usageOf(v, transcript);
  const hidden = await hiddenTests(first(v['hidden-tests'], env.JUDGELOOP_HIDDEN_TESTS), wt.top, io.cwd);
  const bead = first(
    v.bead,
    hook ? beadFrom('claude', hook.session_id) : undefined,
    beadFrom(wt.top.split('/').pop() ?? 'run', wt.head.slice(0, 12)),
  )!;
  if (!isSafeId(bead))
    throw new UserError(
      `--bead ${JSON.stringify(bead)}: letters, digits, '.', '_' and '-' only, no leading dot, at most 128`,
    );
  const facts: RecordFacts = {
    bead,
    worktree: wt.top,
    // The name is kept for accept's target branch; the commit is what collect, race and accept measure against.
    base_ref: baseRef ?? base,
    base_commit: base,
    head_ref: wt.branch ?? wt.head,
    agent: first(v.agent, env.JUDGELOOP_AGENT, rc.agent, hook ? 'claude-code' : undefined),
    model: first(v.model, env.JUDGELOOP_MODEL, transcript?.model, rc.model),
    template: first(v.template, env.JUDGELOOP_TEMPLATE, rc.template),
    task_id: first(
      v.task,
      env.JUDGELOOP_TASK,
      commit ? (wt.branch ?? wt.head.slice(0, 12)) : undefined,
      hook?.session_id,
    ),
    task_type: first(v['task-type'], rc.task_type),
    target_tests: v.target,
    hidden_tests: hidden,
    complexity: wholeNumber('complexity', v.complexity, 10) ?? rc.complexity,
    prompt,
    started_at: first(
      isoTime('--started-at', v['started-at']),
      isoTime('JUDGELOOP_STARTED_AT', env.JUDGELOOP_STARTED_AT),
      commit?.parent_committed_at,
      transcript?.started_at,
    ),
    completed_at: first(isoTime('--completed-at', v['completed-at']), commit?.committed_at) ?? nowIso(env),
    exit_code: exitCode(v['exit-code']),
    status: v.status as RecordFacts['status'],
    failure_reason: v['failure-reason'],
    usage,
    iterations: wholeNumber('iterations', v.iterations),
    race_id: v['race-id'],
    job_id: v['job-id'],
  };
  if (facts.complexity === 0) throw new UserError('--complexity 0: expected a whole number from 1 to 10');
  const assembled = assembleRunRecord(facts);
  if (!assembled.ok) {
    for (const line of assembled.missing) io.stderr(`record: ${line}\n`);
    return 2;
  }
  const store = storeFromEnv(env, io.cwd, v.config);
  // The same refusal as the collector's, before anything is written: the agent must not choose judgeloop's config.
  assertConfigOutside(config, wt.top, store.root);
  // Speed is scored from these times: say when they are the commits' rather than the run's own.
  const fromCommits = [
    facts.started_at === commit?.parent_committed_at && v['started-at'] === undefined && !env.JUDGELOOP_STARTED_AT
      ? `started ${facts.started_at} (the parent commit)`
      : '',
    facts.completed_at === commit?.committed_at && v['completed-at'] === undefined
      ? `completed ${facts.completed_at} (the commit)`
      : '',
  ].filter(Boolean);
  if (commit && fromCommits.length && !v.quiet)
    io.stderr(
      `record: times from the commits: ${fromCommits.join(', ')}; --started-at/--completed-at give the run's own\n`,
    );
  if (!v.out) announceState(io, store, v.quiet);
  const text = JSON.stringify(assembled.record, null, 2) + '\n';
  // The collector's own reader decides: a record it would refuse is never written.
  parseRunRecord(text, v.out ?? `runs/${bead}.json`);
  let path: string;
  if (v.out) {
    path = isAbsolute(v.out) ? v.out : resolve(io.cwd, v.out);
    writeFileAtomic(path, text);
  } else path = store.write('runs', bead, assembled.record);
  io.stdout(v.json ? `${JSON.stringify(withStateDir(store, assembled.record))}\n` : `${path}\n`);
  if (!v.collect && !v.judge) return 0;

  return handOn(v, io, store, bead, path);
}

function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as Partial<T>;
}

main(import.meta.url, run);

type RecordValues = ReturnType<typeof parse<(typeof RECORD)['flags']>>['values'];

function refuseFlagCombos(v: RecordValues): void {
  if (v['from-commit'] && v['claude-hook'])
    throw new UserError(`--from-commit and --claude-hook are two different sources; give one\n${USAGE}`);
  if (v.collect && v.judge)
    throw new UserError(`--collect or --judge, not both (--judge collects first when needed)\n${USAGE}`);
  if (v.background && !v.collect && !v.judge)
    throw new UserError(`--background goes with --collect or --judge\n${USAGE}`);
  if (v.prompt !== undefined && v['prompt-file'] !== undefined)
    throw new UserError(`--prompt or --prompt-file, not both\n${USAGE}`);
  if (v.status !== undefined && !(STATUSES as readonly string[]).includes(v.status))
    throw new UserError(`--status ${JSON.stringify(v.status)}: expected one of ${STATUSES.join(', ')}`);
}

/** Tokens and cost: the transcript's, then the flags (a total only when both token counts are known). */
function usageOf(v: RecordValues, transcript: ReturnType<typeof readTranscript>): RunRecord['usage'] {
  const usage: RunRecord['usage'] = {
    ...(transcript?.usage ?? {}),
    ...defined({
      input_tokens: wholeNumber('input-tokens', v['input-tokens']),
      output_tokens: wholeNumber('output-tokens', v['output-tokens']),
    }),
  };
  if (v['input-tokens'] !== undefined || v['output-tokens'] !== undefined) {
    if (usage.input_tokens !== undefined && usage.output_tokens !== undefined)
      usage.total_tokens = usage.input_tokens + usage.output_tokens;
    else delete usage.total_tokens;
  }
  if (v['cost-usd'] !== undefined) {
    const c = Number(v['cost-usd']);
    if (v['cost-usd'].trim() === '' || !Number.isFinite(c) || c < 0)
      throw new UserError(`--cost-usd ${JSON.stringify(v['cost-usd'])}: expected a number of US dollars, 0 or more`);
    usage.cost_usd = c;
  }
  return usage;
}

/** Hands the written record to bin/collect or bin/judge, in the foreground or detached with a log. */
function handOn(
  v: RecordValues,
  io: RecordIo,
  store: StateStore,
  bead: string,
  path: string,
): Promise<number> | number {
  const env = io.env;
  const command = v.judge ? 'judge' : 'collect';
  const configChoice = chooseConfigFile({ env, configFile: v.config, cwd: io.cwd });
  // The hand-off runs from this folder; the config file in use is named so a different cwd cannot change it.
  // In the background the judge stamps its lines with time and bead, and queues a run that fails (judge --drain).
  const args = [
    ...(configChoice.file ? ['--config', configChoice.file] : []),
    ...(v.background && command === 'judge' ? ['--background'] : []),
    path,
  ];
  if (v.background) {
    const log = join(store.root, 'logs', 'record.log');
    mkdirSync(dirname(log), { recursive: true });
    appendFileSync(log, `${nowIso(env)} record: ${bead}: wrote ${path}; ${command} started\n`);
    const pid = handOnBackground(command, args, io.processEnv, io.cwd, log);
    if (!v.quiet) io.stderr(`record: ${bead}: ${command} runs in the background (pid ${pid}); log: ${log}\n`);
    return 0;
  }
  return handOnForeground(command, args, io.processEnv, io.cwd);
}
