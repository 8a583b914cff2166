// The one diff parser against what git itself says about the same change (numstat, name-status, blame of lines).
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff, wholeText } from '../../lib/git/diff-parse.js';
import { parseNumstatZ } from '../../lib/git/snapshot.js';
import { commitAll, gitIn, makeRepo, sh, writeTree } from '../helpers/repo.js';

const repos: string[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r, { recursive: true, force: true });
});

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';

describe('parseUnifiedDiff on a real git diff', () => {
  const repo = makeRepo({
    'src/edit.ts': lines(40, 'edit'),
    'src/old name.ts': lines(30, 'renamed'),
    'gone.txt': lines(5, 'gone'),
    'té st/ünï.txt': lines(3, 'unicode'),
  });
  repos.push(repo);
  const before = readFileSync(join(repo, 'src/edit.ts'), 'utf8').split('\n');
  const edited = [...before];
  edited.splice(10, 2, 'changed A', 'changed B', 'added C');
  edited.splice(30, 1);
  writeTree(repo, {
    'src/edit.ts': edited.join('\n'),
    'new dir/new file.ts': lines(4, 'new'),
    'té st/ünï.txt': lines(3, 'unicode') + 'more\n',
  });
  writeFileSync(join(repo, 'image.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 3]));
  gitIn(repo, 'mv', 'src/old name.ts', 'src/new name.ts');
  gitIn(repo, 'rm', '-q', 'gone.txt');
  commitAll(repo, 'change');
  const text = gitIn(repo, 'diff', '-M', 'HEAD~1', 'HEAD') + '\n';
  const files = parseUnifiedDiff(text);
  const byPath = new Map(files.map((f) => [f.path, f]));

  it('finds the files git names, with their paths decoded (spaces, non-ASCII quoted by git)', () => {
    const names = gitIn(repo, '-c', 'core.quotePath=false', 'diff', '-M', '--name-only', 'HEAD~1', 'HEAD')
      .split('\n')
      .sort();
    expect(files.map((f) => f.path).sort()).toEqual(names);
  });

  it('counts added and removed lines as numstat does; binary as "-"', () => {
    const numstat = parseNumstatZ(gitIn(repo, 'diff', '-M', '--numstat', '-z', 'HEAD~1', 'HEAD'));
    expect(numstat).toHaveLength(files.length);
    for (const n of numstat) {
      const f = byPath.get(n.path)!;
      expect(f, n.path).toBeDefined();
      if (n.oldPath) expect(f.oldPath).toBe(n.oldPath);
      expect([f.binary, f.added.length, f.removed.length]).toEqual([n.binary, n.added, n.removed]);
    }
  });

  it('marks created, deleted and renamed files as git status does', () => {
    const status = gitIn(repo, '-c', 'core.quotePath=false', 'diff', '-M', '--name-status', 'HEAD~1', 'HEAD')
      .split('\n')
      .map((l) => l.split('\t'));
    for (const [s, a, b] of status) {
      if (s === 'A') expect(byPath.get(a!)!.created).toBe(true);
      if (s === 'D') expect(byPath.get(a!)!.deleted).toBe(true);
      if (s!.startsWith('R')) expect(byPath.get(b!)!.oldPath).toBe(a);
      if (s === 'M') expect([byPath.get(a!)!.created, byPath.get(a!)!.deleted]).toEqual([false, false]);
    }
  });

  it('numbers added lines in the new file and removed lines in the old one', () => {
    const f = byPath.get('src/edit.ts')!;
    const after = readFileSync(join(repo, 'src/edit.ts'), 'utf8').split('\n');
    for (const a of f.added) expect(after[a.line - 1]).toBe(a.text);
    for (const r of f.removedLines) expect(before[r.line - 1]).toBe(r.text);
    expect(f.removed).toEqual(f.removedLines.map((r) => r.text));
    expect(f.hunks.length).toBeGreaterThan(0);
    expect(f.header.some((h) => h.startsWith('index '))).toBe(false);
  });

  it('the bytes of the files add up to the diff text', () => {
    expect(files.reduce((s, f) => s + f.bytes, 0)).toBe(Buffer.byteLength(text));
  });

  it('empty input and text without a diff --git line give no file', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
    expect(parseUnifiedDiff('warning: something\n+not a diff\n')).toEqual([]);
  });
});

describe('wholeText: a new or deleted file read from its patch', () => {
  it("is git's blob for every created and deleted text file, and undefined where the patch lacks the whole text", () => {
    const repo = makeRepo({
      'gone.txt': 'one\ntwo\n',
      'gone-open.txt': 'no newline at the end',
      'edited.txt': lines(20, 'edit'),
    });
    repos.push(repo);
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    for (const f of ['gone.txt', 'gone-open.txt']) rmSync(join(repo, f));
    writeTree(repo, {
      'new.txt': 'a\n\nb\n',
      'new-open.txt': 'last line has no newline',
      'crlf.txt': 'carriage\r\nreturns\r\n',
      'backslash.txt': '\\ not a marker\n+plus\n-minus\n',
      'empty.txt': '',
      'edited.txt': lines(20, 'edit').replace('edit line 7', 'changed'),
      'bin.dat': 'x\u0000y\n',
    });
    symlinkSync('new.txt', join(repo, 'link'));
    const head = commitAll(repo, 'change');
    const patch = parseUnifiedDiff(sh(repo, 'git', ['diff', '-M', '--no-ext-diff', base, head]));
    const byPath = new Map(patch.map((f) => [f.path, f]));
    const blob = (rev: string, p: string) => sh(repo, 'git', ['cat-file', 'blob', `${rev}:${p}`]);
    for (const p of ['new.txt', 'new-open.txt', 'crlf.txt', 'backslash.txt', 'empty.txt', 'link'])
      expect(wholeText(byPath.get(p)!), p).toBe(blob(head, p));
    for (const p of ['gone.txt', 'gone-open.txt']) expect(wholeText(byPath.get(p)!), p).toBe(blob(base, p));
    // An edit's patch holds its hunks only; a binary file none of its text.
    expect(wholeText(byPath.get('edited.txt')!)).toBeUndefined();
    expect(byPath.get('bin.dat')!.binary).toBe(true);
    expect(wholeText(byPath.get('bin.dat')!)).toBeUndefined();
  });
});
