// README's worked examples and headline counts are what the code prints: the demo runs for real and each README
// block marked `<!-- demo output: NAME -->` must equal the demo's section NAME. `UPDATE_README=1` rewrites them.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINTERS, TEST_RUNNERS } from '../../lib/collector/parsers/index.js';

const root = join(import.meta.dirname, '..', '..');
const readmePath = join(root, 'README.md');
const MARK = /<!-- demo output: ([a-z]+) -->\n\n```\n([\s\S]*?)```\n/g;

/** The demo's stdout cut into its sections: the table, then each `# name` block. */
function sections(out: string): Map<string, string> {
  const found = new Map<string, string>();
  const table = /\n(bead {2}[\s\S]*?\n)\n/.exec(out);
  if (table?.[1]) found.set('table', table[1]);
  for (const m of out.matchAll(/\n# ([a-z]+)\n\n([\s\S]*?)(?=\n# [a-z]+\n|\nReport: )/g)) {
    found.set(m[1] ?? '', `${(m[2] ?? '').trimEnd()}\n`);
  }
  return found;
}

let out = '';
let work = '';
beforeAll(() => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'demo', 'demo.ts')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 280_000,
  });
  out = r.stdout;
  work = /Working folder: (\S+)/.exec(out)?.[1] ?? '';
  expect(r.status, r.stderr).toBe(0);
}, 300_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('README examples', () => {
  it('every marked block is the demo section it names', () => {
    const demo = sections(out);
    const readme = readFileSync(readmePath, 'utf8');
    const names = [...readme.matchAll(MARK)].map((m) => m[1]);
    expect(names.sort()).toEqual(['race', 'ratings', 'table', 'templates']);
    if (process.env.UPDATE_README === '1') {
      writeFileSync(
        readmePath,
        readme.replace(
          MARK,
          (_all, name: string) => `<!-- demo output: ${name} -->\n\n\`\`\`\n${demo.get(name) ?? ''}\`\`\`\n`,
        ),
      );
      return;
    }
    for (const m of readme.matchAll(MARK)) expect(m[2], `README block "${m[1]}"`).toBe(demo.get(m[1] ?? ''));
  });

  it('states the runners, linters and captured outputs it has', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [n]));
    const captures = files(join(root, 'test', 'fixtures', 'output')).filter((n) => n !== 'expected.json').length;
    const claim = `${TEST_RUNNERS.length + LINTERS.length} runners and linters, checked against ${captures} real captured outputs`;
    expect(readFileSync(readmePath, 'utf8').replace(/\s+/g, ' ')).toContain(claim);
  });
});
