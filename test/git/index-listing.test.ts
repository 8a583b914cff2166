// indexListing against git's own listing of the tree write-tree makes of the same index (sha1 and sha256), and
// null for the indexes it cannot read as a tree (version 4, an intent-to-add entry, an unmerged one).
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexListing } from '../../lib/git/index-listing.js';
import { gitIn, sh, tempDir, writeTree } from '../helpers/repo.js';

const FILES = {
  'a.txt': 'a\n',
  'a-b/c.txt': 'c\n',
  'a.b': 'dot\n',
  'dir/sub/deep.txt': 'deep\n',
  'té st/ünï.txt': 'unicode\n',
  'run.sh': '#!/bin/sh\n',
};

function repoWith(format: 'sha1' | 'sha256'): string {
  const dir = tempDir('judgeloop-index-');
  gitIn(dir, 'init', '-q', `--object-format=${format}`);
  writeTree(dir, FILES);
  chmodSync(join(dir, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(dir, 'link'));
  gitIn(dir, 'add', '-A');
  // A submodule entry, and a path longer than the 12 bits of an entry's name length (no file needed for either).
  const blob = gitIn(dir, 'hash-object', '-w', 'a.txt');
  gitIn(dir, 'update-index', '--add', '--cacheinfo', `160000,${blob},vendor/sub`);
  gitIn(dir, 'update-index', '--add', '--cacheinfo', `100644,${blob},${'long/'.repeat(900)}end.txt`);
  return dir;
}

const listing = (dir: string, tree: string) => sh(dir, 'git', ['ls-tree', '-r', '-z', '--full-tree', tree]);

describe('indexListing', () => {
  for (const format of ['sha1', 'sha256'] as const)
    it(`is ls-tree's listing of the tree write-tree makes (${format}; v2, and v3 with a skip-worktree entry)`, () => {
      const dir = repoWith(format);
      const bytes = format === 'sha256' ? 32 : 20;
      const tree = gitIn(dir, 'write-tree');
      const index = () => readFileSync(join(dir, '.git', 'index'));
      expect(indexListing(index(), bytes)).toBe(listing(dir, tree));
      expect(listing(dir, tree)).toContain('160000 commit');
      gitIn(dir, 'update-index', '--skip-worktree', 'a.txt');
      expect(index().readUInt32BE(4)).toBe(3);
      expect(indexListing(index(), bytes)).toBe(listing(dir, tree));
    });

  it('is null for a version 4 index, an intent-to-add entry and an unmerged entry', () => {
    const dir = repoWith('sha1');
    const index = () => readFileSync(join(dir, '.git', 'index'));
    expect(indexListing(index(), 20)).not.toBeNull();
    gitIn(dir, 'update-index', '--index-version', '4');
    expect(indexListing(index(), 20)).toBeNull();
    gitIn(dir, 'update-index', '--index-version', '2');
    writeTree(dir, { 'later.txt': 'later\n' });
    gitIn(dir, 'add', '-N', 'later.txt');
    expect(indexListing(index(), 20)).toBeNull();
    gitIn(dir, 'rm', '-q', '--cached', 'later.txt');
    const blob = gitIn(dir, 'hash-object', '-w', 'a.txt');
    execFileSync('git', ['update-index', '--index-info'], { cwd: dir, input: `100644 ${blob} 2\tboth.txt\n` });
    expect(indexListing(index(), 20)).toBeNull();
    expect(indexListing(Buffer.from('DIRC'), 20)).toBeNull();
  });
});
