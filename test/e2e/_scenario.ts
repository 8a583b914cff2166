// Issue 34's "done when" as a user lives it: a project with one failing test, `judgeloop init`, six agent branches
// (fix, refactor, breaker, weakened, empty, hack) recorded, collected, raced, accepted and rated (judgeloop's commands).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import type { CommandRun } from '../../lib/cli/cli.js';
import { runHere } from '../helpers/in-process.js';
import { run as acceptRun } from '../../scripts/accept.js';
import { run as raceRun } from '../../scripts/race.js';
import { run as ratingsRun } from '../../scripts/ratings.js';
import { run as recordRun } from '../../scripts/record.js';
import { gitIn, initRepo, tempDir, writeTree } from '../helpers/repo.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const SOLUTIONS = ['fix', 'refactor', 'breaker', 'weakened', 'empty', 'hack'] as const;
export type Solution = (typeof SOLUTIONS)[number];
export const NON_FIXES = ['refactor', 'weakened', 'empty', 'hack'] as const;

export interface ProjectKind {
  /** The base commit's files: one test (hours) fails; `prepare` may write more into the repository first. */
  files: Record<string, string> | ((repo: string) => Record<string, string>);
  /** Each solution's files (empty: an empty commit). */
  solutions: Record<Exclude<Solution, 'empty'>, Record<string, string>>;
  /** Environment a user of this toolchain has (no network: GOPROXY=off …). */
  env?: Record<string, string>;
  /** Collector settings added to what init wrote, after `config` is read (a build cache the suite shares). */
  addToInit?: Record<string, unknown>;
  /** Fills the state folder before the first collect (a kept cache a user's earlier runs would have left). */
  seedState?: (state: string) => void;
}

export interface Scenario {
  root: string;
  repo: string;
  config: Record<string, any>;
  /** bin/judgeloop's stdout of each step. */
  collect: string;
  collectLine: Record<Solution, string>;
  feedback: Record<Solution, Record<string, any>>;
  race: string;
  raceJson: Record<string, any>;
  raceMarkdown: string;
  nonFixRace: string;
  nonFixJson: Record<string, any>;
  accept: string;
  acceptAgain: string;
  raceAfter: string;
  rate: Record<string, Record<string, any>>;
  /** bin/rate's lines (stderr), one per run. */
  rateLines: string;
  ratings: string;
  /** main's first-parent log after the merge: author|committer|parents|subject, newest first. */
  log: string[];
  fixCommit: { author: string; subject: string; sha: string };
}

/** The agent's identity on its commits (a user's agents commit under their own names). */
const author = (s: Solution) => ({ name: `${s} agent`, email: `${s}@agents.example` });

export function bin(root: string, env: NodeJS.ProcessEnv, args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(join(ROOT, 'bin', 'judgeloop'), args, { cwd: root, env, encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function ok(root: string, env: NodeJS.ProcessEnv, args: string[]): string {
  const r = bin(root, env, args);
  expect(r.code, `judgeloop ${args.join(' ')}\n${r.err}\n${r.out}`).toBe(0);
  return r.out;
}

/**
 * A step whose subject is not the CLI (a second record or accept, a stored race shown, the ratings): the command's
 * entry in this process, as `bin/judgeloop <command>` runs it (its prefix in the text), without a node start each.
 */
async function okHere(root: string, env: NodeJS.ProcessEnv, run: CommandRun, args: string[]): Promise<string> {
  const r = await runHere(run, args, env, root, 'judgeloop');
  expect(r.code, `judgeloop ${args.join(' ')}\n${r.stderr}\n${r.stdout}`).toBe(0);
  return r.stdout;
}

export async function runScenario(kind: ProjectKind): Promise<Scenario> {
  const root = tempDir('judgeloop-e2e-');
  // A HOME whose git identity is not the repository's: the merge must be by the repository's.
  const home = join(root, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Global Person\n\temail = global@example.com\n');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: tmpdir(),
    NO_COLOR: '1',
    JUDGELOOP_NOW: new Date().toISOString(),
    ...kind.env,
  };
  const repo = join(root, 'repo');
  mkdirSync(repo);
  initRepo(repo, typeof kind.files === 'function' ? kind.files(repo) : kind.files);
  gitIn(repo, 'config', 'user.name', 'Repo Keeper');
  gitIn(repo, 'config', 'user.email', 'keeper@example.com');

  for (const s of SOLUTIONS) {
    const wt = join(root, `wt-${s}`);
    gitIn(repo, 'worktree', 'add', '-q', '-b', `agent/${s}`, wt);
    if (s !== 'empty') writeTree(wt, kind.solutions[s]);
    gitIn(wt, 'add', '-A');
    const a = author(s);
    gitIn(
      wt,
      '-c',
      `user.name=${a.name}`,
      '-c',
      `user.email=${a.email}`,
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      `${s}: parse hours`,
    );
  }
  ok(root, env, ['init', '--agent', 'agent', '--template', 'default', '--base', 'main', '--project', 'repo']);
  const config = JSON.parse(readFileSync(join(root, 'judgeloop.json'), 'utf8'));
  if (kind.addToInit)
    writeFileSync(
      join(root, 'judgeloop.json'),
      JSON.stringify({ ...config, collector: { ...config.collector, ...kind.addToInit } }, null, 2),
    );
  const started = new Date(Date.now() - 120_000).toISOString();
  // The first record through bin/judgeloop, the others through its entry here (the same command, 5 node starts fewer).
  for (const s of SOLUTIONS) {
    const args = [
      '--quiet',
      '--worktree',
      `wt-${s}`,
      '--bead',
      `bd-${s}`,
      '--agent',
      s,
      '--task',
      'durations',
      '--prompt',
      'Make parse() accept hours ("1h"): its test fails.',
      '--started-at',
      started,
      '--out',
      `runs/${s}.json`,
    ];
    if (s === SOLUTIONS[0]) ok(root, env, ['record', ...args]);
    else await okHere(root, env, recordRun, args);
  }
  const runs = (ss: readonly Solution[]) => ss.map((s) => `runs/${s}.json`);

  kind.seedState?.(join(root, 'state'));
  const collect = ok(root, env, ['collect', '--quiet', ...runs(SOLUTIONS)]);
  const collectLine = Object.fromEntries(
    SOLUTIONS.map((s) => [s, collect.split('\n').find((l) => l.startsWith(`bd-${s} `)) ?? '']),
  ) as Record<Solution, string>;
  const feedback = Object.fromEntries(
    SOLUTIONS.map((s) => [s, JSON.parse(readFileSync(join(root, 'state', 'feedback', `bd-${s}.json`), 'utf8'))]),
  ) as Record<Solution, Record<string, any>>;

  const race = ok(root, env, ['race', '--quiet', '--id', 'all', ...runs(SOLUTIONS)]);
  // A stored race shown: its entry here; the races themselves through bin/judgeloop.
  const raceJson = JSON.parse(await okHere(root, env, raceRun, ['--race', 'all', '--json']));
  const raceMarkdown = await okHere(root, env, raceRun, ['--race', 'all', '--markdown']);
  const nonFixRace = ok(root, env, ['race', '--quiet', '--id', 'nonfix', ...runs(NON_FIXES)]);
  const nonFixJson = JSON.parse(await okHere(root, env, raceRun, ['--race', 'nonfix', '--json']));

  const fixCommit = {
    author: gitIn(root, '-C', 'wt-fix', 'log', '-1', '--format=%an <%ae>'),
    subject: gitIn(root, '-C', 'wt-fix', 'log', '-1', '--format=%s'),
    sha: gitIn(root, '-C', 'wt-fix', 'rev-parse', 'HEAD'),
  };
  const winner = raceJson.ranking?.winner ?? 'bd-fix';
  if (process.env.E2E_KEEP) cpSync(root, process.env.E2E_KEEP, { recursive: true });
  const accept = ok(root, env, ['accept', 'all', '--solution', winner, '--merge']);
  const acceptAgain = await okHere(root, env, acceptRun, ['all', '--solution', winner, '--merge']);
  const raceAfter = await okHere(root, env, raceRun, ['--race', 'all']);
  const log = gitIn(repo, 'log', '--format=%H|%an <%ae>|%cn <%ce>|%p|%s', 'main').split('\n');

  // Recorded without a complexity: rated with --complexity, nothing recorded or collected again.
  const rateArgs = ['rate', '--quiet', '--quality', '8', '--reviewer', 'alice', '--complexity', '3', '--json'];
  const rated = bin(root, env, [...rateArgs, 'bd-fix', 'bd-breaker', 'bd-empty', 'bd-refactor']);
  expect(rated.code, rated.err).toBe(0);
  const rows = JSON.parse(rated.out) as Record<string, any>[];
  const rate = Object.fromEntries(rows.map((r) => [r.bead, r]));
  const ratings = await okHere(root, env, ratingsRun, []);
  return {
    root,
    repo,
    config,
    collect,
    collectLine,
    feedback,
    race,
    raceJson,
    raceMarkdown,
    nonFixRace,
    nonFixJson,
    accept,
    acceptAgain,
    raceAfter,
    rate,
    rateLines: rated.err,
    ratings,
    log,
    fixCommit,
  };
}

/** The issue's "done when", asserted on one scenario; `ids` are the runner's test ids of the project. */
export function doneWhen(get: () => Scenario, ids: { target: string; broken: [string, string] }): void {
  const composite = (x: Solution) => get().feedback[x].composite as number;
  const sol = (id: string) => get().raceJson.solutions.find((x: { id: string }) => x.id === id);

  it('is configured only by init: the test command as detected, no per-test report set by hand', () => {
    expect(get().config.collector.test_report).toBeUndefined();
    expect(get().feedback.fix.checks.test.tests).toMatchObject({ report: 'read', cases_complete: true });
  });

  it('the real fix is resolved in collect and wins the race, resolved, with the accept line', () => {
    const s = get();
    expect(s.collectLine.fix).toMatch(/^bd-fix\s+full_pass\s.*resolved: fixes 1 of 1 target test$/);
    expect(s.feedback.fix.resolution).toMatchObject({ resolved: true, fixed: 1, target_total: 1, broke_count: 0 });
    expect(s.raceJson.targets.fail_to_pass).toEqual([ids.target]);
    expect(s.raceJson.ranking).toMatchObject({ winner: 'bd-fix', outcome: 'winner' });
    expect(s.race).toContain('\nWinner: fix (bd-fix, branch: agent/fix) — resolved (fixes 1 of 1 target tests)\n');
    expect(s.race).toContain('\nRun `judgeloop accept all --solution bd-fix --merge` to merge into your branch.\n');
  });

  it('a race of non-fixes names no winner and prints no accept line', () => {
    const s = get();
    expect(s.nonFixJson.ranking.winner).toBeNull();
    expect(s.nonFixRace).toContain('\nNo solution fixes the task: none of the 1 target tests passes in any solution');
    expect(s.nonFixRace).not.toContain('judgeloop accept');
    expect(s.nonFixRace).not.toContain('✓ target_tests_pass');
    for (const x of NON_FIXES) expect(s.collectLine[x]).not.toMatch(/full_pass|partial_pass|resolved/);
  });

  it("the fix's composite is at least 20 points above every non-fix's, in collect and in the race", () => {
    const s = get();
    for (const x of NON_FIXES) {
      expect(composite('fix') - composite(x), x).toBeGreaterThanOrEqual(0.2);
      expect(sol('bd-fix').composite - sol(`bd-${x}`).composite, x).toBeGreaterThanOrEqual(0.2);
      // One verdict: the race's checks composite is the collector's.
      expect(sol(`bd-${x}`).composite, x).toBeLessThanOrEqual(composite(x) + 1e-9);
    }
    expect(s.collectLine.refactor).toMatch(/^bd-refactor\s+agent_failure\s.*fixes 0 of 1 target test$/);
  });

  it('the fix that breaks two tests names both and is capped', () => {
    const s = get();
    const [a, b] = ids.broken;
    expect(s.collectLine.breaker).toContain('broke 2 tests that passed on the base: ');
    for (const name of [a, b]) expect(s.collectLine.breaker).toContain(name.split('::').pop()!);
    expect(composite('breaker')).toBeLessThanOrEqual(0.45);
    expect([...sol('bd-breaker').target_tests.broke].sort()).toEqual([a, b].sort());
    expect(sol('bd-breaker').gates.mergeable).toBe(false);
  });

  it('the weakened assertion is found', () => {
    const kinds = sol('bd-weakened').flags.map((f: { kind: string }) => f.kind);
    expect(kinds.some((k: string) => k === 'test_modified' || k === 'test_weakened')).toBe(true);
    expect(get().race).toMatch(/finding test_(modified|weakened) \S+:\d+ — /);
  });

  it('the flagged hack scores at most half the fix in the race, and its passes fix nothing', () => {
    const s = get();
    expect(sol('bd-hack').flags.map((f: { kind: string }) => f.kind)).toContain('special_case');
    expect(sol('bd-hack').race_score).toBeLessThanOrEqual(sol('bd-fix').race_score / 2);
    expect(s.collectLine.hack).toMatch(/^bd-hack\s+agent_failure\s.*gamed: special_case at /);
    expect(sol('bd-hack').target_tests.line).toMatch(/^fixes 0 of 1 target test; passes gamed/);
  });

  it('one unit for the race score: 0-100 in the text, the markdown and the JSON', () => {
    const s = get();
    const fix = sol('bd-fix');
    expect(fix.race_score).toBe(Math.round(fix.score * 1000) / 10);
    expect(fix.race_score).toBeGreaterThan(1);
    expect(s.race).toContain(`fix (bd-fix)            race score  ${fix.race_score.toFixed(1)}`);
    expect(s.raceMarkdown).toContain(`(race score ${fix.race_score.toFixed(1)} of 100,`);
    console.log(
      `race scores: ${s.raceJson.solutions.map((x: { id: string; race_score: number }) => `${x.id} ${x.race_score}`).join(', ')}`,
    );
  });

  it('ratings: the empty commit rates below the fix that broke tests; the time budget is named', () => {
    const s = get();
    const score = (b: string) => s.rate[b]?.summary.run_score as number;
    expect(score('bd-empty')).toBe(0);
    expect(score('bd-empty')).toBeLessThan(score('bd-breaker'));
    expect(score('bd-breaker')).toBeLessThan(score('bd-fix'));
    expect(s.rate['bd-fix']?.summary).toMatchObject({ complexity: 3, complexity_source: 'rate_flag' });
    expect(s.rateLines).toMatch(
      /bd-fix: rated fix: .*time penalty [\d.]+: [\d.]+ \w+ against a 15 min budget, complexity 3/,
    );
  });

  it("accept --merge keeps the agent's commit, author and message; the merge is the repository's identity", () => {
    const s = get();
    const [merge, ...rest] = s.log.map((l) => l.split('|'));
    expect(merge!.slice(1, 3)).toEqual(['Repo Keeper <keeper@example.com>', 'Repo Keeper <keeper@example.com>']);
    expect(merge![3]!.split(' ')).toHaveLength(2);
    const agent = rest.find((c) => c[0] === s.fixCommit.sha);
    expect(agent?.slice(1, 3)).toEqual([s.fixCommit.author, s.fixCommit.author]);
    expect(agent?.[4]).toBe(s.fixCommit.subject);
    expect(s.log.join('\n')).not.toContain('Global Person');
    expect(s.log.join('\n')).not.toContain('judgeloop@localhost');
    expect(s.accept).toMatch(
      /^merge: merged: agent\/fix at \w+ \(the agent's commits, as measured\) merged into main/m,
    );
    expect(s.acceptAgain).toMatch(/^merge: already_merged: bd-fix is already merged into main/m);
    expect(s.raceAfter).toMatch(/\nMerged into main as \w+ \(bd-fix, with judgeloop accept\)\.\n/);
    expect(s.raceAfter).not.toContain('Run `judgeloop accept');
  });
}
