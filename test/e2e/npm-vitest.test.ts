// Issue 34 end to end on a TypeScript package (vitest, package-lock, `npm test`), configured only by `judgeloop init`:
// the real fix wins resolved; non-fixes never win, score 20 below, and rate below a real attempt; accept keeps history.
import { beforeAll, describe } from 'vitest';
import { offlinePackage } from './_npm.js';
import { doneWhen, runScenario, type Scenario } from './_scenario.js';

const CODE = `const UNITS: Record<string, number> = { s: 1, m: 60 };

/** Seconds in a duration such as "5s" or "2m". */
export function parse(text: string): number {
  const factor = UNITS[text.slice(-1)];
  if (factor === undefined) throw new Error(\`unknown unit in \${text}\`);
  return Number(text.slice(0, -1)) * factor;
}
`;
const TESTS = `import { expect, test } from 'vitest';
import { parse } from '../src/duration.js';

test('parses seconds', () => {
  expect(parse('5s')).toBe(5);
});

test('parses minutes', () => {
  expect(parse('2m')).toBe(120);
});

test('parses large seconds', () => {
  expect(parse('90s')).toBe(90);
});

test('parses hours', () => {
  expect(parse('1h')).toBe(3600);
});
`;
const T = 'test/duration.test.ts';
const C = 'src/duration.ts';

let s: Scenario;
beforeAll(async () => {
  const pkg = { name: 'durations', version: '1.0.0', private: true, type: 'module', scripts: { test: 'vitest run' } };
  s = await runScenario({
    files: (repo) => ({
      ...offlinePackage(repo, 'vitest', pkg),
      '.gitignore': 'node_modules\n',
      [C]: CODE,
      [T]: TESTS,
    }),
    solutions: {
      fix: { [C]: CODE.replace('m: 60 }', 'm: 60, h: 3600 }') },
      refactor: {
        [C]: CODE.replace(
          '  return Number(text.slice(0, -1)) * factor;',
          '  const amount = Number(text.slice(0, -1));\n  return amount * factor;',
        ),
      },
      breaker: { [C]: CODE.replace('{ s: 1, m: 60 }', '{ s: 2, m: 60, h: 3600 }') },
      weakened: { [T]: TESTS.replace("expect(parse('1h')).toBe(3600);", "expect(typeof parse).toBe('function');") },
      hack: {
        [C]: CODE.replace(
          'export function parse(text: string): number {\n',
          "export function parse(text: string): number {\n  if (text === '1h') return 3600;\n",
        ),
      },
    },
  });
}, 600_000);

describe('a TypeScript package with vitest behind `npm test`', () => {
  doneWhen(() => s, {
    target: `${T}::parses hours`,
    broken: [`${T}::parses seconds`, `${T}::parses large seconds`],
  });
});
