// Pure parts of fault handling and file-name handling: retry delays, what is transient, git's path quoting.
import { describe, expect, it } from 'vitest';
import { isTransient } from '../../lib/judge/backend.js';
import { classifyFile } from '../../lib/judge/diff.js';
import { parseUnifiedDiff, unquoteGitPath } from '../../lib/git/diff-parse.js';
import { isBrokenConnection, isTransientStatus, retryDelayMs } from '../../lib/judge/retry.js';
import { isSecretFile } from '../../lib/secrets/index.js';

const headers = (h: Record<string, string>) => (name: string) => h[name];

describe('retryDelayMs', () => {
  it('doubles from the base with ±25% jitter, capped', () => {
    expect(retryDelayMs(0, headers({}), 1000, 30_000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, headers({}), 1000, 30_000, () => 0.5)).toBe(4000);
    expect(retryDelayMs(2, headers({}), 1000, 30_000, () => 0)).toBe(3000);
    expect(retryDelayMs(2, headers({}), 1000, 30_000, () => 1)).toBe(5000);
    expect(retryDelayMs(10, headers({}), 1000, 30_000, () => 0.5)).toBe(30_000);
  });
  it('a retry-after-ms or retry-after header wins, capped too', () => {
    expect(retryDelayMs(0, headers({ 'retry-after-ms': '250' }), 1000, 30_000)).toBe(250);
    expect(retryDelayMs(0, headers({ 'retry-after': '2' }), 1000, 30_000)).toBe(2000);
    expect(retryDelayMs(0, headers({ 'retry-after': '600' }), 1000, 30_000)).toBe(30_000);
  });
});

describe('what is transient', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [529, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [413, false],
  ])('HTTP %i → %s', (status, want) => {
    expect(isTransientStatus(status)).toBe(want);
  });
  it('broken connections, however they surface', () => {
    expect(isBrokenConnection(Object.assign(new Error('terminated'), { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(
      true,
    );
    expect(
      isBrokenConnection(
        Object.assign(new Error('request failed'), {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        }),
      ),
    ).toBe(true);
    expect(isBrokenConnection(new SyntaxError('Unexpected token < in JSON'))).toBe(false);
  });
  it('failures: outages are transient, the reply and the credentials are not', () => {
    expect(isTransient({ reason: 'overloaded', message: '', http_status: 529 })).toBe(true);
    expect(isTransient({ reason: 'api_error', message: '', http_status: 502 })).toBe(true);
    expect(isTransient({ reason: 'api_error', message: '', http_status: 400 })).toBe(false);
    expect(isTransient({ reason: 'invalid_reply', message: '' })).toBe(false);
    expect(isTransient({ reason: 'auth_error', message: '', http_status: 401 })).toBe(false);
  });
});

describe('git paths', () => {
  it.each([
    ['b/my dir/.env\t', 'b/my dir/.env'],
    ['"b/t\\303\\251st/.env.local"', 'b/tést/.env.local'],
    ['"b/q\\"uote\\ttab.txt"', 'b/q"uote\ttab.txt'],
    ['b/plain.ts', 'b/plain.ts'],
  ])('unquoteGitPath(%j) = %j', (raw, want) => {
    expect(unquoteGitPath(raw)).toBe(want);
  });

  it('a .env under a path with spaces and one under a quoted path are secret files, named not shown', () => {
    const diff = [
      'diff --git a/my dir/.env b/my dir/.env',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/my dir/.env\t',
      '@@ -0,0 +1 @@',
      '+TOKEN=abc',
      'diff --git "a/t\\303\\251st/.env" "b/t\\303\\251st/.env"',
      'deleted file mode 100644',
      '--- "a/t\\303\\251st/.env"',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-TOKEN=abc',
      '',
    ].join('\n');
    const files = parseUnifiedDiff(diff);
    expect(files.map((f) => f.path)).toEqual(['my dir/.env', 'tést/.env']);
    expect(files.map((f) => classifyFile(f, isSecretFile))).toEqual(['secret_file', 'secret_file']);
  });
});
