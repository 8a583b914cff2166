// The judge's request: the rubric prompt, the reply schema, the backend the config names, and the request as it is
// sent (redacted as the last step) with its cache key.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { EnvSettings } from '../base/env.js';
import { UserError } from '../base/errors.js';
import { configDir, schemasDir } from '../base/paths.js';
import { loadSecretTable } from '../secrets/load.js';
import type { Backend, CallRequest } from './backend.js';
import { createCliBackend } from './cli-backend.js';
import type { AssembledContext } from './context.js';
import { judgmentCacheKey } from './cost.js';
import { parseJudgePrompt, type JudgePrompt } from './prompt.js';
import { apiReplySchema } from './reply.js';
import { redactRequest } from './redact.js';

let promptCache: JudgePrompt | undefined;
export function loadJudgePrompt(): JudgePrompt {
  const file = join(configDir(), 'judge-prompt.md');
  promptCache ??= parseJudgePrompt(readFileSync(file, 'utf8'), file);
  return promptCache;
}

let schemaCache: { schema: Record<string, unknown>; version: string } | undefined;
/** The reply schema as sent, and its version for the cache key (a hash: any edit of the schema changes it). */
function replyApiSchema(): { schema: Record<string, unknown>; version: string } {
  if (!schemaCache) {
    const schema = apiReplySchema(
      JSON.parse(readFileSync(join(schemasDir(), 'judge-reply.schema.json'), 'utf8')) as Record<string, unknown>,
    );
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
  if (!env.ANTHROPIC_API_KEY)
    throw new UserError(
      'ANTHROPIC_API_KEY is not set: the sdk judge backend needs it (or set JUDGE_BACKEND=claude-cli)',
    );
  if (env.ANTHROPIC_BASE_URL !== undefined && !isHttpUrl(env.ANTHROPIC_BASE_URL)) {
    throw new UserError(`ANTHROPIC_BASE_URL=${JSON.stringify(env.ANTHROPIC_BASE_URL)}: expected an http(s) URL`);
  }
  const opts = {
    apiKey: env.ANTHROPIC_API_KEY,
    ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
  };
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
export function redacting(backend: Backend, known: string[], found: string[] = []): Backend {
  return {
    name: backend.name,
    call: (req) => backend.call(redactRequest(req, loadSecretTable(), known, found).request),
  };
}

/**
 * The request exactly as it will be sent, redacted as the last step, and its cache key: what the judge sees
 * (the redacted context), the rubric's and the reply schema's versions, the model (and effort, when set).
 */
export function buildRequest(
  context: AssembledContext,
  prompt: JudgePrompt,
  cfg: Config,
  model: string,
  known: string[] = [],
): { request: CallRequest; key: string } {
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
  const { request, redacted } = redactRequest(raw, loadSecretTable(), known, context.secretValues);
  // What the final pass caught on top of the parts' own redaction is counted with it.
  const total = context.stats.secrets_redacted;
  total.count += redacted.count;
  for (const [k, v] of Object.entries(redacted.kinds)) total.kinds[k] = (total.kinds[k] ?? 0) + v;
  const modelKey = j.effort ? `${model}|effort=${j.effort}` : model;
  return {
    request,
    key: judgmentCacheKey(modelKey, `${prompt.version}|schema=${schema.version}`, request.messages[0]!.content),
  };
}
