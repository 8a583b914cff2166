// The judge's clock: real time, or JUDGELOOP_NOW (an ISO time) so tests can move the hour.
import { UserError } from '../errors.js';
import type { EnvSettings } from '../env.js';

export function clockFromEnv(env: EnvSettings): () => Date {
  const fixed = env.JUDGELOOP_NOW;
  if (fixed === undefined) return () => new Date();
  const t = Date.parse(fixed);
  if (Number.isNaN(t)) throw new UserError(`JUDGELOOP_NOW=${JSON.stringify(fixed)}: expected an ISO 8601 time`);
  return () => new Date(t);
}
