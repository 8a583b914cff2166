// bin/collect overhead on a run whose commands are all `true`, beside `node -e 0` (bare Node start-up).
// Median of N runs each (N from BENCH_N, default 15), interleaved; the baseline is computed once before timing.
// bin/collect runs the bundle dist/bundle/collect.mjs; also timed: the plain modules (node dist/scripts/collect.js,
// what the shim runs when the bundle is absent).
// Target: bin/collect ≤ 4× node's bare start-up. Run: npm run build && node --import tsx bench/collect.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const BIN = join(ROOT, 'bin', 'collect');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function timeIt(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.toString()}`);
  return ms;
}

export function benchCollect(n = Number(process.env.BENCH_N ?? 15)): { collectMs: number; nodeMs: number; ratio: number; modulesMs: number; bundle: boolean } {
  const bin = process.env.BENCH_BIN ?? BIN; // another build's bin/collect, for A/B comparisons
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-'));
  try {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'main', 'repo');
    const repo = join(dir, 'repo');
    const g = (...a: string[]) => execFileSync('git', a, { cwd: repo, stdio: 'ignore' });
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    g('-c', 'user.email=b@e', '-c', 'user.name=b', 'add', '-A');
    g('-c', 'user.email=b@e', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'base');
    g('worktree', 'add', '-q', '-b', 'agent', join(dir, 'wt'));
    writeFileSync(join(dir, 'wt', 'b.txt'), 'b\n');
    const record = join(dir, 'run.json');
    writeFileSync(record, JSON.stringify({
      schema_version: '1.0.0', bead: 'bench-1', task: { id: 't', prompt: 'p' }, agent: { slug: 'a' }, template: 'tpl', worktree: 'wt', base_ref: 'main',
      started_at: '2026-01-01T00:00:00Z', completed_at: '2026-01-01T00:01:00Z', exit_code: 0, status: 'completed',
      commands: { build: 'true', test: 'true', lint: 'true', typecheck: 'true' },
    }));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, JUDGELOOP_STATE_DIR: join(dir, 'state') };
    timeIt(bin, ['--quiet', record], { cwd: dir, env }); // computes and caches the baseline
    const bundle = execFileSync(bin, ['--version'], { cwd: dir, env, encoding: 'utf8' }).includes('(bundle ');
    const modulesEntry = join(bin, '..', '..', 'dist', 'scripts', 'collect.js');
    const collect: number[] = [];
    const node: number[] = [];
    const modules: number[] = [];
    for (let i = 0; i < n; i++) {
      node.push(timeIt(process.execPath, ['-e', '0'], { cwd: dir, env }));
      collect.push(timeIt(bin, ['--quiet', record], { cwd: dir, env }));
      modules.push(timeIt(process.execPath, [modulesEntry, '--quiet', record], { cwd: dir, env }));
    }
    const collectMs = median(collect);
    const nodeMs = median(node);
    return { collectMs, nodeMs, ratio: collectMs / nodeMs, modulesMs: median(modules), bundle };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = benchCollect();
  console.log(`bin/collect (commands: true, baseline cached): median ${r.collectMs.toFixed(1)} ms${r.bundle ? ' (bundle dist/bundle/collect.mjs)' : ' (no bundle built: plain modules)'}`);
  console.log(`node -e 0:                                  median ${r.nodeMs.toFixed(1)} ms`);
  console.log(`bin/collect start-up ratio to node -e 0: ${r.ratio.toFixed(2)}x wall (target <= 4x)${r.ratio <= 4 ? '' : ' ABOVE TARGET'}`);
  console.log(`plain modules (node dist/scripts/collect.js): median ${r.modulesMs.toFixed(1)} ms, ${(r.modulesMs / r.nodeMs).toFixed(2)}x`);
  console.log(`load average: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs (wall times are noisy under load)`);
}
