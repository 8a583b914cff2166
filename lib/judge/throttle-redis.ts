// The fleet's throttle: Bottleneck's Redis clustering (ioredis) holds the hourly and concurrency limits; loaded only
// when JUDGE_THROTTLE_REDIS is set. The ledger still gets a slot row per call (throttle: redis).
import type BottleneckType from 'bottleneck';
import { appendSlots, type Throttle, type ThrottleOptions, ThrottleUnavailable } from './throttle.js';

export interface RedisThrottleOptions extends ThrottleOptions {
  url: string;
  maxConcurrent: number;
  /** How long one call may hold its place before Redis frees it (a process that died mid-call). */
  callExpirationMs: number;
  /** How long to wait for Redis to answer before the run is queued. */
  connectTimeoutMs: number;
}

const HOUR_MS = 3600_000;

/** A Redis URL without its password, for messages. */
const redactedRedisUrl = (url: string): string => url.replace(/\/\/([^@/]*)@/, '//***@');

/**
 * Three clustered limiters on one connection: `gate` (one at a time across the fleet: the reservation's critical
 * section), `hour` (a reservoir of `limit` refilled every hour; only read and decremented inside the gate) and
 * `calls` (maxConcurrent). Redis' clock drives the hour: fixed windows, not the file backend's sliding one.
 */
export async function createRedisThrottle(o: RedisThrottleOptions): Promise<Throttle> {
  const { default: Bottleneck } = await import('bottleneck');
  const { Redis } = await import('ioredis');
  const where = redactedRedisUrl(o.url);
  let failure: string | null = null;
  const client = new Redis(o.url, {
    connectTimeout: o.connectTimeoutMs,
    maxRetriesPerRequest: 1,
    // Give up after a few attempts: a throttle that waits forever would hold the hook that called it.
    retryStrategy: (times: number) => (times > 3 ? null : 100 * times),
    enableOfflineQueue: true,
  });
  client.on('error', (e: Error) => {
    failure ??= e.message;
  });
  // ioredis gives up after its last retry ('end'), perhaps before the first reservation asks.
  let ended = false;
  const onEnd: (() => void)[] = [];
  client.once('end', () => {
    ended = true;
    for (const f of onEnd) f();
  });
  const connection = new Bottleneck.IORedisConnection({ Redis, client });
  connection.on('error', (e: Error) => {
    failure ??= e.message;
  });
  const common = { datastore: 'ioredis' as const, connection, clearDatastore: false, Redis };
  const gate = new Bottleneck({ ...common, id: 'judgeloop-judge-gate', maxConcurrent: 1 });
  // The limit is part of the id: another limit starts its own hour instead of inheriting a reservoir sized for the old one.
  const hour = new Bottleneck({
    ...common,
    id: `judgeloop-judge-hour-${o.limit}`,
    reservoir: o.limit,
    reservoirRefreshAmount: o.limit,
    reservoirRefreshInterval: HOUR_MS,
  });
  // The same for the concurrency limit: a limiter stored under the id keeps the settings it was made with.
  const calls = new Bottleneck({
    ...common,
    id: `judgeloop-judge-calls-${o.maxConcurrent}`,
    maxConcurrent: o.maxConcurrent,
  });
  const limiters: BottleneckType[] = [gate, hour, calls];

  let ready: Promise<void> | null = null;
  const connected = (): Promise<void> => {
    ready ??= new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(failure ?? `no answer within ${o.connectTimeoutMs} ms`)),
        o.connectTimeoutMs,
      );
      const gaveUp = () => {
        clearTimeout(timer);
        reject(new Error(failure ?? 'the connection ended'));
      };
      if (ended) gaveUp();
      else onEnd.push(gaveUp);
      Promise.all(limiters.map((l) => l.ready())).then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
    return ready;
  };
  let said = false;
  // Said once per process: every later run of the same command is queued with a short line.
  const unavailable = (e: unknown): ThrottleUnavailable => {
    const why = said
      ? 'the judge throttle cannot be reached (said above)'
      : `the judge throttle's Redis (${where}, JUDGE_THROTTLE_REDIS) cannot be reached: ${failure ?? (e instanceof Error ? e.message : String(e))}`;
    said = true;
    return new ThrottleUnavailable(why);
  };
  const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      await connected();
      return await fn();
    } catch (e) {
      if (e instanceof ThrottleUnavailable) throw e;
      throw unavailable(e);
    }
  };

  return {
    kind: 'redis',
    reserve: (bead, n) =>
      guarded(() =>
        gate.schedule({ expiration: 30_000 }, async () => {
          const left = (await hour.currentReservoir()) ?? 0;
          if (left < n) return { ok: false, used: o.limit - left };
          const after = await hour.incrementReservoir(-n);
          // The hour turned between the read and the decrement (the refill overwrote it): take the slots from the new hour.
          if (after !== left - n) await hour.incrementReservoir(-n);
          appendSlots(o, bead, n, 'redis');
          return { ok: true, used: o.limit - left + n };
        }),
      ),
    running: async (fn) => {
      await guarded(async () => undefined);
      let started = false;
      try {
        return await calls.schedule({ expiration: o.callExpirationMs }, () => {
          started = true;
          return fn();
        });
      } catch (e) {
        if (started) throw e;
        throw unavailable(e);
      }
    },
    close: async () => {
      await connection.disconnect(false);
    },
  };
}
