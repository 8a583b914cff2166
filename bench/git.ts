// The cost of measuring what is on disk (issue 11): the collector's snapshot is built in a fresh temporary index
// (every tracked file hashed: no bit or stat cache of the agent's counts), where it used to start from a copy of
// the agent's index (unchanged files not re-hashed, but hidden edits and a forged stat cache went unseen).
// Prints both on repositories of 1,000 and 10,000 files, and the safe recipe's per-call overhead.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetRepoConfig, git } from '../lib/git/git.js';
import { snapshotTree } from '../lib/git/snapshot.js';
import { median } from '../lib/stats/stats.js';

function plainGit(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 28 });
}

function makeRepo(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-git-'));
  plainGit(dir, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${i % 50}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.txt`), `line ${i}\n`.repeat(40));
  }
  plainGit(dir, ['add', '-A']);
  plainGit(dir, ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'base']);
  writeFileSync(join(dir, 'd0', 'f0.txt'), 'changed\n');
  return dir;
}

/** The previous approach: a copy of the agent's index (its stat cache reused), then add -A. */
function copiedIndexSnapshot(dir: string): string {
  const tmp = mkdtempSync(join(tmpdir(), 'judgeloop-bench-idx-'));
  const index = join(tmp, 'index');
  const src = join(dir, '.git', 'index');
  copyFileSync(src, index);
  const st = statSync(src);
  utimesSync(index, st.atime, st.mtime);
  plainGit(dir, ['add', '-A', '--', '.'], { GIT_INDEX_FILE: index });
  const tree = plainGit(dir, ['write-tree'], { GIT_INDEX_FILE: index }).trim();
  rmSync(tmp, { recursive: true, force: true });
  return tree;
}

async function medianOf(n: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times) ?? Number.NaN;
}

const N = Number(process.env.BENCH_N ?? 7);
for (const files of [1000, 10000]) {
  const dir = makeRepo(files);
  plainGit(dir, ['status', '--porcelain']);
  const fresh = await medianOf(N, async () => {
    forgetRepoConfig();
    return snapshotTree(dir, join(dir, '.git', 'index'));
  });
  const copied = await medianOf(N, () => copiedIndexSnapshot(dir));
  console.log(
    `snapshot of ${files} files: fresh index ${fresh.toFixed(0)} ms (now) vs copied index ${copied.toFixed(0)} ms (before): ${(fresh / copied).toFixed(2)}x`,
  );
  rmSync(dir, { recursive: true, force: true });
}

const small = makeRepo(10);
const plain = await medianOf(N * 3, () => plainGit(small, ['rev-parse', 'HEAD']));
forgetRepoConfig();
await git(small, ['rev-parse', 'HEAD']);
const safe = await medianOf(N * 3, () => git(small, ['rev-parse', 'HEAD']));
console.log(
  `one git call: safe recipe ${safe.toFixed(1)} ms vs plain execFile ${plain.toFixed(1)} ms (config listed once per repository, not per call)`,
);
rmSync(small, { recursive: true, force: true });
