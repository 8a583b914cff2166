// Judging one run record: gather → assemble → cache → throttle → call → validate → record → merge.
import { orderFeedback } from '../collector/record-order.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { EnvSettings } from '../cli/env.js';
import { UserError } from '../cli/errors.js';
import { diffPatch, measuredOrFreshDiff, resolveCommit, worktreeProblem } from '../git/git.js';
import { configDir, schemasDir } from '../store/paths.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import { CorruptStateError, type StateStore } from '../store/store.js';
import type { Feedback, JudgeLedgerRow, JudgeReply, Judgment } from '../store/types.generated.js';
import { loadSecretTable } from '../secrets/load.js';
import { isTransient, type Backend, type CallRequest, type CallResult, type Failure, type Message } from './backend.js';
import { createCliBackend } from './cli-backend.js';
import { collectFirst } from './collect-adapter.js';
import { readStoredJudgment, summarizeJudgment } from '../store/judgment.js';
import { assembleContext, type AssembledContext } from './context.js';
import { addUsage, costUsd, judgmentCacheKey, resolveModel, zeroUsage, type Usage } from './cost.js';
import { parseJudgePrompt, type JudgePrompt } from './prompt.js';
import { apiReplySchema, checkReplyText, checkReplyValue, retryMessage, type ReplyCheck } from './reply.js';
import { knownSecretValues, redactRequest } from './redact.js';
import { enqueue, LEDGER_ID, reserveOrQueue, type ThrottleOptions } from './throttle.js';
import { aggregateReplies, judgeComposite, judgeVerdict } from './verdict.js';

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
}

/** The API refused the credentials (401/403), or the claude command is missing: a configuration error (exit 2) that stops a drain. */
export class JudgeConfigError extends UserError {}

/** outage: a drain met a transient API fault; nothing was written and the entry stays queued. */
export type JudgeStatus = 'judged' | 'failed' | 'skipped' | 'deferred' | 'cached' | 'dry-run' | 'outage';

export interface JudgeOutcome {
  bead: string;
  status: JudgeStatus;
  message: string;
  judgment?: Judgment;
  dryRun?: { context: string; tokens_est: number; estimated_cost_usd: number | null; model: string; cache_key: string; stats: AssembledContext['stats']; request: CallRequest; backend: Backend['name'] };
}

export interface JudgeOptions {
  dryRun?: boolean;
  /** Called by --drain for a claimed queue entry: over the limit it is not queued again (the caller releases it). */
  fromQueue?: boolean;
}

let promptCache: JudgePrompt | undefined;
export function loadJudgePrompt(): JudgePrompt {
  const file = join(configDir(), 'judge-prompt.md');
  promptCache ??= parseJudgePrompt(readFileSync(file, 'utf8'), file);
  return promptCache;
}

let schemaCache: { schema: Record<string, unknown>; version: string } | undefined;
/** The reply schema as sent, and its version for the cache key (a hash: any edit of the schema changes it). */
export function replyApiSchema(): { schema: Record<string, unknown>; version: string } {
  if (!schemaCache) {
    const schema = apiReplySchema(JSON.parse(readFileSync(join(schemasDir(), 'judge-reply.schema.json'), 'utf8')) as Record<string, unknown>);
    schemaCache = { schema, version: createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 16) };
  }
  return schemaCache;
}

function isHttpUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** The backend the configuration names; a missing API key is a configuration error (exit 2), found before any slot is taken. */
export function backendFromConfig(cfg: Config, env: EnvSettings, processEnv: NodeJS.ProcessEnv): Backend {
  if (cfg.judge.backend === 'claude-cli') return createCliBackend({ command: cfg.judge.cli_command, env: processEnv });
  if (!env.ANTHROPIC_API_KEY) throw new UserError('ANTHROPIC_API_KEY is not set: the sdk judge backend needs it (or set JUDGE_BACKEND=claude-cli)');
  if (env.ANTHROPIC_BASE_URL !== undefined && !isHttpUrl(env.ANTHROPIC_BASE_URL)) {
    throw new UserError(`ANTHROPIC_BASE_URL=${JSON.stringify(env.ANTHROPIC_BASE_URL)}: expected an http(s) URL`);
  }
  const opts = { apiKey: env.ANTHROPIC_API_KEY, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) };
  // The SDK is loaded on the first call only: a deferred or cached run never pays its start-up.
  let sdk: Backend | undefined;
  return {
    name: 'sdk',
    async call(req) {
      sdk ??= (await import('./sdk-backend.js')).createSdkBackend(opts);
      return sdk.call(req);
    },
  };
}

/** Every request goes through the matcher as the last step before it is sent (the retry's conversation too). */
function redacting(backend: Backend, known: string[]): Backend {
  return { name: backend.name, call: (req) => backend.call(redactRequest(req, loadSecretTable(), known).request) };
}

function readFeedback(store: StateStore, bead: string, log: (m: string) => void): Feedback | null {
  try {
    return store.read<Feedback>('feedback', bead);
  } catch (e) {
    if (e instanceof CorruptStateError) {
      log(`warning: ${e.message}; judging without it`);
      return null;
    }
    throw e;
  }
}

function readJudgment(store: StateStore, bead: string): Judgment | null {
  return readStoredJudgment(store, bead).judgment;
}

const isCurrent = (fb: Feedback, loaded: LoadedRunRecord): boolean =>
  fb.run.completed_at === loaded.record.completed_at && fb.run.started_at === loaded.record.started_at;

/** Run facts for the judge (no bead id and no clock times, so identical work shares a cache key). */
function runMetadata(loaded: LoadedRunRecord, fb: Feedback | null): Record<string, unknown> {
  const r = loaded.record;
  const duration = (Date.parse(r.completed_at) - Date.parse(r.started_at)) / 1000;
  const meta: Record<string, unknown> = {
    agent: r.agent.slug,
    agent_model: r.agent.model ?? null,
    template: r.template,
    task_id: r.task.id,
    task_type: r.task.type ?? null,
    complexity: r.task.complexity ?? null,
    duration_seconds: duration,
    exit_code: r.exit_code,
    status: r.status,
    failure_reason: r.failure_reason ?? null,
    iterations: r.iterations ?? null,
  };
  // Measured facts only: derived scores (composite, speed) change when the run is re-collected (the race's
  // fastest run moves), and what changes the context changes the cache key.
  if (fb) {
    meta.mechanical = {
      outcome: fb.outcome,
      outcome_reason: fb.outcome_reason,
      build: fb.checks.build?.status ?? null,
      tests: fb.checks.test?.tests ?? null,
      lint: fb.checks.lint?.lint ?? null,
      integrity: { tests_not_run: fb.integrity.tests_not_run, exit_code_contradicts_counts: fb.integrity.exit_code_contradicts_counts, test_count_below_baseline: fb.integrity.test_count_below_baseline },
    };
  }
  return meta;
}

interface Gathered {
  context: AssembledContext;
  feedback: Feedback | null;
  headTree?: string;
}

async function gather(loaded: LoadedRunRecord, deps: JudgeDeps, feedback: Feedback | null, sources: string[]): Promise<Gathered> {
  const r = loaded.record;
  const wt = loaded.worktree;
  const problem = await worktreeProblem(wt);
  if (problem) throw new UserError(`${loaded.file}: /worktree: refused: ${problem}`);
  const base = await resolveCommit(wt, r.base_ref);
  if (!base) throw new UserError(`${loaded.file}: /base_ref: ${JSON.stringify(r.base_ref)} does not name a commit in ${wt}`);
  // The judge sees exactly what the collector measured (its snapshot tree) when that tree is still there;
  // otherwise the same snapshot function makes one now.
  const wd = await measuredOrFreshDiff(wt, base, feedback);
  const diff = await diffPatch(wt, wd.mergeBase, wd.tree);
  const testOut = feedback?.checks.test?.output?.text ?? r.checks?.test?.output ?? null;
  const lintOut = feedback?.checks.lint?.output?.text ?? r.checks?.lint?.output ?? null;
  if (feedback?.checks.test?.output) sources.push('test output: captured by the collector');
  else if (r.checks?.test) sources.push('test output: reported in the run record');
  else sources.push('test output: none (no test command ran)');
  if (feedback?.checks.lint?.output) sources.push('lint output: captured by the collector');
  else if (r.checks?.lint) sources.push('lint output: reported in the run record');
  else sources.push('lint output: none (no lint command ran)');
  const j = deps.config.judge;
  const context = assembleContext(
    { prompt: r.task.prompt, diff, testOutput: testOut, lintOutput: lintOut, metadata: runMetadata(loaded, feedback), sources },
    {
      contextTokens: j.context_budget_tokens,
      diffTokens: j.diff_budget_tokens,
      promptTokens: j.prompt_budget_tokens,
      testTokens: j.test_output_budget_tokens,
      lintTokens: j.lint_output_budget_tokens,
      testMaxLines: j.test_output_max_lines,
      charsPerToken: j.chars_per_token,
    },
    loadSecretTable(),
  );
  return { context, feedback, headTree: wd.tree };
}

/**
 * The request exactly as it will be sent, redacted as the last step, and its cache key: what the judge sees
 * (the redacted context), the rubric's and the reply schema's versions, the model (and effort, when set).
 */
export function buildRequest(context: AssembledContext, prompt: JudgePrompt, cfg: Config, model: string, known: string[] = []): { request: CallRequest; key: string } {
  const j = cfg.judge;
  const schema = replyApiSchema();
  const raw: CallRequest = {
    model,
    system: prompt.text,
    messages: [{ role: 'user', content: context.text }],
    schema: schema.schema,
    maxTokens: j.max_tokens,
    effort: j.effort,
    timeoutMs: j.timeout_seconds * 1000,
    maxRetries: j.max_retries,
    retryBackoffMs: j.retry_backoff_seconds * 1000,
    retryBackoffMaxMs: j.retry_backoff_max_seconds * 1000,
  };
  const { request, redacted } = redactRequest(raw, loadSecretTable(), known);
  // What the final pass caught on top of the parts' own redaction is counted with it.
  const total = context.stats.secrets_redacted;
  total.count += redacted.count;
  for (const [k, v] of Object.entries(redacted.kinds)) total.kinds[k] = (total.kinds[k] ?? 0) + v;
  const modelKey = j.effort ? `${model}|effort=${j.effort}` : model;
  return { request, key: judgmentCacheKey(modelKey, `${prompt.version}|schema=${schema.version}`, request.messages[0]!.content) };
}

interface SampleResult {
  reply: JudgeReply | null;
  failure: Failure | null;
  usage: Usage;
  cost: number | null;
  latencyMs: number;
  attempts: number;
}

/** How a call ended, for its ledger row: ok only for a reply that passed validation. */
export interface CallOutcome {
  outcome: string;
  cause?: string;
}

/** One sample: a call, and one retry quoting the validation errors when the reply does not pass. */
async function sample(backend: Backend, req: CallRequest, record: (r: CallResult, o: CallOutcome) => void, cfg: Config, model: string): Promise<SampleResult> {
  let usage = zeroUsage();
  let cost: number | null = 0;
  let latencyMs = 0;
  const add = (r: CallResult, o: CallOutcome): void => {
    record(r, o);
    usage = addUsage(usage, r.usage);
    const c = r.costUsd !== undefined ? r.costUsd : costUsd(r.usage, model, cfg.judge);
    cost = cost === null || c === null ? null : Math.round((cost + c) * 1e8) / 1e8;
    latencyMs += r.latencyMs;
  };
  const failed = (r: Extract<CallResult, { ok: false }>): CallOutcome => ({ outcome: r.failure.reason, cause: r.failure.message });
  const invalid = (c: Extract<ReplyCheck, { ok: false }>): CallOutcome => ({ outcome: 'invalid_reply', cause: `${c.reason}: ${c.errors.slice(0, 5).join('; ')}` });
  const first = await backend.call(req);
  if (!first.ok) {
    add(first, failed(first));
    return { reply: null, failure: first.failure, usage, cost, latencyMs, attempts: 1 };
  }
  const check = first.structured !== undefined ? checkReplyValue(first.structured) : checkReplyText(first.text);
  add(first, check.ok ? { outcome: 'ok' } : invalid(check));
  if (check.ok) return { reply: check.reply, failure: null, usage, cost, latencyMs, attempts: 1 };
  const previous = first.structured !== undefined ? JSON.stringify(first.structured) : first.text;
  const messages: Message[] = [...req.messages, { role: 'assistant', content: previous }, { role: 'user', content: retryMessage(check) }];
  const second = await backend.call({ ...req, messages });
  if (!second.ok) {
    add(second, failed(second));
    return { reply: null, failure: { ...second.failure, message: `after an invalid first reply (${check.errors[0]}): ${second.failure.message}` }, usage, cost, latencyMs, attempts: 2 };
  }
  const check2 = second.structured !== undefined ? checkReplyValue(second.structured) : checkReplyText(second.text);
  add(second, check2.ok ? { outcome: 'ok' } : invalid(check2));
  if (check2.ok) return { reply: check2.reply, failure: null, usage, cost, latencyMs, attempts: 2 };
  return { reply: null, failure: { reason: 'invalid_reply', message: `invalid after one retry (${check2.reason}): ${check2.errors.slice(0, 5).join('; ')}`, stop_reason: second.stopReason }, usage, cost, latencyMs, attempts: 2 };
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
export async function judgeRun(loaded: LoadedRunRecord, deps: JudgeDeps, opts: JudgeOptions = {}): Promise<JudgeOutcome> {
  const r = loaded.record;
  const bead = r.bead;
  const cfg = deps.config;
  const disabled = !opts.dryRun && !cfg.judge.enabled;

  // The hook's one entry point: a run without current feedback is collected first, judge on or off, whatever
  // the run's status (a timed-out run's feedback is what the templates' timeout rate counts).
  const sources: string[] = [];
  let feedback = readFeedback(deps.store, bead, deps.log);
  if (feedback && !isCurrent(feedback, loaded)) feedback = null;
  let collected = false;
  if (!feedback) {
    if (opts.dryRun) sources.push('no current feedback record (dry run collects nothing)');
    else {
      const c = await collectFirst(loaded, { store: deps.store, config: cfg, processEnv: deps.processEnv, now: deps.now });
      feedback = c.feedback;
      collected = c.feedback !== null;
      sources.push(c.note);
    }
  }
  const what = collected ? 'feedback collected' : feedback ? 'feedback already current' : sources.join('; ');
  if (disabled) return { bead, status: 'skipped', message: `judge disabled (JUDGE_ENABLED is not true); ${what}` };
  if (r.status === 'infra_failure' || r.status === 'timeout') return { bead, status: 'skipped', message: `nothing to judge: the run ended with ${r.status}; ${what}` };
  if (feedback && (feedback.outcome === 'infra_failure' || feedback.outcome === 'timeout')) {
    return { bead, status: 'skipped', message: `nothing to judge: the outcome is ${feedback.outcome}` };
  }

  const prompt = deps.prompt ?? loadJudgePrompt();
  const model = resolveModel(cfg.judge);
  const g = await gather(loaded, deps, feedback, sources);
  const known = knownSecretValues(deps.processEnv, loadSecretTable());
  const { request: req, key } = buildRequest(g.context, prompt, cfg, model, known);

  if (opts.dryRun) {
    const p = cfg.judge.prices_per_million[model];
    const systemTokens = Math.ceil(prompt.text.length / cfg.judge.chars_per_token);
    const est = p ? ((g.context.stats.tokens_est * p.input + systemTokens * p.cache_write + cfg.judge.expected_output_tokens * p.output) / 1e6) * cfg.judge.samples : null;
    return {
      bead,
      status: 'dry-run',
      message: `dry run: ${g.context.stats.tokens_est} tokens of context (estimate), nothing called or written`,
      dryRun: { context: req.messages[0]!.content, tokens_est: g.context.stats.tokens_est, estimated_cost_usd: est === null ? null : Math.round(est * 1e6) / 1e6, model, cache_key: key, stats: g.context.stats, request: req, backend: cfg.judge.backend },
    };
  }

  const backend = redacting(deps.backend ?? backendFromConfig(cfg, deps.env, deps.processEnv), known);
  const throttle: ThrottleOptions = { store: deps.store, limit: cfg.judge.max_per_hour, now: deps.now, lockWaitSeconds: cfg.judge.lock_wait_seconds };

  return deps.store.withLock(
    `judge-${bead}`,
    async (): Promise<JudgeOutcome> => {
      // The same content is never paid for twice: this bead's judgment, or another bead's with the same key.
      const existing = readJudgment(deps.store, bead);
      if (existing && existing.status === 'judged' && existing.cache_key === key) {
        await mergeIntoFeedback(deps, existing);
        return { bead, status: 'cached', message: `already judged (same model, prompt version and context): ${existing.verdict} ${existing.score}`, judgment: existing };
      }
      const twin = findTwin(deps.store, key, bead);
      if (twin) {
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
        };
        deps.store.write('judgments', bead, copy);
        await mergeIntoFeedback(deps, copy);
        return { bead, status: 'cached', message: `identical context already judged for ${twin.bead}: reused, no call`, judgment: copy };
      }

      const samples = cfg.judge.samples;
      const res = await reserveOrQueue(throttle, bead, samples, loaded.file, !opts.fromQueue);
      if (!res.ok) {
        return { bead, status: 'deferred', message: `deferred: ${res.used} of ${cfg.judge.max_per_hour} judge calls used in the last hour${res.queued ? `; queued in state/queue/${bead}.json (run bin/judge --drain later)` : ''}` };
      }

      const recordCall = (c: CallResult, o: CallOutcome): void => {
        const cost = c.costUsd !== undefined ? c.costUsd : costUsd(c.usage, model, cfg.judge);
        deps.store.appendLine<JudgeLedgerRow>('judge-ledger', LEDGER_ID, {
          type: 'call',
          at: deps.now().toISOString(),
          bead,
          pid: process.pid,
          model,
          backend: backend.name,
          cache_key: key,
          ...c.usage,
          cost_usd: cost,
          latency_ms: Math.round(c.latencyMs),
          outcome: o.outcome,
          ...(o.cause ? { cause: o.cause.slice(0, 500) } : {}),
          retries: c.retries ?? 0,
        });
      };
      const results: SampleResult[] = [];
      for (let i = 0; i < samples; i++) results.push(await sample(backend, req, recordCall, cfg, model));
      const last = results[results.length - 1]!.failure;
      if (results.every((x) => x.reply === null) && last) {
        // A rejected key is a configuration error, not a judgment of this run.
        if (last.reason === 'auth_error') throw new JudgeConfigError(`the judge API refused the credentials (${last.message}): check ANTHROPIC_API_KEY${cfg.judge.backend === 'claude-cli' ? ' or the claude login' : ''}`);
        if (last.reason === 'cli_not_found') throw new JudgeConfigError(`${last.message}: install Claude Code or set judge.cli_command (JUDGE_BACKEND=claude-cli)`);
        // An outage says nothing about the run: a drain keeps the entry queued and stops; a direct call records
        // the failure and queues the run, so the next drain judges it.
        if (isTransient(last)) {
          if (opts.fromQueue) return { bead, status: 'outage', message: `the judge API is unavailable (${last.reason}: ${last.message}); kept in the queue` };
          await enqueue(throttle, bead, loaded.file, `the judge API was unavailable (${last.reason})`);
        }
      }
      const judgment = buildJudgment(results, { bead, model, alias: cfg.judge.model, backend: backend.name, prompt, key: key, now: deps.now(), context: g.context, loaded, headTree: g.headTree });
      if (judgment.status === 'judged') {
        // Mark the key as paid for, so another bead with the same context finds it.
        deps.store.appendLine<JudgeLedgerRow>('judge-ledger', LEDGER_ID, { type: 'judged', at: judgment.judged_at, bead, pid: process.pid, model, backend: backend.name, cache_key: key });
      }
      deps.store.write('judgments', bead, judgment);
      const merged = await mergeIntoFeedback(deps, judgment);
      if (judgment.status === 'failed') {
        const queued = isTransient(judgment.failure!) && !opts.fromQueue ? `; queued in state/queue/${bead}.json for bin/judge --drain` : '';
        return { bead, status: 'failed', message: `judge failed (${judgment.failure!.reason}): ${judgment.failure!.message}; mechanical feedback unchanged${queued}`, judgment };
      }
      const extra = judgment.disagreement?.verdict ? ` (the model said ${judgment.model_verdict})` : '';
      return { bead, status: 'judged', message: `${judgment.verdict} ${judgment.score}${extra}${merged ? '; merged into feedback' : ''}`, judgment };
    },
    { waitSeconds: cfg.judge.lock_wait_seconds },
  );
}

function findTwin(store: StateStore, key: string, bead: string): Judgment | null {
  const rows = store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows;
  const beads = new Set(rows.filter((row) => row.type === 'judged' && row.cache_key === key && row.bead !== bead).map((row) => row.bead));
  for (const b of beads) {
    const j = readJudgment(store, b);
    if (j && j.status === 'judged' && j.cache_key === key) return j;
  }
  return null;
}

interface BuildInfo {
  bead: string;
  model: string;
  alias: string;
  backend: 'sdk' | 'claude-cli';
  prompt: JudgePrompt;
  key: string;
  now: Date;
  context: AssembledContext;
  loaded: LoadedRunRecord;
  headTree?: string;
}

/** The judgment file: computed score and verdict from the (median) dimensions, or the failure with no score. */
export function buildJudgment(results: SampleResult[], b: BuildInfo): Judgment {
  const usage = results.reduce((u, s) => addUsage(u, s.usage), zeroUsage());
  const cost = results.some((s) => s.cost === null) ? null : Math.round(results.reduce((c, s) => c + (s.cost ?? 0), 0) * 1e8) / 1e8;
  const ok = results.filter((s) => s.reply !== null).map((s) => s.reply!);
  const base = {
    schema_version: '1.0.0' as const,
    bead: b.bead,
    model: b.model,
    model_alias: b.alias,
    backend: b.backend,
    prompt_version: b.prompt.version,
    cache_key: b.key,
    judged_at: b.now.toISOString(),
    samples: Math.max(1, ok.length),
    usage,
    cost_usd: cost,
    latency_ms: Math.round(results.reduce((t, s) => t + s.latencyMs, 0)),
    attempts: results.reduce((t, s) => t + s.attempts, 0),
    context: b.context.stats,
    run: { record_path: b.loaded.file, completed_at: b.loaded.record.completed_at, ...(b.headTree ? { head_tree: b.headTree } : {}) },
  };
  if (ok.length === 0) {
    const failure = results[results.length - 1]!.failure!;
    return { ...base, status: 'failed', verdict: null, score: null, dimensions: null, issues: [], summary: null, confidence: null, failure };
  }
  const reply = aggregateReplies(ok);
  const score = judgeComposite(reply.dimensions);
  const verdict = judgeVerdict(reply.dimensions);
  const first = ok[0]!;
  const j: Judgment = {
    ...base,
    status: 'judged',
    verdict,
    score,
    dimensions: reply.dimensions,
    issues: reply.issues,
    summary: reply.summary,
    confidence: reply.confidence,
    model_verdict: first.verdict,
    model_score: first.score,
    disagreement: { verdict: first.verdict !== verdict, score_delta: Math.round((first.score - score) * 1e6) / 1e6 },
    failure: null,
  };
  if (reply.criteria) j.criteria = reply.criteria;
  return j;
}
