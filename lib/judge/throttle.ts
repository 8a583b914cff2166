// The hourly limit across processes: slot rows in the ledger, read and appended under one StateStore lock.
import { rmSync } from 'node:fs';
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
  return o.store.withLock(
    THROTTLE_LOCK,
    () => {
      const now = o.now();
      const used = slotsInWindow(o.store.readLines<JudgeLedgerRow>('judge-ledger', LEDGER_ID).rows, now);
      if (used + n <= o.limit) {
        for (let i = 0; i < n; i++)
          o.store.appendLine<JudgeLedgerRow>('judge-ledger', LEDGER_ID, {
            type: 'slot',
            at: now.toISOString(),
            bead,
            pid: process.pid,
          });
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

/** Queues a run for the next drain (kept as it is when already queued). */
export async function enqueue(o: ThrottleOptions, bead: string, recordPath: string, reason: string): Promise<void> {
  await o.store.withLock(
    THROTTLE_LOCK,
    () => {
      if (readQueue(o.store, bead)) return;
      o.store.write<JudgeQueueEntry>('queue', bead, {
        schema_version: '1.0.0',
        bead,
        record_path: recordPath,
        queued_at: o.now().toISOString(),
        reason,
        claimed_at: null,
        claimed_by: null,
      });
    },
    { waitSeconds: o.lockWaitSeconds },
  );
}
