// Model aliases, prices and cost; the cache key; spend summaries. Pure.
import { createHash } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { JudgeLedgerRow } from '../schema/types.generated.js';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export const zeroUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
  };
}

/** JUDGE_MODEL → model id: an alias from config, else the value itself. */
export function resolveModel(judge: Config['judge']): string {
  return judge.aliases[judge.model] ?? judge.model;
}

/** tokens × per-million prices; null when the model has no price in config (cost unknown, not zero). */
export function costUsd(usage: Usage, modelId: string, judge: Config['judge']): number | null {
  const p = judge.prices_per_million[modelId];
  if (!p) return null;
  const usd =
    (usage.input_tokens * p.input +
      usage.output_tokens * p.output +
      usage.cache_creation_input_tokens * p.cache_write +
      usage.cache_read_input_tokens * p.cache_read) /
    1e6;
  return Math.round(usd * 1e8) / 1e8;
}

/** The judgment cache key: sha256 of model id, prompt version and the assembled context. */
export function judgmentCacheKey(modelId: string, promptVersion: string, context: string): string {
  return createHash('sha256')
    .update(modelId)
    .update('\0')
    .update(promptVersion)
    .update('\0')
    .update(context)
    .digest('hex');
}

export interface SpendRow {
  day: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  /** Calls whose cost is unknown (no price for the model). */
  unpriced_calls: number;
}

/** Call rows of the ledger grouped by UTC day and model, oldest day first. */
export function summarizeSpend(rows: JudgeLedgerRow[]): SpendRow[] {
  const groups = new Map<string, SpendRow>();
  for (const r of rows) {
    if (r.type !== 'call') continue;
    const day = r.at.slice(0, 10);
    const model = r.model ?? 'unknown';
    const key = `${day}\0${model}`;
    const g = groups.get(key) ?? {
      day,
      model,
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0,
      unpriced_calls: 0,
    };
    g.calls++;
    g.input_tokens += r.input_tokens ?? 0;
    g.output_tokens += r.output_tokens ?? 0;
    g.cache_creation_input_tokens += r.cache_creation_input_tokens ?? 0;
    g.cache_read_input_tokens += r.cache_read_input_tokens ?? 0;
    if (r.cost_usd === null || r.cost_usd === undefined) g.unpriced_calls++;
    else g.cost_usd = Math.round((g.cost_usd + r.cost_usd) * 1e8) / 1e8;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) =>
    a.day === b.day ? a.model.localeCompare(b.model) : a.day.localeCompare(b.day),
  );
}

/**
 * One call's usage when its system block (`prefixTokens`) carries cache_control (pure): `none` reads it as plain
 * input (no caching), `write` pays the cache write (the first call in 5 minutes), `read` the cache read.
 */
export function usageWithCache(
  prefixTokens: number,
  restTokens: number,
  outputTokens: number,
  cache: 'none' | 'write' | 'read',
): Usage {
  return {
    input_tokens: restTokens + (cache === 'none' ? prefixTokens : 0),
    output_tokens: outputTokens,
    cache_creation_input_tokens: cache === 'write' ? prefixTokens : 0,
    cache_read_input_tokens: cache === 'read' ? prefixTokens : 0,
  };
}

/** The ledger's row for one request sent (direct or in a batch): what it used, cost and came to. */
export function ledgerCallRow(c: {
  at: string;
  bead: string;
  model: string;
  backend: JudgeLedgerRow['backend'];
  cacheKey: string;
  usage: Usage | undefined;
  costUsd: number | null;
  latencyMs: number;
  outcome: string;
  cause?: string | null;
  retries?: number;
  batchId?: string;
}): JudgeLedgerRow {
  return {
    type: 'call',
    at: c.at,
    bead: c.bead,
    pid: process.pid,
    model: c.model,
    backend: c.backend,
    cache_key: c.cacheKey,
    ...c.usage,
    cost_usd: c.costUsd,
    latency_ms: Math.round(c.latencyMs),
    outcome: c.outcome,
    ...(c.cause ? { cause: c.cause.slice(0, 500) } : {}),
    retries: c.retries ?? 0,
    ...(c.batchId ? { path: 'batch' as const, batch_id: c.batchId } : { path: 'direct' as const }),
  };
}
