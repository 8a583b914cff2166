// bin/judge <run.json>… | --drain | --spend: the Opus judge of agent runs (seed 003).
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { announceState, parseNumber, storeFromEnv } from '../lib/cli/command-helpers.js';
import { JUDGE } from '../lib/cli/commands/judge.js';
import { Progress } from '../lib/report/progress.js';
import { loadConfig } from '../lib/config/config.js';
import { errorMessage, isUserError, UserError } from '../lib/base/errors.js';
import { loadRunRecord } from '../lib/collector/run-record.js';
import type { JudgeLedgerRow } from '../lib/schema/types.generated.js';
import { clockFromEnv } from '../lib/base/clock.js';
import { summarizeSpend, type SpendRow } from '../lib/judge/cost.js';
import {
  JudgeConfigError,
  judgeRun,
  throttleOptions,
  type JudgeDeps,
  type JudgeOutcome,
} from '../lib/judge/judge-run.js';
import { sdkRequestBody } from '../lib/judge/backend.js';
import { claudeArgs, cliPrompt } from '../lib/judge/cli-backend.js';
import { textTable } from '../lib/report/table.js';
import type { EnvSettings } from '../lib/base/env.js';
import { claimNext, enqueue, LEDGER_ID, releaseClaim, removeQueued, type Throttle } from '../lib/judge/throttle.js';

const USAGE = usage(JUDGE);

function formatSpend(rows: SpendRow[]): string {
  if (rows.length === 0) return 'no judge calls recorded\n';
  const head = ['day', 'model', 'calls', 'input', 'output', 'cache_write', 'cache_read', 'cost_usd'];
  const body = rows.map((r) => [
    r.day,
    r.model,
    String(r.calls),
    String(r.input_tokens),
    String(r.output_tokens),
    String(r.cache_creation_input_tokens),
    String(r.cache_read_input_tokens),
    r.cost_usd.toFixed(4) + (r.unpriced_calls ? ` (+${r.unpriced_calls} unpriced)` : ''),
  ]);
  const total = rows.reduce((s, r) => s + r.cost_usd, 0);
  body.push(['total', '', String(rows.reduce((s, r) => s + r.calls, 0)), '', '', '', '', total.toFixed(4)]);
  return textTable(head, body);
}

/** The request exactly as the configured backend would send it (already redacted): the body, or claude's argv and stdin. */
function shownRequest(d: NonNullable<JudgeOutcome['dryRun']>, command: string): unknown {
  if (d.backend === 'claude-cli')
    return { backend: 'claude-cli', argv: [command, ...claudeArgs(d.request)], stdin: cliPrompt(d.request) };
  return sdkRequestBody(d.request);
}

/** `json`: the state folder (carried by each JSON line) under --json, else false. */
function report(io: Io, json: string | false, o: JudgeOutcome, showRequest?: string): void {
  if (o.dryRun && showRequest !== undefined) {
    io.stdout(JSON.stringify(shownRequest(o.dryRun, showRequest), null, json ? undefined : 2) + '\n');
    io.stderr(
      `${o.bead}: the request above is what would be sent (secrets redacted: ${o.dryRun.stats.secrets_redacted.count}); nothing called or written\n`,
    );
    return;
  }
  if (o.dryRun && !json) {
    io.stdout(o.dryRun.context + '\n');
    io.stderr(
      `${o.bead}: ${o.dryRun.tokens_est} tokens (estimate) of context for ${o.dryRun.model}; estimated cost ${o.dryRun.estimated_cost_usd === null ? 'unknown (no price in config)' : `$${o.dryRun.estimated_cost_usd.toFixed(4)}`}; left out ${o.dryRun.stats.left_out.length} files, shortened ${o.dryRun.stats.shrunk.length}, ${o.dryRun.stats.secrets_redacted.count} secrets redacted; nothing called or written\n`,
    );
    return;
  }
  if (json) {
    const j = o.judgment;
    io.stdout(
      JSON.stringify({
        bead: o.bead,
        status: o.status,
        message: o.message,
        verdict: j?.verdict ?? null,
        score: j?.score ?? null,
        cost_usd: j?.cost_usd ?? null,
        ...(o.dryRun ? { dry_run: o.dryRun } : { state_dir: json }),
      }) + '\n',
    );
  } else io.stderr(`${o.bead}: ${o.status}: ${o.message}\n`);
}

// The JUDGE_* variables and the config keys they set: a config error on one of these keys names the variable.
function loadJudgeConfig(
  env: EnvSettings,
  cwd: string,
  configFile: string | undefined,
  overrides: Parameters<typeof loadConfig>[0]['overrides'],
) {
  return loadConfig({ env, cwd, configFile, overrides, flagNames: { '/judge/model': '--rating-agent' } });
}

/** JUDGE_THROTTLE_REDIS: the fleet's throttle in Redis (ioredis is loaded only then); else the ledger file's. */
async function openThrottle(deps: JudgeDeps): Promise<Throttle | undefined> {
  const url = deps.env.JUDGE_THROTTLE_REDIS;
  if (!url) return undefined;
  if (!/^rediss?:\/\//.test(url)) throw new UserError(`JUDGE_THROTTLE_REDIS="${url}": expected redis://host:port`);
  const { createRedisThrottle } = await import('../lib/judge/throttle-redis.js');
  const j = deps.config.judge;
  return createRedisThrottle({
    ...throttleOptions(deps),
    url,
    maxConcurrent: j.max_concurrent,
    callExpirationMs: j.timeout_seconds * (j.max_retries + 1) * 1000 + 60_000,
    connectTimeoutMs: 5000,
  });
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(JUDGE, argv);
  const cmdStderr = io.stderr;
  const store = storeFromEnv(io.env, io.cwd, values.config);
  if (values.spend) {
    const { rows } = store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID);
    const spend = summarizeSpend(rows);
    io.stdout(values.json ? JSON.stringify(spend) + '\n' : formatSpend(spend));
    return 0;
  }
  if ((values['rating-agent'] || values['rating-strict'] || values.complexity) && !values['rate-agents'])
    throw new UserError(`--rating-agent, --rating-strict and --complexity go with --rate-agents\n${USAGE}`);
  parseNumber('complexity', values.complexity, 1, 10, true); // a bad value is refused before the judge is paid
  // --rating-agent names the reviewer: the judge model whose verdict becomes the rated quality.
  const overrides = values['rating-agent'] ? { judge: { model: values['rating-agent'] } } : undefined;
  if (values['show-request'] && !values['dry-run']) throw new UserError(`--show-request goes with --dry-run\n${USAGE}`);
  const config = loadJudgeConfig(io.env, io.cwd, values.config, overrides);
  if (!values['dry-run']) announceState(io, store, values.quiet || values.background);
  const now = clockFromEnv(io.env);
  const deps: JudgeDeps = {
    store,
    config,
    env: io.env,
    processEnv: io.processEnv,
    now,
    log: (m) => io.stderr(m + '\n'),
  };
  const json = values.json ? store.root : false;
  if (!values['dry-run']) deps.throttle = await openThrottle(deps);
  try {
    return await judgeOrDrain(io, deps, json, values, positionals, cmdStderr);
  } finally {
    await deps.throttle?.close();
  }
}

async function judgeOrDrain(
  io: Io,
  deps: JudgeDeps,
  json: string | false,
  values: ReturnType<typeof parse<(typeof JUDGE)['flags']>>['values'],
  positionals: string[],
  cmdStderr: Io['stderr'],
): Promise<number> {
  const { store, config, now } = deps;
  if (values.drain) {
    if (positionals.length) throw new UserError(`--drain takes no run records\n${USAGE}`);
    if (!config.judge.enabled) {
      report(io, json, {
        bead: 'queue',
        status: 'skipped',
        message: 'judge disabled (JUDGE_ENABLED is not true); the queue is kept',
      });
      return 0;
    }
    const pending = (await import('../lib/judge/batch.js')).pendingBatches(deps);
    const over = config.judge.batch_over;
    const auto = over > 0 && config.judge.backend === 'sdk' && store.list('queue').length > over;
    if (values.batch || auto) return drainBatch(io, deps, json);
    return drain(io, deps, json, new Set(pending.flatMap((b) => b.items.map((i) => i.bead))));
  }
  if (values.batch) throw new UserError(`--batch goes with --drain\n${USAGE}`);
  if (positionals.length === 0) throw new UserError(`no run record given\n${USAGE}`);
  let code = 0;
  for (const path of positionals) {
    let loaded: ReturnType<typeof loadRunRecord> | undefined;
    try {
      loaded = loadRunRecord(path, io.cwd);
      if (values.background) {
        const bead = loaded.record.bead;
        const stamp = (t: string) => `${now().toISOString()} ${bead}: ${t}`;
        io = { ...io, stderr: (t) => cmdStderr(stamp(t)) };
        deps.log = (m) => io.stderr(`${m}\n`);
      }
      const outcome = await judgeRun(loaded, deps, {
        dryRun: Boolean(values['dry-run']),
        background: Boolean(values.background),
      });
      report(io, json, outcome, values['show-request'] ? config.judge.cli_command : undefined);
      if (values['rate-agents'] && !values['dry-run'] && outcome.status !== 'deferred') {
        const { rateFromStoredJudgment } = await import('../lib/ratings/rate-stored.js');
        code = Math.max(
          code,
          await rateFromStoredJudgment(io, { store, config, now: () => now().toISOString() }, loaded.record.bead, {
            reviewer: values['rating-agent'],
            strict: Boolean(values['rating-strict']),
            complexity: parseNumber('complexity', values.complexity, 1, 10, true),
          }),
        );
      }
    } catch (e) {
      // In a hook nobody sees an exit code: the run is queued with the failure, so a drain retries it.
      if (values.background && loaded) {
        const why = `failed in the background: ${errorMessage(e).split('\n')[0]}`;
        await enqueue(throttleOf(deps), loaded.record.bead, loaded.file, why.slice(0, 500));
        io.stderr(`${why}; queued for judge --drain\n`);
        code = Math.max(code, isUserError(e) ? 2 : 1);
        continue;
      }
      if (!isUserError(e)) throw e;
      io.stderr(`${errorMessage(e)}\n`);
      code = 2;
    }
  }
  return code;
}

const throttleOf = throttleOptions;

/** Judges queued runs oldest first while the hour has room; an entry leaves the queue only once judged or failed. */
/** --drain --batch (or a queue longer than judge.batch_over): a batch already sent is collected first. */
async function drainBatch(io: Io, deps: JudgeDeps, json: string | false): Promise<number> {
  const { drainBatch: run } = await import('../lib/judge/batch.js');
  const code = await run(deps, {
    cwd: io.cwd,
    log: (m) => io.stderr(`${m}\n`),
    outcome: (o) => report(io, json, o),
  });
  if (!json) io.stderr(`drain: ${deps.store.list('queue').length} still queued\n`);
  return code;
}

/** `inBatch`: beads of a batch sent and not yet collected (the batch drain stores them). */
async function drain(cmdIo: Io, cmdDeps: JudgeDeps, json: string | false, inBatch: Set<string>): Promise<number> {
  // Per queued run on stderr (live on a terminal, a labelled line per event elsewhere, none with --json); every
  // other stderr line goes through it so the live lines stay whole.
  const progress = Progress.for('judge --drain', cmdIo, { json: json !== false });
  const io: Io = { ...cmdIo, stderr: (text) => progress.message(text) };
  const deps: JudgeDeps = { ...cmdDeps, log: (m) => progress.message(m) };
  const t = throttleOf(deps);
  const skip = new Set<string>(inBatch);
  if (inBatch.size)
    io.stderr(`${inBatch.size} queued runs are in a batch already sent: judge --drain --batch collects them\n`);
  const queued = progress.enabled ? deps.store.list('queue').length : 0;
  let judged = 0;
  let code = 0;
  for (;;) {
    const entry = await claimNext(t, deps.config.judge.queue_claim_stale_seconds, skip);
    if (!entry) break;
    let outcome: JudgeOutcome;
    progress.update(entry.bead, 'judging', {
      done: judged + skip.size - inBatch.size + 1,
      total: Math.max(queued - inBatch.size, judged + skip.size - inBatch.size + 1),
    });
    try {
      outcome = await judgeRun(loadRunRecord(entry.record_path, io.cwd), deps, { fromQueue: true });
      progress.finish(entry.bead, outcome.status);
    } catch (e) {
      progress.finish(entry.bead, 'error');
      if (!isUserError(e) || e instanceof JudgeConfigError) {
        await releaseClaim(t, entry);
        if (!isUserError(e)) throw e;
        io.stderr(`drain stopped, the queue is kept: ${errorMessage(e)}\n`);
        return 2;
      }
      // A record that went bad stays queued (never lost) and is skipped by this drain.
      io.stderr(`${entry.bead}: kept in the queue: ${errorMessage(e)}\n`);
      await releaseClaim(t, entry);
      skip.add(entry.bead);
      code = 2;
      continue;
    }
    if (outcome.status === 'outage') {
      await releaseClaim(t, entry);
      report(io, json, outcome);
      io.stderr(
        `drain stopped: the judge API is unavailable; ${deps.store.list('queue').length} runs stay queued for the next drain\n`,
      );
      break;
    }
    if (outcome.status === 'deferred') {
      await releaseClaim(t, entry);
      const why = outcome.throttleDown ? outcome.message : 'the hourly limit is reached';
      report(io, json, { ...outcome, message: `${why}; the rest of the queue waits` });
      break;
    }
    if (outcome.status === 'skipped' && /disabled/.test(outcome.message)) {
      await releaseClaim(t, entry);
      break;
    }
    await removeQueued(t, entry.bead);
    judged++;
    report(io, json, outcome);
  }
  progress.end(); // every item was finished above: this only stops the clock
  const left = deps.store.list('queue').length;
  if (!json) io.stderr(`drain: ${judged} taken from the queue, ${left} still queued\n`);
  return code;
}

main(import.meta.url, run);
