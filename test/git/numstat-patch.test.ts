// One `diff --numstat -p -z` split equals the two diffs asked apart (real git, every kind of change), and the git
// wrapper answers the patch after the numstat from the same process.
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../lib/git/git.js';
import { splitNumstatPatch } from '../../lib/git/numstat-patch.js';
import { commitAll, gitIn, makeRepo } from '../helpers/repo.js';

const raw = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.quotePath=false', ...args], { cwd, encoding: 'utf8' });

/** A base commit and a change with a rename, a binary edit, a mode change, an empty file, odd names, a deletion. */
function repo(): { dir: string; base: string; head: string } {
  const dir = makeRepo({ 'a.txt': 'a\nb\n', 'moved.txt': 'one\ntwo\nthree\n', 'gone.txt': 'x\n', 'bin.dat': 'b\0x' });
  const base = gitIn(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'a.txt'), 'a\nc\nd');
  chmodSync(join(dir, 'a.txt'), 0o755);
  gitIn(dir, 'mv', 'moved.txt', 'renamed.txt');
  writeFileSync(join(dir, 'bin.dat'), '\0y');
  writeFileSync(join(dir, 'empty'), '');
  writeFileSync(join(dir, 'tab\tnew\nline é.txt'), 'q\n');
  rmSync(join(dir, 'gone.txt'));
  return { dir, base, head: commitAll(dir, 'change') };
}

describe('splitNumstatPatch', () => {
  it('gives back what `--numstat -z` and `-p` print apart, for every pair of revisions', () => {
    const { dir, base, head } = repo();
    for (const [from, to] of [
      [base, head],
      [head, base],
      [base, base],
    ] as const) {
      const both = splitNumstatPatch(raw(dir, 'diff', '--numstat', '-p', '-z', '-M', from!, to!));
      expect(both).toEqual({
        numstat: raw(dir, 'diff', '--numstat', '-z', '-M', from!, to!),
        patch: raw(dir, 'diff', '-M', from!, to!),
      });
    }
  });
  it('refuses text of another shape', () => {
    expect(splitNumstatPatch('1\t2\tpath')).toBeNull();
    expect(splitNumstatPatch('diff --git a/x b/x\n')).toBeNull();
    expect(splitNumstatPatch('1\t2\t\0old\0')).toBeNull();
  });
});

describe('the numstat and the patch of two trees', () => {
  it('are what git prints for each, the patch learned from the numstat call', async () => {
    const { dir, base, head } = repo();
    const numstat = await git(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', base, head]);
    expect(numstat).toBe(raw(dir, 'diff', '--numstat', '-z', '-M', base, head));
    const patch = await git(dir, ['diff', '-M', '--no-ext-diff', '--no-textconv', base, head]);
    expect(patch).toBe(raw(dir, 'diff', '-M', base, head));
    expect(patch).toContain('rename to renamed.txt');
  });
});
