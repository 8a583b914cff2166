// What a judge backend does: send the system prompt and the conversation, return the reply or a failure.
import type { Judgment } from '../schema/types.generated.js';
import type { Usage } from './cost.js';

export type Failure = NonNullable<Judgment['failure']>;

export interface Message {
  role: 'user' | 'assistant';
  content: string;
}

export interface CallRequest {
  model: string;
  system: string;
  messages: Message[];
  /** The reply schema in the form the API accepts. */
  schema: Record<string, unknown>;
  maxTokens: number;
  /** output_config.effort (sdk backend only); null: not sent, the model's default applies. */
  effort: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;
  timeoutMs: number;
  /** Retries of a transient fault (reset, hang-up, timeout, 408/409/429/5xx). */
  maxRetries: number;
  /** Backoff before the first retry, doubled each time (jittered); a retry-after header wins. */
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
}

export type CallResult =
  | {
      ok: true;
      text: string;
      structured?: unknown;
      stopReason: string | null;
      usage: Usage;
      costUsd?: number | null;
      latencyMs: number;
      retries?: number;
      /** An item of a Message Batch (ledger path batch); absent: a direct call. */
      batchId?: string;
    }
  | {
      ok: false;
      failure: Failure;
      usage: Usage;
      costUsd?: number | null;
      latencyMs: number;
      retries?: number;
      batchId?: string;
    };

/** A fault that says nothing about the request: the same request may well succeed later (an outage). */
export const isTransient = (f: Failure): boolean =>
  f.reason === 'connection' ||
  f.reason === 'timeout' ||
  f.reason === 'rate_limited' ||
  f.reason === 'batch_expired' ||
  f.reason === 'batch_canceled' ||
  f.reason === 'overloaded' ||
  (f.reason === 'api_error' &&
    f.http_status !== null &&
    f.http_status !== undefined &&
    (f.http_status >= 500 || f.http_status === 408 || f.http_status === 409));

/**
 * The Messages API body the sdk backend sends for a request: one function, so --dry-run --show-request prints
 * exactly what would go. No temperature (current Opus models reject it; consistency comes from samples), no
 * thinking field (current Opus models think adaptively; the text is read from text blocks only).
 */
export function sdkRequestBody(req: CallRequest): {
  model: string;
  max_tokens: number;
  system: { type: 'text'; text: string; cache_control: { type: 'ephemeral' } }[];
  messages: Message[];
  output_config: {
    format: { type: 'json_schema'; schema: Record<string, unknown> };
    effort?: NonNullable<CallRequest['effort']>;
  };
} {
  return {
    model: req.model,
    max_tokens: req.maxTokens,
    system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
    messages: req.messages,
    output_config: {
      format: { type: 'json_schema', schema: req.schema },
      ...(req.effort ? { effort: req.effort } : {}),
    },
  };
}

export interface Backend {
  name: 'sdk' | 'claude-cli';
  call(req: CallRequest): Promise<CallResult>;
}
