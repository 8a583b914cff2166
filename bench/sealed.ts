// The cost of the sealed candidate (issue 21): bin/collect on a 10,000-file repository, checks in a fresh checkout
// of the graded commit, against the same collect from a build of the commit before sealing (checks in the worktree),
// with no setup command and with one ("installing" 200 files, as a warm `npm ci` would from its cache).
// The older build is taken from BENCH_OLD_ROOT (a built checkout of df4ab50); without it only today's figures print.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../lib/stats/stats.js';

const ROOT = join(import.meta.dirname, '..');
const OLD = process.env.BENCH_OLD_ROOT ?? null;
const N = Number(process.env.BENCH_N ?? 5);
const sh = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });

function project(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-sealed-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  sh(repo, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < files; i++) {
    const sub = join(repo, `d${i % 50}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), `line ${i}\n`.repeat(40));
  }
  writeFileSync(join(repo, 'test_x.py'), 'def test_a():\n    assert True\n');
  sh(repo, ['add', '-A']);
  sh(repo, ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'base']);
  sh(repo, ['worktree', 'add', '-q', '-b', 'agent', join(dir, 'wt')]);
  writeFileSync(join(dir, 'wt', 'd0', 'f0.txt'), 'changed\n');
  return dir;
}

function record(dir: string, bead: string): string {
  const file = join(dir, `${bead}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      schema_version: '1.0.0',
      bead,
      task: { id: 't', prompt: 'p' },
      agent: { slug: 'a' },
      template: 't',
      worktree: join(dir, 'wt'),
      base_ref: 'main',
      started_at: '2026-01-01T00:00:00Z',
      completed_at: '2026-01-01T00:01:00Z',
      exit_code: 0,
      status: 'completed',
      commands: { build: 'true', test: 'python3 -m pytest -q -p no:cacheprovider', lint: null, typecheck: null },
    }),
  );
  return file;
}

function collectMs(root: string, dir: string, setup: string | null, i: number): number {
  const cfg = join(dir, `cfg-${i}.json`);
  writeFileSync(cfg, JSON.stringify({ collector: { setup_command: setup } }));
  const state = join(dir, `state-${i}`);
  const file = record(dir, `b${i}`);
  // The baseline is computed once beforehand: both builds read it from the cache (what repeated runs see).
  const env = { ...process.env, JUDGELOOP_STATE_DIR: state };
  spawnSync(join(root, 'bin', 'collect'), ['--quiet', '--config', cfg, file], { env });
  const t0 = performance.now();
  const r = spawnSync(join(root, 'bin', 'collect'), ['--quiet', '--config', cfg, file], { env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`collect failed: ${r.stderr}`);
  return ms;
}

const SETUPS: [string, string | null][] = [
  ['no setup', null],
  ['setup: 200 files', 'mkdir -p deps && for i in $(seq 200); do echo x > deps/f$i; done'],
];
const dir = project(10_000);
console.log('bin/collect, 10,000-file repository (median ms of %d; baseline cached)', N);
console.log('| setup | sealed checkout (today) | in the worktree (before) | ratio |');
console.log('|---|---|---|---|');
let i = 0;
for (const [label, setup] of SETUPS) {
  const today: number[] = [];
  const before: number[] = [];
  for (let k = 0; k < N; k++) {
    today.push(collectMs(ROOT, dir, setup, i++));
    if (OLD && existsSync(join(OLD, 'bin', 'collect'))) before.push(collectMs(OLD, dir, setup, i++));
  }
  const t = median(today) ?? Number.NaN;
  const b = before.length ? (median(before) ?? Number.NaN) : Number.NaN;
  console.log(
    `| ${label} | ${t.toFixed(0)} | ${before.length ? b.toFixed(0) : '— (set BENCH_OLD_ROOT)'} | ${before.length ? `${(t / b).toFixed(2)}×` : '—'} |`,
  );
}
rmSync(dir, { recursive: true, force: true });
