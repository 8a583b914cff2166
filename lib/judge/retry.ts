// When to retry an API call and how long to wait first (pure).

/** 408, 409, 429 and every 5xx (529 overloaded included) say "try again"; other 4xx do not. */
export const isTransientStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Error codes and messages of a connection that broke: before, during or after the request was sent. */
const BROKEN =
  /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR|socket hang up|terminated|other side closed|premature close|fetch failed|network/i;

/** Whether a thrown error (the SDK's, or undici's from reading a body cut short) is a broken connection. */
export function isBrokenConnection(e: unknown): boolean {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    const err = cur as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
    if (typeof err.code === 'string' && BROKEN.test(err.code)) return true;
    if (typeof err.message === 'string' && BROKEN.test(err.message)) return true;
    if (err.name === 'AbortError') return true;
    cur = err.cause;
  }
  return false;
}

/**
 * Milliseconds before retry number `attempt` (0 = the first retry): the server's retry-after-ms / retry-after
 * when it sends one, else base·2^attempt with ±25% jitter; capped at `maxMs` either way.
 */
export function retryDelayMs(
  attempt: number,
  header: (name: string) => string | null | undefined,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ms = Number(header('retry-after-ms'));
  if (header('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.min(ms, maxMs);
  const after = header('retry-after');
  if (after) {
    const secs = Number(after);
    if (Number.isFinite(secs) && secs >= 0) return Math.min(secs * 1000, maxMs);
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.min(Math.max(0, at - Date.now()), maxMs);
  }
  const jitter = 0.75 + random() * 0.5;
  return Math.min(baseMs * 2 ** attempt * jitter, maxMs);
}
