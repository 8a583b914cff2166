// The real SDK against a scripted loopback Messages API: every reply shape ends in a judgment or a recorded failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import type { StateStore } from '../../lib/store/store.js';
import type { Feedback, JudgeLedgerRow, Judgment } from '../../lib/schema/types.generated.js';
import { validate } from '../../lib/schema/schema.js';
import { type RunFixture, removeRuns } from './helpers/fixtures.js';
import { captureIo, judgeConfigFile, runWithFeedback } from './helpers/feedback.js';
import {
  goodReply,
  resetServer,
  startMessagesServer,
  type MessagesServer,
  type Step,
} from './helpers/messages-server.js';

afterAll(removeRuns);

let server: MessagesServer;
let fx: RunFixture;
let store: StateStore;
const config = judgeConfigFile({ timeout_seconds: 0.4, max_retries: 2, retry_backoff_seconds: 0.01, phase: 2 });

beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => server.close());

beforeEach(() => {
  ({ fx, store } = runWithFeedback());
  resetServer(server);
});

async function judge(script: Step[], fallback?: Step) {
  server.script = script;
  if (fallback) server.fallback = fallback;
  const before = store.read<Feedback>('feedback', fx.record.bead)!;
  const io = captureIo({
    JUDGE_ENABLED: 'true',
    ANTHROPIC_API_KEY: 'sk-test-dummy',
    ANTHROPIC_BASE_URL: server.url,
    JUDGELOOP_STATE_DIR: fx.stateDir,
    JUDGELOOP_CONFIG: config,
  });
  const code = await run([fx.recordPath], io);
  const j = store.read<Judgment>('judgments', fx.record.bead)!;
  expect(validate('judgment', j).ok).toBe(true);
  const after = store.read<Feedback>('feedback', fx.record.bead)!;
  // The mechanical part of feedback is untouched whatever the judge did.
  expect({ ...after, judgment: null }).toEqual({ ...before, judgment: null });
  return { code, j, after, io };
}

function expectFailure(j: Judgment, reason: string, after: Feedback) {
  expect(j.status).toBe('failed');
  expect(j.failure?.reason).toBe(reason);
  expect(j.score).toBeNull();
  expect(j.verdict).toBeNull();
  expect(j.dimensions).toBeNull();
  expect(after.judgment).toBeNull();
}

describe('sdk backend against a loopback Messages API', () => {
  it('a good reply: computed score and verdict, usage, cost, cached rubric, structured output, merged at phase 2', async () => {
    const { code, j, after } = await judge([
      {
        kind: 'reply',
        text: goodReply(),
        usage: {
          input_tokens: 1000,
          output_tokens: 200,
          cache_creation_input_tokens: 3000,
          cache_read_input_tokens: 0,
        },
      },
    ]);
    expect(code).toBe(0);
    expect(j.status).toBe('judged');
    expect(j.score).toBeCloseTo(0.4 * 0.9 + 0.2 * 0.8 + 0.2 * 0.8 + 0.2 * 0.9, 9);
    expect(j.verdict).toBe('pass');
    // The alias opus names the current Opus (claude-opus-5-5: $4 / $20, 5-minute cache write $5, cache read $0.20).
    expect(j.model).toBe('claude-opus-5-5');
    expect(j.usage).toEqual({
      input_tokens: 1000,
      output_tokens: 200,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 0,
    });
    expect(j.cost_usd).toBeCloseTo((1000 * 4 + 200 * 20 + 3000 * 5) / 1e6, 10);
    expect(j.attempts).toBe(1);
    expect(j.prompt_version).toMatch(/\S/);
    const body = server.requests[0]!.body as {
      system: { cache_control?: unknown; text: string }[];
      output_config: { format: { type: string; schema: Record<string, unknown> } };
      temperature?: unknown;
      messages: { content: string }[];
    };
    expect(body.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.system[0]!.text).toContain('Rubric');
    expect(body.output_config.format.type).toBe('json_schema');
    expect(JSON.stringify(body.output_config.format.schema)).not.toContain('"maximum"');
    expect(body.temperature).toBeUndefined();
    // No effort configured: none sent (the model's default); no thinking field either; room for thinking.
    expect(body.output_config).not.toHaveProperty('effort');
    expect(body).not.toHaveProperty('thinking');
    expect((body as { max_tokens?: number }).max_tokens).toBe(16000);
    expect(body.messages[0]!.content).toContain('<<<AGENT_DATA kind=diff');
    expect(body.messages[0]!.content).toContain('src/sub.ts');
    expect(after.judgment).toMatchObject({ verdict: 'pass', score: j.score, model: 'claude-opus-5-5' });
    const calls = store.readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows.filter((r) => r.type === 'call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ outcome: 'ok', cache_creation_input_tokens: 3000, cost_usd: j.cost_usd });
  });

  it('a configured effort is sent as output_config.effort and keys the cache apart', async () => {
    const { j: plain } = await judge([{ kind: 'reply', text: goodReply() }]);
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: judgeConfigFile({
        timeout_seconds: 0.4,
        max_retries: 2,
        retry_backoff_seconds: 0.01,
        phase: 2,
        effort: 'high',
      }),
    });
    server.requests.length = 0;
    expect(await run([fx.recordPath], io)).toBe(0);
    // Same work, another effort: not the cached judgment, a new call carrying the effort.
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as { output_config: { effort?: string } }).output_config.effort).toBe('high');
    const withEffort = store.read<Judgment>('judgments', fx.record.bead)!;
    expect(withEffort.cache_key).not.toBe(plain.cache_key);
  });

  it('thinking blocks before the text are not part of the reply', async () => {
    const content = [
      { type: 'thinking', thinking: 'Let me weigh the diff. {"verdict": "fail", "dimensions": {}}', signature: 'c2ln' },
      { type: 'text', text: goodReply() },
    ];
    const { j } = await judge([{ kind: 'reply', text: goodReply(), content }]);
    expect(j.status).toBe('judged');
    expect(j.verdict).toBe('pass');
  });

  it('JSON inside prose is found', async () => {
    const { j } = await judge([{ kind: 'reply', text: `Here is my assessment:\n${goodReply()}\nThanks.` }]);
    expect(j.status).toBe('judged');
    expect(j.attempts).toBe(1);
  });

  it('fenced JSON is found', async () => {
    const { j } = await judge([{ kind: 'reply', text: '```json\n' + goodReply() + '\n```' }]);
    expect(j.status).toBe('judged');
  });

  it('invalid JSON, then a valid retry that was told what was wrong', async () => {
    const { j } = await judge([
      { kind: 'reply', text: '{"verdict": "pass", "score": ' },
      { kind: 'reply', text: goodReply() },
    ]);
    expect(j.status).toBe('judged');
    expect(j.attempts).toBe(2);
    const retry = server.requests[1]!.body as { messages: { role: string; content: string }[] };
    expect(retry.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry.messages[2]!.content).toContain('no JSON object');
    expect(j.usage.input_tokens).toBe(2400);
  });

  it.each([
    ['score 1.5', goodReply({ score: 1.5 }), '/score'],
    [
      'a missing dimension',
      goodReply({ dimensions: { correctness: 0.9, scope_adherence: 0.8, code_quality: 0.8 } }),
      '/dimensions/completeness',
    ],
    ['an unknown verdict', goodReply({ verdict: 'excellent' }), '/verdict'],
  ])('schema-invalid twice (%s): a recorded failure quoting the error, no score', async (_name, bad, path) => {
    const { j, after, code } = await judge([
      { kind: 'reply', text: bad },
      { kind: 'reply', text: bad },
    ]);
    expect(code).toBe(0);
    expectFailure(j, 'invalid_reply', after);
    expect(j.failure!.message).toContain(path);
    expect((server.requests[1]!.body as { messages: { content: string }[] }).messages[2]!.content).toContain(path);
    expect(j.attempts).toBe(2);
  });

  it('a schema-invalid reply then a valid one is judged', async () => {
    const { j } = await judge([
      { kind: 'reply', text: goodReply({ score: 1.5 }) },
      { kind: 'reply', text: goodReply() },
    ]);
    expect(j.status).toBe('judged');
  });

  it('the model verdict is not trusted: computed from dimensions, disagreement recorded', async () => {
    const { j } = await judge([
      {
        kind: 'reply',
        text: goodReply({
          verdict: 'pass',
          score: 0.95,
          dimensions: { correctness: 0.9, scope_adherence: 0.4, code_quality: 0.8, completeness: 0.9 },
        }),
      },
    ]);
    expect(j.verdict).toBe('partial');
    expect(j.model_verdict).toBe('pass');
    expect(j.disagreement?.verdict).toBe(true);
    expect(j.disagreement?.score_delta).toBeCloseTo(0.95 - 0.78, 9);
  });

  it('empty content is a failure', async () => {
    const { j, after } = await judge([{ kind: 'reply', text: '' }]);
    expectFailure(j, 'empty_reply', after);
  });

  it('a refusal is a failure', async () => {
    const { j, after } = await judge([{ kind: 'reply', text: '', stop_reason: 'refusal' }]);
    expectFailure(j, 'refusal', after);
    expect(j.failure!.stop_reason).toBe('refusal');
  });

  it('a reply cut off at max_tokens is a failure even if it holds JSON', async () => {
    const { j, after } = await judge([{ kind: 'reply', text: goodReply(), stop_reason: 'max_tokens' }]);
    expectFailure(j, 'max_tokens', after);
    expect(server.requests).toHaveLength(1);
  });

  it('429 with retry-after: the SDK waits and retries', async () => {
    const { j } = await judge([
      { kind: 'status', status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '0.05' } },
    ]);
    expect(j.status).toBe('judged');
    expect(server.requests).toHaveLength(2);
  });

  it('500 then 529 then a reply: judged', async () => {
    const { j } = await judge([
      { kind: 'status', status: 500, errorType: 'api_error', headers: { 'retry-after-ms': '10' } },
      { kind: 'status', status: 529, errorType: 'overloaded_error', headers: { 'retry-after-ms': '10' } },
    ]);
    expect(j.status).toBe('judged');
    expect(server.requests).toHaveLength(3);
  });

  it('529 on every attempt: a recorded overloaded failure after max_retries', async () => {
    const { j, after } = await judge([], {
      kind: 'status',
      status: 529,
      errorType: 'overloaded_error',
      headers: { 'retry-after-ms': '10' },
    });
    expectFailure(j, 'overloaded', after);
    expect(j.failure!.http_status).toBe(529);
    expect(server.requests).toHaveLength(3);
  });

  it('500 on every attempt: api_error', async () => {
    const { j, after } = await judge([], {
      kind: 'status',
      status: 500,
      errorType: 'api_error',
      headers: { 'retry-after-ms': '10' },
    });
    expectFailure(j, 'api_error', after);
  });

  it('a reply slower than the timeout on every attempt: a timeout failure', async () => {
    const { j, after } = await judge([], { kind: 'reply', text: goodReply(), delayMs: 3000 });
    expectFailure(j, 'timeout', after);
    expect(server.requests).toHaveLength(3);
  });

  it('one slow reply, then a fast one: judged', async () => {
    const { j } = await judge([{ kind: 'hang', ms: 3000 }]);
    expect(j.status).toBe('judged');
  });

  it('a reset connection is retried; reset every time is a connection failure', async () => {
    const first = await judge([{ kind: 'reset' }]);
    expect(first.j.status).toBe('judged');
    ({ fx, store } = runWithFeedback());
    server.requests.length = 0;
    const { j, after } = await judge([], { kind: 'reset' });
    expectFailure(j, 'connection', after);
  });

  it('the same content twice costs one call; a changed worktree is judged again', async () => {
    await judge([]);
    const again = await judge([]);
    expect(server.requests).toHaveLength(1);
    expect(again.io.err.join('')).toContain('cached');
  });
});
