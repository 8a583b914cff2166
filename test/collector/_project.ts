// A real small project in a real git repo, agent worktrees on it, run records, and an in-process Io.
import { expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Io } from '../../lib/cli/cli.js';
import { readEnv } from '../../lib/base/env.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'collect');

const test = (name: string, expr: string) => `test(${JSON.stringify(name)}, () => assert.ok(${expr}));\n`;
export const HEADER =
  "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/add.mjs';\n";

/** src/add.mjs, two passing node:test tests, a lint script that reports every `console.log` as an eslint-style warning. */
export const PROJECT: Record<string, string> = {
  'src/add.mjs': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/add.test.mjs': HEADER + test('adds', 'add(1, 2) === 3') + test('adds zero', 'add(0, 0) === 0'),
  // A real process printing eslint's stylish summary line for what it finds.
  'tools/lint.mjs': [
    "import { readFileSync, readdirSync } from 'node:fs';",
    'let w = 0; let e = 0;',
    "for (const f of readdirSync('src')) { const t = readFileSync('src/' + f, 'utf8'); w += (t.match(/console\\.log/g) || []).length; e += (t.match(/debugger/g) || []).length; }",
    'if (w + e) { console.log(`\\n\\u2716 ${w + e} problems (${e} errors, ${w} warnings)\\n`); }',
    'process.exit(e ? 1 : 0);',
    '',
  ].join('\n'),
};

export const COMMANDS = {
  build: 'node --check src/add.mjs',
  test: 'node --test test/',
  lint: 'node tools/lint.mjs',
  typecheck: null,
};

export interface Project {
  repo: string;
  /** Folder holding run records and worktrees. */
  dir: string;
  state: string;
}

/**
 * The parts of a checkout the commands need (bin, dist, schemas, config, package.json), copied with their timestamps
 * (cp -a), node_modules linked: a checkout a test may edit. A space in the path, as users' checkouts may have.
 */
export function copyCheckout(): string {
  const dir = join(tempDir('judgeloop-copy-'), 'judge loop');
  mkdirSync(dir);
  const parts = ['bin', 'dist', 'schemas', 'config', 'package.json'].map((part) => join(ROOT, part));
  execFileSync('cp', ['-a', ...parts, dir]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

export function makeProject(files: Record<string, string> = PROJECT): Project {
  const repo = makeRepo(files);
  const dir = tempDir('judgeloop-runs-');
  return { repo, dir, state: join(dir, 'state') };
}

/** A worktree on a new branch from main, with `files` written (not committed) and `commit` files committed. */
export function agentWorktree(
  p: Project,
  name: string,
  opts: { commit?: Record<string, string>; uncommitted?: Record<string, string> } = {},
): string {
  const wt = join(p.dir, `wt-${name}`);
  gitIn(p.repo, 'worktree', 'add', '-q', '-b', `agent/${name}`, wt);
  // An agent that changed nothing is a no-op (never a pass): by default the agent adds one line of code.
  if (!Object.keys({ ...opts.commit, ...opts.uncommitted }).length)
    opts = { commit: { 'src/agent.mjs': 'export const agent = 1;\n' } };
  if (opts.commit) {
    writeTree(wt, opts.commit);
    gitIn(wt, 'add', '-A');
    gitIn(wt, 'commit', '-q', '-m', `agent ${name}`);
  }
  if (opts.uncommitted) writeTree(wt, opts.uncommitted);
  return wt;
}

/** Started a minute ago, completed now, by the machine's clock: for a test whose outcome the run's age decides. */
export function endedNow(): { started_at: string; completed_at: string } {
  const now = Date.now();
  return { started_at: new Date(now - 60_000).toISOString(), completed_at: new Date(now).toISOString() };
}

export function runRecord(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema_version: '1.0.0',
    bead: 'bd-1',
    task: { id: 'task-1', prompt: 'make add() work', complexity: 3 },
    agent: { slug: 'claude', model: 'claude-sonnet' },
    template: 'bugfix-v1',
    worktree: 'wt-a',
    base_ref: 'main',
    started_at: '2026-01-01T00:00:00Z',
    completed_at: '2026-01-01T00:01:00Z',
    exit_code: 0,
    status: 'completed',
    commands: COMMANDS,
    ...over,
  };
}

export function writeRecord(p: Project, name: string, rec: Record<string, unknown> | string): string {
  const file = join(p.dir, `${name}.json`);
  writeFileSync(file, typeof rec === 'string' ? rec : JSON.stringify(rec, null, 2));
  return file;
}

export function makeIo(p: Project, extraEnv: Record<string, string> = {}): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const processEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: tmpdir(),
    JUDGELOOP_STATE_DIR: p.state,
    ...extraEnv,
  };
  return {
    io: {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: readEnv(processEnv),
      processEnv,
      cwd: p.dir,
      color: false,
    },
    out,
    err,
  };
}

export function readJson<T = any>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every file under `dir` with its bytes, to assert state is untouched. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const f = join(d, n);
      if (statSync(f).isDirectory()) {
        if (n !== '.locks') walk(f);
      } else out[f] = readFileSync(f).toString('base64');
    }
  };
  walk(dir);
  return out;
}

export function seedState(p: Project, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(p.state, rel, '..'), { recursive: true });
    writeFileSync(join(p.state, rel), text);
  }
}

export function runBin(
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; input?: string },
): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(BIN, args, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      input: opts.input ?? '',
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return { code: 0, stdout, stderr: '' };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, stdout: x.stdout, stderr: x.stderr };
  }
}

/** Every file of `before` is still there unchanged; append-only logs (.jsonl) may only have grown at the end. */
export function expectPreserved(before: Record<string, string>, after: Record<string, string>): void {
  for (const [f, b64] of Object.entries(before)) {
    const was = Buffer.from(b64, 'base64');
    const now = after[f] === undefined ? undefined : Buffer.from(after[f]!, 'base64');
    if (f.endsWith('.jsonl')) expect(now?.subarray(0, was.length).equals(was), f).toBe(true);
    else expect(now?.equals(was), f).toBe(true);
  }
}

/**
 * One committed worktree of `repo` per solution (branch agent/<name>, folder <dir>/wt-<name>) and its run record
 * <dir>/<name>.json (bead bd-<name>); the records' paths, in the solutions' order.
 */
export function solutionRecords(
  repo: string,
  dir: string,
  solutions: Record<string, Record<string, string>>,
  task: { id: string; prompt: string },
  commands: { build: string | null; test: string | null; lint?: string | null },
): string[] {
  return Object.entries(solutions).map(([name, files]) => {
    const wt = join(dir, `wt-${name}`);
    gitIn(repo, 'worktree', 'add', '-q', '-b', `agent/${name}`, wt);
    writeTree(wt, files);
    gitIn(wt, 'add', '-A');
    gitIn(wt, 'commit', '-q', '-m', name);
    const record = {
      schema_version: '1.0.0',
      bead: `bd-${name}`,
      task,
      agent: { slug: name },
      template: 'bugfix-v1',
      worktree: `wt-${name}`,
      base_ref: 'main',
      started_at: '2026-01-01T00:00:00Z',
      completed_at: '2026-01-01T00:01:00Z',
      exit_code: 0,
      status: 'completed',
      commands: { lint: null, typecheck: null, ...commands },
    };
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(record));
    return join(dir, `${name}.json`);
  });
}

/** bin/collect on the records in `dir`, with the state in <dir>/state and only PATH, HOME and TMPDIR of this environment. */
export function collectIn(dir: string, records: string[]): { stdout: string; env: Record<string, string | undefined> } {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: tmpdir(),
    JUDGELOOP_STATE_DIR: join(dir, 'state'),
  };
  const r = runBin(records, { cwd: dir, env });
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, env };
}
