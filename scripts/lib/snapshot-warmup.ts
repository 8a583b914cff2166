// Runs while bin/collect's start-up snapshot is built (scripts/dev/build-snapshot.mjs), never in a normal start:
// two real collections in a throwaway repository — the first computes the baseline, the second reads it and the
// race's run log — and the parsers over the captured fixtures, so V8 compiles the code a run goes through (Node's
// own child-process, stream and fs code included) and the snapshot keeps it compiled instead of compiling it at
// every start. Locks are not taken (one process, a private state directory): proper-lockfile installs signal
// handlers when it loads, and a snapshot cannot hold them. Whatever this leaves in module state is dropped or
// replaced at start by snapshotMain (scripts/lib/snapshot.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatLine } from '../collect.js';
import { collectRun } from './collect.js';
import { loadConfig } from './config.js';
import { readEnv } from './env.js';
import { parseLintOutput, parseTestOutput } from './parsers/index.js';
import { setProjectRoot } from './paths.js';
import { loadRunRecord } from './run-record.js';
import { resetSchemaCache } from './schema.js';
import { StateStore } from './store.js';

/** A store that takes no lock: only for this single process on its own temporary state directory. */
class UnlockedStore extends StateStore {
  override prefetchLock(): void {}

  override async withLock<R>(_name: string, fn: () => Promise<R> | R): Promise<R> {
    return fn();
  }
}

export interface WarmUpResult {
  /** Outcome line of each collection, for the build log. */
  lines: string[];
  /** Fixture files parsed. */
  parsed: number;
}

/** `root`: the checkout being built (its config, schemas and, when present, test/fixtures/output); `path`: PATH for git and the checks. */
export async function warmUpCollect(root: string, path: string): Promise<WarmUpResult> {
  setProjectRoot(root);
  const tmp = mkdtempSync(join(tmpdir(), 'judgeloop-warm-up-'));
  const env = { PATH: path, HOME: tmp, GIT_CONFIG_NOSYSTEM: '1' };
  try {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=build@judgeloop.invalid', '-c', 'user.name=build', '-c', 'commit.gpgsign=false', ...args], { cwd, env, stdio: 'ignore' });
    git(tmp, 'init', '-q', '-b', 'main', 'repo');
    const repo = join(tmp, 'repo');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent', join(tmp, 'wt'));
    writeFileSync(join(tmp, 'wt', 'a.txt'), 'a\nb\n');
    git(join(tmp, 'wt'), 'commit', '-q', '-am', 'agent');
    writeFileSync(join(tmp, 'wt', 'c.txt'), 'c\n');
    const config = loadConfig({ env: readEnv({}), cwd: tmp });
    const store = new UnlockedStore(join(tmp, 'state'));
    const lines: string[] = [];
    for (const bead of ['warm-up-1', 'warm-up-2']) {
      const file = join(tmp, `${bead}.json`);
      writeFileSync(file, JSON.stringify({
        schema_version: '1.0.0', bead, task: { id: 't', prompt: 'p', complexity: 3 }, agent: { slug: 'a', model: 'm' }, template: 'tpl', race_id: 'warm-up',
        worktree: 'wt', base_ref: 'main', started_at: '2026-01-01T00:00:00Z', completed_at: '2026-01-01T00:01:00Z', exit_code: 0, status: 'completed',
        commands: { build: 'true', test: 'echo "1 passed in 0.01s"', lint: 'true', typecheck: 'true' },
      }));
      const fb = await collectRun(loadRunRecord(file, tmp), { store, config, processEnv: env, now: () => new Date(), version: '0.0.0', racePeers: [] });
      lines.push(formatLine(fb));
    }
    // Timers cleared before they fired can leave node's timer queue believing a libuv timer is scheduled, which
    // the snapshot does not keep: a process from the blob then never scheduled a setTimeout (one waiting on a lock
    // exited 0 without its work). One timer that fires before the snapshot is taken resets that state.
    await new Promise((r) => setTimeout(r, 1));
    return { lines, parsed: parseFixtures(join(root, 'test', 'fixtures', 'output')) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    resetSchemaCache();
  }
}

/** Parses each captured fixture (tests or lint, as expected.json says) up to 64 KB: every parser compiles. */
function parseFixtures(dir: string): number {
  const index = join(dir, 'expected.json');
  if (!existsSync(index)) return 0;
  const { files } = JSON.parse(readFileSync(index, 'utf8')) as { files: Record<string, { kind: 'tests' | 'lint' }> };
  let n = 0;
  for (const [name, { kind }] of Object.entries(files)) {
    const file = join(dir, name);
    if (!existsSync(file) || statSync(file).size > 64 * 1024) continue;
    const text = readFileSync(file, 'utf8');
    if (kind === 'tests') parseTestOutput(text);
    else parseLintOutput(text);
    n++;
  }
  return n;
}
