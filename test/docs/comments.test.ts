// Comments earn their place: a file opens with one or two lines, and no comment block inside runs to an essay
// (a why fits in a few lines; the rest belongs in docs/design/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const OPENING_MAX = 2;
const BLOCK_MAX = 6;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return n.endsWith('.ts') && n !== 'types.generated.ts' ? [p] : [];
  });
}
const files = [...sources(join(root, 'lib')), ...sources(join(root, 'scripts'))];
const isComment = (line: string): boolean => /^\s*(\/\/|\/\*|\*)/.test(line);

/** Lengths of the runs of comment lines, with the line each starts on. */
function blocks(text: string): { at: number; length: number }[] {
  const out: { at: number; length: number }[] = [];
  let start = -1;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (isComment(line)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push({ at: start + 1, length: i - start });
      start = -1;
    }
  });
  return out;
}

describe('comments', () => {
  it(`a file's opening comment is at most ${OPENING_MAX} lines`, () => {
    const long = files.flatMap((f) => {
      const first = blocks(readFileSync(f, 'utf8'))[0];
      return first?.at === 1 && first.length > OPENING_MAX ? [`${relative(root, f)} (${first.length} lines)`] : [];
    });
    expect(long).toEqual([]);
  });

  it(`no comment block is longer than ${BLOCK_MAX} lines`, () => {
    const long = files.flatMap((f) =>
      blocks(readFileSync(f, 'utf8'))
        .filter((b) => b.length > BLOCK_MAX)
        .map((b) => `${relative(root, f)}:${b.at} (${b.length} lines)`),
    );
    expect(long).toEqual([]);
  });
});
