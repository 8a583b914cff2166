import { describe, expect, it } from 'vitest';
import { markdownCell, markdownTable, textTable } from '../../lib/report/table.js';

/** Column start offsets (in code points) of a line whose cells hold no spaces. */
const starts = (line: string): number[] => [...line.matchAll(/\S+/gu)].map((m) => [...line.slice(0, m.index)].length);

describe('textTable', () => {
  const header = ['agent', 'rating', 'n'];
  const rows = [
    ['claude-code', '7.25', '12'],
    ['x', '10.00', '3'],
  ];

  it('puts every column at the same offset on every line, two spaces after the widest cell, no trailing space', () => {
    const lines = textTable(header, rows).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(3);
    const first = starts(lines[0]!);
    for (const l of lines) {
      expect(starts(l)).toEqual(first);
      expect(l).toBe(l.trimEnd());
    }
    expect(first[1]).toBe('claude-code'.length + 2);
    expect(first[2]).toBe(first[1]! + 'rating'.length + 2);
  });

  it('right-aligns the columns asked for: their cells end at one offset', () => {
    const lines = textTable(header, rows, { align: ['left', 'right', 'right'] })
      .trimEnd()
      .split('\n');
    const ends = lines.map((l) => l.length);
    expect(new Set(ends).size).toBe(1);
    const ratingEnd = lines.map(
      (l) =>
        l.indexOf(l.includes('rating') ? 'rating' : l.includes('7.25') ? '7.25' : '10.00') +
        (l.includes('rating') ? 6 : l.includes('7.25') ? 4 : 5),
    );
    expect(new Set(ratingEnd).size).toBe(1);
  });

  it('counts ✓ and — as one column wide and treats a missing cell as empty', () => {
    const lines = textTable(
      ['a', 'b', 'c'],
      [
        ['✓', '—'],
        ['yes', 'no', 'z'],
      ],
    )
      .trimEnd()
      .split('\n');
    expect(starts(lines[1]!)).toEqual(starts(lines[2]!).slice(0, 2));
  });

  it('with rule: a line of dashes exactly as wide as each column', () => {
    const out = textTable(['bead', 'score'], [['bd-1', '100.0']], { rule: true }).split('\n');
    expect(out[1]).toBe(`${'-'.repeat(4)}  ${'-'.repeat(5)}`);
  });

  it('no rows: the header alone', () => {
    expect(textTable(['a', 'bb'], [])).toBe('a  bb\n');
  });
});

describe('markdownTable', () => {
  it('has a header, a separator with one cell per column, and one line per row with as many cells', () => {
    const md = markdownTable(
      ['Category', '#1 a', '#2 b'],
      [
        ['Correctness', '0.90'],
        ['**Overall**', '0.80', '0.70'],
      ],
    );
    const lines = md.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const cells = (l: string) => l.split(/(?<!\\)\|/).length - 2;
    for (const l of lines) expect(cells(l)).toBe(3);
    expect(lines[1]).toMatch(/^\|(-{3,}\|){3}$/);
  });

  it('markdownCell escapes pipes, folds newlines and cuts at max', () => {
    const c = markdownCell('a|b\nc', 4);
    expect(c).not.toMatch(/(?<!\\)\|/);
    expect(c).not.toContain('\n');
    expect(c.length).toBe(4);
  });
});
