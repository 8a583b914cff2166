// The sdk backend: the official Anthropic SDK, structured output, the rubric in a cached system block. Retries
// are ours, not the SDK's: a connection cut while the reply body is read escapes the SDK's retry loop.
import Anthropic from '@anthropic-ai/sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { sdkRequestBody, type Backend, type CallRequest, type CallResult, type Failure } from './backend.js';
import { zeroUsage, type Usage } from './cost.js';
import { isBrokenConnection, isTransientStatus, retryDelayMs } from './retry.js';

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

const causeOf = (e: unknown): string => {
  const c = (e as { cause?: { code?: string; message?: string } }).cause;
  return c ? ` (${c.code ?? c.message ?? String(c)})` : '';
};

/** Maps what one attempt threw to a failure, and whether trying again may help. */
export function failureOfError(e: unknown): { failure: Failure; transient: boolean } {
  if (e instanceof Anthropic.APIConnectionTimeoutError)
    return {
      failure: { reason: 'timeout', message: `no reply within the timeout: ${e.message}`, http_status: null },
      transient: true,
    };
  if (e instanceof Anthropic.APIError && typeof e.status === 'number') {
    const status = e.status;
    const reason =
      status === 401 || status === 403
        ? 'auth_error'
        : status === 429
          ? 'rate_limited'
          : status === 529
            ? 'overloaded'
            : 'api_error';
    return {
      failure: { reason, message: `HTTP ${status}: ${e.message.split('\n')[0]!.slice(0, 300)}`, http_status: status },
      transient: isTransientStatus(status),
    };
  }
  if (e instanceof Anthropic.APIConnectionError || isBrokenConnection(e)) {
    return {
      failure: {
        reason: 'connection',
        message: `connection failed: ${(e as Error).message}${causeOf(e)}`,
        http_status: null,
      },
      transient: true,
    };
  }
  return {
    failure: { reason: 'api_error', message: e instanceof Error ? e.message : String(e), http_status: null },
    transient: false,
  };
}

const headerOf =
  (e: unknown) =>
  (name: string): string | null | undefined =>
    e instanceof Anthropic.APIError ? e.headers?.get(name) : undefined;

async function attempt(client: Anthropic, req: CallRequest): Promise<CallResult> {
  const t0 = performance.now();
  const msg = await client.messages.create(sdkRequestBody(req));
  return resultOfMessage(msg, performance.now() - t0);
}

/** A Messages API reply (direct, or a batch item's) as a call result: a refusal, a cut-off or an empty reply fail. */
export function resultOfMessage(msg: Anthropic.Messages.Message, latencyMs: number): CallResult {
  const usage = usageOf(msg.usage);
  const text = (msg.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
  const stop = msg.stop_reason ?? null;
  if (stop === 'refusal')
    return {
      ok: false,
      failure: {
        reason: 'refusal',
        message: `the model refused${msg.stop_details?.category ? ` (${msg.stop_details.category})` : ''}`,
        stop_reason: stop,
      },
      usage,
      latencyMs,
    };
  if (stop === 'max_tokens' || stop === 'model_context_window_exceeded')
    return {
      ok: false,
      failure: {
        reason: 'max_tokens',
        message: `the reply was cut off (${stop}) after ${usage.output_tokens} output tokens`,
        stop_reason: stop,
      },
      usage,
      latencyMs,
    };
  if (text.trim() === '')
    return {
      ok: false,
      failure: {
        reason: 'empty_reply',
        message: `the reply had no text (stop_reason ${stop ?? 'null'})`,
        stop_reason: stop,
      },
      usage,
      latencyMs,
    };
  return { ok: true, text, stopReason: stop, usage, latencyMs };
}

export function createSdkBackend(opts: SdkBackendOptions, wait: (ms: number) => Promise<unknown> = sleep): Backend {
  return {
    name: 'sdk',
    async call(req: CallRequest): Promise<CallResult> {
      const client = new Anthropic({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL ?? null,
        maxRetries: 0,
        timeout: req.timeoutMs,
      });
      const t0 = performance.now();
      for (let retries = 0; ; retries++) {
        try {
          return { ...(await attempt(client, req)), latencyMs: performance.now() - t0, retries };
        } catch (e) {
          const { failure, transient } = failureOfError(e);
          if (!transient || retries >= req.maxRetries) {
            const after = retries ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
            return {
              ok: false,
              failure: { ...failure, message: failure.message + after },
              usage: zeroUsage(),
              latencyMs: performance.now() - t0,
              retries,
            };
          }
          await wait(retryDelayMs(retries, headerOf(e), req.retryBackoffMs, req.retryBackoffMaxMs));
        }
      }
    },
  };
}
