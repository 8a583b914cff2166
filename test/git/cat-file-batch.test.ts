// One `cat-file --batch` read back object by object equals git's own answers (real git: UTF-8, invalid UTF-8, NUL,
// empty, missing, a tree), and changedTexts reads a change's texts in one git process, as one read each would.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedTexts } from '../../lib/change/texts.js';
import { parseCatFileBatch } from '../../lib/git/cat-file-batch.js';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { findOnPath } from '../../lib/process/sandbox.js';
import { commitAll, gitIn, makeRepo, tempDir } from '../helpers/repo.js';

/** A base and a change: an edit, invalid UTF-8, a file over 1 MiB, a rename, a creation, a deletion, odd names. */
function repo(): { dir: string; base: string; head: string } {
  const dir = makeRepo({
    'a.txt': 'é\nb\n',
    'latin.txt': 'x\n',
    'big.txt': 'y\n',
    'moved.txt': 'one\ntwo\nthree\nfour\n',
    'gone.txt': 'g\n',
    'sp ace.txt': 's\n',
  });
  const base = gitIn(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'a.txt'), 'é\nc\n');
  writeFileSync(join(dir, 'latin.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(join(dir, 'big.txt'), 'z\n'.repeat(600_000));
  gitIn(dir, 'mv', 'moved.txt', 'renamed.txt');
  writeFileSync(join(dir, 'renamed.txt'), 'one\ntwo\nthree\nfive\n');
  writeFileSync(join(dir, 'new é.txt'), '');
  writeFileSync(join(dir, 'sp ace.txt'), 't\n');
  rmSync(join(dir, 'gone.txt'));
  return { dir, base, head: commitAll(dir, 'change') };
}

const one = (dir: string, name: string): string | null => {
  const r = spawnSync('git', ['cat-file', 'blob', name], { cwd: dir, maxBuffer: 1024 * 1024 });
  const text = r.status === 0 && !r.error ? r.stdout.toString('utf8') : null;
  return text === null || text.includes('\u0000') ? null : text;
};

describe('parseCatFileBatch', () => {
  it('gives each object git prints alone, in the order asked', () => {
    const { dir, base, head } = repo();
    writeFileSync(join(dir, 'nul.bin'), 'a\0b');
    const withNul = commitAll(dir, 'nul');
    const names = [
      `${head}:a.txt`,
      `${head}:latin.txt`,
      `${head}:new é.txt`,
      `${base}:nope`,
      head,
      `${withNul}:nul.bin`,
    ];
    const out = execFileSync('git', ['cat-file', '--batch'], { cwd: dir, input: names.map((n) => `${n}\n`).join('') });
    const got = parseCatFileBatch(out.toString('latin1'), names.length);
    expect(got).not.toBeNull();
    names.forEach((n, i) => {
      const o = got![i];
      const t = spawnSync('git', ['cat-file', '-t', n], { cwd: dir, encoding: 'utf8' });
      if (t.status !== 0) return expect(o, n).toBeNull();
      expect(o?.type, n).toBe(t.stdout.trim());
      const body = execFileSync('git', ['cat-file', t.stdout.trim(), n], { cwd: dir });
      expect(Buffer.from(o!.body, 'latin1').equals(body), n).toBe(true);
    });
  });
  it('refuses text of another shape', () => {
    const oid = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
    expect(parseCatFileBatch(`${oid} blob 3\nab\n`, 1)).toBeNull();
    expect(parseCatFileBatch(`${oid} blob 2\nab\n`, 2)).toBeNull();
    expect(parseCatFileBatch(`${oid} blob 2\nab\nextra`, 1)).toBeNull();
    expect(parseCatFileBatch('what\n', 1)).toBeNull();
  });
});

describe('changedTexts', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });
  it('reads every changed text in one git process, each as `cat-file blob` alone gives it', async () => {
    const real = findOnPath('git');
    if (!real) throw new Error('git is not installed: apt-get install git');
    const { dir, base, head } = repo();
    const patch = parseUnifiedDiff(
      execFileSync('git', ['diff', '-M', base, head], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 }),
    );
    const shim = tempDir('judgeloop-shim-');
    mkdirSync(join(shim, 'bin'));
    const log = join(shim, 'git.log');
    writeFileSync(join(shim, 'bin', 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\nexec ${real} "$@"\n`);
    chmodSync(join(shim, 'bin', 'git'), 0o755);
    writeFileSync(log, '');
    process.env.PATH = `${join(shim, 'bin')}:${path}`;
    const texts = await changedTexts(dir, base, head, patch);
    const reads = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => / cat-file /.test(` ${l.replace(/(-c \S+ )+/, '')}`));
    expect(reads).toHaveLength(1);
    const want = patch
      .filter((p) => !p.binary)
      .map((p) => ({
        path: p.path,
        head: p.deleted ? null : one(dir, `${head}:${p.path}`),
        base: p.created ? null : one(dir, `${base}:${p.oldPath ?? p.path}`),
      }));
    expect(texts).toEqual(want);
    expect(texts.find((t) => t.path === 'big.txt')).toEqual({ path: 'big.txt', head: null, base: 'y\n' });
    expect(texts.find((t) => t.path === 'latin.txt')?.head).toBe('caf\uFFFD\n');
  });
});
