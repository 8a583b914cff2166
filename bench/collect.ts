// bin/collect overhead on a run whose commands are all `true`, beside `node -e 0` (bare Node start-up).
// Median of N runs each (N from BENCH_N, default 15), interleaved; the baseline is computed once before timing.
// bin/collect runs the bundle dist/bundle/collect.mjs; also timed: the plain modules (node dist/scripts/collect.js,
// what the shim runs when the bundle is absent).
// Target: bin/collect ≤ 4× node's bare start-up. Run: npm run build && node --import tsx bench/collect.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median as statsMedian } from '../lib/stats/stats.js';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const BIN = join(ROOT, 'bin', 'collect');

const median = (xs: number[]): number => statsMedian(xs) ?? Number.NaN;

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** CPU time (user + system, ms) of this process's waited-for children and theirs: /proc/self/stat cutime + cstime. */
function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** Wall time, ms, of one run; its process tree's CPU time is added to `cpu` (ms; clock-tick resolution, so summed, not a median). */
function timeIt(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  cpu?: { ms: number },
): number {
  const c = childCpuMs();
  const t = performance.now();
  const r = spawnSync(cmd, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (cpu) cpu.ms += childCpuMs() - c;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.toString()}`);
  return ms;
}

export interface CollectBench {
  /** Medians, ms: bin/collect (the bundle through the shim), the plain modules, bare `node -e 0`. */
  collectMs: number;
  modulesMs: number;
  nodeMs: number;
  /** collectMs / nodeMs: the target is <= 4. */
  ratio: number;
  /** Medians, ms, of `--version` alone (start-up without a collection): through the shim, and the plain modules. */
  versionMs: number;
  versionModulesMs: number;
  /** Median, ms, of bin/collect on the same run with `collector.sandbox: off` (the checks without bubblewrap). */
  noSandboxMs: number;
  /** Mean CPU time (user + system) of the whole process tree per run, ms: bin/collect, the plain modules, `node -e 0`. */
  cpu: { collectMs: number; modulesMs: number; nodeMs: number };
  /** bin/collect ran the bundle (false: no bundle was built, the shim ran the plain modules). */
  bundle: boolean;
}

export function benchCollect(n = Number(process.env.BENCH_N ?? 15)): CollectBench {
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
    writeFileSync(
      record,
      JSON.stringify({
        schema_version: '1.0.0',
        bead: 'bench-1',
        task: { id: 't', prompt: 'p' },
        agent: { slug: 'a' },
        template: 'tpl',
        worktree: 'wt',
        base_ref: 'main',
        started_at: '2026-01-01T00:00:00Z',
        completed_at: '2026-01-01T00:01:00Z',
        exit_code: 0,
        status: 'completed',
        commands: { build: 'true', test: 'true', lint: 'true', typecheck: 'true' },
      }),
    );
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, JUDGELOOP_STATE_DIR: join(dir, 'state') };
    const unsandboxed = join(dir, 'no-sandbox.json');
    writeFileSync(unsandboxed, JSON.stringify({ collector: { sandbox: 'off' } }));
    const opts = { cwd: dir, env };
    timeIt(bin, ['--quiet', record], opts); // computes and caches the baseline
    const bundle = execFileSync(bin, ['--version'], { ...opts, encoding: 'utf8' }).includes('(bundle ');
    const modulesEntry = join(bin, '..', '..', 'dist', 'scripts', 'collect.js');
    const t = {
      collect: [] as number[],
      modules: [] as number[],
      node: [] as number[],
      version: [] as number[],
      versionModules: [] as number[],
      noSandbox: [] as number[],
    };
    const cpu = { collect: { ms: 0 }, modules: { ms: 0 }, node: { ms: 0 } };
    // Interleaved, so a change of load on the machine hits all alike.
    for (let i = 0; i < n; i++) {
      t.node.push(timeIt(process.execPath, ['-e', '0'], opts, cpu.node));
      t.collect.push(timeIt(bin, ['--quiet', record], opts, cpu.collect));
      t.modules.push(timeIt(process.execPath, [modulesEntry, '--quiet', record], opts, cpu.modules));
      t.version.push(timeIt(bin, ['--version'], opts));
      t.versionModules.push(timeIt(process.execPath, [modulesEntry, '--version'], opts));
      t.noSandbox.push(timeIt(bin, ['--quiet', '--config', unsandboxed, record], opts));
    }
    const nodeMs = median(t.node);
    const collectMs = median(t.collect);
    return {
      collectMs,
      modulesMs: median(t.modules),
      nodeMs,
      ratio: collectMs / nodeMs,
      versionMs: median(t.version),
      versionModulesMs: median(t.versionModules),
      noSandboxMs: median(t.noSandbox),
      cpu: { collectMs: cpu.collect.ms / n, modulesMs: cpu.modules.ms / n, nodeMs: cpu.node.ms / n },
      bundle,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = benchCollect();
  const x = (ms: number) => `${ms.toFixed(1)} ms, ${(ms / r.nodeMs).toFixed(2)}x`;
  console.log(`node -e 0 (bare Node start-up):                   median ${r.nodeMs.toFixed(1)} ms`);
  console.log(`bin/collect, a run whose commands are \`true\` (baseline cached; checks sandboxed as configured):`);
  console.log(
    `  ${r.bundle ? 'bundle (dist/bundle/collect.mjs via bin/collect)' : 'bin/collect (NO BUNDLE BUILT: plain modules)  '}    median ${x(r.collectMs)}`,
  );
  console.log(`  plain modules (node dist/scripts/collect.js):    median ${x(r.modulesMs)}`);
  console.log(`  bundle, collector.sandbox off:                   median ${x(r.noSandboxMs)}`);
  console.log(`bin/collect --version (start-up, no collection):`);
  console.log(`  bundle via bin/collect:                          median ${x(r.versionMs)}`);
  console.log(`  plain modules:                                   median ${x(r.versionModulesMs)}`);
  const c = r.cpu;
  console.log(
    `CPU time of the process tree (user + system, mean): bin/collect ${c.collectMs.toFixed(0)} ms (${(c.collectMs / c.nodeMs).toFixed(2)}x), plain modules ${c.modulesMs.toFixed(0)} ms (${(c.modulesMs / c.nodeMs).toFixed(2)}x), node -e 0 ${c.nodeMs.toFixed(0)} ms`,
  );
  console.log(
    `bin/collect ratio to node -e 0: ${r.ratio.toFixed(2)}x wall for the run (target <= 3x, issue 35)${r.ratio <= 3 ? '' : ' ABOVE TARGET'}; start-up alone (--version) ${(r.versionMs / r.nodeMs).toFixed(2)}x`,
  );
  console.log(
    `load average: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs (wall times are noisy under load)`,
  );
}
