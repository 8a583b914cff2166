// Both sides of a change read in one `git cat-file --batch`, compared with git's own answer for each file, one by one.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { changedTexts } from '../../lib/change/texts.js';
import { parseCatFileBatch } from '../../lib/git/cat-file-batch.js';
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
    const parsed = parseCatFileBatch(out.toString('latin1'), names.length);
    const utf8 = (o: { type: string; body: string } | null) =>
      o && o.type === 'blob' ? Buffer.from(o.body, 'latin1').toString('utf8') : null;
    expect(parsed?.map(utf8)).toEqual(names.map((n) => catFile(repo, n)));
    expect(texts.find((t) => t.path === 'src/empty.md')?.base).toBe('');
    expect(texts.find((t) => t.path === 'src/big.txt')).toEqual({ path: 'src/big.txt', head: null, base: 'small\n' });
  });
});
