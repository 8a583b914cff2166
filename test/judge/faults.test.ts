// Every API fault ends well: the real SDK against the loopback Messages API. Resets, hang-ups and timeouts are
// retried like 5xx; an invalid reply is never `ok`; a drain that meets an outage stops and keeps the queue;
// permanent failures only for permanent causes; one ledger row per outcome with its cause.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import type { StateStore } from '../../lib/store/store.js';
import type { JudgeLedgerRow, JudgeQueueEntry, Judgment } from '../../lib/schema/types.generated.js';
import { validate } from '../../lib/schema/schema.js';
import { captureIo, feedbackFor, judgeConfigFile, runWithFeedback } from './helpers/feedback.js';
import { recordFor, removeRun, type RunFixture, removeRuns } from './helpers/fixtures.js';
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
const config = judgeConfigFile({ timeout_seconds: 0.5, max_retries: 2, retry_backoff_seconds: 0.01, phase: 2 });

beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dirname(config), { recursive: true, force: true });
});
beforeEach(() => {
  ({ fx, store } = runWithFeedback());
  resetServer(server);
});
afterEach(() => removeRun(fx));

const env = (over: Record<string, string> = {}) => ({
  JUDGE_ENABLED: 'true',
  ANTHROPIC_API_KEY: 'sk-test-dummy',
  ANTHROPIC_BASE_URL: server.url,
  JUDGELOOP_STATE_DIR: fx.stateDir,
  JUDGELOOP_CONFIG: config,
  ...over,
});

async function judge(args: string[], script: Step[] = [], fallback?: Step) {
  server.script = script;
  if (fallback) server.fallback = fallback;
  const io = captureIo(env());
  const code = await run(args, io);
  return { code, io, err: io.err.join('') };
}

const calls = () => store.readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows.filter((r) => r.type === 'call');
const judged = () =>
  store
    .list('judgments')
    .map((b) => store.read<Judgment>('judgments', b)!)
    .filter((j) => j.status === 'judged');

/**
 * The ledger's ok rows are the stored judgments that a call paid for (one sample each; a copy reused from an
 * identical context names its source): nothing was marked ok that did not land, nothing landed unpaid.
 */
function expectLedgerMatchesJudgments() {
  const ok = calls().filter((r) => r.outcome === 'ok');
  expect(ok.map((r) => r.bead).sort()).toEqual(
    judged()
      .filter((j) => !j.cached_from)
      .map((j) => j.bead)
      .sort(),
  );
  for (const j of judged().filter((x) => x.cached_from)) expect(ok.map((r) => r.bead)).toContain(j.cached_from);
  for (const r of calls()) {
    expect(validate('judge-ledger', r).ok).toBe(true);
    if (r.outcome !== 'ok') expect(r.cause).toMatch(/\S/);
  }
}

describe('transient faults are retried with backoff', () => {
  it.each([
    ['a reset in the middle of the reply body', { kind: 'reset-mid' } as Step],
    ['a reset before any reply', { kind: 'reset' } as Step],
    ['a socket hang-up', { kind: 'hangup' } as Step],
    ['a reply slower than the timeout', { kind: 'hang', ms: 3000 } as Step],
    ['a 500', { kind: 'status', status: 500, errorType: 'api_error' } as Step],
    ['a 529', { kind: 'status', status: 529, errorType: 'overloaded_error' } as Step],
    ['a 408', { kind: 'status', status: 408, errorType: 'timeout_error' } as Step],
  ])('%s, then a reply: judged, one ok row that counts the retry', async (_name, fault) => {
    const { code } = await judge([fx.recordPath], [fault]);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const j = store.read<Judgment>('judgments', fx.record.bead)!;
    expect(j.status).toBe('judged');
    expect(calls()).toEqual([expect.objectContaining({ outcome: 'ok', retries: 1 })]);
    expectLedgerMatchesJudgments();
  });

  it('a burst of 5xx and 529 longer than max_retries: a recorded failure with its cause, and the run queued for the next drain', async () => {
    const burst: Step[] = [500, 529, 503].map((status) => ({ kind: 'status', status, errorType: 'api_error' }));
    const { code, err } = await judge([fx.recordPath], burst);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(3);
    const j = store.read<Judgment>('judgments', fx.record.bead)!;
    expect(j.status).toBe('failed');
    expect(j.failure).toMatchObject({ reason: 'api_error', http_status: 503 });
    expect(j.score).toBeNull();
    expect(calls()).toEqual([
      expect.objectContaining({ outcome: 'api_error', retries: 2, cause: expect.stringContaining('HTTP 503') }),
    ]);
    expect(store.read<JudgeQueueEntry>('queue', fx.record.bead)).toMatchObject({ bead: fx.record.bead });
    expect(err).toContain('queued');
    expectLedgerMatchesJudgments();
  });

  it('resets on every attempt: a connection failure after max_retries, never api_error', async () => {
    await judge([fx.recordPath], [], { kind: 'reset-mid' });
    expect(store.read<Judgment>('judgments', fx.record.bead)!.failure?.reason).toBe('connection');
    expect(server.requests).toHaveLength(3);
  });
});

describe('invalid replies', () => {
  it('invalid twice: invalid_reply in the ledger (both rows) and the judgment, never ok', async () => {
    const bad = goodReply({ score: 1.5 });
    const { code } = await judge(
      [fx.recordPath],
      [
        { kind: 'reply', text: bad },
        { kind: 'reply', text: bad },
      ],
    );
    expect(code).toBe(0);
    const j = store.read<Judgment>('judgments', fx.record.bead)!;
    expect(j).toMatchObject({ status: 'failed', score: null, verdict: null });
    expect(j.failure?.reason).toBe('invalid_reply');
    expect(calls().map((r) => r.outcome)).toEqual(['invalid_reply', 'invalid_reply']);
    expect(calls()[0]!.cause).toContain('/score');
    expectLedgerMatchesJudgments();
  });

  it('invalid, then valid: one invalid_reply row and one ok row', async () => {
    await judge(
      [fx.recordPath],
      [
        { kind: 'reply', text: 'no json here' },
        { kind: 'reply', text: goodReply() },
      ],
    );
    expect(calls().map((r) => r.outcome)).toEqual(['invalid_reply', 'ok']);
    expectLedgerMatchesJudgments();
  });
});

describe('permanent causes', () => {
  it.each([401, 403])(
    '%i: exit 2, one line naming ANTHROPIC_API_KEY, no judgment written, the cause in the ledger',
    async (status) => {
      const { code, err } = await judge([fx.recordPath], [], {
        kind: 'status',
        status,
        errorType: status === 401 ? 'authentication_error' : 'permission_error',
      });
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toContain('ANTHROPIC_API_KEY');
      expect(err).toContain(`HTTP ${status}`);
      expect(server.requests).toHaveLength(1);
      expect(store.list('judgments')).toEqual([]);
      expect(calls()).toEqual([
        expect.objectContaining({ outcome: 'auth_error', cause: expect.stringContaining(String(status)) }),
      ]);
    },
  );

  it('a 400: a recorded api_error, not retried, not queued', async () => {
    await judge([fx.recordPath], [], { kind: 'status', status: 400, errorType: 'invalid_request_error' });
    expect(server.requests).toHaveLength(1);
    expect(store.read<Judgment>('judgments', fx.record.bead)!.failure).toMatchObject({
      reason: 'api_error',
      http_status: 400,
    });
    expect(store.list('queue')).toEqual([]);
  });
});

describe('--drain', () => {
  function queueThree(): string[] {
    const beads = ['bd-q1', 'bd-q2', 'bd-q3'];
    beads.forEach((b, i) => {
      const path = recordFor(fx, b, dirname(fx.recordPath));
      store.write('feedback', b, feedbackFor({ ...fx.record, bead: b }));
      store.write<JudgeQueueEntry>('queue', b, {
        schema_version: '1.0.0',
        bead: b,
        record_path: path,
        queued_at: `2025-06-01T10:0${i}:00.000Z`,
        reason: 'test',
        claimed_at: null,
        claimed_by: null,
      });
    });
    return beads;
  }

  it('during an outage: stops at the first entry, leaves the whole queue intact, says so; after it, judges all', async () => {
    const beads = queueThree();
    const outage = await judge(['--drain'], [], { kind: 'status', status: 529, errorType: 'overloaded_error' });
    expect(outage.code).toBe(0);
    expect(outage.err).toMatch(/drain stopped: the judge API is unavailable; 3 runs stay queued/);
    expect(server.requests).toHaveLength(3);
    expect(store.list('queue').sort()).toEqual(beads);
    for (const b of beads) expect(store.read<JudgeQueueEntry>('queue', b)!.claimed_at).toBeNull();
    expect(store.list('judgments')).toEqual([]);
    expect(calls()).toEqual([expect.objectContaining({ bead: 'bd-q1', outcome: 'overloaded', retries: 2 })]);

    const after = await judge(['--drain'], [], { kind: 'reply', text: goodReply() });
    expect(after.code).toBe(0);
    expect(store.list('queue')).toEqual([]);
    expect(
      judged()
        .map((j) => j.bead)
        .sort(),
    ).toEqual(beads);
    // One call: the other two had the same context and reused its judgment.
    expect(calls().filter((r) => r.outcome === 'ok')).toHaveLength(1);
    expectLedgerMatchesJudgments();
  });

  it.each([
    ['connection resets', { kind: 'reset' } as Step],
    ['hang-ups', { kind: 'hangup' } as Step],
  ])('during %s: the queue is kept', async (_name, fault) => {
    const beads = queueThree();
    await judge(['--drain'], [], fault);
    expect(store.list('queue').sort()).toEqual(beads);
    expect(store.list('judgments')).toEqual([]);
  });

  it('progress: one labelled line per queued run on stderr (judging k/n, then its status); none under --json, whose stdout is JSON lines', async () => {
    queueThree();
    const piped = await judge(['--drain'], [], { kind: 'reply', text: goodReply() });
    const lines = piped.err.split('\n').filter((l) => l.startsWith('judge --drain: '));
    expect(lines.map((l) => l.replace(/ \(\d+\.\d s\)$/, ''))).toEqual([
      'judge --drain: bd-q1: judging 1/3',
      'judge --drain: bd-q1: judged',
      // The other two have the same context: they reuse the first judgment.
      'judge --drain: bd-q2: judging 2/3',
      'judge --drain: bd-q2: cached',
      'judge --drain: bd-q3: judging 3/3',
      'judge --drain: bd-q3: cached',
    ]);
    expect(piped.io.out.join('')).toBe('');
    queueThree();
    const json = await judge(['--drain', '--json'], [], { kind: 'reply', text: goodReply() });
    expect(json.err).not.toMatch(/judge --drain:/);
    const rows = json.io.out
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { bead: string; status: string });
    expect(rows.map((r) => r.bead)).toEqual(['bd-q1', 'bd-q2', 'bd-q3']);
  });

  it('a 400 on one entry is permanent for it (recorded, dequeued); the drain goes on', async () => {
    queueThree();
    await judge(['--drain'], [{ kind: 'status', status: 400, errorType: 'invalid_request_error' }]);
    expect(store.list('queue')).toEqual([]);
    expect(store.read<Judgment>('judgments', 'bd-q1')!.failure?.reason).toBe('api_error');
    expect(
      judged()
        .map((j) => j.bead)
        .sort(),
    ).toEqual(['bd-q2', 'bd-q3']);
    expectLedgerMatchesJudgments();
  });

  it('a 401: stops with exit 2 naming the key, the queue intact', async () => {
    const beads = queueThree();
    const { code, err } = await judge(['--drain'], [], {
      kind: 'status',
      status: 401,
      errorType: 'authentication_error',
    });
    expect(code).toBe(2);
    expect(err).toContain('ANTHROPIC_API_KEY');
    expect(store.list('queue').sort()).toEqual(beads);
    expect(server.requests).toHaveLength(1);
  });
});
