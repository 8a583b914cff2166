// judge --drain --batch: the queue as one Message Batch (half price), its id in state/batches/, collected resumably;
// each result goes through the single call's path (reply checks, verdict, ledger, judgment) as a replayed backend.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageBatchResult } from '@anthropic-ai/sdk/resources/messages/batches';
import { errorMessage, isUserError, UserError } from '../base/errors.js';
import { loadRunRecord } from '../collector/run-record.js';
import type { Config } from '../config/config.js';
import type { JudgeBatch, JudgeQueueEntry } from '../schema/types.generated.js';
import { sdkRequestBody, type Backend, type CallRequest, type CallResult } from './backend.js';
import { costUsd, zeroUsage } from './cost.js';
import { judgeRun, throttleOptions, type JudgeDeps, type JudgeOutcome } from './judge-run.js';
import { backendFromConfig } from './request.js';
import { resultOfMessage } from './sdk-backend.js';
import { enqueue, releaseClaim, removeQueued, reserveOrQueue } from './throttle.js';

const CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The API's custom_id for sample `sample` of `bead` (pure): the bead itself when it fits [A-Za-z0-9_-]{1,64}
 * with the sample suffix, else `h` and 40 hex digits of its sha256 (stable; the batch file records the mapping).
 */
export function customIdFor(bead: string, sample: number, samples: number): string {
  const suffix = samples > 1 ? `_s${sample}` : '';
  const whole = bead + suffix;
  if (CUSTOM_ID.test(whole) && !/^h[0-9a-f]{40}(_s\d+)?$/.test(whole)) return whole;
  return `h${createHash('sha256').update(bead).digest('hex').slice(0, 40)}${suffix}`;
}

/**
 * One JSONL result line as a call result (pure). An invalid request is a permanent failure; any other error, an
 * expired or a canceled item is transient (the run goes back to the queue). Cost at the batch prices.
 */
export function itemResult(
  result: MessageBatchResult,
  model: string,
  judge: Config['judge'],
  batchId: string,
): CallResult {
  const failed = (failure: Extract<CallResult, { ok: false }>['failure']): CallResult => ({
    ok: false,
    failure,
    usage: zeroUsage(),
    costUsd: 0,
    latencyMs: 0,
    batchId,
  });
  if (result.type === 'expired')
    return failed({ reason: 'batch_expired', message: 'the batch item expired before it was processed' });
  if (result.type === 'canceled')
    return failed({ reason: 'batch_canceled', message: 'the batch item was canceled before it was processed' });
  if (result.type === 'errored') {
    const e = result.error.error;
    const message = `batch item ${e.type}: ${e.message.split('\n')[0]!.slice(0, 300)}`;
    if (e.type === 'invalid_request_error') return failed({ reason: 'api_error', message, http_status: 400 });
    if (e.type === 'rate_limit_error') return failed({ reason: 'rate_limited', message, http_status: 429 });
    if (e.type === 'overloaded_error') return failed({ reason: 'overloaded', message, http_status: 529 });
    return failed({ reason: 'api_error', message, http_status: 500 });
  }
  const r = resultOfMessage(result.message, 0);
  const batchPrices = { ...judge, prices_per_million: judge.batch_prices_per_million };
  return { ...r, costUsd: costUsd(r.usage, model, batchPrices), batchId };
}

/**
 * A backend that answers each sample's first call with the batch's result for it, in order; a retry after an
 * invalid reply (the conversation grew) goes to the direct backend, as on the single-call path.
 */
export function replayBackend(results: CallResult[], direct: () => Backend): Backend {
  let next = 0;
  return {
    name: 'sdk',
    call: async (req: CallRequest) => {
      if (req.messages.length > 1) return direct().call(req);
      const r = results[next++];
      if (!r) throw new Error('a batch replay was asked for more samples than the batch holds');
      return r;
    },
  };
}

export interface BatchDrainIo {
  cwd: string;
  log: (msg: string) => void;
  outcome: (o: JudgeOutcome) => void;
}

async function client(deps: JudgeDeps): Promise<Anthropic> {
  const key = deps.env.ANTHROPIC_API_KEY;
  if (!key) throw new UserError('ANTHROPIC_API_KEY is not set: judge --drain --batch needs it');
  return import('@anthropic-ai/sdk').then(
    ({ default: A }) =>
      new A({ apiKey: key, baseURL: deps.env.ANTHROPIC_BASE_URL ?? null, maxRetries: deps.config.judge.max_retries }),
  );
}

/** The beads of batches submitted and not yet collected: no other drain takes them from the queue. */
export function pendingBatches(deps: Pick<JudgeDeps, 'store'>): JudgeBatch[] {
  return deps.store
    .readAll<JudgeBatch>('batches')
    .flatMap((r) => ('value' in r ? [r.value] : []))
    .filter((b) => b.status === 'submitted')
    .sort((a, b) => a.submitted_at.localeCompare(b.submitted_at));
}

/**
 * Collects every batch already submitted (waiting up to batch_wait_seconds for each), then, when none is left
 * open, submits the waiting queue as one batch (within the hourly limit) and collects it. Returns the exit code.
 */
export async function drainBatch(deps: JudgeDeps, io: BatchDrainIo): Promise<number> {
  if (deps.config.judge.backend !== 'sdk')
    throw new UserError('judge --drain --batch needs the sdk backend (Message Batches are an API feature)');
  const api = await client(deps);
  return deps.store.withLock(
    'judge-batch',
    async () => {
      for (const b of pendingBatches(deps)) {
        io.log(`batch ${b.id}: submitted ${b.submitted_at}, collecting it first`);
        if (!(await collect(api, deps, io, b))) return 0;
      }
      const b = await submit(api, deps, io);
      if (b) await collect(api, deps, io, b);
      return 0;
    },
    { waitSeconds: deps.config.judge.lock_wait_seconds },
  );
}

async function submit(api: Anthropic, deps: JudgeDeps, io: BatchDrainIo): Promise<JudgeBatch | null> {
  const j = deps.config.judge;
  const t = throttleOptions(deps);
  const entries = deps.store
    .readAll<JudgeQueueEntry>('queue')
    .flatMap((r) => ('value' in r ? [r.value] : []))
    .sort((a, b) =>
      a.queued_at === b.queued_at ? a.bead.localeCompare(b.bead) : a.queued_at.localeCompare(b.queued_at),
    );
  const items: JudgeBatch['items'] = [];
  const requests: Anthropic.Messages.Batches.BatchCreateParams.Request[] = [];
  let model = '';
  for (const e of entries) {
    let o: JudgeOutcome;
    try {
      o = await judgeRun(loadRunRecord(e.record_path, io.cwd), deps, { fromQueue: true, batch: { prepare: true } });
    } catch (err) {
      if (!isUserError(err)) throw err;
      io.log(`${e.bead}: kept in the queue: ${errorMessage(err)}`);
      continue;
    }
    if (o.status !== 'prepared') {
      if (o.status === 'cached' || o.status === 'skipped') await removeQueued(t, e.bead);
      io.outcome(o);
      continue;
    }
    const res = await reserveOrQueue(t, e.bead, j.samples, e.record_path, false);
    if (!res.ok) {
      io.log(`the hourly limit is reached (${res.used} of ${j.max_per_hour}): the rest of the queue waits`);
      break;
    }
    model = o.prepared!.model;
    for (let s = 0; s < j.samples; s++) {
      const custom_id = customIdFor(e.bead, s, j.samples);
      if (items.some((i) => i.custom_id === custom_id))
        throw new UserError(`two queued beads map to the batch custom_id ${custom_id}: ${e.bead} and another`);
      items.push({ custom_id, bead: e.bead, sample: s, record_path: e.record_path });
      requests.push({ custom_id, params: sdkRequestBody(o.prepared!.request) });
    }
  }
  if (items.length === 0) return null;
  let created: Anthropic.Messages.Batches.MessageBatch;
  try {
    created = await api.messages.batches.create({ requests });
  } catch (err) {
    io.log(`the batch was not created (${errorMessage(err).split('\n')[0]}); the queue is kept`);
    return null;
  }
  const batch: JudgeBatch = {
    schema_version: '1.0.0',
    id: created.id,
    submitted_at: deps.now().toISOString(),
    model,
    status: 'submitted',
    collected_at: null,
    items,
  };
  deps.store.write('batches', batch.id, batch);
  io.log(`batch ${batch.id}: ${new Set(items.map((i) => i.bead)).size} runs submitted (${items.length} requests)`);
  return batch;
}

/** Waits for the batch to end and stores its results; false when it is still processing after the wait. */
async function collect(api: Anthropic, deps: JudgeDeps, io: BatchDrainIo, b: JudgeBatch): Promise<boolean> {
  const j = deps.config.judge;
  const deadline = Date.now() + j.batch_wait_seconds * 1000;
  for (;;) {
    const s = await api.messages.batches.retrieve(b.id).catch((err: unknown) => {
      if (notFound(err)) return null;
      throw err;
    });
    if (!s) return dropBatch(deps, io, b);
    if (s.processing_status === 'ended') break;
    if (Date.now() >= deadline) {
      io.log(
        `batch ${b.id} is still ${s.processing_status}; its runs stay queued: run judge --drain --batch again to collect it`,
      );
      return false;
    }
    await sleep(Math.min(j.batch_poll_seconds * 1000, Math.max(0, deadline - Date.now())));
  }
  const byId = new Map<string, MessageBatchResult>();
  try {
    for await (const line of await api.messages.batches.results(b.id)) byId.set(line.custom_id, line.result);
  } catch (err) {
    if (notFound(err)) return dropBatch(deps, io, b);
    throw err;
  }
  const t = throttleOptions(deps);
  let judged = 0;
  let requeued = 0;
  let direct: Backend | undefined;
  for (const bead of [...new Set(b.items.map((i) => i.bead))]) {
    const mine = b.items.filter((i) => i.bead === bead).sort((x, y) => x.sample - y.sample);
    const results = mine.map((i) => itemResult(byId.get(i.custom_id) ?? { type: 'expired' }, b.model, j, b.id));
    const replay = replayBackend(results, () => (direct ??= backendFromConfig(deps.config, deps.env, deps.processEnv)));
    let o: JudgeOutcome;
    try {
      o = await judgeRun(loadRunRecord(mine[0]!.record_path, io.cwd), deps, { fromQueue: true, batch: { replay } });
    } catch (err) {
      if (!isUserError(err)) throw err;
      io.log(`${bead}: kept in the queue: ${errorMessage(err)}`);
      requeued++;
      continue;
    }
    if (o.status === 'outage') {
      await requeue(deps, bead, `a batch item got no reply: ${o.message}`);
      requeued++;
      const why = results.map((r) => (r.ok ? 'ok' : `${r.failure.reason}: ${r.failure.message}`)).join('; ');
      io.outcome({ bead, status: 'deferred', message: `back in the queue (${why})` });
      continue;
    }
    await removeQueued(t, bead);
    judged++;
    io.outcome(o);
  }
  deps.store.write<JudgeBatch>('batches', b.id, {
    ...b,
    status: 'collected',
    collected_at: deps.now().toISOString(),
    counts: { judged, requeued },
  });
  io.log(`batch ${b.id}: ${judged} runs stored, ${requeued} back in the queue`);
  return true;
}

const notFound = (err: unknown): boolean => (err as { status?: unknown } | null)?.status === 404;

/**
 * A batch the API no longer knows (results are kept 29 days; another key's batch): its runs go back to the queue
 * (queued again from the record path when their entry is gone) and its record is removed. True: the drain goes on.
 */
async function dropBatch(deps: JudgeDeps, io: BatchDrainIo, b: JudgeBatch): Promise<boolean> {
  const t = throttleOptions(deps);
  const why = `batch ${b.id} is unknown to the API (expired or deleted); its runs are queued again`;
  for (const i of b.items.filter((x) => x.sample === 0)) {
    if (deps.store.read<JudgeQueueEntry>('queue', i.bead)) await requeue(deps, i.bead, why);
    else await enqueue(t, i.bead, i.record_path, why);
  }
  deps.store.remove('batches', b.id);
  io.log(`${why} (${b.items.filter((x) => x.sample === 0).length} runs); its record is removed`);
  return true;
}

/** A batch item that did not get a reply: its queue entry waits again, with why. */
async function requeue(deps: JudgeDeps, bead: string, why: string): Promise<void> {
  const e = deps.store.read<JudgeQueueEntry>('queue', bead);
  if (e) await releaseClaim(throttleOptions(deps), { ...e, reason: why.slice(0, 500) });
}
