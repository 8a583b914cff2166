// Both sides of a change read in one `git cat-file --batch`, compared with git's own answer for each file, one by one.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { changedTexts, splitBatch } from '../../lib/change/texts.js';
import { commitAll, gitIn, makeRepo, writeTree } from '../helpers/repo.js';

/** git's bytes of `rev:path` as UTF-8 text, or null when git has no such blob. */
function catFile(repo: string, name: string): string | null {
  try {
    return execFileSync('git', ['cat-file', 'blob', name], { cwd: repo, maxBuffer: 8 << 20 }).toString('utf8');
  } catch {
    return null;
  }
}

describe('changedTexts', () => {
  it('reads every text file of a change on both sides as git prints it, in one process', async () => {
    const big = `${'x'.repeat(99)}\n`.repeat(11_000); // over 1 MiB: too big to read, as before
    const repo = makeRepo({
      'src/a.ts': 'export const a = 1;\n',
      'src/ünï cödé.py': 'x = "é"\n',
      'src/crlf.txt': 'one\r\ntwo\r\n',
      'src/empty.md': '',
      'src/old-name.js': 'module.exports = 1;\n'.repeat(20),
      'src/gone.go': 'package gone\n',
      'src/big.txt': 'small\n',
      'src/no-newline.txt': 'last line',
    });
    const from = gitIn(repo, 'rev-parse', 'HEAD').trim();
    gitIn(repo, 'mv', 'src/old-name.js', 'src/new-name.js');
    gitIn(repo, 'rm', '-q', 'src/gone.go');
    writeTree(repo, {
      'src/a.ts': 'export const a = 2;\n\u{1F600}\n',
      'src/ünï cödé.py': 'x = "ü"\n',
      'src/crlf.txt': 'one\r\ntwo\r\nthree\r\n',
      'src/empty.md': 'now text\n',
      'src/new-name.js': `${'module.exports = 1;\n'.repeat(20)}// renamed\n`,
      'src/added.rs': 'fn main() {}\n',
      'src/big.txt': big,
      'src/no-newline.txt': 'last line, changed',
    });
    const to = commitAll(repo, 'change');
    const diff = execFileSync('git', ['diff', '-M', from, to], { cwd: repo, maxBuffer: 8 << 20 }).toString('utf8');
    const patch = parseUnifiedDiff(diff);
    const texts = await changedTexts(repo, from, to, patch);
    expect(texts.map((t) => t.path).sort()).toEqual(
      [
        'src/a.ts',
        'src/added.rs',
        'src/big.txt',
        'src/crlf.txt',
        'src/empty.md',
        'src/gone.go',
        'src/new-name.js',
        'src/no-newline.txt',
        'src/ünï cödé.py',
      ].sort(),
    );
    for (const t of texts) {
      const p = patch.find((x) => x.path === t.path)!;
      const head = p.deleted || t.path === 'src/big.txt' ? null : catFile(repo, `${to}:${t.path}`);
      const base = p.created ? null : catFile(repo, `${from}:${p.oldPath ?? t.path}`);
      expect({ path: t.path, head: t.head, base: t.base }).toEqual({ path: t.path, head, base });
    }
    // The batch itself lines up on git's real output (no fallback to one process per file).
    const names = texts.flatMap((t) => [`${to}:${t.path}`, `${from}:${t.path}`]);
    const out = execFileSync('git', ['cat-file', '--batch'], {
      cwd: repo,
      input: `${names.join('\n')}\n`,
      maxBuffer: 8 << 20,
    });
    const one = names.map((n) => (n.endsWith(':src/big.txt') && n.startsWith(to) ? null : catFile(repo, n)));
    expect(splitBatch(out.toString('utf8'), names)).toEqual(one);
    expect(texts.find((t) => t.path === 'src/empty.md')?.base).toBe('');
    expect(texts.find((t) => t.path === 'src/big.txt')).toEqual({ path: 'src/big.txt', head: null, base: 'small\n' });
  });
});

describe('splitBatch', () => {
  const oid = 'a'.repeat(40);
  it('splits by byte counts, so a line in a file that looks like a header is text', () => {
    const inner = `${oid} blob 3\nabc`;
    const out = `${oid} blob ${inner.length}\n${inner}\n${oid} blob 2\né\n`;
    expect(splitBatch(out, ['r:a', 'r:b'])).toEqual([inner, 'é']);
  });
  it('gives missing names null, and what is not a blob or holds a NUL byte null', () => {
    const out = `r:x missing\n${oid} tree 2\n\u0000\u0000\n${oid} blob 3\na\u0000b\n`;
    expect(splitBatch(out, ['r:x', 'r:t', 'r:n'])).toEqual([null, null, null]);
  });
  it('refuses output it cannot line up (bytes not UTF-8, a count too long, a name not answered)', () => {
    expect(splitBatch(`${oid} blob 1\n\uFFFD\n`, ['r:a'])).toBeNull();
    expect(splitBatch(`${oid} blob 9\nabc\n`, ['r:a'])).toBeNull();
    expect(splitBatch(`${oid} blob 1\na\n`, ['r:a', 'r:b'])).toBeNull();
    expect(splitBatch(`${oid} blob 1\na\nextra`, ['r:a'])).toBeNull();
  });
});
