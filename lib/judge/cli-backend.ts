// The claude-cli backend: `claude -p`, the run's content on stdin, and no hands (no tools, MCP, settings or
// prompts; an empty folder; only credentials): an injection in the diff must find nothing to reach.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { HeadTailBuffer, spawnGroup } from '../process/process.js';
import type { Backend, CallRequest, CallResult } from './backend.js';
import { zeroUsage, type Usage } from './cost.js';

export interface CliBackendOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  /** stdout kept: its first and last halves (the result is the last line); default 16 MiB. */
  stdoutCapBytes?: number;
  /** Between SIGTERM and SIGKILL of claude's process group at the timeout; default 2000 ms. */
  killGraceMs?: number;
}

/** stderr kept for the failure message and the API fault (head and tail). */
const STDERR_CAP = 64 * 1024;

/**
 * What keeps the judge handless, flags of Claude Code's CLI reference: `--tools ""` (no built-in tool),
 * `--strict-mcp-config` without `--mcp-config` (no MCP server), `--setting-sources ""` (no user, project or local
 * settings: their hooks and allow rules stay out), `--permission-mode dontAsk` (never prompts: what is not
 * pre-approved is denied), `--no-session-persistence` (nothing saved to resume).
 */
const HANDLESS_ARGS = [
  '--tools',
  '',
  '--strict-mcp-config',
  '--setting-sources',
  '',
  '--permission-mode',
  'dontAsk',
  '--no-session-persistence',
];

/** The argv for one judge call (pure, tested one line per case). */
export function claudeArgs(req: CallRequest): string[] {
  return [
    '-p',
    '--output-format',
    'json',
    '--model',
    req.model,
    '--system-prompt',
    req.system,
    '--json-schema',
    JSON.stringify(req.schema),
    ...HANDLESS_ARGS,
  ];
}

/** What claude needs to find itself and authenticate (an API key, an OAuth token or its login under HOME), and proxies. */
const CLAUDE_ENV = [
  'PATH',
  'HOME',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'CLAUDE_CONFIG_DIR',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
];

/** claude's environment: the names it authenticates with, nothing else of judgeloop's; its TMPDIR its own folder (pure). */
function claudeEnv(env: NodeJS.ProcessEnv, tmp: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const k of CLAUDE_ENV) if (env[k] !== undefined) out[k] = env[k];
  return { ...out, TMPDIR: tmp };
}

/** Folds a conversation into the one prompt claude -p takes (the retry carries the earlier reply and the errors). */
export function cliPrompt(req: CallRequest): string {
  if (req.messages.length === 1) return req.messages[0]!.content;
  return req.messages
    .map((m) => (m.role === 'user' ? m.content : `Your earlier reply was:\n${m.content}`))
    .join('\n\n');
}

/**
 * The API fault behind a claude error, from what it printed: an outage (429, 5xx, 529, a broken connection) is
 * transient like the sdk backend's, a rejected key is a configuration error; anything else stays cli_error.
 */
function apiFault(
  text: string,
): { reason: 'auth_error' | 'rate_limited' | 'overloaded' | 'api_error' | 'connection'; status: number | null } | null {
  const status = Number(
    /\bAPI Error:?\s*(\d{3})\b/i.exec(text)?.[1] ?? /\b(?:status|HTTP)\s*(\d{3})\b/i.exec(text)?.[1] ?? NaN,
  );
  if (
    status === 401 ||
    status === 403 ||
    /invalid api key|authentication_error|permission_error|please run \/login/i.test(text)
  )
    return { reason: 'auth_error', status: Number.isFinite(status) ? status : null };
  if (status === 429 || /rate_limit_error|rate limit/i.test(text))
    return { reason: 'rate_limited', status: Number.isFinite(status) ? status : 429 };
  if (status === 529 || /overloaded/i.test(text))
    return { reason: 'overloaded', status: Number.isFinite(status) ? status : 529 };
  if (status >= 500 && status < 600) return { reason: 'api_error', status };
  if (/ECONNRESET|ECONNREFUSED|ETIMEDOUT|socket hang up|network error|fetch failed/i.test(text))
    return { reason: 'connection', status: null };
  return null;
}

function usageOf(u: unknown): Usage {
  const o = (typeof u === 'object' && u !== null ? u : {}) as Record<string, unknown>;
  const n = (k: string): number =>
    typeof o[k] === 'number' && Number.isFinite(o[k]) ? Math.max(0, Math.round(o[k] as number)) : 0;
  return {
    input_tokens: n('input_tokens'),
    output_tokens: n('output_tokens'),
    cache_creation_input_tokens: n('cache_creation_input_tokens'),
    cache_read_input_tokens: n('cache_read_input_tokens'),
  };
}

/** Reads claude's JSON result: structured_output, else the text in result, else a failure naming the subtype. */
export function parseClaudeResult(
  stdout: string,
  exitCode: number | null,
  stderr: string,
  latencyMs: number,
): CallResult {
  const trimmed = stdout.trim();
  // With --output-format json the result is one object; stream-json ends with it, so take the last line that parses.
  let obj: Record<string, unknown> | undefined;
  for (const line of [trimmed, ...trimmed.split('\n').reverse()]) {
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'result') {
        obj = v as Record<string, unknown>;
        break;
      }
    } catch {
      /* keep looking */
    }
  }
  if (!obj) {
    const why = `claude exited ${exitCode ?? 'by a signal'} without a JSON result${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}` : ''}`;
    const api = apiFault(stderr);
    return {
      ok: false,
      failure: {
        reason: api?.reason ?? 'cli_error',
        message: why,
        subtype: null,
        ...(api ? { http_status: api.status } : {}),
      },
      usage: zeroUsage(),
      latencyMs,
    };
  }
  const usage = usageOf(obj.usage);
  const costUsd = typeof obj.total_cost_usd === 'number' ? obj.total_cost_usd : null;
  const subtype = typeof obj.subtype === 'string' ? obj.subtype : null;
  if (subtype !== 'success' || obj.is_error === true) {
    const errors = Array.isArray(obj.errors)
      ? obj.errors.map(String).join('; ')
      : typeof obj.result === 'string'
        ? obj.result
        : '';
    const api = subtype === 'error_max_structured_output_retries' ? null : apiFault(errors);
    const reason = subtype === 'error_max_structured_output_retries' ? 'invalid_reply' : (api?.reason ?? 'cli_error');
    return {
      ok: false,
      failure: {
        reason,
        message: `claude -p ended with ${subtype ?? 'an error'}${errors ? `: ${errors.slice(0, 300)}` : ''}`,
        subtype,
        ...(api ? { http_status: api.status } : {}),
      },
      usage,
      costUsd,
      latencyMs,
    };
  }
  const text = typeof obj.result === 'string' ? obj.result : '';
  if (obj.structured_output !== undefined && obj.structured_output !== null)
    return { ok: true, text, structured: obj.structured_output, stopReason: null, usage, costUsd, latencyMs };
  if (text.trim() === '')
    return {
      ok: false,
      failure: {
        reason: 'empty_reply',
        message: 'claude -p returned no structured_output and an empty result',
        subtype,
      },
      usage,
      costUsd,
      latencyMs,
    };
  return { ok: true, text, stopReason: null, usage, costUsd, latencyMs };
}

export function createCliBackend(opts: CliBackendOptions): Backend {
  return {
    name: 'claude-cli',
    // Through the one process primitive: its own process group (what claude starts dies with it at the timeout
    // and at exit), SIGTERM then SIGKILL, stdout and stderr kept head + tail in bounded memory.
    async call(req: CallRequest): Promise<CallResult> {
      const t0 = performance.now();
      const cap = opts.stdoutCapBytes ?? 16 * 1024 * 1024;
      const out = new HeadTailBuffer(Math.floor(cap / 2), Math.ceil(cap / 2));
      const err = new HeadTailBuffer(STDERR_CAP / 2, STDERR_CAP / 2);
      const limit = req.timeoutMs * (req.maxRetries + 1);
      // cwd is an empty folder of its own: no project settings, CLAUDE.md or .mcp.json to pick up, nothing to read.
      const cwd = mkdtempSync(join(tmpdir(), 'judgeloop-claude-'));
      const r = await spawnGroup(opts.command, claudeArgs(req), {
        cwd,
        env: claudeEnv(opts.env, cwd),
        timeoutMs: limit,
        killGraceMs: opts.killGraceMs ?? 2000,
        input: cliPrompt(req),
        onStdout: (c) => out.push(c),
        onStderr: (c) => err.push(c),
      }).finally(() => rmSync(cwd, { recursive: true, force: true }));
      const latencyMs = performance.now() - t0;
      if (r.spawnError !== null) {
        const reason = r.spawnCode === 'ENOENT' ? 'cli_not_found' : 'cli_error';
        return {
          ok: false,
          failure: { reason, message: `cannot run ${opts.command}: ${r.spawnError}`, subtype: null },
          usage: zeroUsage(),
          latencyMs,
        };
      }
      if (r.timedOut)
        return {
          ok: false,
          failure: {
            reason: 'timeout',
            message: `${opts.command} gave no result within ${limit} ms and was killed`,
            subtype: null,
          },
          usage: zeroUsage(),
          latencyMs,
        };
      return parseClaudeResult(out.result().text, r.exitCode, err.result().text, latencyMs);
    },
  };
}
