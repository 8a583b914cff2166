// The sdk backend: the official Anthropic SDK, structured output, the rubric in a cached system block.
import Anthropic from '@anthropic-ai/sdk';
import { performance } from 'node:perf_hooks';
import type { Backend, CallRequest, CallResult, Failure } from './backend.js';
import { zeroUsage, type Usage } from './cost.js';

export interface SdkBackendOptions {
  apiKey: string;
  baseURL?: string;
}

function usageOf(u: Anthropic.Messages.Usage | undefined): Usage {
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
  };
}

/** Maps what the SDK throws (after its own retries) to a recorded failure. */
export function failureOfError(e: unknown): Failure {
  if (e instanceof Anthropic.APIConnectionTimeoutError) return { reason: 'timeout', message: `no reply within the timeout (after the SDK's retries): ${e.message}`, http_status: null };
  if (e instanceof Anthropic.APIConnectionError) return { reason: 'connection', message: `connection failed (after the SDK's retries): ${e.message}${e.cause ? ` (${String((e.cause as Error).message ?? e.cause)})` : ''}`, http_status: null };
  if (e instanceof Anthropic.APIError) {
    const status = typeof e.status === 'number' ? e.status : null;
    const reason = status === 429 ? 'rate_limited' : status === 529 ? 'overloaded' : 'api_error';
    return { reason, message: `HTTP ${status ?? '?'}: ${e.message.split('\n')[0]!.slice(0, 300)}`, http_status: status };
  }
  return { reason: 'api_error', message: e instanceof Error ? e.message : String(e), http_status: null };
}

export function createSdkBackend(opts: SdkBackendOptions): Backend {
  return {
    name: 'sdk',
    async call(req: CallRequest): Promise<CallResult> {
      const client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseURL ?? null, maxRetries: req.maxRetries, timeout: req.timeoutMs });
      const t0 = performance.now();
      try {
        // No temperature: current Opus models reject it; consistency comes from samples. No thinking field either:
        // current Opus models think adaptively (Opus 5.5 always), and the text is read from text blocks only.
        const msg = await client.messages.create({
          model: req.model,
          max_tokens: req.maxTokens,
          system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
          messages: req.messages,
          output_config: { format: { type: 'json_schema', schema: req.schema }, ...(req.effort ? { effort: req.effort } : {}) },
        });
        const latencyMs = performance.now() - t0;
        const usage = usageOf(msg.usage);
        const text = (msg.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
        const stop = msg.stop_reason ?? null;
        if (stop === 'refusal') return { ok: false, failure: { reason: 'refusal', message: `the model refused${msg.stop_details?.category ? ` (${msg.stop_details.category})` : ''}`, stop_reason: stop }, usage, latencyMs };
        if (stop === 'max_tokens' || stop === 'model_context_window_exceeded') return { ok: false, failure: { reason: 'max_tokens', message: `the reply was cut off (${stop}) after ${usage.output_tokens} output tokens`, stop_reason: stop }, usage, latencyMs };
        if (text.trim() === '') return { ok: false, failure: { reason: 'empty_reply', message: `the reply had no text (stop_reason ${stop ?? 'null'})`, stop_reason: stop }, usage, latencyMs };
        return { ok: true, text, stopReason: stop, usage, latencyMs };
      } catch (e) {
        return { ok: false, failure: failureOfError(e), usage: zeroUsage(), latencyMs: performance.now() - t0 };
      }
    },
  };
}
