// Issue 35's figures beside the previous build (BENCH_OLD_ROOT: a built checkout of it; without it, today's only): a
// race of 8 solutions on one npm lockfile (installs counted by the fetch itself), setup's share of a warm collect, start-up.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { benchCollect } from './collect.js';
import { solutions } from './_solutions.js';
import type { Feedback } from '../lib/schema/types.generated.js';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const OLD = process.env.BENCH_OLD_ROOT ?? null;
const SOLUTIONS = Number(process.env.BENCH_SOLUTIONS ?? 8);

const sh = (cwd: string, cmd: string, args: string[]) => execFileSync(cmd, args, { cwd, stdio: 'pipe' });

/** An npm project whose lock resolves to a vendored tarball, and `n` agent worktrees fixing its one bug. */
function project(dir: string, n: number): { repo: string; records: string[] } {
  const dep = join(dir, 'dep');
  mkdirSync(dep);
  writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'tiny-dep', version: '1.0.0' }));
  writeFileSync(join(dep, 'index.js'), 'exports.double = (x) => 2 * x;\n');
  sh(dep, 'npm', ['pack', '-q']);
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'vendor'), { recursive: true });
  mkdirSync(join(repo, 'src'));
  mkdirSync(join(repo, 'test'));
  copyFileSync(join(dep, 'tiny-dep-1.0.0.tgz'), join(repo, 'vendor', 'tiny-dep-1.0.0.tgz'));
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  writeFileSync(
    join(repo, 'package.json'),
    JSON.stringify({
      name: 'proj',
      version: '1.0.0',
      private: true,
      scripts: { test: 'node --test test/' },
      dependencies: { 'tiny-dep': 'file:vendor/tiny-dep-1.0.0.tgz' },
    }),
  );
  writeFileSync(join(repo, 'src', 'add.js'), 'exports.add = (a, b) => a - b;\n');
  writeFileSync(
    join(repo, 'test', 'add.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { double } = require('tiny-dep');\nconst { add } = require('../src/add.js');\ntest('adds', () => assert.strictEqual(double(add(1, 2)), 6));\n",
  );
  sh(repo, 'npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
  const records = solutions(
    dir,
    repo,
    n,
    (wt, i) => writeFileSync(join(wt, 'src', 'add.js'), `exports.add = (a, b) => a + b; // solution ${i}\n`),
    { race_id: 'race-deps' },
  );
  return { repo, records };
}

interface RaceFigures {
  installs: number;
  wallMs: number;
  outcomes: string[];
  /** (fetch + setup) / total of the last collect (warm: the baseline and the cache filled), from its `steps`. */
  setupShare: number | null;
  /** The last collect's `steps` (ms per step), printed beside the share. */
  steps: Feedback['steps'] | null;
}

/** Collects the race's records with `root`'s bin/collect, one process per record, as a race does, counting fetches. */
function race(root: string): RaceFigures {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-deps-'));
  try {
    const { records } = project(dir, SOLUTIONS);
    const counter = join(dir, 'counter');
    mkdirSync(counter);
    const config = join(dir, 'judgeloop.json');
    writeFileSync(
      config,
      JSON.stringify({
        collector: {
          commands: { test: 'npm test' },
          fetch_command: `npm ci --ignore-scripts --no-audit --no-fund && echo fetched >> ${counter}/installs`,
          setup_command: 'npm rebuild --foreground-scripts',
          sandbox_writable: [counter],
        },
      }),
    );
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, JUDGELOOP_STATE_DIR: join(dir, 'state') };
    const t = performance.now();
    const outcomes: string[] = [];
    let last: Feedback | null = null;
    for (const rec of records) {
      const r = spawnSync(join(root, 'bin', 'collect'), ['--json', '--quiet', '--config', config, rec], {
        cwd: dir,
        env,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`${root}/bin/collect ${rec}: exit ${r.status}: ${r.stderr}`);
      last = JSON.parse(r.stdout) as Feedback;
      outcomes.push(last.outcome);
    }
    const wallMs = performance.now() - t;
    const file = join(counter, 'installs');
    const installs = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
    const st = last?.steps;
    const setupShare = st ? ((st.fetch_ms ?? 0) + (st.setup_ms ?? 0)) / st.total_ms : null;
    return { installs, wallMs, outcomes, setupShare, steps: st ?? null };
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const now = race(ROOT);
  const before = OLD ? race(OLD) : null;
  const col = (x: string | null) => (x ?? '— (set BENCH_OLD_ROOT)').padEnd(24);
  console.log(`| figure (issue 35) | before | now | target |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| installs (fetches) for a race of ${SOLUTIONS} solutions on one lockfile | ${col(before && `${before.installs}`)} | ${now.installs} | 1 |`,
  );
  console.log(
    `| the race's collects, wall | ${col(before && `${(before.wallMs / 1000).toFixed(1)} s`)} | ${(now.wallMs / 1000).toFixed(1)} s | |`,
  );
  const share = (f: RaceFigures | null) =>
    f === null ? null : f.setupShare === null ? 'not recorded' : `${(100 * f.setupShare).toFixed(1)}%`;
  console.log(`| fetch + setup share of a warm collect | ${col(share(before))} | ${share(now)} | < 10% |`);
  const n = Number(process.env.BENCH_N ?? 5);
  const c = benchCollect(n);
  let old: ReturnType<typeof benchCollect> | null = null;
  if (OLD) {
    process.env.BENCH_BIN = join(OLD, 'bin', 'collect');
    old = benchCollect(n);
    delete process.env.BENCH_BIN;
  }
  const ratio = (b: ReturnType<typeof benchCollect> | null) =>
    b && `${b.ratio.toFixed(2)}× wall, ${(b.cpu.collectMs / b.cpu.nodeMs).toFixed(1)}× CPU`;
  console.log(
    `| collect of a \`true\` run ÷ \`node -e 0\` (median of ${n}) | ${col(ratio(old))} | ${ratio(c)} | ≤ 3× |`,
  );
  const outs = [...new Set(now.outcomes)].join(', ');
  const fmt = (st: Feedback['steps'] | null) =>
    st
      ? Object.entries(st)
          .filter(([k, v]) => k.endsWith('_ms') && typeof v === 'number')
          .map(([k, v]) => `${k.slice(0, -3)} ${v}`)
          .join(' · ')
      : 'not recorded';
  console.log(`\nthe warm collect's steps, ms: now ${fmt(now.steps)}${before ? `; before ${fmt(before.steps)}` : ''}`);
  console.log(`outcomes now: ${outs}${before ? `; before: ${[...new Set(before.outcomes)].join(', ')}` : ''}`);
  console.log(
    `load average: ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (wall figures are noisy under load)`,
  );
}
