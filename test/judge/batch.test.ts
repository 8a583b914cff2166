// judge --drain --batch through the real SDK against the loopback Messages API (its batch endpoints): one batch for
// the queue, collected after the drain is killed, failed items requeued, invalid ones recorded; custom_id mapping.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { customIdFor } from '../../lib/judge/batch.js';
import { costUsd } from '../../lib/judge/cost.js';
import { loadConfig } from '../../lib/config/config.js';
import { validate } from '../../lib/schema/schema.js';
import type { StateStore } from '../../lib/store/store.js';
import type { JudgeBatch, JudgeLedgerRow, JudgeQueueEntry, Judgment } from '../../lib/schema/types.generated.js';
import { captureIo, feedbackFor, judgeConfigFile, runWithFeedback } from './helpers/feedback.js';
import { recordFor, removeRun, removeRuns, type RunFixture } from './helpers/fixtures.js';
import { resetServer, startMessagesServer, type BatchItem, type MessagesServer } from './helpers/messages-server.js';

const ROOT = join(import.meta.dirname, '..', '..');
afterAll(removeRuns);

let server: MessagesServer;
let fx: RunFixture;
let store: StateStore;
const config = judgeConfigFile({ batch_poll_seconds: 0.05, batch_wait_seconds: 60, max_per_hour: 200, phase: 2 });

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

const env = (over: Record<string, string> = {}): Record<string, string> => ({
  JUDGE_ENABLED: 'true',
  ANTHROPIC_API_KEY: 'sk-test-dummy',
  ANTHROPIC_BASE_URL: server.url,
  JUDGELOOP_STATE_DIR: fx.stateDir,
  JUDGELOOP_CONFIG: config,
  ...over,
});

/** Queues `beads` as a hook over the hourly limit would (each with its record and its mechanical feedback). */
function queue(beads: string[]): void {
  const dir = join(dirname(fx.recordPath), 'records');
  mkdirSync(dir, { recursive: true });
  beads.forEach((b, i) => {
    const path = recordFor(fx, b, dir, { task: { id: `task-${b}`, prompt: `${fx.record.task.prompt} (${b})` } });
    store.write('feedback', b, feedbackFor({ ...fx.record, bead: b }));
    store.write<JudgeQueueEntry>('queue', b, {
      schema_version: '1.0.0',
      bead: b,
      record_path: path,
      queued_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      reason: 'test',
      claimed_at: null,
      claimed_by: null,
    });
  });
}

const rows = () => store.readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows;
const judgment = (b: string) => (existsSync(store.path('judgments', b)) ? store.read<Judgment>('judgments', b) : null);
const batches = () => store.list('batches').map((id) => store.read<JudgeBatch>('batches', id)!);

function bin(args: string[]) {
  const child = spawn(join(ROOT, 'bin', 'judge'), args, { env: { ...process.env, NO_COLOR: '1', ...env() } });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, done };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('customIdFor', () => {
  it('keeps a bead that fits, hashes one that does not (stable, distinct, within the pattern)', () => {
    expect(customIdFor('bd-12_a', 0, 1)).toBe('bd-12_a');
    expect(customIdFor('bd-12_a', 1, 3)).toBe('bd-12_a_s1');
    const long = `bd-${'x'.repeat(70)}`;
    for (const bead of ['bd.1', long, 'bd.2']) {
      const id = customIdFor(bead, 0, 1);
      expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(id).not.toBe(bead);
      expect(customIdFor(bead, 0, 1)).toBe(id);
    }
    expect(customIdFor('bd.1', 0, 1)).not.toBe(customIdFor('bd.2', 0, 1));
    // A bead whose own name looks like a hash is hashed too: it cannot collide with another bead's hash.
    const h = customIdFor('bd.1', 0, 1);
    expect(customIdFor(h, 0, 1)).not.toBe(h);
    // 62 characters fit alone but not with a sample suffix.
    const edge = 'b'.repeat(62);
    expect(customIdFor(edge, 0, 1)).toBe(edge);
    expect(customIdFor(edge, 2, 3)).toMatch(/^h[0-9a-f]{40}_s2$/);
  });
});

const RUNS = 12;

describe('bin/judge --drain --batch', () => {
  // One request for the whole queue is what is proved: twelve runs show it (each is gathered twice, ~10 git calls).
  it('12 queued runs: one batch request; killed between submit and collect, the next drain collects the same batch and stores 12 judgments', async () => {
    const beads = Array.from({ length: RUNS }, (_, i) => (i === 7 ? 'bd.dotted.7' : `bd-b${i}`));
    queue(beads);
    server.batch.hold = true;
    const first = bin(['--drain', '--batch']);
    await until(() => store.list('batches').length === 1, 'the batch file');
    await until(() => server.batch.retrieves > 0, 'the first status look');
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(server.batch.creates).toHaveLength(1);
    const sent = server.batch.creates[0]!.body as { requests: { custom_id: string }[] };
    expect(sent.requests).toHaveLength(RUNS);
    const ids = sent.requests.map((r) => r.custom_id);
    expect(new Set(ids).size).toBe(RUNS);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const [b] = batches();
    expect(validate('judge-batch', b).ok).toBe(true);
    expect(b!.status).toBe('submitted');
    expect(b!.items.find((i) => i.bead === 'bd.dotted.7')!.custom_id).toBe(customIdFor('bd.dotted.7', 0, 1));
    expect(store.list('judgments')).toEqual([]);
    expect(store.list('queue')).toHaveLength(RUNS);
    // The submit reserved one slot per run through the throttle.
    expect(rows().filter((r) => r.type === 'slot')).toHaveLength(RUNS);

    server.batch.hold = false;
    const second = await bin(['--drain', '--batch']).done;
    expect(second.stderr).toMatch(/collecting it first/);
    expect(second.code).toBe(0);
    expect(server.batch.creates).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    for (const bead of beads) expect(judgment(bead)?.status).toBe('judged');
    expect(store.list('queue')).toEqual([]);
    expect(batches()[0]).toMatchObject({ id: b!.id, status: 'collected', counts: { judged: RUNS, requeued: 0 } });
    const calls = rows().filter((r) => r.type === 'call');
    expect(calls).toHaveLength(RUNS);
    const cfg = loadConfig({ env: {}, cwd: ROOT, configFile: config });
    const model = calls[0]!.model!;
    const usage = {
      input_tokens: 1200,
      output_tokens: 300,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    const direct = costUsd(usage, model, cfg.judge)!;
    const batchCost = costUsd(usage, model, { ...cfg.judge, prices_per_million: cfg.judge.batch_prices_per_million });
    expect(batchCost).toBeCloseTo(direct / 2, 10);
    for (const c of calls) {
      expect(c).toMatchObject({ path: 'batch', batch_id: b!.id, outcome: 'ok', cost_usd: batchCost });
      expect(validate('judge-ledger', c).ok).toBe(true);
    }
    expect(rows().filter((r) => r.type === 'slot')).toHaveLength(RUNS);
  }, 240_000);
});

describe('judge --drain --batch with failed items', () => {
  it('errored, expired and canceled items go back to the queue; an invalid request is a recorded failure', {
    timeout: 60_000,
  }, async () => {
    const beads = ['bd-over', 'bd-exp', 'bd-can', 'bd-bad', 'bd-ok'];
    queue(beads);
    const items: Record<string, BatchItem> = {
      'bd-over': { kind: 'errored', errorType: 'overloaded_error' },
      'bd-exp': { kind: 'expired' },
      'bd-can': { kind: 'canceled' },
      'bd-bad': { kind: 'errored', errorType: 'invalid_request_error' },
    };
    server.batch.item = (id) => items[id] ?? { kind: 'succeeded' };
    const io = captureIo(env());
    expect(await run(['--drain', '--batch'], io)).toBe(0);
    expect(io.err.join('')).toMatch(/bd-exp: deferred: back in the queue \(batch_expired: /);
    expect(server.batch.creates).toHaveLength(1);
    expect(judgment('bd-ok')?.status).toBe('judged');
    expect(judgment('bd-bad')).toMatchObject({ status: 'failed', failure: { reason: 'api_error', http_status: 400 } });
    for (const b of ['bd-over', 'bd-exp', 'bd-can']) expect(judgment(b)).toBeNull();
    expect(store.list('queue').sort()).toEqual(['bd-can', 'bd-exp', 'bd-over']);
    for (const b of ['bd-over', 'bd-exp', 'bd-can'])
      expect(store.read<JudgeQueueEntry>('queue', b)).toMatchObject({ claimed_at: null, requeued: 1 });
    expect(batches()[0]).toMatchObject({ status: 'collected', counts: { judged: 2, requeued: 3 } });
    const outcomes = Object.fromEntries(rows().flatMap((r) => (r.type === 'call' ? [[r.bead, r.outcome]] : [])));
    expect(outcomes).toEqual({
      'bd-over': 'overloaded',
      'bd-exp': 'batch_expired',
      'bd-can': 'batch_canceled',
      'bd-bad': 'api_error',
      'bd-ok': 'ok',
    });

    // The next drain sends only what went back, and stores it.
    server.batch.item = undefined;
    expect(await run(['--drain', '--batch'], captureIo(env()))).toBe(0);
    expect(server.batch.creates).toHaveLength(2);
    const again = (server.batch.creates[1]!.body as { requests: { custom_id: string }[] }).requests;
    expect(again.map((r) => r.custom_id).sort()).toEqual(['bd-can', 'bd-exp', 'bd-over']);
    expect(store.list('queue')).toEqual([]);
    expect(server.requests).toHaveLength(0);
    for (const b of ['bd-over', 'bd-exp', 'bd-can', 'bd-ok']) expect(judgment(b)?.status).toBe('judged');
  });

  it('judge.batch_over: a plain --drain over that many queued runs sends a batch; at or under it, direct calls', {
    timeout: 60_000,
  }, async () => {
    const over = judgeConfigFile({ batch_poll_seconds: 0.05, batch_over: 2 });
    queue(['bd-1a', 'bd-1b']);
    expect(await run(['--drain'], captureIo(env({ JUDGELOOP_CONFIG: over })))).toBe(0);
    expect(server.batch.creates).toHaveLength(0);
    expect(server.requests.length).toBeGreaterThan(0);
    queue(['bd-2a', 'bd-2b', 'bd-2c']);
    expect(await run(['--drain'], captureIo(env({ JUDGELOOP_CONFIG: over })))).toBe(0);
    expect(server.batch.creates).toHaveLength(1);
    expect(store.list('queue')).toEqual([]);
    expect(readdirSync(join(fx.stateDir, 'batches'))).toHaveLength(1);
  });

  it('a batch the API no longer knows (404): its runs go back to the queue, its record is removed, the drain goes on', {
    timeout: 60_000,
  }, async () => {
    queue(['bd-s1', 'bd-s2']);
    const path = (b: string) => store.read<JudgeQueueEntry>('queue', b)!.record_path;
    const stale: JudgeBatch = {
      schema_version: '1.0.0',
      id: 'msgbatch_gone',
      submitted_at: '2025-01-01T00:00:00.000Z',
      model: 'claude-opus-5-5',
      status: 'submitted',
      collected_at: null,
      items: ['bd-s1', 'bd-s2'].map((b) => ({ custom_id: b, bead: b, sample: 0, record_path: path(b) })),
    };
    store.write('batches', stale.id, stale);
    // bd-s2's queue entry was lost meanwhile: it is queued again from the batch's record path.
    store.remove('queue', 'bd-s2');
    const io = captureIo(env());
    expect(await run(['--drain', '--batch'], io)).toBe(0);
    expect(io.err.join('')).toMatch(/batch msgbatch_gone is unknown to the API .*\(2 runs\); its record is removed/);
    expect(store.list('batches')).not.toContain('msgbatch_gone');
    expect(server.batch.creates).toHaveLength(1);
    const sent = (server.batch.creates[0]!.body as { requests: { custom_id: string }[] }).requests;
    expect(sent.map((r) => r.custom_id).sort()).toEqual(['bd-s1', 'bd-s2']);
    for (const b of ['bd-s1', 'bd-s2']) expect(judgment(b)?.status).toBe('judged');
    expect(store.list('queue')).toEqual([]);
  });
});
