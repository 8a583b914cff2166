// Judging one run record: gather → assemble → cache → throttle → call → validate → record → merge.
import { recentRefusal, retryAfter } from './refusal.js';
import { orderFeedback } from '../collector/record-order.js';
import type { Config } from '../config/config.js';
import type { EnvSettings } from '../base/env.js';
import { UserError } from '../base/errors.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { StateStore } from '../store/store.js';
import type { Feedback, JudgeLedgerRow, Judgment } from '../schema/types.generated.js';
import { loadSecretTable } from '../secrets/load.js';
import { isTransient, type Backend, type CallRequest, type CallResult } from './backend.js';
import { collectFirst } from './collect-adapter.js';
import { summarizeJudgment } from '../collector/feedback-parts.js';
import type { AssembledContext } from './context.js';
import { costUsd, ledgerCallRow, resolveModel, zeroUsage } from './cost.js';
import type { JudgePrompt } from './prompt.js';
import { knownSecretValues, redactRequest } from './redact.js';
import {
  enqueue,
  fileThrottle,
  LEDGER_ID,
  reserveOrQueue,
  type Throttle,
  type ThrottleOptions,
  ThrottleUnavailable,
} from './throttle.js';
import { gather, isCurrent, readFeedback, readJudgment, type Gathered } from './gather.js';
import { backendFromConfig, buildRequest, loadJudgePrompt, redacting } from './request.js';
import { buildJudgment, sample, type CallOutcome, type SampleResult } from './sample.js';
import { isSelfJudged } from './spread.js';

export interface JudgeDeps {
  store: StateStore;
  config: Config;
  env: EnvSettings;
  processEnv: NodeJS.ProcessEnv;
  now: () => Date;
  log: (msg: string) => void;
  /** Injected in tests; otherwise built from config on first use. */
  backend?: Backend;
  prompt?: JudgePrompt;
  /** Where the hourly and concurrency limits are held (bin/judge opens Redis for JUDGE_THROTTLE_REDIS); else the ledger. */
  throttle?: Throttle;
}

/** The throttle options of a judge process: its limits, its clock, and the backend holding them. */
export function throttleOptions(deps: Pick<JudgeDeps, 'store' | 'config' | 'now' | 'throttle'>): ThrottleOptions {
  const o: ThrottleOptions = {
    store: deps.store,
    limit: deps.config.judge.max_per_hour,
    now: deps.now,
    lockWaitSeconds: deps.config.judge.lock_wait_seconds,
  };
  return { ...o, backend: deps.throttle ?? fileThrottle(o, deps.config.judge.max_concurrent) };
}

/** The API refused the credentials (401/403), or the claude command is missing: a configuration error (exit 2) that stops a drain. */
export class JudgeConfigError extends UserError {}

/** outage: a drain met a transient API fault; nothing was written and the entry stays queued. */
type JudgeStatus = 'judged' | 'failed' | 'skipped' | 'deferred' | 'cached' | 'dry-run' | 'outage' | 'prepared';

export interface JudgeOutcome {
  bead: string;
  status: JudgeStatus;
  message: string;
  judgment?: Judgment;
  /** Status prepared: the request a batch item carries. */
  prepared?: { request: CallRequest; model: string };
  /** Deferred because the throttle's store (Redis) could not be reached, not because the hour is full. */
  throttleDown?: true;
  dryRun?: {
    context: string;
    tokens_est: number;
    estimated_cost_usd: number | null;
    model: string;
    cache_key: string;
    stats: AssembledContext['stats'];
    request: CallRequest;
    backend: Backend['name'];
  };
}

export interface JudgeOptions {
  dryRun?: boolean;
  /** Called by --drain for a claimed queue entry: over the limit it is not queued again (the caller releases it). */
  fromQueue?: boolean;
  /** A hook's run: within the hour after a refused key, no request is made (lib/judge/refusal.ts). */
  background?: boolean;
  /**
   * Message Batches (lib/judge/batch.ts). prepare: collect and build the request, stop before the throttle
   * (status prepared, or cached when nothing needs a call); replay: the batch's results as the backend, the
   * slots already reserved at submit, no cache lookup (the batch result is paid for).
   */
  batch?: { prepare: true } | { replay: Backend };
}

/** Phase >= 2: the verdict and score go into the feedback record (under its lock); nothing else of it changes. */
async function mergeIntoFeedback(deps: JudgeDeps, j: Judgment): Promise<boolean> {
  if (deps.config.judge.phase < 2 || j.status !== 'judged') return false;
  let merged: Feedback | null = null;
  await deps.store.update<Feedback>('feedback', j.bead, (fb) => {
    if (!fb) return undefined;
    merged = orderFeedback({ ...fb, judgment: summarizeJudgment(j) });
    return merged;
  });
  // The template scores read the feedback index: a rewritten feedback file gets a new index row.
  if (merged) await (await import('../store/feedback-index.js')).indexFeedback(deps.store, merged);
  return merged !== null;
}

/** Judges one run record. Judge failures are recorded and returned, never thrown; bad input throws UserError. */
export async function judgeRun(
  loaded: LoadedRunRecord,
  deps: JudgeDeps,
  opts: JudgeOptions = {},
): Promise<JudgeOutcome> {
  const r = loaded.record;
  const bead = r.bead;
  const cfg = deps.config;
  const disabled = !opts.dryRun && !cfg.judge.enabled;
  const sources: string[] = [];
  const { feedback, collected } = await ensureFeedback(loaded, deps, opts, sources);
  const what = collected ? 'feedback collected' : feedback ? 'feedback already current' : sources.join('; ');
  if (disabled) return { bead, status: 'skipped', message: `judge disabled (JUDGE_ENABLED is not true); ${what}` };
  if (r.status === 'infra_failure' || r.status === 'timeout')
    return { bead, status: 'skipped', message: `nothing to judge: the run ended with ${r.status}; ${what}` };
  if (feedback && (feedback.outcome === 'infra_failure' || feedback.outcome === 'timeout')) {
    return { bead, status: 'skipped', message: `nothing to judge: the outcome is ${feedback.outcome}` };
  }

  const prompt = deps.prompt ?? loadJudgePrompt();
  const model = resolveModel(cfg.judge);
  const self = selfJudgedWarning(r.agent.model, model);
  if (self && cfg.judge.refuse_self_judged)
    return { bead, status: 'skipped', message: `refused (judge.refuse_self_judged): ${self}` };
  if (self) deps.log(`warning: ${bead}: ${self}`);
  const g = await gather(loaded, cfg, feedback, sources);
  const known = knownSecretValues(deps.processEnv, loadSecretTable());
  const { request: req, key } = buildRequest(g.context, prompt, cfg, model, known);
  if (opts.dryRun) return dryRunOutcome(bead, cfg, prompt, model, g, req, key);

  const replay = opts.batch && 'replay' in opts.batch ? opts.batch.replay : undefined;
  const backend = redacting(
    replay ?? deps.backend ?? backendFromConfig(cfg, deps.env, deps.processEnv),
    known,
    g.context.secretValues,
  );
  const call: Call = { loaded, deps, opts, g, req, key, model, prompt, backend, ...(self ? { self } : {}) };
  return deps.store.withLock(
    `judge-${bead}`,
    async (): Promise<JudgeOutcome> => {
      if (replay) return callAndRecord(call);
      const cached = await fromCache(call);
      if (cached && 'prior' in cached) call.prior = cached.prior;
      else if (cached) return cached;
      if (opts.batch)
        return {
          bead,
          status: 'prepared',
          message: 'request prepared',
          prepared: { request: redactRequest(req, loadSecretTable(), known, g.context.secretValues).request, model },
        };
      return callAndRecord(call);
    },
    { waitSeconds: cfg.judge.lock_wait_seconds },
  );
}

/**
 * The hook's one entry point: a run without current feedback is collected first, judge on or off, whatever the
 * run's status (a timed-out run's feedback is what the templates' timeout rate counts).
 */
async function ensureFeedback(
  loaded: LoadedRunRecord,
  deps: JudgeDeps,
  opts: JudgeOptions,
  sources: string[],
): Promise<{ feedback: Feedback | null; collected: boolean }> {
  let feedback = readFeedback(deps.store, loaded.record.bead, deps.log);
  if (feedback && !isCurrent(feedback, loaded)) feedback = null;
  if (feedback) return { feedback, collected: false };
  if (opts.dryRun) {
    sources.push('no current feedback record (dry run collects nothing)');
    return { feedback: null, collected: false };
  }
  const c = await collectFirst(loaded, {
    store: deps.store,
    config: deps.config,
    processEnv: deps.processEnv,
    now: deps.now,
  });
  sources.push(c.note);
  return { feedback: c.feedback, collected: c.feedback !== null };
}

function dryRunOutcome(
  bead: string,
  cfg: Config,
  prompt: JudgePrompt,
  model: string,
  g: Gathered,
  req: CallRequest,
  key: string,
): JudgeOutcome {
  const p = cfg.judge.prices_per_million[model];
  const systemTokens = Math.ceil(prompt.text.length / cfg.judge.chars_per_token);
  const est = p
    ? ((g.context.stats.tokens_est * p.input +
        systemTokens * p.cache_write +
        cfg.judge.expected_output_tokens * p.output) /
        1e6) *
      cfg.judge.samples
    : null;
  return {
    bead,
    status: 'dry-run',
    message: `dry run: ${g.context.stats.tokens_est} tokens of context (estimate), nothing called or written`,
    dryRun: {
      context: req.messages[0]!.content,
      tokens_est: g.context.stats.tokens_est,
      estimated_cost_usd: est === null ? null : Math.round(est * 1e6) / 1e6,
      model,
      cache_key: key,
      stats: g.context.stats,
      request: req,
      backend: cfg.judge.backend,
    },
  };
}

/** One judge call's inputs, once the request is built. */
interface Call {
  loaded: LoadedRunRecord;
  deps: JudgeDeps;
  opts: JudgeOptions;
  g: Gathered;
  req: CallRequest;
  key: string;
  model: string;
  prompt: JudgePrompt;
  backend: Backend;
  /** The self-judged warning, when the run's agent is of the judge's family. */
  self?: string;
  /** Samples of this key already stored (judge.samples raised since): only the missing ones are called. */
  prior?: Judgment;
}

/** The warning a run whose agent is of the judge's family carries; undefined for any other run. */
function selfJudgedWarning(agentModel: string | undefined, judgeModel: string): string | undefined {
  if (!isSelfJudged(agentModel, judgeModel)) return undefined;
  return `self-judged: the agent (${agentModel}) is of the judge's model family (${judgeModel}); a model may favour its own kind (judge.refuse_self_judged refuses such runs)`;
}

/** The stored samples of a judgment (one per sample, or none for a judgment written before they were kept). */
function storedSamples(j: Judgment): number {
  return j.sample_replies?.length ?? 0;
}

/** Enough samples for judge.samples: the ones kept, or (written before they were kept) the count it says. */
function hasSamples(j: Judgment, n: number): boolean {
  return (j.sample_replies ? j.sample_replies.length : (j.samples ?? 1)) >= n;
}

/** The same content is never paid for twice: this bead's judgment, or another bead's with the same key. */
async function fromCache({ loaded, deps, g, key, self }: Call): Promise<JudgeOutcome | { prior: Judgment } | null> {
  const r = loaded.record;
  const bead = r.bead;
  const n = deps.config.judge.samples;
  const existing = readJudgment(deps.store, bead);
  const sameKey = existing && existing.status === 'judged' && existing.cache_key === key ? existing : null;
  if (sameKey && !hasSamples(sameKey, n) && storedSamples(sameKey) > 0) return { prior: sameKey };
  if (sameKey && hasSamples(sameKey, n)) {
    await mergeIntoFeedback(deps, sameKey);
    return {
      bead,
      status: 'cached',
      message: `already judged (same model, prompt version and context): ${sameKey.verdict} ${sameKey.score}`,
      judgment: sameKey,
    };
  }
  const twin = findTwin(deps.store, key, bead);
  if (!twin || !hasSamples(twin, n)) return null;
  const copy: Judgment = {
    ...twin,
    bead,
    cached_from: twin.bead,
    judged_at: deps.now().toISOString(),
    usage: zeroUsage(),
    cost_usd: 0,
    latency_ms: 0,
    attempts: 0,
    run: { record_path: loaded.file, completed_at: r.completed_at, ...(g.headTree ? { head_tree: g.headTree } : {}) },
    self_judged: self !== undefined,
  };
  const warnings = [...(self ? [self] : []), ...(twin.warnings ?? []).filter((w) => !w.startsWith('self-judged'))];
  if (warnings.length) copy.warnings = warnings;
  else delete copy.warnings;
  deps.store.write('judgments', bead, copy);
  await mergeIntoFeedback(deps, copy);
  return {
    bead,
    status: 'cached',
    message: `identical context already judged for ${twin.bead}: reused, no call`,
    judgment: copy,
  };
}

/** Within the hourly limit: the samples, each call in the ledger, the judgment written and merged. */
async function callAndRecord(c: Call): Promise<JudgeOutcome> {
  const { loaded, deps, opts, key, model, backend } = c;
  const cfg = deps.config;
  const bead = loaded.record.bead;
  const throttle = throttleOptions(deps);
  const priorResults = c.prior && !opts.batch ? storedResults(c.prior) : [];
  const samples = cfg.judge.samples - priorResults.length;
  if (opts.background) {
    const refused = recentRefusal(deps.store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows, deps.now());
    if (refused)
      throw new JudgeConfigError(
        `not sent: the judge API refused the credentials at ${refused.at} (reported then); no request until ${retryAfter(refused)} or judge --drain`,
      );
  }
  let res: Awaited<ReturnType<typeof reserveOrQueue>>;
  try {
    // A batch's slots were taken when it was submitted.
    res = opts.batch
      ? { ok: true, used: 0 }
      : await reserveOrQueue(throttle, bead, samples, loaded.file, !opts.fromQueue);
  } catch (e) {
    if (!(e instanceof ThrottleUnavailable)) throw e;
    return throttleDown(c, throttle, e);
  }
  if (!res.ok) {
    return {
      bead,
      status: 'deferred',
      message: `deferred: ${res.used} of ${cfg.judge.max_per_hour} judge calls used in the last hour${res.queued ? `; queued in state/queue/${bead}.json (run judgeloop judge --drain later)` : ''}`,
    };
  }
  const recordCall = (r: CallResult, o: CallOutcome): void => {
    const cost = r.costUsd !== undefined ? r.costUsd : costUsd(r.usage, model, cfg.judge);
    deps.store.appendLine<JudgeLedgerRow>(
      'judge-ledger',
      LEDGER_ID,
      ledgerCallRow({
        at: deps.now().toISOString(),
        bead,
        model,
        backend: backend.name,
        cacheKey: key,
        usage: r.usage,
        costUsd: cost,
        latencyMs: r.latencyMs,
        outcome: o.outcome,
        cause: o.cause,
        retries: r.retries,
        batchId: r.batchId,
      }),
    );
  };
  const results: SampleResult[] = [...priorResults];
  for (let i = 0; i < samples; i++) {
    let r: SampleResult;
    try {
      r = await throttle.backend!.running(() => sample(backend, c.req, recordCall, cfg, model));
    } catch (e) {
      if (!(e instanceof ThrottleUnavailable)) throw e;
      return throttleDown(c, throttle, e);
    }
    results.push(r);
    // A refused key refuses every sample: one request, not one per sample.
    if (r.failure?.reason === 'auth_error' && results.every((x) => x.reply === null)) break;
  }
  const fresh = results.slice(priorResults.length);
  if (fresh.length && fresh.every((x) => x.reply === null)) {
    // The new samples all failed: a configuration error or an outage is handled as if nothing had been stored.
    const outage = await allFailed(fresh, c, throttle);
    if (outage) return outage;
  }
  const outage = await allFailed(results, c, throttle);
  if (outage) return outage;
  const judgment = buildJudgment(results, {
    bead,
    model,
    alias: cfg.judge.model,
    backend: backend.name,
    prompt: c.prompt,
    key,
    now: deps.now(),
    context: c.g.context,
    loaded,
    headTree: c.g.headTree,
    margin: cfg.judge.uncertain_margin ?? 0.05,
    ...(c.self ? { selfJudged: c.self } : {}),
  });
  if (judgment.status === 'judged') {
    // Mark the key as paid for, so another bead with the same context finds it.
    deps.store.appendLine<JudgeLedgerRow>('judge-ledger', LEDGER_ID, {
      type: 'judged',
      at: judgment.judged_at,
      bead,
      pid: process.pid,
      model,
      backend: backend.name,
      cache_key: key,
    });
  }
  deps.store.write('judgments', bead, judgment);
  const merged = await mergeIntoFeedback(deps, judgment);
  if (judgment.status === 'failed') {
    const queued =
      isTransient(judgment.failure!) && !opts.fromQueue
        ? `; queued in state/queue/${bead}.json for judgeloop judge --drain`
        : '';
    return {
      bead,
      status: 'failed',
      message: `judge failed (${judgment.failure!.reason}): ${judgment.failure!.message}; mechanical feedback unchanged${queued}`,
      judgment,
    };
  }
  const extra = judgment.disagreement?.verdict ? ` (the model said ${judgment.model_verdict})` : '';
  return {
    bead,
    status: 'judged',
    message: `${judgment.verdict} ${judgment.score}${extra}${merged ? '; merged into feedback' : ''}`,
    judgment,
  };
}

/** A stored judgment's samples as results: the first carries what they cost, the others nothing more. */
function storedResults(j: Judgment): SampleResult[] {
  return (j.sample_replies ?? []).map((reply, i) => ({
    reply,
    failure: null,
    usage: i === 0 ? j.usage : zeroUsage(),
    cost: i === 0 ? j.cost_usd : 0,
    latencyMs: i === 0 ? j.latency_ms : 0,
    attempts: i === 0 ? j.attempts : 0,
  }));
}

/** The throttle cannot be reached: never judged unthrottled; the run is queued (a drain keeps its claim's entry). */
async function throttleDown(c: Call, throttle: ThrottleOptions, e: ThrottleUnavailable): Promise<JudgeOutcome> {
  const bead = c.loaded.record.bead;
  if (!c.opts.fromQueue) await enqueue(throttle, bead, c.loaded.file, e.message.slice(0, 500));
  return {
    bead,
    status: 'deferred',
    throttleDown: true,
    message: `${e.message}${c.opts.fromQueue ? '' : `; queued in state/queue/${bead}.json`}`,
  };
}

/**
 * Every sample failed: a rejected key or a missing claude command is a configuration error, not a judgment of
 * this run (thrown); an outage says nothing about the run: a drain keeps the entry queued and stops (returned),
 * a direct call records the failure and queues the run, so the next drain judges it.
 */
async function allFailed(results: SampleResult[], c: Call, throttle: ThrottleOptions): Promise<JudgeOutcome | null> {
  const last = results[results.length - 1]!.failure;
  if (!results.every((x) => x.reply === null) || !last) return null;
  const cfg = c.deps.config;
  if (last.reason === 'auth_error')
    throw new JudgeConfigError(
      `the judge API refused the credentials (${last.message}): check ANTHROPIC_API_KEY${cfg.judge.backend === 'claude-cli' ? ' or the claude login' : ''}`,
    );
  if (last.reason === 'cli_not_found')
    throw new JudgeConfigError(
      `${last.message}: install Claude Code or set judge.cli_command (JUDGE_BACKEND=claude-cli)`,
    );
  if (isTransient(last)) {
    const bead = c.loaded.record.bead;
    if (c.opts.fromQueue)
      return {
        bead,
        status: 'outage',
        message: `the judge API is unavailable (${last.reason}: ${last.message}); kept in the queue`,
      };
    await enqueue(throttle, bead, c.loaded.file, `the judge API was unavailable (${last.reason})`);
  }
  return null;
}

function findTwin(store: StateStore, key: string, bead: string): Judgment | null {
  const rows = store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows;
  const beads = new Set(
    rows.filter((row) => row.type === 'judged' && row.cache_key === key && row.bead !== bead).map((row) => row.bead),
  );
  for (const b of beads) {
    const j = readJudgment(store, b);
    if (j && j.status === 'judged' && j.cache_key === key) return j;
  }
  return null;
}
