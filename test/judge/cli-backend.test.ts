// The claude-cli backend against a stand-in `claude` on PATH that prints the result shapes Claude Code prints.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { claudeArgs, parseClaudeResult } from '../../lib/judge/cli-backend.js';
import { validate } from '../../lib/schema/schema.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, Judgment } from '../../lib/schema/types.generated.js';
import { captureIo, feedbackFor, judgeConfigFile } from './helpers/feedback.js';
import { makeRun, type RunFixture, removeRuns, scratchDir } from './helpers/fixtures.js';
import { goodReply } from './helpers/messages-server.js';

afterAll(removeRuns);

const bin = scratchDir('judgeloop-fake-claude-');
const log = join(bin, 'calls.jsonl');
// Read from a fixed path: claude's environment carries nothing of judgeloop's but its credentials.
const scriptFile = join(bin, 'script.json');
// The stand-in prints, in turn, each scripted stdout (one per call) and logs its argv and stdin.
writeFileSync(
  join(bin, 'claude'),
  `#!/usr/bin/env node
const fs = require('node:fs');
const script = JSON.parse(fs.readFileSync(${JSON.stringify(scriptFile)}, 'utf8'));
let stdin = '';
process.stdin.on('data', (c) => (stdin += c));
process.stdin.on('end', () => {
  const n = fs.existsSync(${JSON.stringify(log)}) ? fs.readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').filter(Boolean).length : 0;
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv: process.argv.slice(2), stdin }) + '\\n');
  const step = script[Math.min(n, script.length - 1)];
  if (step.stderr) process.stderr.write(step.stderr);
  process.stdout.write(step.stdout);
  process.exitCode = step.exit ?? 0;
});
`,
);
chmodSync(join(bin, 'claude'), 0o755);

const base = {
  type: 'result',
  duration_ms: 8123,
  duration_api_ms: 7900,
  num_turns: 2,
  session_id: '4f1c2a9e-0000-4000-8000-000000000000',
  total_cost_usd: 0.0731,
  usage: {
    input_tokens: 14,
    cache_creation_input_tokens: 5120,
    cache_read_input_tokens: 13000,
    output_tokens: 640,
    server_tool_use: { web_search_requests: 0 },
    service_tier: 'standard',
  },
  modelUsage: {},
  permission_denials: [],
  uuid: 'c0ffee00-0000-4000-8000-000000000000',
};
const success = (over: Record<string, unknown>) =>
  JSON.stringify({ ...base, subtype: 'success', is_error: false, result: '', ...over });
const error = (subtype: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    ...base,
    subtype,
    is_error: subtype !== 'error_during_execution',
    errors: [`scripted ${subtype}`],
    ...over,
  });

let fx: RunFixture;
let store: StateStore;
const config = judgeConfigFile({ backend: 'claude-cli', timeout_seconds: 20, max_retries: 0, phase: 2 });

// One run (repository and record) for every case: the judge only reads it; each case judges into a fresh state.
let run0: RunFixture;
beforeAll(() => {
  run0 = makeRun();
});
beforeEach(() => {
  fx = { ...run0, stateDir: scratchDir('judgeloop-state-') };
  store = new StateStore(fx.stateDir);
  store.write('feedback', fx.record.bead, feedbackFor(fx.record));
  writeFileSync(log, '');
});

async function judgeWith(
  steps: { stdout: string; exit?: number; stderr?: string }[],
  path = `${bin}:${process.env.PATH}`,
) {
  writeFileSync(scriptFile, JSON.stringify(steps));
  const before = store.read<Feedback>('feedback', fx.record.bead)!;
  const io = captureIo(
    { JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir, JUDGELOOP_CONFIG: config },
    { ...process.env, PATH: path },
  );
  const code = await run([fx.recordPath], io);
  const j = store.read<Judgment>('judgments', fx.record.bead)!;
  expect(validate('judgment', j).ok).toBe(true);
  const after = store.read<Feedback>('feedback', fx.record.bead)!;
  expect({ ...after, judgment: null }).toEqual({ ...before, judgment: null });
  const calls = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { argv: string[]; stdin: string });
  return { code, j, after, calls };
}

describe('claude-cli backend', () => {
  it('success with structured_output: judged, cost from total_cost_usd, context on stdin, schema and model in argv', async () => {
    const { code, j, after, calls } = await judgeWith([
      { stdout: success({ result: 'done', structured_output: JSON.parse(goodReply()) }) },
    ]);
    expect(code).toBe(0);
    expect(j.status).toBe('judged');
    expect(j.backend).toBe('claude-cli');
    expect(j.cost_usd).toBe(0.0731);
    expect(j.usage).toEqual({
      input_tokens: 14,
      output_tokens: 640,
      cache_creation_input_tokens: 5120,
      cache_read_input_tokens: 13000,
    });
    expect(after.judgment?.verdict).toBe('pass');
    expect(calls).toHaveLength(1);
    const argv = calls[0]!.argv;
    expect(argv.slice(0, 5)).toEqual(['-p', '--output-format', 'json', '--model', 'claude-opus-5-5']);
    expect(JSON.parse(argv[argv.indexOf('--json-schema') + 1]!)).toHaveProperty('properties.dimensions');
    expect(argv[argv.indexOf('--system-prompt') + 1]).toContain('Rubric');
    expect(calls[0]!.stdin).toContain('<<<AGENT_DATA kind=diff');
  });

  it('JSON only in result (no structured_output): parsed from the text', async () => {
    const { j } = await judgeWith([
      { stdout: success({ result: 'Verdict follows.\n```json\n' + goodReply() + '\n```' }) },
    ]);
    expect(j.status).toBe('judged');
  });

  it('a result with no JSON, then a valid retry', async () => {
    const { j, calls } = await judgeWith([
      { stdout: success({ result: 'Looks fine to me.' }) },
      { stdout: success({ result: goodReply() }) },
    ]);
    expect(j.status).toBe('judged');
    expect(j.attempts).toBe(2);
    expect(calls[1]!.stdin).toContain('Your earlier reply was:\nLooks fine to me.');
    expect(j.cost_usd).toBeCloseTo(0.1462, 10);
  });

  it.each(['error_max_turns', 'error_during_execution', 'error_max_budget_usd', 'error_max_structured_output_retries'])(
    '%s is a recorded failure with its subtype and cost',
    async (subtype) => {
      const { code, j, after } = await judgeWith([{ stdout: error(subtype) }]);
      expect(code).toBe(0);
      expect(j.status).toBe('failed');
      expect(j.score).toBeNull();
      expect(j.failure?.subtype).toBe(subtype);
      expect(j.failure?.reason).toBe(subtype === 'error_max_structured_output_retries' ? 'invalid_reply' : 'cli_error');
      expect(j.failure?.message).toContain(`scripted ${subtype}`);
      expect(j.cost_usd).toBe(0.0731);
      expect(after.judgment).toBeNull();
    },
  );

  it('non-JSON output with a non-zero exit: cli_error quoting stderr', async () => {
    const { j } = await judgeWith([{ stdout: '', stderr: 'Error: something unexpected happened\n', exit: 1 }]);
    expect(j.failure).toMatchObject({ reason: 'cli_error' });
    expect(j.failure!.message).toContain('something unexpected');
  });

  it('a rejected key: a configuration error (exit 2) naming the login, no judgment written', async () => {
    writeFileSync(
      scriptFile,
      JSON.stringify([{ stdout: '', stderr: 'Error: Invalid API key · Please run /login\n', exit: 1 }]),
    );
    const io = captureIo(
      { JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir, JUDGELOOP_CONFIG: config },
      { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    );
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toContain('claude login');
    expect(store.read('judgments', fx.record.bead)).toBeNull();
  });

  it.each([
    ['API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}', 'overloaded', 529],
    ['API Error: 500 Internal server error', 'api_error', 500],
    ['API Error: 429 rate_limit_error', 'rate_limited', 429],
    ['API Error: Connection error. (ECONNRESET)', 'connection', null],
  ])(
    'an outage reported by claude (%s) is transient: recorded, and the run queued for the next drain',
    async (text, reason, status) => {
      const { j } = await judgeWith([{ stdout: error('error_during_execution', { errors: [text] }) }]);
      expect(j.failure).toMatchObject({ reason, http_status: status });
      expect(store.read('queue', fx.record.bead)).toMatchObject({ bead: fx.record.bead });
    },
  );

  it('claude not on PATH: a configuration error, exit 2 naming judge.cli_command, no judgment written', async () => {
    const empty = scratchDir();
    const io = captureIo(
      { JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir, JUDGELOOP_CONFIG: config },
      { ...process.env, PATH: empty },
    );
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toMatch(/cannot run claude.*judge\.cli_command/);
    expect(store.read('judgments', fx.record.bead)).toBeNull();
    rmSync(empty, { recursive: true, force: true });
  });

  it('parseClaudeResult: stream-json output ends with the result line', () => {
    const r = parseClaudeResult(`{"type":"system","subtype":"init"}\n${success({ result: goodReply() })}\n`, 0, '', 5);
    expect(r.ok).toBe(true);
  });

  it('claudeArgs: one flag per concern', () => {
    const args = claudeArgs({
      model: 'm',
      system: 's',
      messages: [],
      schema: { type: 'object' },
      maxTokens: 1,
      effort: 'high',
      timeoutMs: 1,
      maxRetries: 0,
      retryBackoffMs: 0,
      retryBackoffMaxMs: 0,
    });
    expect(args).toEqual([
      '-p',
      '--output-format',
      'json',
      '--model',
      'm',
      '--system-prompt',
      's',
      '--json-schema',
      '{"type":"object"}',
      '--tools',
      '',
      '--strict-mcp-config',
      '--setting-sources',
      '',
      '--permission-mode',
      'dontAsk',
      '--no-session-persistence',
    ]);
  });
});
