// Mixed-script identifiers and strings (homoglyphs): a finding in a code file of any language, from the diff git
// produces; a word of one script alone (a Russian message, a Greek constant) is not.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { tamperFindings } from '../../lib/change/tamper.js';
import { homoglyphWord, mixedScripts } from '../../lib/change/homoglyph.js';
import { commitAll, gitIn, makeRepo, writeTree } from '../helpers/repo.js';

const repos: string[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r, { recursive: true, force: true });
});

function findings(path: string, before: string | null, after: string) {
  const repo = makeRepo({ 'README.md': 'x\n', ...(before === null ? {} : { [path]: before }) });
  repos.push(repo);
  writeTree(repo, { [path]: after });
  commitAll(repo, 'change');
  const diff = gitIn(repo, 'diff', 'HEAD~1', 'HEAD');
  return tamperFindings(parseUnifiedDiff(diff + '\n'), [{ path, head: after, base: before }], () => false).filter((f) =>
    f.name.includes('mixes scripts'),
  );
}

describe('mixedScripts (pure)', () => {
  it('names the lookalike scripts a Latin word mixes in', () => {
    expect(mixedScripts('p\u0430ssword')).toEqual(['cyrillic']); // Cyrillic а
    expect(mixedScripts('c\u03BFnfig')).toEqual(['greek']); // Greek ο
    expect(mixedScripts('is\uFF21dmin')).toEqual(['fullwidth']); // fullwidth Ａ
    expect(mixedScripts('\u0441\u043E\u0440y')).toEqual(['cyrillic']); // Cyrillic с, о, р with a Latin y
  });
  it('a word of one script, accented Latin, digits and underscores are not mixed', () => {
    for (const w of [
      'password',
      '\u041E\u0448\u0438\u0431\u043A\u0430',
      '\u03C0\u03B9',
      'caf\u00E9',
      'Stra\u00DFe',
      'x_1',
      '$el',
    ])
      expect(mixedScripts(w), w).toEqual([]);
  });
  it('homoglyphWord finds the first mixed word of a line', () => {
    expect(homoglyphWord('if user.p\u0430ssword == x:')).toEqual({ word: 'p\u0430ssword', scripts: ['cyrillic'] });
    expect(
      homoglyphWord(
        'raise ValueError("\u041D\u0435\u0432\u0435\u0440\u043D\u044B\u0439 \u043F\u0430\u0440\u043E\u043B\u044C")',
      ),
    ).toBeNull();
  });
});

describe('homoglyph findings in a change', () => {
  it.each([
    [
      'a Greek omicron in a Python function that shadows the real one',
      'auth.py',
      'def check(u):\n    return u.ok\n',
      'def check(u):\n    return u.ok\n\n\ndef che\u03BFk(u):\n    return True\n',
      5,
    ],
    [
      'a Cyrillic а in a JS property',
      'src/auth.js',
      'export const ok = (u) => u.password;\n',
      'export const ok = (u) => u.p\u0430ssword;\n',
      1,
    ],
    ['a fullwidth letter in a Go string', 'main.go', 'package main\n', 'package main\n\nvar role = "\uFF41dmin"\n', 3],
    [
      'a Cyrillic letter in a Rust identifier',
      'src/lib.rs',
      'pub fn f() {}\n',
      'pub fn f() {}\npub fn \u0435val() {}\n',
      2,
    ],
  ])('%s: a finding at its line', (_name, path, before, after, at) => {
    const f = findings(path, before, after);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'special_case', file: path, line: at });
  });

  it('a Russian message, a Greek constant, a name the base already has, and a text file are not findings', () => {
    expect(
      findings(
        'msg.py',
        null,
        'MSG = "\u041F\u0430\u0440\u043E\u043B\u044C \u043D\u0435\u0432\u0435\u0440\u0435\u043D"\n\u03C0 = 3.14159\n',
      ),
    ).toEqual([]);
    const kept = 'def p\u0430ss():\n    return 1\n';
    expect(findings('old.py', kept, `${kept}x = p\u0430ss()\n`)).toEqual([]);
    expect(findings('notes.md', null, 'p\u0430ssword\n')).toEqual([]);
  });
});
