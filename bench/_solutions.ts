// Bench fixtures: a repository's base commit on main and `n` agent worktrees that each commit one solution, with
// their run records (bench/deps.ts, bench/go-cache.ts).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=b@e', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: 'pipe',
  });

/**
 * Commits `repo`'s files as main, then for each i < n a worktree `<dir>/wt-<i>` on agent/<i> where `solve(wt, i)`
 * writes solution i, committed; returns the run records `<dir>/run-<i>.json` (with `record` merged in).
 */
export function solutions(
  dir: string,
  repo: string,
  n: number,
  solve: (wt: string, i: number) => void,
  record: Record<string, unknown> = {},
): string[] {
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const records: string[] = [];
  for (let i = 0; i < n; i++) {
    const wt = join(dir, `wt-${i}`);
    git(repo, 'worktree', 'add', '-q', '-b', `agent/${i}`, wt);
    solve(wt, i);
    git(wt, 'commit', '-q', '-am', `solution ${i}`);
    const rec = join(dir, `run-${i}.json`);
    writeFileSync(
      rec,
      JSON.stringify({
        schema_version: '1.0.0',
        bead: `bd-${i}`,
        task: { id: 't', prompt: 'fix the bug' },
        agent: { slug: 'a' },
        template: 'tpl',
        worktree: wt,
        base_ref: 'main',
        started_at: '2026-01-01T00:00:00Z',
        completed_at: '2026-01-01T00:01:00Z',
        exit_code: 0,
        status: 'completed',
        ...record,
      }),
    );
    records.push(rec);
  }
  return records;
}
