// A judging folder as the recipes expect it: judgeloop.json at its top, the agent's repository in a folder
// below it (so the config is found from the worktree upwards but lies outside it), real processes to run.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { gitIn, initRepo, tempDir, writeTree } from '../helpers/repo.js';
import { PROJECT } from '../collector/_project.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin');
export const EXAMPLES = join(ROOT, 'examples');

export interface Judging {
  /** The judging folder: judgeloop.json, state/, the repository. */
  top: string;
  repo: string;
  state: string;
  cleanup(): void;
}

export const CHECKS = {
  build: 'node --check src/add.mjs',
  test: 'node --test test/',
  lint: 'node tools/lint.mjs',
  typecheck: null,
};

/** The test check alone, for cases about something else (a hook, a drain): 4 sandboxed node starts fewer a run. */
export const TEST_ONLY = { commands: { ...CHECKS, build: null, lint: null } };

/** A judging folder with judgeloop.json (`config` merged over checks and record defaults) and a repo with one commit. */
export function makeJudging(config: Record<string, unknown> = {}): Judging {
  const top = tempDir('judgeloop-judging-');
  const repo = join(top, 'repo');
  mkdirSync(repo);
  initRepo(repo, PROJECT);
  const cfg = { record: { agent: 'claude-code', template: 'default' }, collector: { commands: CHECKS }, ...config };
  writeFileSync(join(top, 'judgeloop.json'), JSON.stringify(cfg, null, 2));
  return { top, repo, state: join(top, 'state'), cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

/** The agent's change: a new function and its test, committed with `message`. */
export function agentCommit(repo: string, message = 'Add sub() with a test'): void {
  writeTree(repo, {
    'src/sub.mjs': 'export function sub(a, b) {\n  return a - b;\n}\n',
    'test/sub.test.mjs':
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport { sub } from '../src/sub.mjs';\ntest('subs', () => assert.equal(sub(3, 1), 2));\n",
  });
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', message);
}

export interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A real process; resolves when it exits and its output pipes close. */
export function runProc(
  cmd: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<Proc> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(o.input ?? '');
  });
}

/** A minimal environment: judgeloop's bin/ and node on PATH, a HOME of its own, none of the caller's JUDGE* settings. */
export function cleanEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
    ...extra,
  };
}

/** Every file under `dir`, relative to it (for "nothing written outside the state" checks). */
export function filesUnder(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      if (e.isDirectory()) walk(p);
      else out.push(rel);
    }
  };
  walk(dir);
  return out.sort();
}

/** Polls `check` every 50 ms until it is true or `ms` passed. */
export async function waitFor(check: () => boolean, ms = 60_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
