// README's hook, cron and CI recipes are the files in examples/, byte for byte (the other tests fire those files).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXAMPLES, ROOT } from './_setup.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}
const recipes = files(EXAMPLES).filter((f) => !relative(EXAMPLES, f).startsWith('runs'));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README recipes', () => {
  it('covers every integration file in examples/', () => {
    expect(recipes.map((f) => relative(ROOT, f)).sort()).toEqual([
      'examples/claude-code/settings.json',
      'examples/cron/crontab',
      'examples/cron/judgeloop.env',
      'examples/git/post-commit',
      'examples/github/judgeloop.yml',
      'examples/systemd/judgeloop-drain.service',
      'examples/systemd/judgeloop-drain.timer',
    ]);
  });
  it.each(recipes.map((f) => [relative(ROOT, f), f]))(
    '%s is in README verbatim, in a fenced block under its name',
    (name, file) => {
      const text = readFileSync(file, 'utf8');
      const at = readme.indexOf(`\`${name}\`:\n\n\`\`\``);
      expect(at, name).toBeGreaterThan(-1);
      const open = readme.indexOf('\n', readme.indexOf('```', at)) + 1;
      expect(readme.slice(open, open + text.length + 4)).toBe(`${text}\`\`\`\n`);
    },
  );
});
