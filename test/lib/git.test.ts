import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workingDiff, parseNumstatZ } from '../../lib/git/snapshot.js';
import { resolveCommit, isWorkTree, worktreeInfoWithRef } from '../../lib/git/worktree.js';
import { commitIdentity } from '../../lib/git/git.js';
import { commitAll, gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

describe('workingDiff', () => {
  it('counts committed, uncommitted and untracked changes against the merge base, without touching the index', async () => {
    const repo = makeRepo({ 'a.txt': 'one\ntwo\n', 'b.txt': 'keep\n', '.gitignore': 'ignored.txt\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'checkout', '-q', '-b', 'agent');
    writeTree(repo, { 'a.txt': 'one\nTWO\nthree\n' });
    commitAll(repo, 'agent edit');
    writeTree(repo, { 'b.txt': 'keep\nmore\n', 'new.txt': 'x\ny\n', 'ignored.txt': 'secret\n' });
    writeFileSync(join(repo, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255]));
    const statusBefore = gitIn(repo, 'status', '--porcelain');
    const d = await workingDiff(repo, base);
    expect(gitIn(repo, 'status', '--porcelain')).toBe(statusBefore);
    const byPath = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(['a.txt', 'b.txt', 'bin.dat', 'new.txt']);
    expect(byPath['a.txt']).toMatchObject({ added: 2, removed: 1, binary: false, untracked: false });
    expect(byPath['b.txt']).toMatchObject({ added: 1, removed: 0, untracked: true });
    expect(byPath['new.txt']).toMatchObject({ added: 2, removed: 0, untracked: true });
    expect(byPath['bin.dat']).toMatchObject({ binary: true, added: 0, removed: 0 });
    expect(d.mergeBase).toBe(base);
  });

  it('takes the diff from the merge base when base moved on after the agent branched', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    const fork = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'checkout', '-q', '-b', 'agent');
    writeTree(repo, { 'agent.txt': 'mine\n' });
    commitAll(repo, 'agent');
    gitIn(repo, 'checkout', '-q', 'main');
    writeTree(repo, { 'other.txt': 'someone else\n' });
    commitAll(repo, 'main moved');
    gitIn(repo, 'checkout', '-q', 'agent');
    const d = await workingDiff(repo, (await resolveCommit(repo, 'main'))!);
    expect(d.mergeBase).toBe(fork);
    expect(d.files.map((f) => f.path)).toEqual(['agent.txt']);
  });

  it('reports renames with both paths and names with spaces and unicode as they are', () => {
    const out = '1\t0\tnew name ü.txt\0' + '0\t0\t\0old.txt\0renamed.txt\0' + '-\t-\timg.png\0';
    expect(parseNumstatZ(out)).toEqual([
      { path: 'new name ü.txt', added: 1, removed: 0, binary: false },
      { path: 'renamed.txt', oldPath: 'old.txt', added: 0, removed: 0, binary: false },
      { path: 'img.png', added: 0, removed: 0, binary: true },
    ]);
  });

  it('resolves refs and rejects unknown ones and non-repositories', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    expect(await resolveCommit(repo, 'main')).toMatch(/^[0-9a-f]{40}$/);
    expect(await resolveCommit(repo, 'no-such-branch')).toBeNull();
    expect(await resolveCommit(repo, '--output=/tmp/x')).toBeNull();
    expect(await isWorkTree(repo)).toBe(true);
    expect(await isWorkTree(tempDir())).toBe(false);
  });
});

describe('worktreeInfoWithRef', () => {
  it('gives the merge base git merge-base gives when there is one, and none when there are several', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    const fork = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'checkout', '-q', '-b', 'agent');
    writeTree(repo, { 'agent.txt': 'mine\n' });
    commitAll(repo, 'agent');
    gitIn(repo, 'checkout', '-q', 'main');
    writeTree(repo, { 'other.txt': 'x\n' });
    commitAll(repo, 'main moved');
    gitIn(repo, 'checkout', '-q', 'agent');
    const one = await worktreeInfoWithRef(repo, 'main');
    expect(one?.mergeBase).toBe(fork);
    expect(one?.mergeBase).toBe(gitIn(repo, 'merge-base', 'main', 'HEAD'));
    expect(one?.refCommit).toBe(gitIn(repo, 'rev-parse', 'main'));
    // Criss-cross merges: two merge bases; left to git merge-base (undefined here).
    const a1 = gitIn(repo, 'rev-parse', 'agent');
    const m1 = gitIn(repo, 'rev-parse', 'main');
    gitIn(repo, '-c', 'user.email=t@e', '-c', 'user.name=t', 'merge', '-q', '--no-edit', m1);
    gitIn(repo, 'checkout', '-q', 'main');
    gitIn(repo, '-c', 'user.email=t@e', '-c', 'user.name=t', 'merge', '-q', '--no-edit', a1);
    gitIn(repo, 'checkout', '-q', 'agent');
    const two = await worktreeInfoWithRef(repo, 'main');
    expect(gitIn(repo, 'merge-base', '--all', 'main', 'HEAD').split('\n')).toHaveLength(2);
    expect(two?.refCommit).toBe(gitIn(repo, 'rev-parse', 'main'));
    expect(two?.mergeBase).toBeUndefined();
    const d = await workingDiff(repo, two!.refCommit, two!);
    expect(d.mergeBase).toBe(gitIn(repo, 'merge-base', 'main', 'HEAD'));
  });
});

describe('workingDiff with nothing committed since the merge base', () => {
  it('marks exactly the paths git diff --name-only --no-renames HEAD <tree> lists (renames included) as untracked', async () => {
    const repo = makeRepo({ 'a.txt': 'one\ntwo\nthree\nfour\n', 'b.txt': 'b\n', 'keep.txt': 'k\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'checkout', '-q', '-b', 'agent');
    gitIn(repo, 'mv', 'a.txt', 'moved.txt');
    writeTree(repo, { 'b.txt': 'b\nmore\n', 'new.txt': 'n\n' });
    const d = await workingDiff(repo, base);
    expect(d.headCommit).toBe(d.mergeBase);
    const listed = new Set(
      gitIn(repo, 'diff', '--name-only', '--no-renames', 'HEAD', d.tree).split('\n').filter(Boolean),
    );
    expect(d.files.map((f) => f.path).sort()).toEqual(['b.txt', 'moved.txt', 'new.txt']);
    expect(d.files.find((f) => f.path === 'moved.txt')?.oldPath).toBe('a.txt');
    for (const f of d.files) expect(f.untracked, f.path).toBe(listed.has(f.path));
  });
});

describe('commitIdentity: who commits, as git itself resolves it', () => {
  const home = (gitconfig: string) => {
    const dir = tempDir('judgeloop-home-');
    writeFileSync(join(dir, '.gitconfig'), gitconfig);
    return { HOME: dir, PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1' };
  };
  const globalUser = '[user]\n\tname = Global Person\n\temail = global@example.com\n';

  it("the repository's config first, then the global; GIT_AUTHOR_* / GIT_COMMITTER_* over both, as in git commit", async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    gitIn(repo, 'config', 'user.name', 'Repo Keeper');
    const local = await commitIdentity(repo, home(globalUser));
    expect(local).toEqual({
      author: { name: 'Repo Keeper', email: 'test@example.com' },
      committer: { name: 'Repo Keeper', email: 'test@example.com' },
    });
    // Outside the repository's reach (a folder with no local identity): the global one.
    const bare = tempDir('judgeloop-plain-');
    gitIn(bare, 'init', '-q');
    expect(await commitIdentity(bare, home(globalUser))).toEqual({
      author: { name: 'Global Person', email: 'global@example.com' },
      committer: { name: 'Global Person', email: 'global@example.com' },
    });
    const env = { ...home(globalUser), GIT_COMMITTER_NAME: 'Env Committer', GIT_AUTHOR_EMAIL: 'env@example.com' };
    expect(await commitIdentity(repo, env)).toEqual({
      author: { name: 'Repo Keeper', email: 'env@example.com' },
      committer: { name: 'Env Committer', email: 'test@example.com' },
    });
  });

  it('null when git cannot tell (no email anywhere), and the caller variables git must not see stay out', async () => {
    const bare = tempDir('judgeloop-plain-');
    gitIn(bare, 'init', '-q');
    // useConfigOnly: git guesses no user@host, on any machine.
    const none = '[user]\n\tuseConfigOnly = true\n';
    expect(await commitIdentity(bare, home(none))).toBeNull();
    // A calling hook's GIT_DIR pointing at a repository with an identity changes nothing.
    const other = makeRepo({ 'a.txt': '1\n' });
    expect(await commitIdentity(bare, { ...home(none), GIT_DIR: join(other, '.git') })).toBeNull();
  });
});
