// The agent's repository is hostile: programs planted in its git configuration and metadata never run when
// judgeloop collects, judges (dry run), races and merges it; inherited GIT_* variables, a .git file that points
// elsewhere and a folder that is not a worktree's top are refused; hidden edits are measured.
// Needs `npm run build` (real bin/ processes).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, tempDir } from '../helpers/repo.js';
import {
  agentWorktree,
  COMMANDS,
  makeProject,
  type Project,
  readJson,
  runRecord,
  writeRecord,
} from '../collector/_project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CANARY = 'sk-ant-api03-canary-never-leaves';
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'collect.js'))) throw new Error('run `npm run build` first');
});

/** git for the test's own use on a planted repository: nothing planted runs for the test either. */
function safeGit(cwd: string, ...args: string[]): string {
  return gitIn(cwd, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args);
}

function bin(name: string, args: string[], p: Project, env: Record<string, string> = {}) {
  const r = spawnSync(join(ROOT, 'bin', name), args, {
    cwd: p.dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: tmpdir(),
      JUDGELOOP_STATE_DIR: p.state,
      NO_COLOR: '1',
      ANTHROPIC_API_KEY: CANARY,
      ...env,
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Plants, in the repository's config and metadata, every program git could be made to run: fsmonitor, clean/
 * smudge/process filters, textconv, diff and merge drivers, external diff, pager, hooks (.git/hooks and
 * core.hooksPath), auto gc, and a promisor remote whose lazy fetch would run a command through ext::.
 * Each writes a marker (its name and its environment) into `markers`.
 */
function plant(repo: string, markers: string): void {
  const gitDir = join(repo, '.git');
  const evil = join(gitDir, 'evil.sh');
  writeFileSync(
    evil,
    `#!/bin/sh\nname=$1\nenv > "${markers}/ran-$name-$$"\ncase $name in clean|smudge|textconv) cat ;; esac\nexit 0\n`,
  );
  chmodSync(evil, 0o755);
  const hooks = [
    'post-checkout',
    'post-commit',
    'pre-commit',
    'post-merge',
    'pre-merge-commit',
    'reference-transaction',
    'post-index-change',
    'pre-auto-gc',
    'post-rewrite',
    'prepare-commit-msg',
    'commit-msg',
  ];
  const hooksPath = join(gitDir, 'other-hooks');
  mkdirSync(hooksPath, { recursive: true });
  for (const h of hooks) {
    for (const dir of [join(gitDir, 'hooks'), hooksPath]) {
      writeFileSync(join(dir, h), `#!/bin/sh\n"${evil}" hook-${h}\n`);
      chmodSync(join(dir, h), 0o755);
    }
  }
  writeFileSync(join(gitDir, 'info', 'attributes'), '* filter=evil diff=evil merge=evil\n');
  const cfg: [string, string][] = [
    ['core.fsmonitor', `${evil} fsmonitor`],
    ['core.hooksPath', hooksPath],
    ['core.pager', `${evil} pager`],
    ['pager.diff', `${evil} pager-diff`],
    ['filter.evil.clean', `${evil} clean`],
    ['filter.evil.smudge', `${evil} smudge`],
    ['filter.evil.required', 'true'],
    ['diff.evil.textconv', `${evil} textconv`],
    ['diff.evil.command', `${evil} diffcmd`],
    ['diff.external', `${evil} external`],
    ['merge.evil.driver', `${evil} merge %A %O %B`],
    ['gc.auto', '1'],
    ['core.repositoryformatversion', '1'],
    ['extensions.partialClone', 'evil'],
    ['remote.evil.url', `ext::${evil} fetch`],
    ['remote.evil.promisor', 'true'],
    ['protocol.ext.allow', 'always'],
    ['core.sshCommand', `${evil} ssh`],
    ['credential.helper', `!${evil} credential`],
  ];
  for (const [k, v] of cfg) gitIn(repo, 'config', k, v);
}

function ran(markers: string): string[] {
  return readdirSync(markers);
}

describe("a repository with planted programs (and a calling hook's GIT_* pointing at another planted one)", () => {
  let p: Project;
  let markers: string;
  let decoyEnv: Record<string, string>;
  beforeAll(() => {
    p = makeProject();
    temps.push(p.repo, p.dir);
    markers = tempDir('judgeloop-markers-');
    temps.push(markers);
    // GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE as a git hook that calls judgeloop would leave them: a repository
    // with its own planted programs, which judgeloop must neither measure nor touch.
    const decoy = makeProject();
    temps.push(decoy.repo, decoy.dir);
    plant(decoy.repo, markers);
    decoyEnv = {
      GIT_DIR: join(decoy.repo, '.git'),
      GIT_WORK_TREE: decoy.repo,
      GIT_INDEX_FILE: join(decoy.repo, '.git', 'index'),
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='true'",
    };
    // Two solutions of one task, one with a committed and an uncommitted change, both edit a file under the filter.
    agentWorktree(p, 'a', {
      commit: { 'src/add.mjs': 'export function add(a, b) {\n  return a + b; // fixed\n}\n' },
      uncommitted: { 'src/extra.mjs': 'export const x = 1;\n' },
    });
    agentWorktree(p, 'b', { uncommitted: { 'src/add.mjs': 'export function add(a, b) {\n  return b + a;\n}\n' } });
    plant(p.repo, markers);
    // The planted config is live: plain git in the worktree runs the programs (the plant works).
    spawnSync('git', ['status'], { cwd: join(p.dir, 'wt-a'), stdio: 'ignore' });
    expect(ran(markers).length).toBeGreaterThan(0);
    rmSync(markers, { recursive: true, force: true });
    mkdirSync(markers);
  });

  it('bin/collect runs none of them (baseline checkout included) and still measures the change', () => {
    const rec = writeRecord(
      p,
      'a',
      runRecord({
        bead: 'bd-a',
        worktree: 'wt-a',
        head_ref: 'agent/a',
        race_id: 'race-h',
        task: { id: 'task-h', prompt: 'fix add', complexity: 2 },
      }),
    );
    const r = bin('collect', ['--quiet', rec], p, decoyEnv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(ran(markers)).toEqual([]);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-a.json'));
    expect(fb.outcome).toBe('full_pass');
    expect(fb.diff!.files.map((f) => f.path).sort()).toEqual(['src/add.mjs', 'src/extra.mjs']);
    expect(fb.baseline?.tests).toMatchObject({ passed: 2 });
  });

  it('bin/judge --dry-run runs none of them and its context holds the same change', () => {
    const r = bin('judge', ['--dry-run', join(p.dir, 'a.json')], p, { JUDGE_ENABLED: 'true', ...decoyEnv });
    expect(r.code).toBe(0);
    expect(ran(markers)).toEqual([]);
    expect(r.stdout).toContain('return a + b; // fixed');
    expect(r.stdout).toContain('export const x = 1;');
  });

  it('bin/race and bin/accept (--dry-run, then a real --merge) run none of them', () => {
    const rec = writeRecord(
      p,
      'b',
      runRecord({
        bead: 'bd-b',
        worktree: 'wt-b',
        race_id: 'race-h',
        task: { id: 'task-h', prompt: 'fix add', complexity: 2 },
      }),
    );
    const race = bin('race', ['--json', '--quiet', join(p.dir, 'a.json'), rec], p, decoyEnv);
    expect(race.stderr).toBe('');
    expect(race.code).toBe(0);
    expect(ran(markers)).toEqual([]);
    // The worktree holds uncommitted work on the head it was measured on: that work is committed (objects only, no
    // hook) in the agent's name, and that commit is what would merge.
    const dry = bin('accept', ['race-h', '--solution', 'bd-a', '--merge', '--dry-run'], p, decoyEnv);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /merge: dry_run: the measured work of agent\/a \(committed as [0-9a-f]{12}\) merges cleanly into main/,
    );
    expect(ran(markers)).toEqual([]);
    // A real merge into main (checkout, merge, commit) with the planted merge driver and hooks.
    const merge = bin('accept', ['race-h', '--solution', 'bd-a', '--merge'], p, decoyEnv);
    expect(ran(markers)).toEqual([]);
    expect(merge.stdout).toMatch(
      /merge: merged: the measured work of agent\/a \(committed as [0-9a-f]{12}\) merged into main/,
    );
    expect(safeGit(p.repo, 'log', '-1', '--format=%s', 'main')).toBe('Merge agent/a (chosen with judgeloop accept)');
    expect(safeGit(p.repo, 'log', '-1', '--format=%an %s', 'main^2')).toBe('claude fix add');
    expect(safeGit(p.repo, 'log', '-1', '--format=%s', 'main^2^')).toBe('agent a');
  });

  it('checks never see judgeloop environment: no API key, no unlisted variable', () => {
    const rec = writeRecord(
      p,
      'env',
      runRecord({
        bead: 'bd-env',
        worktree: 'wt-b',
        commands: { build: 'env', test: null, lint: null, typecheck: null },
      }),
    );
    const r = bin('collect', ['--quiet', rec], p, {
      JUDGELOOP_PRIVATE_SETTING: 'private-value',
      OPENAI_API_KEY: 'sk-openai-canary',
    });
    expect(r.code).toBe(0);
    const out = readJson<Feedback>(join(p.state, 'feedback', 'bd-env.json')).checks.build!.output!.text;
    expect(out).toMatch(/^PATH=/m);
    expect(out).not.toContain(CANARY);
    expect(out).not.toContain('sk-openai-canary');
    expect(out).not.toContain('private-value');
    expect(out).not.toContain('JUDGELOOP_STATE_DIR');
  });
});

describe('repositories that would make judgeloop measure something else', () => {
  it('inherited GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE (a calling git hook) change nothing', () => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    agentWorktree(p, 'a', { uncommitted: { 'src/add.mjs': 'export function add(a, b) {\n  return a + b + 0;\n}\n' } });
    const other = makeProject();
    temps.push(other.repo, other.dir);
    writeFileSync(join(other.repo, 'unrelated.txt'), 'x\n');
    const otherIndex = join(other.repo, '.git', 'index');
    const indexBefore = readFileSync(otherIndex);
    const rec = writeRecord(
      p,
      'a',
      runRecord({ commands: { build: 'git rev-parse --show-toplevel', test: null, lint: null, typecheck: null } }),
    );
    const r = bin('collect', ['--quiet', rec], p, {
      GIT_DIR: join(other.repo, '.git'),
      GIT_WORK_TREE: other.repo,
      GIT_INDEX_FILE: otherIndex,
    });
    expect(r.code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.head!.commit).toBe(gitIn(join(p.dir, 'wt-a'), 'rev-parse', 'HEAD'));
    expect(fb.diff!.files.map((f) => f.path)).toEqual(['src/add.mjs']);
    // The check too runs git on its own checkout (of the sealed candidate), not the hook's repository.
    expect(fb.checks.build!.output!.text.trim()).toMatch(/\/judgeloop-base-[^/]*-sealed-[^/]+\/tree$/);
    expect(readFileSync(otherIndex)).toEqual(indexBefore);
  });

  it('a .git file pointing at another repository is refused with a clear reason', () => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    const wt = join(p.dir, 'wt-a');
    mkdirSync(wt);
    writeFileSync(join(wt, 'x.txt'), 'x\n');
    writeFileSync(join(wt, '.git'), `gitdir: ${join(p.repo, '.git')}\n`);
    const rec = writeRecord(p, 'a', runRecord());
    const r = bin('collect', ['--quiet', rec], p);
    expect(r.code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toMatch(/\.git points at .*which is not a linked worktree/);
    // The judge, asked first (no feedback yet), refuses it too.
    const fresh = { ...p, state: join(p.dir, 'state2') };
    const j = bin('judge', ['--dry-run', rec], fresh, { JUDGE_ENABLED: 'true' });
    expect(j.stderr).toMatch(/\.git points at .*which is not a linked worktree/);
  });

  it('a plain folder inside another repository is refused, not measured as that repository', () => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    const inner = join(p.repo, 'src');
    const rec = writeRecord(p, 'a', runRecord({ worktree: inner }));
    const r = bin('collect', ['--quiet', rec], p);
    expect(r.code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toMatch(/not the top level of a git worktree/);
  });
});

describe("the agent's repository is left as it was", () => {
  it('its own worktrees, even one whose folder is missing, stay registered after a baseline was computed', () => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    agentWorktree(p, 'a');
    const gone = agentWorktree(p, 'gone');
    rmSync(gone, { recursive: true, force: true });
    const before = gitIn(p.repo, 'worktree', 'list', '--porcelain');
    const rec = writeRecord(p, 'a', runRecord());
    expect(bin('collect', ['--quiet', rec], p).code).toBe(0);
    expect(readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json')).baseline).not.toBeNull();
    expect(gitIn(p.repo, 'worktree', 'list', '--porcelain')).toBe(before);
  });

  it("a check that points its checkout's .git at the agent's registration does not get that one removed", () => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    const wt = agentWorktree(p, 'a');
    const admin = readFileSync(join(wt, '.git'), 'utf8')
      .replace(/^gitdir: /, '')
      .trim();
    const before = gitIn(p.repo, 'worktree', 'list', '--porcelain');
    // Without the sandbox (which mounts .git read-only) every checkout the checks run in, base and sealed, says it is
    // the agent's worktree by the time it is removed.
    const seen = tempDir();
    const cfg = join(p.dir, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ collector: { sandbox: 'off' } }));
    const test = `printf 'gitdir: %s\\n' '${admin}' > .git && grep -q '${admin}' .git && echo "$PWD" >> ${join(seen, 'rewrites')}; ${COMMANDS.test}`;
    const rec = writeRecord(p, 'a', runRecord({ commands: { ...COMMANDS, test } }));
    const r = bin('collect', ['--quiet', '--config', cfg, rec], p);
    expect(r.code, r.stderr).toBe(0);
    // The base's checkout and the sealed candidate's: both rewritten.
    expect(readFileSync(join(seen, 'rewrites'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(gitIn(p.repo, 'worktree', 'list', '--porcelain')).toBe(before);
    expect(existsSync(admin)).toBe(true);
  });
});

describe('edits hidden from git are measured', () => {
  it('skip-worktree, assume-unchanged, .git/info/exclude and a forged stat cache: in the collector diff and the judge context alike', () => {
    const p = makeProject({
      'src/add.mjs': 'export function add(a, b) {\n  return a + b;\n}\n',
      'src/keep.mjs': 'export const keep = 1;\n',
      'src/same.mjs': 'export const same = 1;\n',
      'test/add.test.mjs': "import test from 'node:test';\ntest('ok', () => {});\n",
    });
    temps.push(p.repo, p.dir);
    const wt = agentWorktree(p, 'a');
    writeFileSync(join(wt, 'src/add.mjs'), 'export function add(a, b) {\n  return 42;\n}\n');
    safeGit(wt, 'update-index', '--skip-worktree', 'src/add.mjs');
    writeFileSync(join(wt, 'src/keep.mjs'), 'export const keep = 2;\n');
    safeGit(wt, 'update-index', '--assume-unchanged', 'src/keep.mjs');
    writeFileSync(join(wt, 'src/hidden.mjs'), 'export const hidden = true;\n');
    const exclude = join(gitIn(wt, 'rev-parse', '--git-common-dir'), 'info', 'exclude');
    writeFileSync(exclude, 'src/hidden.mjs\n');
    // Same size, mtime put back: the index's stat cache says nothing changed.
    const same = join(wt, 'src/same.mjs');
    const st = statSync(same);
    writeFileSync(same, 'export const same = 9;\n');
    spawnSync('touch', ['-d', st.mtime.toISOString(), same]);
    // Plain git status shows none of the first three (the hiding works); ctime still gives the fourth away to git.
    expect(safeGit(wt, 'status', '--porcelain')).toBe('M src/same.mjs');
    const rec = writeRecord(p, 'a', runRecord({ commands: { build: null, test: null, lint: null, typecheck: null } }));
    expect(bin('collect', ['--quiet', rec], p).code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    const paths = fb.diff!.files.map((f) => f.path).sort();
    // src/agent.mjs: the fixture agent's own one-line change (an agent that changed nothing is a no-op).
    expect(paths).toEqual(['src/add.mjs', 'src/agent.mjs', 'src/hidden.mjs', 'src/keep.mjs', 'src/same.mjs']);
    const j = bin('judge', ['--dry-run', rec], p, { JUDGE_ENABLED: 'true' });
    expect(j.code).toBe(0);
    for (const text of ['return 42;', 'keep = 2', 'hidden = true', 'same = 9']) expect(j.stdout).toContain(text);
  });
});

describe('history rewritten to move the merge base', () => {
  // main advanced to B1 after the agent branched at B0; the agent's C1 holds its big change, C2 a small one. Making
  // C1 a parent of B1 (a graft, or a replace ref) moves the merge base to C1, hiding C1 from the diff.
  it.each(['graft', 'replace'] as const)('a %s cannot hide committed changes from the diff', (how) => {
    const p = makeProject();
    temps.push(p.repo, p.dir);
    const b0 = gitIn(p.repo, 'rev-parse', 'HEAD');
    const wt = agentWorktree(p, 'a', { commit: { 'src/big.mjs': 'export const big = 1;\n' } });
    const c1 = gitIn(wt, 'rev-parse', 'HEAD');
    writeFileSync(join(wt, 'src/small.mjs'), 'export const small = 1;\n');
    gitIn(wt, 'add', '-A');
    gitIn(wt, 'commit', '-q', '-m', 'small');
    writeFileSync(join(p.repo, 'later.txt'), 'main moved on\n');
    gitIn(p.repo, 'add', '-A');
    gitIn(p.repo, 'commit', '-q', '-m', 'B1');
    const b1 = gitIn(p.repo, 'rev-parse', 'HEAD');
    if (how === 'graft') writeFileSync(join(p.repo, '.git', 'info', 'grafts'), `${b1} ${b0} ${c1}\n`);
    else gitIn(p.repo, 'replace', '--graft', b1, b0, c1);
    // For plain git the base has moved (the rewrite works).
    expect(spawnSync('git', ['merge-base', 'main', 'HEAD'], { cwd: wt, encoding: 'utf8' }).stdout.trim()).toBe(c1);
    const rec = writeRecord(p, 'a', runRecord({ commands: { build: null, test: null, lint: null, typecheck: null } }));
    expect(bin('collect', ['--quiet', rec], p).code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.diff!.merge_base).toBe(b0);
    expect(fb.diff!.files.map((f) => f.path).sort()).toEqual(['src/big.mjs', 'src/small.mjs']);
  });
});
