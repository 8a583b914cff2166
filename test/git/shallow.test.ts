// A shallow list written by another worktree cannot cut a solution's history (its merge base stays); a shallow
// clone's genuine list still holds. Real git repositories.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../lib/git/git.js';
import { mergeBase } from '../../lib/git/worktree.js';
import { commitAll, gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

describe('the shared .git/shallow', () => {
  it("a forged entry does not move another solution's merge base", async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const b0 = gitIn(repo, 'rev-parse', 'HEAD');
    const wt = join(tempDir('judgeloop-shallow-wt-'), 'wt');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'agent/f', wt);
    writeTree(wt, { 'f.txt': 'f\n' });
    const f1 = commitAll(wt, 'f');
    writeTree(repo, { 'b.txt': 'b\n' });
    const b1 = commitAll(repo, 'b1');
    // Plain git now finds no merge base: the fix's diff would be taken against main and show b.txt reverted.
    writeFileSync(join(repo, '.git', 'shallow'), `${f1}\n`);
    expect(gitIn(repo, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(() => gitIn(repo, 'merge-base', b1, f1)).toThrow();
    expect(await mergeBase(wt, b1, f1)).toBe(b0);
  });

  it("a shallow clone's own list still holds (its cut history is not walked)", async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    writeTree(repo, { 'b.txt': 'b\n' });
    commitAll(repo, 'b1');
    const clone = join(tempDir('judgeloop-shallow-clone-'), 'c');
    gitIn(repo, '-c', 'protocol.file.allow=always', 'clone', '-q', '--depth=1', `file://${repo}`, clone);
    expect((await git(clone, ['rev-list', '--count', 'HEAD'])).trim()).toBe('1');
  });
});
