// A key the judge API refused (401/403) is reported once an hour: background runs within the hour after a refusal
// are queued without a request (a hook per commit must not hammer the API with a bad key); --drain always tries.
import type { JudgeLedgerRow } from '../schema/types.generated.js';

const REFUSAL_QUIET_MS = 3600_000;

/** The last model call, when it was a refusal of the credentials within the hour before `now`; else null (pure). */
export function recentRefusal(rows: readonly JudgeLedgerRow[], now: Date): JudgeLedgerRow | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.type !== 'call') continue;
    const age = now.getTime() - Date.parse(r.at);
    return r.outcome === 'auth_error' && age >= 0 && age < REFUSAL_QUIET_MS ? r : null;
  }
  return null;
}

/** When a background run may ask the API again after this refusal (pure). */
export const retryAfter = (refusal: JudgeLedgerRow): string =>
  new Date(Date.parse(refusal.at) + REFUSAL_QUIET_MS).toISOString();
