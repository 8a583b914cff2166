// The hourly and concurrency limits behind one interface (the ledger file here; Redis in throttle-redis.ts), and the queue.
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkError } from '../base/errors.js';
import type { StateStore } from '../store/store.js';
import type { JudgeLedgerRow, JudgeQueueEntry } from '../schema/types.generated.js';

export const LEDGER_ID = 'judge';
const THROTTLE_LOCK = 'judge-throttle';
const HOUR_MS = 3600_000;

/** Slots taken in the hour before `now` (pure). */
export function slotsInWindow(rows: JudgeLedgerRow[], now: Date): number {
  const from = now.getTime() - HOUR_MS;
  const to = now.getTime();
  return rows.filter((r) => r.type === 'slot' && Date.parse(r.at) > from && Date.parse(r.at) <= to).length;
}

export interface ThrottleOptions {
  store: StateStore;
  limit: number;
  now: () => Date;
  lockWaitSeconds: number;
  /** Where the limits are held; the ledger file when absent. */
  backend?: Throttle;
}

/** The hourly limit and the concurrency limit of judge calls, wherever they are held. */
export interface Throttle {
  readonly kind: 'file' | 'redis';
  /** Takes `n` calls of the hourly limit for `bead` (a slot row per call in the ledger either way), or says the hour is full. */
  reserve(bead: string, n: number): Promise<{ ok: boolean; used: number }>;
  /** Runs one call within the concurrency limit, waiting for a free place. */
  running<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The limits' store cannot be reached (Redis down): nothing may be judged unthrottled; the run is queued. */
export class ThrottleUnavailable extends WorkError {}

/** Appends the slot rows of a reservation: the ledger records every call whichever backend holds the limit. */
export function appendSlots(o: ThrottleOptions, bead: string, n: number, kind: Throttle['kind']): void {
  const at = o.now().toISOString();
  for (let i = 0; i < n; i++)
    o.store.appendLine<JudgeLedgerRow>('judge-ledger', LEDGER_ID, {
      type: 'slot',
      at,
      bead,
      pid: process.pid,
      ...(kind === 'redis' ? { throttle: kind } : {}),
    });
}

/**
 * The file backend: the sliding hour counted from the ledger's slot rows under the `judge-throttle` lock; at most
 * `maxConcurrent` calls at once through the locks `judge-call-0..N-1` (mkdir locks: one machine or a shared disk).
 */
export function fileThrottle(o: ThrottleOptions, maxConcurrent: number): Throttle {
  return {
    kind: 'file',
    reserve: (bead, n) =>
      o.store.withLock(
        THROTTLE_LOCK,
        () => {
          const used = slotsInWindow(o.store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows, o.now());
          if (used + n > o.limit) return { ok: false, used };
          appendSlots(o, bead, n, 'file');
          return { ok: true, used: used + n };
        },
        { waitSeconds: o.lockWaitSeconds },
      ),
    running: async (fn) => {
      const deadline = Date.now() + o.lockWaitSeconds * 1000;
      for (let round = 0; ; round++) {
        for (let i = 0; i < maxConcurrent; i++) {
          let entered = false;
          try {
            return await o.store.withLock(
              `judge-call-${i}`,
              () => {
                entered = true;
                return fn();
              },
              { waitSeconds: 0 },
            );
          } catch (e) {
            if (entered || (e as { code?: string }).code !== 'ELOCKED') throw e;
          }
        }
        if (Date.now() > deadline)
          throw new WorkError(`no free judge call place of ${maxConcurrent} within ${o.lockWaitSeconds} s`);
        await sleep(Math.min(500, 20 * 2 ** round));
      }
    },
    close: async () => undefined,
  };
}

export type Reservation = { ok: true; used: number } | { ok: false; used: number; queued: JudgeQueueEntry };

/**
 * Takes `n` slots for `bead` if the sliding hour has room; otherwise writes (or keeps) its queue entry.
 * Both happen under the throttle lock: two processes racing for the last slot take one (test/judge/throttle-lock.test.ts).
 */
export async function reserveOrQueue(
  o: ThrottleOptions,
  bead: string,
  n: number,
  recordPath: string,
  queueIfFull: boolean,
): Promise<Reservation | { ok: false; used: number; queued: null }> {
  if (o.backend && o.backend.kind !== 'file') {
    const r = await o.backend.reserve(bead, n);
    if (r.ok) return { ok: true, used: r.used };
    if (!queueIfFull) return { ok: false, used: r.used, queued: null };
    const reason = `${r.used} of ${o.limit} judge calls used in this hour (${o.backend.kind})`;
    return { ok: false, used: r.used, queued: await enqueue(o, bead, recordPath, reason) };
  }
  return o.store.withLock(
    THROTTLE_LOCK,
    () => {
      const now = o.now();
      const used = slotsInWindow(o.store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows, now);
      if (used + n <= o.limit) {
        appendSlots(o, bead, n, 'file');
        return { ok: true as const, used: used + n };
      }
      if (!queueIfFull) return { ok: false as const, used, queued: null };
      const existing = readQueue(o.store, bead);
      const entry: JudgeQueueEntry = existing ?? {
        schema_version: '1.0.0',
        bead,
        record_path: recordPath,
        queued_at: now.toISOString(),
        reason: `${used} of ${o.limit} judge calls used in the last hour`,
        claimed_at: null,
        claimed_by: null,
      };
      if (!existing) o.store.write('queue', bead, entry);
      return { ok: false as const, used, queued: entry };
    },
    { waitSeconds: o.lockWaitSeconds },
  );
}

function readQueue(store: StateStore, bead: string): JudgeQueueEntry | null {
  try {
    return store.read<JudgeQueueEntry>('queue', bead);
  } catch {
    return null;
  }
}

/** Claims the oldest waiting entry (or one whose claim went stale) for this process; null when none waits. */
export async function claimNext(
  o: ThrottleOptions,
  staleSeconds: number,
  skip: Set<string>,
): Promise<JudgeQueueEntry | null> {
  return o.store.withLock(
    THROTTLE_LOCK,
    () => {
      const now = o.now();
      const waiting = o.store
        .readAll<JudgeQueueEntry>('queue')
        .flatMap((r) => ('value' in r ? [r.value] : []))
        .filter((e) => !skip.has(e.bead))
        .filter((e) => e.claimed_at === null || now.getTime() - Date.parse(e.claimed_at) > staleSeconds * 1000)
        .sort((a, b) =>
          a.queued_at === b.queued_at ? a.bead.localeCompare(b.bead) : a.queued_at.localeCompare(b.queued_at),
        );
      const next = waiting[0];
      if (!next) return null;
      const claimed: JudgeQueueEntry = { ...next, claimed_at: now.toISOString(), claimed_by: process.pid };
      o.store.write('queue', next.bead, claimed);
      return claimed;
    },
    { waitSeconds: o.lockWaitSeconds },
  );
}

/** Puts a claimed entry back to waiting (the limit was reached before it could be judged). */
export async function releaseClaim(o: ThrottleOptions, entry: JudgeQueueEntry): Promise<void> {
  await o.store.withLock(
    THROTTLE_LOCK,
    () => {
      o.store.write<JudgeQueueEntry>('queue', entry.bead, {
        ...entry,
        claimed_at: null,
        claimed_by: null,
        requeued: (entry.requeued ?? 0) + 1,
      });
    },
    { waitSeconds: o.lockWaitSeconds },
  );
}

/** Removes a queue entry once its judgment (or recorded failure) is written. */
export async function removeQueued(o: ThrottleOptions, bead: string): Promise<void> {
  await o.store.withLock(THROTTLE_LOCK, () => rmSync(o.store.path('queue', bead), { force: true }), {
    waitSeconds: o.lockWaitSeconds,
  });
}

/** Queues a run for the next drain (kept as it is when already queued); returns the entry. */
export async function enqueue(
  o: ThrottleOptions,
  bead: string,
  recordPath: string,
  reason: string,
): Promise<JudgeQueueEntry> {
  return o.store.withLock(
    THROTTLE_LOCK,
    () => {
      const existing = readQueue(o.store, bead);
      if (existing) return existing;
      const entry: JudgeQueueEntry = {
        schema_version: '1.0.0',
        bead,
        record_path: recordPath,
        queued_at: o.now().toISOString(),
        reason,
        claimed_at: null,
        claimed_by: null,
      };
      o.store.write<JudgeQueueEntry>('queue', bead, entry);
      return entry;
    },
    { waitSeconds: o.lockWaitSeconds },
  );
}
