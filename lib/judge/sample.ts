// One judge sample (a call, and one retry quoting the validation errors) and the judgment built from the samples.
import type { Config } from '../config/config.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { JudgeReply, Judgment } from '../schema/types.generated.js';
import type { Backend, CallRequest, CallResult, Failure, Message } from './backend.js';
import type { AssembledContext } from './context.js';
import { addUsage, costUsd, zeroUsage, type Usage } from './cost.js';
import type { JudgePrompt } from './prompt.js';
import { checkReplyText, checkReplyValue, retryMessage, type ReplyCheck } from './reply.js';
import { sampleSpread, verdictUncertain } from './spread.js';
import { aggregateReplies, judgeComposite, judgeVerdict } from './verdict.js';

export interface SampleResult {
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
export async function sample(
  backend: Backend,
  req: CallRequest,
  record: (r: CallResult, o: CallOutcome) => void,
  cfg: Config,
  model: string,
): Promise<SampleResult> {
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
  const failed = (r: Extract<CallResult, { ok: false }>): CallOutcome => ({
    outcome: r.failure.reason,
    cause: r.failure.message,
  });
  const invalid = (c: Extract<ReplyCheck, { ok: false }>): CallOutcome => ({
    outcome: 'invalid_reply',
    cause: `${c.reason}: ${c.errors.slice(0, 5).join('; ')}`,
  });
  const first = await backend.call(req);
  if (!first.ok) {
    add(first, failed(first));
    return { reply: null, failure: first.failure, usage, cost, latencyMs, attempts: 1 };
  }
  const check = first.structured !== undefined ? checkReplyValue(first.structured) : checkReplyText(first.text);
  add(first, check.ok ? { outcome: 'ok' } : invalid(check));
  if (check.ok) return { reply: check.reply, failure: null, usage, cost, latencyMs, attempts: 1 };
  const previous = first.structured !== undefined ? JSON.stringify(first.structured) : first.text;
  const messages: Message[] = [
    ...req.messages,
    { role: 'assistant', content: previous },
    { role: 'user', content: retryMessage(check) },
  ];
  const second = await backend.call({ ...req, messages });
  if (!second.ok) {
    add(second, failed(second));
    return {
      reply: null,
      failure: {
        ...second.failure,
        message: `after an invalid first reply (${check.errors[0]}): ${second.failure.message}`,
      },
      usage,
      cost,
      latencyMs,
      attempts: 2,
    };
  }
  const check2 = second.structured !== undefined ? checkReplyValue(second.structured) : checkReplyText(second.text);
  add(second, check2.ok ? { outcome: 'ok' } : invalid(check2));
  if (check2.ok) return { reply: check2.reply, failure: null, usage, cost, latencyMs, attempts: 2 };
  return {
    reply: null,
    failure: {
      reason: 'invalid_reply',
      message: `invalid after one retry (${check2.reason}): ${check2.errors.slice(0, 5).join('; ')}`,
      stop_reason: second.stopReason,
    },
    usage,
    cost,
    latencyMs,
    attempts: 2,
  };
}

export interface BuildInfo {
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
  /** judge.uncertain_margin: the verdict is uncertain when moving every dimension this much flips it. */
  margin: number;
  /** Set when the run's agent is of the judge's family: the flag and its warning go into the judgment. */
  selfJudged?: string;
}

/** The judgment file: computed score and verdict from the (median) dimensions, or the failure with no score. */
export function buildJudgment(results: SampleResult[], b: BuildInfo): Judgment {
  const usage = results.reduce((u, s) => addUsage(u, s.usage), zeroUsage());
  const cost = results.some((s) => s.cost === null)
    ? null
    : Math.round(results.reduce((c, s) => c + (s.cost ?? 0), 0) * 1e8) / 1e8;
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
    self_judged: b.selfJudged !== undefined,
    usage,
    cost_usd: cost,
    latency_ms: Math.round(results.reduce((t, s) => t + s.latencyMs, 0)),
    attempts: results.reduce((t, s) => t + s.attempts, 0),
    context: b.context.stats,
    run: {
      record_path: b.loaded.file,
      completed_at: b.loaded.record.completed_at,
      ...(b.headTree ? { head_tree: b.headTree } : {}),
    },
  };
  if (ok.length === 0) {
    const failure = results[results.length - 1]!.failure!;
    return {
      ...base,
      status: 'failed',
      verdict: null,
      score: null,
      dimensions: null,
      issues: [],
      summary: null,
      confidence: null,
      failure,
    };
  }
  const reply = aggregateReplies(ok);
  const score = judgeComposite(reply.dimensions);
  const verdict = judgeVerdict(reply.dimensions);
  const first = ok[0]!;
  const spread = sampleSpread(ok);
  const uncertain = verdictUncertain(
    reply.dimensions,
    ok.map((r) => r.dimensions),
    b.margin,
  );
  const warnings = [
    ...(b.selfJudged ? [b.selfJudged] : []),
    ...(uncertain
      ? [
          `verdict ${verdict} uncertain: it flips within ±${b.margin} of the dimensions or the ${ok.length} samples disagree (composite ${spread.score.min}–${spread.score.max}, IQR ${spread.score.iqr})`,
        ]
      : []),
  ];
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
    sample_replies: ok,
    spread,
    uncertain,
  };
  if (warnings.length) j.warnings = warnings;
  if (reply.criteria) j.criteria = reply.criteria;
  return j;
}
