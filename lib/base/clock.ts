// The one clock of every command: real time, or JUDGELOOP_NOW (an ISO time) so tests and replays can pin it.
import { UserError } from './errors.js';
import type { EnvSettings } from './env.js';

export function clockFromEnv(env: EnvSettings): () => Date {
  const fixed = env.JUDGELOOP_NOW;
  if (fixed === undefined) return () => new Date();
  const t = Date.parse(fixed);
  if (Number.isNaN(t)) throw new UserError(`JUDGELOOP_NOW=${JSON.stringify(fixed)}: expected an ISO 8601 time`);
  return () => new Date(t);
}

/** The clock's current time as ISO 8601 UTC. */
export function nowIso(env: EnvSettings): string {
  return clockFromEnv(env)().toISOString();
}
