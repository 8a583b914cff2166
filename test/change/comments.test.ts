// Seed 001's comment coverage: comments found per language, added lines counted, the score against the target.
import { describe, expect, it } from 'vitest';
import {
  classifyLines,
  commentFigures,
  commentRanges,
  commentScore,
  commentsKnown,
} from '../../lib/change/comments.js';

/** Line numbers (1-based) holding comment text / code, for the whole file. */
function lines(path: string, text: string): { comment: number[]; code: number[] } {
  const kinds = classifyLines(text, commentRanges(path, text)!);
  return {
    comment: kinds.flatMap((k, i) => (k.comment ? [i + 1] : [])),
    code: kinds.flatMap((k, i) => (k.code ? [i + 1] : [])),
  };
}

const all = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));

describe('comment coverage', () => {
  it('TypeScript: line, block and trailing comments; markers inside strings, templates and regexes are code', () => {
    const ts = [
      '// leading',
      '/**',
      ' * doc',
      ' */',
      'export function f(x: string): string {',
      '  const url = "http://a/b"; // trailing',
      '  const t = `// not a comment ${x}`;',
      '  const re = /\\/\\//g;',
      '  return x.replace(re, url + t); /* inline */',
      '}',
      '',
    ].join('\n');
    expect(lines('a.ts', ts)).toEqual({ comment: [1, 2, 3, 4, 6, 9], code: [5, 6, 7, 8, 9, 10] });
  });

  it('JSX text with // in it is not a comment', () => {
    const tsx = 'export const A = () => <p>see http://x // y</p>;\n// real\n';
    expect(lines('a.tsx', tsx)).toEqual({ comment: [2], code: [1] });
  });

  it('Python: # comments and docstrings; # inside a string is code', () => {
    const py = [
      'def f(x):',
      '    """Doc',
      '    string."""',
      '    s = "# not"  # trailing',
      "    return s + '#'",
      '# end',
      '',
    ].join('\n');
    expect(lines('m.py', py)).toEqual({ comment: [2, 3, 4, 6], code: [1, 4, 5] });
  });

  it('Go raw strings and Rust lifetimes do not hide or invent comments', () => {
    const go = ['package m', 'var s = `', '// inside a raw string', '`', '// real', ''].join('\n');
    expect(lines('m.go', go)).toEqual({ comment: [5], code: [1, 2, 3, 4] });
    const rs = ["fn f<'a>(x: &'a str) -> &'a str { x } // trailing", ''].join('\n');
    expect(lines('m.rs', rs)).toEqual({ comment: [1], code: [1] });
  });

  it('shell, SQL and an unknown language', () => {
    expect(lines('s.sh', 'echo "#x" # c\n# only\n')).toEqual({ comment: [1, 2], code: [1] });
    expect(lines('q.sql', "select '--' -- c\n/* b */\n")).toEqual({ comment: [1, 2], code: [1] });
    expect(commentsKnown('x.zig')).toBe(false);
    expect(commentRanges('x.zig', '// c')).toBeNull();
  });

  it('counts only the added lines, and lists files whose language it does not know', () => {
    const text = '// a\nconst a = 1;\n// b\nconst b = 2;\n';
    const f = commentFigures([
      { path: 'a.ts', text, addedLines: new Set([3, 4]) },
      { path: 'b.zig', text: 'const x = 1;\n', addedLines: new Set([1]) },
    ]);
    expect(f).toEqual({ commentLines: 1, codeLines: 1, files: 1, unknown: ['b.zig'] });
    expect(commentFigures([{ path: 'a.ts', text, addedLines: all(text) }])).toMatchObject({
      commentLines: 2,
      codeLines: 2,
    });
  });

  it('score: the ratio over the target, capped at 1; a target of 0 always scores 1', () => {
    expect(commentScore(1, 20, 0.1)).toBeCloseTo(0.5, 12);
    expect(commentScore(2, 20, 0.1)).toBe(1);
    expect(commentScore(9, 20, 0.1)).toBe(1);
    expect(commentScore(0, 20, 0.1)).toBe(0);
    expect(commentScore(0, 20, 0)).toBe(1);
    expect(() => commentScore(1, 0, 0.1)).toThrow();
  });
});
