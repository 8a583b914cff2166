// What a judge backend does: send the system prompt and the conversation, return the reply or a failure.
import type { Judgment } from '../types.generated.js';
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
  maxRetries: number;
}

export type CallResult =
  | { ok: true; text: string; structured?: unknown; stopReason: string | null; usage: Usage; costUsd?: number | null; latencyMs: number }
  | { ok: false; failure: Failure; usage: Usage; costUsd?: number | null; latencyMs: number };

export interface Backend {
  name: 'sdk' | 'claude-cli';
  call(req: CallRequest): Promise<CallResult>;
}
