// The Go build cache (issue 35): bin/collect of a go module's base and candidates, with judgeloop's kept cache against
// each collect given an empty GOCACHE of its own (as before the cache: the checks' $HOME is empty). CPU by perf stat.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { solutions } from './_solutions.js';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const SOLUTIONS = Number(process.env.BENCH_SOLUTIONS ?? 3);
const GO = 'go';
const PERF = 'perf';

const CODE = 'package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n';
const TEST =
  'package calc\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif got := fmt.Sprint(Add(2, 3)); got != "5" {\n\t\tt.Fatal(got)\n\t}\n}\n';

/** A go module with one bug and `n` worktrees fixing it, with their run records. */
function project(dir: string, n: number): string[] {
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'go.mod'), 'module example.com/calc\n\ngo 1.19\n');
  writeFileSync(join(repo, 'calc.go'), CODE);
  writeFileSync(join(repo, 'calc_test.go'), TEST);
  return solutions(dir, repo, n, (wt, i) =>
    writeFileSync(join(wt, 'calc.go'), `${CODE.replace('a - b', 'a + b')}// solution ${i}\n`),
  );
}

/** One command's wall (ms) and CPU of its whole process tree (ms, perf's task-clock: it sees inside bubblewrap). */
function measured(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
  const out = join(opts.cwd, `perf-${Date.now()}.txt`);
  const t = performance.now();
  const r = spawnSync(PERF, ['stat', '-x', ',', '-e', 'task-clock', '-o', out, '--', cmd, ...args], {
    ...opts,
    encoding: 'utf8',
  });
  const wallMs = performance.now() - t;
  if (r.error) throw new Error(`perf is needed by this benchmark: apt-get install -y linux-perf (${r.error.message})`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const line = readFileSync(out, 'utf8')
    .split('\n')
    .find((l) => l.includes('task-clock'));
  return { wallMs, cpuMs: Number(line?.split(',')[0] ?? Number.NaN), outcome: JSON.parse(r.stdout).outcome as string };
}

interface Figures {
  base: { wallMs: number; cpuMs: number };
  candidates: { wallMs: number; cpuMs: number };
  outcomes: string[];
}

/** The base's collect (it computes the baseline) and each candidate's; `cold`: an empty GOCACHE per collect. */
function run(cold: boolean): Figures {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-gocache-'));
  try {
    const records = project(dir, SOLUTIONS);
    const config = join(dir, 'judgeloop.json');
    const caches = join(dir, 'caches');
    mkdirSync(caches);
    writeFileSync(
      config,
      JSON.stringify({
        collector: {
          commands: { build: 'go vet ./...', test: 'go test ./...' },
          ...(cold ? { sandbox_writable: [caches] } : {}),
        },
      }),
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      GOFLAGS: '-mod=mod',
      GOPROXY: 'off',
      JUDGELOOP_STATE_DIR: join(dir, 'state'),
    };
    const each = records.map((rec, i) => {
      if (cold) mkdirSync(join(caches, `${i}`));
      const e = cold ? { ...env, GOCACHE: join(caches, `${i}`) } : env;
      return measured(join(ROOT, 'bin', 'collect'), ['--json', '--quiet', '--config', config, rec], {
        cwd: dir,
        env: e,
      });
    });
    const rest = each.slice(1);
    const mean = (k: 'wallMs' | 'cpuMs') => rest.reduce((s, x) => s + x[k], 0) / rest.length;
    return {
      base: { wallMs: each[0]!.wallMs, cpuMs: each[0]!.cpuMs },
      candidates: { wallMs: mean('wallMs'), cpuMs: mean('cpuMs') },
      outcomes: each.map((x) => x.outcome),
    };
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    execFileSync(GO, ['version'], { stdio: 'ignore' });
  } catch {
    throw new Error('go is needed by this benchmark: apt-get install -y golang-go');
  }
  if (!existsSync(join(ROOT, 'dist'))) throw new Error('run `npm run build` first');
  const cold = run(true);
  const warm = run(false);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`| bin/collect of a go module (go vet, go test) | cold GOCACHE (before) | judgeloop's kept cache |`);
  console.log(`|---|---|---|`);
  console.log(`| the first collect (computes the baseline), CPU | ${s(cold.base.cpuMs)} | ${s(warm.base.cpuMs)} |`);
  console.log(
    `| a candidate's collect, CPU (mean of ${SOLUTIONS - 1}) | ${s(cold.candidates.cpuMs)} | ${s(warm.candidates.cpuMs)} |`,
  );
  console.log(`| a candidate's collect, wall | ${s(cold.candidates.wallMs)} | ${s(warm.candidates.wallMs)} |`);
  console.log(`outcomes: ${[...new Set([...cold.outcomes, ...warm.outcomes])].join(', ')}`);
}
