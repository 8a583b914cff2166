// AGENTS.md is the map: short, every area on it, and every formula it names is where it says.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const map = readFileSync(join(root, 'AGENTS.md'), 'utf8');

describe('AGENTS.md', () => {
  it('fits in 150 lines', () => {
    expect(map.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('has a line for every area folder under lib/', () => {
    const areas = readdirSync(join(root, 'lib'), { withFileTypes: true }).filter((d) => d.isDirectory());
    const missing = areas.map((d) => d.name).filter((a) => !map.includes(`| \`lib/${a}\` |`));
    expect(missing).toEqual([]);
  });

  it('names design pages that exist', () => {
    const pages = [...map.matchAll(/\b([a-z-]+\.md)\b/g)]
      .map((m) => m[1] ?? '')
      .filter((p) => !/^(README|AGENTS|CHANGELOG)/i.test(p));
    const missing = [...new Set(pages)].filter((p) => !existsSync(join(root, 'docs', 'design', p)));
    expect(missing).toEqual([]);
  });

  it('finds every formula function in the file it names', () => {
    const rows = map.split('\n').filter((l) => /^\| .* \| `\w+`.* in `lib\/[^`]+\.ts` \|$/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(20);
    const wrong: string[] = [];
    for (const row of rows) {
      const cell = row.split(' | ')[1] ?? '';
      const file = /in `(lib\/[^`]+\.ts)`/.exec(cell)?.[1] ?? '';
      const source = existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '';
      for (const [, name] of cell.split(' in ')[0]?.matchAll(/`(\w+)`/g) ?? []) {
        if (!new RegExp(`export (async )?function ${name}\\b|export const ${name}\\b`).test(source))
          wrong.push(`${name} in ${file}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
