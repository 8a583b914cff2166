// A real agent run to judge: a git repo with a base commit and the agent's changes, and its run record.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptyRepo, fastImport } from '../../helpers/fast-import.js';
import { gitIn, tempDir, writeTree } from '../../helpers/repo.js';
import type { RunRecord } from '../../../lib/schema/types.generated.js';

export interface RunFixture {
  repo: string;
  stateDir: string;
  recordPath: string;
  record: RunRecord;
}

const made: RunFixture[] = [];
const scratch: string[] = [];

/** A temporary directory removed by removeRuns(). */
export function scratchDir(prefix?: string): string {
  const dir = tempDir(prefix);
  scratch.push(dir);
  return dir;
}

/** Removes every fixture and scratch directory this test file made (call it in afterAll). */
export function removeRuns(): void {
  for (const fx of made.splice(0)) removeRun(fx);
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function makeRun(
  opts: {
    bead?: string;
    base?: Record<string, string>;
    files?: Record<string, string>;
    uncommitted?: Record<string, string>;
    record?: Partial<RunRecord>;
    stateDir?: string;
  } = {},
): RunFixture {
  const repo = agentRepo(
    opts.base ?? { 'src/add.ts': 'export const add = (a: number, b: number) => a + b;\n', 'README.md': '# demo\n' },
    opts.files ?? {
      'src/sub.ts': 'export const sub = (a: number, b: number) => a - b;\n',
      'test/sub.test.ts': "import { sub } from '../src/sub';\ntest('sub', () => expect(sub(3, 1)).toBe(2));\n",
    },
  );
  if (opts.uncommitted) writeTree(repo, opts.uncommitted);
  const stateDir = opts.stateDir ?? tempDir('judgeloop-state-');
  const bead = opts.bead ?? 'bd-1';
  const record: RunRecord = {
    schema_version: '1.0.0',
    bead,
    task: { id: 'task-sub', prompt: 'Add a sub(a, b) function next to add, with a test.' },
    agent: { slug: 'claude-a', model: 'claude-sonnet-4-6' },
    template: 'feature-v1',
    worktree: repo,
    base_ref: 'main',
    started_at: '2025-06-01T10:00:00Z',
    completed_at: '2025-06-01T10:05:00Z',
    exit_code: 0,
    status: 'completed',
    checks: {
      test: {
        exit_code: 0,
        output: ' ✓ test/sub.test.ts (1 test)\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n',
      },
    },
    ...opts.record,
  };
  const recordPath = join(tempDir('judgeloop-runs-'), `${bead}.json`);
  writeFileSync(recordPath, JSON.stringify(record, null, 2));
  const fx = { repo, stateDir, recordPath, record };
  made.push(fx);
  return fx;
}

const templates = new Map<string, string>();

/**
 * A new repo: `base` committed on main, `files` committed on branch agent (checked out). Built with git once per
 * content in this file (init, one fast-import of both commits, a checkout), then copied: the copy has the same commits.
 * Keyed by the file's TMPDIR too: a worker runs several files (isolate: false) and each file's TMPDIR goes with it.
 */
function agentRepo(base: Record<string, string>, files: Record<string, string>): string {
  const key = JSON.stringify([process.env.TMPDIR, base, files]);
  let template = templates.get(key);
  if (template === undefined) {
    template = emptyRepo();
    fastImport(template, [
      { ref: 'main', message: 'base', files: base },
      { ref: 'agent', message: 'agent work', files, parent: 0 },
    ]);
    writeFileSync(join(template, '.git', 'HEAD'), 'ref: refs/heads/agent\n');
    gitIn(template, 'reset', '-q', '--hard');
    templates.set(key, template);
  }
  const repo = tempDir('judgeloop-repo-');
  cpSync(template, repo, { recursive: true });
  return repo;
}

/** Writes another run record for the same repo under a new bead. */
export function recordFor(fx: RunFixture, bead: string, dir: string, over: Partial<RunRecord> = {}): string {
  const path = join(dir, `${bead}.json`);
  writeFileSync(path, JSON.stringify({ ...fx.record, bead, ...over }, null, 2));
  return path;
}

/** Removes what makeRun created (the repo, the state dir, the record's dir). */
export function removeRun(fx: RunFixture): void {
  for (const d of [fx.repo, fx.stateDir, dirname(fx.recordPath)]) rmSync(d, { recursive: true, force: true });
}
