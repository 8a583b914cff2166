// A real project in a real git repo with one real branch (and worktree) per competing solution.
import { judgmentFor, writeJudgmentFile } from '../helpers/judgment.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type DeepPartial } from '../../lib/config/config.js';
import type { Config } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

const t = (name: string, expr: string) => `test(${JSON.stringify(name)}, () => assert.ok(${expr}));\n`;
const HEADER =
  "import test from 'node:test';\nimport assert from 'node:assert';\nimport { clamp } from '../src/clamp.mjs';\n";
export const BUGGY = 'export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  return x;\n}\n';
export const FIXED =
  'export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\n';
export const BASE_TESTS =
  HEADER +
  t('below', 'clamp(-1, 0, 5) === 0') +
  t('inside', 'clamp(3, 0, 5) === 3') +
  t('above', 'clamp(9, 0, 5) === 5');
export const MORE_TESTS = BASE_TESTS + t('at the upper bound', 'clamp(5, 0, 5) === 5');

function util(i: number, indent: string): string {
  return `export function scale${i}(values, factor) {\n${indent}const out = [];\n${indent}for (const v of values) {\n${indent}${indent}out.push(v * factor + ${i});\n${indent}}\n${indent}return out;\n}\n`;
}

export const PROJECT: Record<string, string> = {
  'src/clamp.mjs': BUGGY,
  'test/clamp.test.mjs': BASE_TESTS,
  // One process imports every module: a syntax error anywhere fails the build.
  'tools/build.mjs':
    "import { readdirSync } from 'node:fs';\nfor (const f of readdirSync('src')) await import('../src/' + f);\n",
  'tools/lint.mjs': [
    "import { readFileSync, readdirSync } from 'node:fs';",
    'let w = 0; let e = 0;',
    "for (const f of readdirSync('src')) { const s = readFileSync('src/' + f, 'utf8'); w += (s.match(/console\\.log/g) || []).length; e += (s.match(/debugger/g) || []).length; }",
    'if (w + e) { console.log(`\\n\\u2716 ${w + e} problems (${e} errors, ${w} warnings)\\n`); }',
    'process.exit(e ? 1 : 0);',
    '',
  ].join('\n'),
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/util${i}.mjs`, util(i, '  ')])),
};

export const COMMANDS = {
  build: 'node tools/build.mjs',
  test: 'node --test test/',
  lint: 'node tools/lint.mjs',
  typecheck: null,
};

/** The six solutions of the race test: what each commits on its branch. */
export const SOLUTIONS: Record<string, Record<string, string>> = {
  clean: { 'src/clamp.mjs': FIXED, 'test/clamp.test.mjs': MORE_TESTS },
  reformat: {
    'src/clamp.mjs': FIXED,
    'test/clamp.test.mjs': MORE_TESTS,
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/util${i}.mjs`, util(i, '    ')])),
  },
  deltest: {
    'test/clamp.test.mjs': HEADER + t('below', 'clamp(-1, 0, 5) === 0') + t('inside', 'clamp(3, 0, 5) === 3'),
  },
  secret: {
    'src/clamp.mjs':
      "const API_KEY = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';\n" +
      FIXED +
      'const client = { key: API_KEY };\nvoid client;\n',
    'test/clamp.test.mjs': MORE_TESTS,
  },
  stub: {
    'src/clamp.mjs':
      'export function clamp(x, lo, hi) {\n  // TODO: handle the upper bound\n  if (x < lo) return lo;\n  return x;\n}\n',
  },
  nobuild: { 'src/clamp.mjs': FIXED.replace('return hi;', 'return hi;;}'), 'test/clamp.test.mjs': MORE_TESTS },
};

export interface RaceProject {
  repo: string;
  dir: string;
  state: string;
}

export function makeRaceProject(): RaceProject {
  const repo = makeRepo(PROJECT);
  const dir = tempDir('judgeloop-race-');
  return { repo, dir, state: join(dir, 'state') };
}

/** A real branch agent/<name> with `files` committed, in its own worktree; returns the run record path. */
export function addSolution(
  p: RaceProject,
  name: string,
  files: Record<string, string>,
  over: Record<string, unknown> = {},
): string {
  const wt = join(p.dir, `wt-${name}`);
  gitIn(p.repo, 'worktree', 'add', '-q', '-b', `agent/${name}`, wt);
  writeTree(wt, files);
  gitIn(wt, 'add', '-A');
  gitIn(wt, 'commit', '-q', '-m', `agent ${name}`);
  return writeAgentRecord(p.dir, name, {
    task: { id: 'fix-clamp', prompt: 'clamp ignores the upper bound: fix it' },
    race_id: 'race-clamp',
    usage: { input_tokens: 10000, output_tokens: 2000, total_tokens: 12000, cost_usd: 0.3 },
    commands: COMMANDS,
    ...over,
  });
}

/**
 * Writes <dir>/<name>.json, the run record of agent `name`'s completed work on branch agent/<name> in worktree
 * <dir>/wt-<name> (bead bd-<name>); `fields` (the task, the commands) add to or replace its fields. Returns its path.
 */
export function writeAgentRecord(dir: string, name: string, fields: Record<string, unknown>): string {
  const record = {
    schema_version: '1.0.0',
    bead: `bd-${name}`,
    agent: { slug: name },
    template: 'bugfix-v1',
    worktree: `wt-${name}`,
    base_ref: 'main',
    head_ref: `agent/${name}`,
    started_at: '2026-01-01T10:00:00Z',
    completed_at: '2026-01-01T10:01:00Z',
    exit_code: 0,
    status: 'completed',
    ...fields,
  };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2));
  return file;
}

/** Config defaults with overrides (`race` is optional in the schema, so DeepPartial<Config> does not reach inside it). */
export function raceTestConfig(overrides: { race?: DeepPartial<NonNullable<Config['race']>> } = {}): Config {
  return loadConfig({ env: {}, overrides: overrides as DeepPartial<Config> });
}

/** A judgment with the optional criteria, as the judge writes it (state/judgments/<bead>.json, schema-valid). */
export function writeJudgment(state: string, bead: string, score: number, confidence: number): void {
  const names = [
    'requirement_coverage',
    'edge_cases',
    'naming',
    'pattern_adherence',
    'error_handling',
    'security',
    'algorithmic_complexity',
  ] as const;
  const criteria = Object.fromEntries(names.map((n) => [n, { score, confidence, reasoning: `${n} looks right` }]));
  writeJudgmentFile(state, judgmentFor(bead, { verdict: 'pass', score, criteria }));
}
