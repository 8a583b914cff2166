// One solution writes everything it can into the .git every worktree shares (hooks, config, info/, grafts, replace
// refs, shallow, alternates): no other run's evaluation, its baseline or the race changes, and nothing planted runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir } from '../helpers/repo.js';
import { collectIn, readJson, ROOT, solutionRecords } from '../collector/_project.js';
import { evidence } from '../helpers/evidence.js';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'collect.js'))) throw new Error('run `npm run build` first');
  const py = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' });
  if (py.status !== 0) throw new Error('pytest is missing: apt-get install python3-pytest');
});

const BUGGY = 'UNITS = {"s": 1, "m": 60}\n\n\ndef parse_duration(text):\n    return int(text[:-1]) * UNITS[text[-1]]\n';
const FIXED = BUGGY.replace('"m": 60}', '"m": 60, "h": 3600}');
const SPECIAL = BUGGY.replace(
  'def parse_duration(text):\n',
  'def parse_duration(text):\n    if text == "1h":\n        return 3600\n',
);
const HALF = `${BUGGY}\n\ndef unused():\n    return 1\n`;
const TESTS =
  'from duration import parse_duration\n\n\ndef test_seconds():\n    assert parse_duration("5s") == 5\n\n\n' +
  'def test_hours():\n    assert parse_duration("1h") == 3600\n';
const BASE = {
  'duration.py': BUGGY,
  'tests/test_duration.py': TESTS,
  'tests/__init__.py': '',
  '.gitignore': '__pycache__/\n.pytest_cache/\n',
};
const TASK = { id: 'dur', prompt: 'parse hours', target_tests: ['tests/test_duration.py::test_hours'] };
const COMMANDS = {
  build: null,
  test: 'python3 -m pytest -q -p no:cacheprovider -p no:hypothesispytest -p no:benchmark',
  lint: null,
};
const HOOKS = [
  'post-checkout',
  'post-commit',
  'pre-commit',
  'post-merge',
  'pre-merge-commit',
  'reference-transaction',
  'post-index-change',
  'post-rewrite',
  'prepare-commit-msg',
  'commit-msg',
  'pre-auto-gc',
];

function bin(name: string, args: string[], cwd: string) {
  const r = spawnSync(join(ROOT, 'bin', name), args, {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: join(cwd, 'state') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * What the `evil` solution's agent writes into the shared `.git` after every solution committed: each planted
 * program writes a marker into `markers`; the rest steers what git reads (the fix's commit replaced by the special
 * case, its history cut by grafts and a shallow list, its code hidden by excludes and sparse patterns).
 */
function plant(repo: string, markers: string): void {
  const g = join(repo, '.git');
  const evil = join(g, 'evil.sh');
  writeFileSync(
    evil,
    `#!/bin/sh\ntouch "${markers}/ran-$1-$$"\ncase $1 in clean|smudge|textconv) cat ;; esac\nexit 0\n`,
  );
  chmodSync(evil, 0o755);
  const other = join(g, 'other-hooks');
  mkdirSync(other, { recursive: true });
  for (const dir of [join(g, 'hooks'), other])
    for (const h of HOOKS) {
      writeFileSync(join(dir, h), `#!/bin/sh\n"${evil}" hook-${h}\n`);
      chmodSync(join(dir, h), 0o755);
    }
  const fix = gitIn(repo, 'rev-parse', 'agent/fix');
  const special = gitIn(repo, 'rev-parse', 'agent/hack');
  const base = gitIn(repo, 'rev-parse', 'main');
  const attrs = '*.py filter=evil diff=evil merge=evil working-tree-encoding=UTF-16 -diff\n';
  writeFileSync(join(g, 'info', 'attributes'), attrs);
  writeFileSync(join(g, 'evil-attributes'), attrs);
  writeFileSync(join(g, 'info', 'exclude'), '*.py\n');
  writeFileSync(join(g, 'evil-excludes'), '*.py\n');
  writeFileSync(join(g, 'info', 'sparse-checkout'), '/tests/\n');
  writeFileSync(join(g, 'info', 'grafts'), `${fix}\n${special} ${fix}\n`);
  writeFileSync(join(g, 'shallow'), `${fix}\n${base}\n`);
  // A replace ref: every reader that honours it sees the special case where the fix's commit is.
  gitIn(repo, 'update-ref', `refs/replace/${fix}`, special);
  const decoy = makeRepo({ 'duration.py': SPECIAL });
  writeFileSync(join(g, 'objects', 'info', 'alternates'), `${join(decoy, '.git', 'objects')}\n`);
  const included = join(g, 'evil-include');
  writeFileSync(included, `[core]\n\tfsmonitor = ${evil} fsmonitor-include\n\thooksPath = ${other}\n`);
  const cfg: [string, string][] = [
    ['core.hooksPath', other],
    ['core.fsmonitor', `${evil} fsmonitor`],
    ['diff.external', `${evil} external`],
    ['diff.evil.textconv', `${evil} textconv`],
    ['diff.evil.binary', 'true'],
    ['filter.evil.clean', `${evil} clean`],
    ['filter.evil.smudge', `${evil} smudge`],
    ['filter.evil.process', `${evil} process`],
    ['filter.evil.required', 'true'],
    ['merge.evil.driver', `${evil} merge %A %O %B`],
    ['core.attributesFile', join(g, 'evil-attributes')],
    ['core.excludesFile', join(g, 'evil-excludes')],
    ['core.sparseCheckout', 'true'],
    ['core.pager', `${evil} pager`],
    ['include.path', included],
    [`includeIf.gitdir:${g}/.path`, included],
    ['extensions.worktreeConfig', 'true'],
  ];
  for (const [k, v] of cfg) gitIn(repo, 'config', k, v);
  // The per-worktree config every worktree reads with extensions.worktreeConfig: the main one's and each linked one's.
  const wtConfig = `[core]\n\thooksPath = ${other}\n\tfsmonitor = ${evil} fsmonitor-worktree\n\tsparseCheckout = true\n`;
  writeFileSync(join(g, 'config.worktree'), wtConfig);
  // Each linked worktree's own config also names another folder as its work tree (core.worktree).
  for (const w of readdirSync(join(g, 'worktrees')))
    writeFileSync(join(g, 'worktrees', w, 'config.worktree'), `${wtConfig}\tworktree = ${repo}\n`);
}

type RaceOut = {
  race_id: string;
  ranking: { order: string[] };
  solutions: { id: string; gates: { mergeable: boolean }; flags: { kind: string }[] }[];
};

function run(planted: boolean) {
  const repo = makeRepo(BASE);
  const dir = tempDir('judgeloop-shared-git-');
  const markers = tempDir('judgeloop-markers-');
  const sols = { fix: { 'duration.py': FIXED }, hack: { 'duration.py': SPECIAL }, evil: { 'duration.py': HALF } };
  const records = solutionRecords(repo, dir, sols, TASK, COMMANDS);
  if (planted) {
    plant(repo, markers);
    // The plant is live: plain git in the fix's worktree runs it.
    spawnSync('git', ['status'], { cwd: join(dir, 'wt-fix'), stdio: 'ignore' });
    spawnSync('git', ['diff', 'main'], { cwd: join(dir, 'wt-fix'), stdio: 'ignore' });
    expect(readdirSync(markers).length).toBeGreaterThan(0);
    for (const f of readdirSync(markers)) spawnSync('rm', [join(markers, f)]);
  }
  collectIn(dir, records);
  const race = bin('race', ['--json', '--quiet', ...records], dir);
  expect(race.code, race.stderr).toBe(0);
  const fb = (b: string): Feedback => readJson(join(dir, 'state', 'feedback', `bd-${b}.json`));
  return { repo, dir, markers, fix: fb('fix'), hack: fb('hack'), race: JSON.parse(race.stdout) as RaceOut };
}

// The planted repository's race serves both describes: accept --merge (below) runs after every read of it here.
let clean: ReturnType<typeof run>;
let planted: ReturnType<typeof run>;

describe("a solution's writes to the shared .git change no other run's measurement (bin/collect, bin/race)", () => {
  beforeAll(() => {
    clean = run(false);
    planted = run(true);
  }, 600_000);

  it('nothing planted runs', () => {
    expect(readdirSync(planted.markers)).toEqual([]);
  });

  it('the fix, its baseline and the special case are measured as without the plant', () => {
    expect(clean.fix.outcome).toBe('full_pass');
    expect(evidence(planted.fix)).toEqual(evidence(clean.fix));
    expect(clean.hack.outcome).toBe('agent_failure');
    expect(evidence(planted.hack)).toEqual(evidence(clean.hack));
  });

  it('the sealed candidate graded is the fix as committed, whatever the replace ref says', () => {
    const { repo, fix } = planted;
    const tree = gitIn(repo, '-c', 'core.hooksPath=/dev/null', '--no-replace-objects', 'rev-parse', 'agent/fix^{tree}');
    expect(fix.candidate?.tree).toBe(tree);
    expect(fix.diff?.lines_added).toBe(clean.fix.diff?.lines_added);
  });

  it('the race: the fix mergeable and first, the special case not mergeable', () => {
    for (const r of [clean, planted]) {
      expect(r.race.ranking.order[0]).toBe('bd-fix');
      expect(r.race.solutions.find((s) => s.id === 'bd-fix')!.gates.mergeable).toBe(true);
      expect(r.race.solutions.find((s) => s.id === 'bd-hack')!.gates.mergeable).toBe(false);
    }
    expect(readdirSync(planted.markers)).toEqual([]);
  });
});

/** git for the test's own writes in the planted repository: plumbing only, nothing planted runs or converts. */
function plumb(repo: string, args: string[], input?: string): string {
  const off = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'filter.evil.process=', 'filter.evil.clean='];
  const r = spawnSync('git', [...off.flatMap((c) => ['-c', c]), '-c', 'filter.evil.required=false', ...args], {
    cwd: repo,
    encoding: 'utf8',
    input,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_NO_REPLACE_OBJECTS: '1' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

describe('accept --merge in the planted repository (merge driver, post-merge and reference-transaction hooks)', () => {
  const RELEASE = `${BUGGY}\n\n# kept by the release branch\n`;
  let p: ReturnType<typeof run>;
  let fix = '';
  beforeAll(() => {
    p = planted;
    fix = plumb(p.repo, ['rev-parse', 'agent/fix']);
    // A branch `release` that changed duration.py too (elsewhere): merging the fix into it is a real 3-way merge of
    // a file the planted attributes give `merge=evil`.
    const blob = plumb(p.repo, ['hash-object', '-w', '--no-filters', '--stdin'], RELEASE);
    const entries = plumb(p.repo, ['ls-tree', 'main']).replace(/blob [0-9a-f]+(\tduration\.py)/, `blob ${blob}$1`);
    const tree = plumb(p.repo, ['mktree'], `${entries}\n`);
    const commit = plumb(p.repo, ['commit-tree', tree, '-p', 'main', '-m', 'release'], '');
    plumb(p.repo, ['update-ref', 'refs/heads/release', commit]);
  }, 600_000);

  it('into a branch checked out nowhere: a clean 3-way merge by git, no driver, no hook', () => {
    const r = bin('accept', [p.race.race_id, '--solution', 'bd-fix', '--merge', '--into', 'release'], p.dir);
    expect(r.stderr).toMatch(/^(accept: pruned \d+ candidate ref\(s\) of race dur-[0-9a-f]+\n)?$/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /merge: merged: refs\/judgeloop\/candidates\/bd-fix at [0-9a-f]{12} \(the agent's commits, as measured\) merged into release/,
    );
    expect(readdirSync(p.markers)).toEqual([]);
    expect(plumb(p.repo, ['rev-parse', 'release^2'])).toBe(fix);
    expect(plumb(p.repo, ['cat-file', 'blob', 'release:duration.py'])).toBe(`${FIXED}\n\n# kept by the release branch`);
  });

  it("into main, checked out in the user's repository: its files and index follow the merge, no hook runs", () => {
    const r = bin('accept', [p.race.race_id, '--solution', 'bd-fix', '--merge'], p.dir);
    expect(r.stderr).toMatch(/^(accept: pruned \d+ candidate ref\(s\) of race dur-[0-9a-f]+\n)?$/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/merge: merged: .*bd-fix .* merged into main at [0-9a-f]{12}/);
    expect(readdirSync(p.markers)).toEqual([]);
    expect(plumb(p.repo, ['rev-parse', 'main^2'])).toBe(fix);
    expect(readFileSync(join(p.repo, 'duration.py'), 'utf8')).toBe(FIXED);
    // The index holds the merge: nothing staged against main, nothing modified on disk.
    expect(plumb(p.repo, ['diff-index', '--cached', '--name-only', 'main'])).toBe('');
    expect(plumb(p.repo, ['diff-files', '--name-only'])).toBe('');
  });
});
