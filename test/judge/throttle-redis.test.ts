// The fleet's throttle on a real redis-server: processes of two state folders (no shared disk) make exactly the
// limit's calls together and queue the rest; at most max_concurrent calls at once; Redis down queues, said once.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StateStore } from '../../lib/store/store.js';
import type { JudgeLedgerRow } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';
import { makeRun, removeRuns, type RunFixture } from './helpers/fixtures.js';
import { goodReply, resetServer, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

const REDIS = '/usr/bin/redis-server';
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'judge');

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function accepting(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const c = connect(port, '127.0.0.1', () => (c.end(), r(true)));
      c.on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server did not accept connections on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let redis: ChildProcess;
let url: string;
let server: MessagesServer;
afterAll(removeRuns);
beforeAll(async () => {
  if (!existsSync(REDIS)) throw new Error(`${REDIS} not found: apt-get install -y redis-server`);
  const port = await freePort();
  redis = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  url = `redis://127.0.0.1:${port}`;
  await accepting(port, 15_000);
  server = await startMessagesServer();
});
afterAll(async () => {
  redis?.kill('SIGKILL');
  await server?.close();
});

/** bin/judge on these runs as its own process; resolves to its exit code and stderr. */
function judge(runs: RunFixture[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    BIN,
    runs.map((r) => r.recordPath),
    {
      env: {
        PATH: process.env.PATH!,
        TMPDIR: tmpdir(),
        JUDGE_ENABLED: 'true',
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: server.url,
        JUDGELOOP_STATE_DIR: runs[0]!.stateDir,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  return new Promise((r) => child.on('close', (code) => r({ code, stderr })));
}

/** `n` runs in one state folder, each with its own change (identical work would be a cache hit, not a call). */
function runsIn(stateDir: string, prefix: string, n: number): RunFixture[] {
  return Array.from({ length: n }, (_, i) =>
    makeRun({
      bead: `${prefix}-${i}`,
      stateDir,
      files: { [`src/${prefix}${i}.ts`]: `export const v${i} = '${prefix}-${i}';\n` },
    }),
  );
}

const ledger = (dir: string) => new StateStore(dir).readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows;

describe('JUDGE_THROTTLE_REDIS: the hourly and concurrency limits held in Redis', () => {
  it('two state folders, two processes each, 6 runs, limit 3: exactly 3 calls, the other 3 queued', async () => {
    resetServer(server);
    const [dirA, dirB] = [tempDir('judgeloop-fleet-a-'), tempDir('judgeloop-fleet-b-')];
    const groups = [runsIn(dirA, 'a', 3), runsIn(dirB, 'b', 3)];
    const env = { JUDGE_THROTTLE_REDIS: url, JUDGE_MAX_PER_HOUR: '3' };
    // Per folder one process judging two runs (a slot for one, maybe not the next), one judging one.
    const procs = groups.flatMap((runs) => [judge(runs.slice(0, 2), env), judge(runs.slice(2), env)]);
    const results = await Promise.all(procs);
    expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
    expect(server.requests).toHaveLength(3);
    const slots = [dirA, dirB].flatMap((d) => ledger(d).filter((r) => r.type === 'slot'));
    expect(slots).toHaveLength(3);
    expect(slots.every((r) => r.throttle === 'redis')).toBe(true);
    const calls = [dirA, dirB].flatMap((d) => ledger(d).filter((r) => r.type === 'call' && r.outcome === 'ok'));
    expect(calls).toHaveLength(3);
    const judged = [dirA, dirB].flatMap((d) => new StateStore(d).list('judgments'));
    const queued = [dirA, dirB].flatMap((d) => new StateStore(d).list('queue'));
    expect(judged).toHaveLength(3);
    expect(queued).toHaveLength(3);
    expect(new Set([...judged, ...queued]).size).toBe(6);
  }, 120_000);

  it('max_concurrent 1 across two state folders: never two calls in flight at once', async () => {
    resetServer(server);
    // One run per process, each call held 3 s: two processes started together overlap unless the throttle holds one.
    server.fallback = { kind: 'reply', text: goodReply(), delayMs: 3000 };
    const cfgDir = tempDir('judgeloop-fleet-cfg-');
    const cfg = join(cfgDir, 'judgeloop.json');
    writeFileSync(cfg, JSON.stringify({ judge: { max_concurrent: 1 } }));
    const [dirA, dirB] = [tempDir('judgeloop-fleet-a-'), tempDir('judgeloop-fleet-b-')];
    // Another hour limit: a fresh reservoir, whatever the first test used.
    const env = { JUDGE_THROTTLE_REDIS: url, JUDGE_MAX_PER_HOUR: '50', JUDGELOOP_CONFIG: cfg };
    const results = await Promise.all([judge(runsIn(dirA, 'c', 1), env), judge(runsIn(dirB, 'd', 1), env)]);
    expect(results.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(server.maxInFlight).toBe(1);
  }, 120_000);

  it('Redis cannot be reached: every run queued, nothing judged unthrottled, the failure said once', async () => {
    resetServer(server);
    const dir = tempDir('judgeloop-fleet-down-');
    const runs = runsIn(dir, 'f', 3);
    const r = await judge(runs, { JUDGE_THROTTLE_REDIS: `redis://127.0.0.1:${await freePort()}` });
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(new StateStore(dir).list('queue').sort()).toEqual(['f-0', 'f-1', 'f-2']);
    expect(new StateStore(dir).list('judgments')).toEqual([]);
    expect(r.stderr.match(/JUDGE_THROTTLE_REDIS\) cannot be reached/g)).toHaveLength(1);
    expect(r.stderr.match(/cannot be reached \(said above\)/g)).toHaveLength(2);
  }, 120_000);

  it('without JUDGE_THROTTLE_REDIS nothing loads ioredis or bottleneck; with it, both are loaded', async () => {
    const dir = tempDir('judgeloop-fleet-lazy-');
    const [run] = runsIn(dir, 'g', 1);
    // One node: first judged without the variable (neither loaded), then the same run with it (both loaded then).
    const script = `
      import { createRequire } from 'node:module';
      const { run } = await import(${JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'judge.mjs'))});
      const loaded = [];
      for (const env of JSON.parse(process.env.IO_ENVS)) {
        const io = { env, processEnv: process.env, cwd: process.cwd(), stdout: () => {}, stderr: () => {}, color: false };
        const code = await run([${JSON.stringify(run!.recordPath)}], io);
        const cache = Object.keys(createRequire(import.meta.url).cache);
        loaded.push({ code, ioredis: cache.some((k) => k.includes('/node_modules/ioredis/')),
          bottleneck: cache.some((k) => k.includes('/node_modules/bottleneck/')) });
      }
      console.log(JSON.stringify(loaded));
    `;
    // Not spawnSync: the loopback server answering the judge lives in this process. The built bundle (what bin/judge
    // runs; its ioredis and bottleneck stay imports of node_modules), not the sources under tsx: no compile per process.
    const ioEnv = {
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: dir,
    };
    const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, IO_ENVS: JSON.stringify([ioEnv, { ...ioEnv, JUDGE_THROTTLE_REDIS: url }]) },
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d));
    await new Promise((r) => p.on('close', r));
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([
      { code: 0, ioredis: false, bottleneck: false },
      { code: 0, ioredis: true, bottleneck: true },
    ]);
  }, 120_000);
});
