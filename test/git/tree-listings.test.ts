// Trees listed by one `diff-tree --stdin` read back as `ls-tree -r -z --full-tree` prints each (links, exec bits, a
// submodule, odd names, an empty tree, sha256), and lsTree answers from them whatever the repo's diff settings.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lsTree, prefetchListings } from '../../lib/git/seal.js';
import { emptyTree, parseTreeListings } from '../../lib/git/tree-listings.js';
import { commitAll, gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

const raw = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', input, maxBuffer: 64 << 20 });

/** Two commits: odd names, a link, an exec bit, a submodule entry, nested folders; the second drops and adds some. */
function repo(dir: string): string[] {
  writeTree(dir, { 'a.txt': 'a\n', 'd/e/f.txt': 'f\n', 'tab\tnew\nline é.txt': 'q\n', 'z/y.sh': 'echo\n' });
  chmodSync(join(dir, 'z/y.sh'), 0o755);
  symlinkSync('a.txt', join(dir, 'link'));
  const first = commitAll(dir, 'one');
  rmSync(join(dir, 'd'), { recursive: true });
  mkdirSync(join(dir, 'd-'), { recursive: true });
  writeFileSync(join(dir, 'd-', 'x'), 'x\n');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'update-index', '--add', '--cacheinfo', `160000,${first},sub`);
  gitIn(dir, 'commit', '-q', '-m', 'two');
  const second = gitIn(dir, 'rev-parse', 'HEAD');
  return [first, second].map((c) => gitIn(dir, 'rev-parse', `${c}^{tree}`));
}

function checkListings(dir: string, trees: string[]): void {
  const all = [...trees, emptyTree(trees[0]!)];
  const input = all.map((t) => `${emptyTree(t)} ${t}\n`).join('');
  const got = parseTreeListings(raw(dir, ['diff-tree', '-r', '-z', '--no-renames', '--no-abbrev', '--stdin'], input));
  expect(got).not.toBeNull();
  expect([...got!.keys()]).toEqual(all);
  for (const t of all) expect(got!.get(t), t).toBe(raw(dir, ['ls-tree', '-r', '-z', '--full-tree', t]));
}

describe('parseTreeListings', () => {
  it("equals git's ls-tree of each tree, sha1", () => {
    const dir = makeRepo({ 'base.txt': 'b\n' });
    const trees = repo(dir);
    expect(raw(dir, ['ls-tree', '-r', '--full-tree', trees[1]!])).toContain('160000 commit');
    checkListings(dir, trees);
  });
  it("equals git's ls-tree of each tree, sha256", () => {
    const dir = tempDir('judgeloop-sha256-');
    gitIn(dir, 'init', '-q', '-b', 'main', '--object-format=sha256');
    gitIn(dir, 'config', 'user.email', 't@e');
    gitIn(dir, 'config', 'user.name', 'T');
    const trees = repo(dir);
    expect(trees[0]).toHaveLength(64);
    checkListings(dir, trees);
  });
  it('refuses text of another shape', () => {
    const t = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    expect(parseTreeListings(`:000000 100644 ${'0'.repeat(40)} ${t} A\0x\0`)).toBeNull();
    expect(parseTreeListings(`${t} ${t}\n:100644 000000 ${t} ${'0'.repeat(40)} D\0x\0`)).toBeNull();
    expect(parseTreeListings(`${t} ${t}\n:000000 100644 ${'0'.repeat(40)} ${t} A\0x`)).toBeNull();
    expect(parseTreeListings('')).toEqual(new Map());
  });
});

describe('prefetchListings', () => {
  it("lets lsTree answer a commit's and a tree's listing as ls-tree would", async () => {
    const dir = makeRepo({ 'base.txt': 'b\n' });
    const [t1, t2] = repo(dir);
    const c2 = gitIn(dir, 'rev-parse', 'HEAD');
    // Settings of the agent's that would hide the submodule from a diff, or reorder one.
    writeFileSync(join(dir, 'order'), 'z/y.sh\nsub\n');
    writeFileSync(join(dir, '.gitmodules'), '[submodule "sub"]\n\tpath = sub\n\turl = x\n\tignore = all\n');
    for (const [k, v] of [
      ['submodule.sub.ignore', 'all'],
      ['diff.ignoreSubmodules', 'all'],
      ['diff.orderFile', join(dir, 'order')],
    ])
      gitIn(dir, 'config', k!, v!);
    await prefetchListings(dir, [
      [c2, t2!],
      [t1!, t1!],
    ]);
    for (const x of [c2, t1!]) {
      const want = new Map(
        raw(dir, ['ls-tree', '-r', '-z', '--full-tree', x])
          .split('\0')
          .filter(Boolean)
          .map((rec) => {
            const [mode, type, oid] = rec.slice(0, rec.indexOf('\t')).split(' ');
            return [rec.slice(rec.indexOf('\t') + 1), { mode, type, oid }] as const;
          }),
      );
      expect(await lsTree(dir, x)).toEqual(want);
    }
  });
});
