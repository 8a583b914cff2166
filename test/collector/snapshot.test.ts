// snapshotTree from a copy of the worktree's index (collector's fast path) against the on-disk state.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../lib/git/git.js';
import { snapshotTree, workingDiff } from '../../lib/git/snapshot.js';
import { resolveCommit, worktreeInfo, worktreeInfoWithRef } from '../../lib/git/worktree.js';
import { commitAll, gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

describe('worktreeInfo + snapshotTree from the index copy', () => {
  it('captures staged, unstaged, deleted and untracked changes exactly like the HEAD-based snapshot, index untouched', async () => {
    const repo = makeRepo({ 'a.txt': '1\n', 'b.txt': '2\n', 'c.txt': '3\n', '.gitignore': 'ignored\n' });
    const base = (await resolveCommit(repo, 'main'))!;
    gitIn(repo, 'checkout', '-q', '-b', 'agent');
    writeTree(repo, { 'a.txt': '1\nstaged\n' });
    gitIn(repo, 'add', 'a.txt');
    writeTree(repo, { 'a.txt': '1\nstaged\nthen unstaged\n', 'new.txt': 'n\n', ignored: 'x\n' });
    rmSync(join(repo, 'b.txt'));
    gitIn(repo, 'rm', '-q', '--cached', 'c.txt');
    const statusBefore = gitIn(repo, 'status', '--porcelain');
    const info = (await worktreeInfo(repo))!;
    expect(info.headCommit).toBe(base);
    expect(info.indexFile).toBe(join(repo, '.git', 'index'));
    const fast = await snapshotTree(repo, info.indexFile);
    const slow = await snapshotTree(repo);
    expect(fast).toBe(slow);
    expect(gitIn(repo, 'status', '--porcelain')).toBe(statusBefore);
    const files = (await git(repo, ['ls-tree', '-r', '--name-only', fast])).trim().split('\n');
    expect(files.sort()).toEqual(['.gitignore', 'a.txt', 'c.txt', 'new.txt']);
    const d = await workingDiff(repo, base, info);
    expect(d.files.map((f) => [f.path, f.added, f.removed]).sort()).toEqual([
      ['a.txt', 2, 0],
      ['b.txt', 0, 1],
      ['new.txt', 1, 0],
    ]);
  });

  it('is null for a folder that is not a worktree and for a repository without a commit', async () => {
    expect(await worktreeInfo(tempDir())).toBeNull();
    const empty = tempDir();
    gitIn(empty, 'init', '-q');
    expect(await worktreeInfo(empty)).toBeNull();
  });

  it('falls back to HEAD when the index file is unusable', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    writeTree(repo, { 'b.txt': 'new\n' });
    const bogus = join(tempDir(), 'index');
    writeFileSync(bogus, 'not an index');
    expect(await snapshotTree(repo, bogus)).toBe(await snapshotTree(repo));
    commitAll(repo, 'x');
  });
});

describe('worktreeInfoWithRef (one git call for HEAD, its tree, the index and the base)', () => {
  it('resolves a branch or a commit id like resolveCommit, and declines anything else', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    const head = gitIn(repo, 'rev-parse', 'HEAD');
    writeTree(repo, { 'b.txt': '2\n' });
    commitAll(repo, 'second');
    const info = await worktreeInfoWithRef(repo, 'main~1');
    expect(info?.refCommit).toBe(head);
    expect(info?.headTree).toBe(gitIn(repo, 'rev-parse', 'HEAD^{tree}'));
    expect((await worktreeInfoWithRef(repo, head.slice(0, 10)))?.refCommit).toBe(head);
    for (const bad of ['no-such-branch', '--output=/tmp/x', 'main~1..main', 'HEAD^{tree}', 'main^@']) {
      expect(await worktreeInfoWithRef(repo, bad)).toBeNull();
      expect(await resolveCommit(repo, bad)).toBeNull();
    }
  });

  it('a clean worktree: workingDiff marks nothing untracked without asking git', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD');
    writeTree(repo, { 'a.txt': '1\n2\n' });
    commitAll(repo, 'agent');
    const info = (await worktreeInfo(repo))!;
    const d = await workingDiff(repo, base, info);
    expect(d.tree).toBe(info.headTree);
    expect(d.files).toEqual([{ path: 'a.txt', added: 1, removed: 0, binary: false, untracked: false }]);
  });
});
