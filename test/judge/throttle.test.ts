// N real bin/judge processes at once against the loopback server: the hourly limit (JUDGE_MAX_PER_HOUR) holds, the
// rest is queued, and --drain (the hour moved on through JUDGELOOP_NOW) judges every queued run exactly once.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore } from '../../lib/store/store.js';
import type { JudgeLedgerRow, Judgment } from '../../lib/schema/types.generated.js';
import { slotsInWindow } from '../../lib/judge/throttle.js';
import { feedbackFor } from './helpers/feedback.js';
import { makeRun, recordFor, removeRuns, scratchDir } from './helpers/fixtures.js';
import { startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

const judgeBin = join(import.meta.dirname, '..', '..', 'bin', 'judge');
let server: MessagesServer;
beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', '..', 'dist', 'scripts', 'judge.js')))
    throw new Error('run `npm run build` first');
  server = await startMessagesServer();
});
afterAll(() => server.close());

function judgeProc(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(judgeBin, args, {
      env: { PATH: process.env.PATH!, TMPDIR: tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

// More runs than two hours' slots, fewer than three: the first drain fills an hour, the second takes the rest.
// Ten processes race for four slots (each bin/judge costs about a second of CPU: twenty doubled the file's time).
const N = 10;
const LIMIT = 4;

describe('throttle across processes', () => {
  it(`${N} at once: exactly ${LIMIT} calls, ${N - LIMIT} queued; drains judge the rest exactly once`, async () => {
    const fx = makeRun({ bead: 'bd-0' });
    const store = new StateStore(fx.stateDir);
    const dir = scratchDir('judgeloop-runs-');
    const beads = Array.from({ length: N }, (_, i) => `bd-${String(i).padStart(2, '0')}`);
    const paths = beads.map((b) => {
      const p = recordFor(fx, b, dir, { task: { id: `task-${b}`, prompt: `Task ${b}: add a sub(a, b) function.` } });
      store.write('feedback', b, feedbackFor({ ...fx.record, bead: b }));
      return p;
    });
    const env = (now: string) => ({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_NOW: now,
      JUDGE_MAX_PER_HOUR: String(LIMIT),
    });

    const results = await Promise.all(paths.map((p) => judgeProc(['--json', p], env('2025-06-01T12:00:00Z'))));
    expect(results.map((r) => r.code)).toEqual(beads.map(() => 0));
    const statuses = results.map((r) => (JSON.parse(r.out) as { status: string }).status);
    expect(statuses.filter((s) => s === 'judged')).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 'deferred')).toHaveLength(N - LIMIT);
    expect(server.requests).toHaveLength(LIMIT);
    expect(store.list('queue')).toHaveLength(N - LIMIT);
    expect(store.list('judgments')).toHaveLength(LIMIT);

    // Same hour: nothing more may be called.
    const early = await judgeProc(['--drain'], env('2025-06-01T12:59:00Z'));
    expect(early.code).toBe(0);
    expect(server.requests).toHaveLength(LIMIT);

    const d1 = await judgeProc(['--drain', '--json'], env('2025-06-01T13:00:01Z'));
    expect(d1.code).toBe(0);
    expect(server.requests).toHaveLength(2 * LIMIT);
    expect(store.list('queue')).toHaveLength(N - 2 * LIMIT);
    const d2 = await judgeProc(['--drain'], env('2025-06-01T14:00:02Z'));
    expect(d2.code).toBe(0);
    expect(store.list('queue')).toHaveLength(0);

    // Every run judged once: N requests, N distinct prompts, N judgments.
    expect(server.requests).toHaveLength(N);
    const prompts = server.requests.map((r) => /Task (bd-\d\d)/.exec(JSON.stringify(r.body))![1]);
    expect(new Set(prompts).size).toBe(N);
    const judgments = store.readAll<Judgment>('judgments');
    expect(judgments.filter((j) => 'value' in j && j.value.status === 'judged')).toHaveLength(N);
    const rows = store.readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows;
    expect(slotsInWindow(rows, new Date('2025-06-01T12:30:00Z'))).toBe(LIMIT);
    expect(rows.filter((r) => r.type === 'call')).toHaveLength(N);

    // Spend per day and model from the ledger.
    const spend = await judgeProc(['--spend', '--json'], env('2025-06-01T15:00:00Z'));
    const s = JSON.parse(spend.out) as { day: string; model: string; calls: number; cost_usd: number }[];
    expect(s).toEqual([
      {
        day: '2025-06-01',
        model: 'claude-opus-5-5',
        calls: N,
        input_tokens: N * 1200,
        output_tokens: N * 300,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cost_usd: (N * (1200 * 4 + 300 * 20)) / 1e6,
        unpriced_calls: 0,
      },
    ]);
  }, 240_000); // real node processes on a shared 2-core machine
});
