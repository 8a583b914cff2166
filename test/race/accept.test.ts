// race and accept merging for real in a test repository: through their entries in this process (what bin/ runs), and
// bin/race and bin/accept as real processes (needs `npm run build`) once per CLI behaviour.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandRun } from '../../lib/cli/cli.js';
import { run as acceptRun } from '../../scripts/accept.js';
import { run as raceRun } from '../../scripts/race.js';
import { StateStore } from '../../lib/store/store.js';
import type { Race, RaceChoice } from '../../lib/schema/types.generated.js';
import { runHere } from '../helpers/in-process.js';
import { gitIn, tempDir, writeTree } from '../helpers/repo.js';
import { addSolution, BUGGY, FIXED, makeRaceProject, MORE_TESTS, SOLUTIONS, type RaceProject } from './_fixture.js';
import type { Feedback } from '../../lib/schema/types.generated.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A HOME whose global git config names someone else than the test repositories' own (local) user. */
const HOME = tempDir('judgeloop-home-');
writeFileSync(join(HOME, '.gitconfig'), '[user]\n\tname = Global Person\n\temail = global@example.com\n');
const ENV: NodeJS.ProcessEnv = { ...process.env, HOME, NO_COLOR: '1' };
for (const k of ['XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'EMAIL']) delete ENV[k];
for (const k of Object.keys(ENV)) if (/^GIT_(AUTHOR|COMMITTER)_/.test(k)) delete ENV[k];
/** The repository's own identity (local config), which merges must carry. */
const KEEPER = 'Repo Keeper <test@example.com>';
/** Who made the base commit (the test repositories' identity before the test renames it). */
const BASE = 'Test <test@example.com>';

/** bin/<name> as a process: where the CLI itself is the subject (one case per behaviour). */
function bin(name: string, args: string[], p: RaceProject) {
  const r = spawnSync(join(ROOT, 'bin', name), args, {
    cwd: p.dir,
    encoding: 'utf8',
    env: { ...ENV, JUDGELOOP_STATE_DIR: p.state },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ENTRIES: Record<string, CommandRun> = { race: raceRun, accept: acceptRun };

/** The same command through the entry its bin calls, in this process. */
const cmd = (name: string, args: string[], p: RaceProject) =>
  runHere(ENTRIES[name]!, args, { ...ENV, JUDGELOOP_STATE_DIR: p.state }, p.dir);

/** `git log` of main, one line per commit: author, committer, parents count, subject. */
const logOf = (p: RaceProject, rev = 'main') =>
  gitIn(p.repo, 'log', '--topo-order', '--format=%an <%ae>|%cn <%ce>|%p|%s', rev)
    .split('\n')
    .map((l) => {
      const [author, committer, parents, subject] = l.split('|');
      return { author, committer, merge: parents!.split(' ').length > 1, subject };
    });

describe('a race with no mergeable solution', () => {
  it("says so, names each solution's failed conditions and prints the next command; accept refuses without --force", async () => {
    const p = makeRaceProject();
    addSolution(p, 'stub', SOLUTIONS.stub!);
    addSolution(p, 'secret', SOLUTIONS.secret!);
    // bin/race evaluating and bin/accept refusing, as processes: their output and exit codes as a user sees them.
    const r = bin('race', ['--quiet', 'stub.json', 'secret.json'], p);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // The stub changes nothing (composite 0, as bin/collect scores a no-op); the other fixes the bug but adds a secret.
    expect(r.stdout).toContain(
      'No mergeable solution: every ranked solution fails the gate (bd-secret: no_blocking_finding; bd-stub: substantive_change).\n',
    );
    expect(r.stdout).toContain(
      'Next: re-run the agents on the task, or inspect one with `judgeloop race --race race-clamp --markdown`; after new work, `judgeloop race --race race-clamp --recollect`.\n',
    );
    const race = new StateStore(p.state).read<Race>('races', 'race-clamp')!;
    expect(race.ranking).toMatchObject({ winner: null, outcome: 'no_mergeable_solution' });
    const dry = bin('accept', ['race-clamp', '--solution', 'bd-stub', '--merge', '--dry-run'], p);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(
      /^accept: bd-stub fails the mergeable gate: substantive_change \(changes no code: only 1 file in whitespace or comments only\); --force merges anyway\n$/,
    );
  });
});

describe('race then accept --merge', () => {
  let p: RaceProject;
  let race: Race;
  const mainHead = () => gitIn(p.repo, 'rev-parse', 'main');
  beforeAll(async () => {
    p = makeRaceProject();
    gitIn(p.repo, 'config', 'user.name', 'Repo Keeper');
    addSolution(p, 'clean', SOLUTIONS.clean!);
    // The agent's own commit: its author and message are what main's history must show after the merge.
    gitIn(
      join(p.dir, 'wt-clean'),
      'commit',
      '-q',
      '--amend',
      '--author',
      'Ada Agent <ada@agents.example>',
      '-m',
      'clamp: honour the upper bound',
    );
    addSolution(p, 'nobuild', SOLUTIONS.nobuild!);
    const r = await cmd('race', ['--json', '--quiet', 'clean.json', 'nobuild.json'], p);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { state_dir, ...stored } = JSON.parse(r.stdout) as Race & { state_dir: string };
    expect(state_dir).toBe(p.state);
    race = stored;
  });

  it('ranks and stores the race', async () => {
    expect(race.race_id).toBe('race-clamp');
    expect(race.ranking.order).toEqual(['bd-clean', 'bd-nobuild']);
    expect(new StateStore(p.state).read<Race>('races', 'race-clamp')).toEqual(race);
    const table = await cmd('race', ['--race', 'race-clamp', '--quiet'], p);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Race Results — Task: clamp ignores the upper bound: fix it\n/);
    expect(table.stdout).toMatch(/#1 +clean \(bd-clean\) .*\[BUILD: ✓\]/);
    expect(table.stdout).toMatch(/#2 +nobuild \(bd-nobuild\) .*\[BUILD: ✗\].*✗ not mergeable/);
    expect(table.stdout).toContain(
      '      gate: ✓ builds  ✓ target_tests_pass  ✓ pass_to_pass_kept  ✓ substantive_change  ✓ no_blocking_finding\n',
    );
    expect(table.stdout).toMatch(/\n {8}✗ builds: build failed \(exit 1\)\n/);
    // Every number labelled, one legend line, the ranking's confidence named; no spec jargon where a user reads.
    expect(table.stdout).toMatch(/#1 +clean \(bd-clean\) +race score +[\d.]+ +checks +[\d.]+ +\[BUILD/);
    expect(table.stdout.split('\n').filter((l) => l.startsWith('Legend (0-100): race score = '))).toHaveLength(1);
    expect(table.stdout).toMatch(/; confidence in the ranking \d+% \(a winner needs 60%/);
    const md = (await cmd('race', ['--race', 'race-clamp', '--markdown'], p)).stdout;
    for (const text of [table.stdout, md]) expect(text).not.toMatch(/seed \d|categor(y|ies)'s|Seed/);
  });

  it('run again on the same runs, current feedback is reused (no check runs); --recollect runs them; a changed tree is measured', async () => {
    const store = new StateStore(p.state);
    const collectedAt = () =>
      ['bd-clean', 'bd-nobuild'].map((b) => store.read<{ collected_at: string }>('feedback', b)!.collected_at);
    const before = collectedAt();
    const again = await cmd('race', ['clean.json', 'nobuild.json'], p);
    expect(again.code, again.stderr).toBe(0);
    for (const id of ['bd-clean', 'bd-nobuild'])
      expect(again.stderr).toContain(
        `race: ${id}: feedback current (same candidate, commands and configuration): checks not run again`,
      );
    expect(collectedAt()).toEqual(before);
    expect(store.read<Race>('races', 'race-clamp')!.ranking.order).toEqual(race.ranking.order);
    const forced = await cmd('race', ['--quiet', '--recollect', 'clean.json', 'nobuild.json'], p);
    expect(forced.code, forced.stderr).toBe(0);
    const after = collectedAt();
    expect(after[0]).not.toBe(before[0]);
    // The agent changes its worktree after the measurement: that solution is measured again, the other reused.
    writeFileSync(join(p.dir, 'wt-nobuild', 'NOTE.md'), 'later\n');
    const changed = await cmd('race', ['clean.json', 'nobuild.json'], p);
    expect(changed.stderr).toContain('race: bd-clean: feedback current');
    expect(changed.stderr).not.toContain('race: bd-nobuild: feedback current');
    expect(collectedAt()[0]).toBe(after[0]);
    expect(collectedAt()[1]).not.toBe(after[1]);
    rmSync(join(p.dir, 'wt-nobuild', 'NOTE.md'));
    // The base branch moves on (the records name it by ref, without base_commit): the merge base, and so what a
    // fresh collect grades, is the same: reused.
    expect((await cmd('race', ['--quiet', 'clean.json', 'nobuild.json'], p)).code).toBe(0); // nobuild's tree is back: measured
    const main = gitIn(p.repo, 'rev-parse', 'main');
    gitIn(p.repo, 'commit', '-q', '--allow-empty', '-m', 'main moves on');
    const movedOn = await cmd('race', ['clean.json', 'nobuild.json'], p);
    expect(movedOn.code, movedOn.stderr).toBe(0);
    for (const id of ['bd-clean', 'bd-nobuild']) expect(movedOn.stderr).toContain(`race: ${id}: feedback current`);
    // The base now holds nobuild's work (merged): its merge base moved, so it is measured again; clean is reused.
    const merged = collectedAt();
    gitIn(p.repo, 'update-ref', 'refs/heads/main', gitIn(p.repo, 'rev-parse', 'agent/nobuild'));
    const rebased = await cmd('race', ['clean.json', 'nobuild.json'], p);
    expect(rebased.code, rebased.stderr).toBe(0);
    expect(rebased.stderr).toContain('race: bd-clean: feedback current');
    expect(rebased.stderr).not.toContain('race: bd-nobuild: feedback current');
    expect(collectedAt().map((c, i) => c !== merged[i])).toEqual([false, true]);
    gitIn(p.repo, 'update-ref', 'refs/heads/main', main);
  }, 240_000);

  it('--race ID shows the stored race without re-running anything; --recollect evaluates again', async () => {
    const store = new StateStore(p.state);
    // The worktrees' commands cannot run any more: showing must not need them, and must not overwrite the record.
    const stored = JSON.stringify(store.read<Race>('races', 'race-clamp'));
    gitIn(p.repo, 'worktree', 'move', join(p.dir, 'wt-clean'), join(p.dir, 'wt-clean-moved'));
    try {
      // bin/race showing a stored race: its stdout is the record itself.
      const shown = bin('race', ['--race', 'race-clamp', '--json'], p);
      expect(shown).toMatchObject({ code: 0, stderr: '' });
      expect(shown.stdout).toBe(`${stored}\n`);
      expect(JSON.stringify(store.read<Race>('races', 'race-clamp'))).toBe(stored);
      const md = await cmd('race', ['--race', 'race-clamp', '--markdown'], p);
      expect(md.stdout).toMatch(/\| Gate: builds \| ✓ \| ✗ build failed \(exit 1\) \|/);
      expect(await cmd('race', ['--race', 'race-clamp', '--target', 'x'], p)).toMatchObject({
        code: 2,
        stderr: '--target re-evaluates: add --recollect (judgeloop race --race race-clamp --recollect --target …)\n',
      });
      // An id with no stored race and no run records: the races there are, and how to race run records.
      const unknown = await cmd('race', ['--race', 'race-nope'], p);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('no run record has race_id "race-nope"; stored races: race-clamp.');
      expect(unknown.stderr).toContain('Race run records with: judgeloop race <run.json>… [--id race-nope]');
      const re = await cmd('race', ['--race', 'race-clamp', '--recollect', '--json', '--quiet'], p);
      expect(re.code).toBe(0);
      const again = JSON.parse(re.stdout) as Race;
      expect(again.solutions.find((x) => x.id === 'bd-clean')).toMatchObject({ status: 'failed', rank: null });
    } finally {
      gitIn(p.repo, 'worktree', 'move', join(p.dir, 'wt-clean-moved'), join(p.dir, 'wt-clean'));
      await cmd('race', ['--race', 'race-clamp', '--recollect', '--quiet'], p);
    }
    expect(store.read<Race>('races', 'race-clamp')!.ranking.order).toEqual(['bd-clean', 'bd-nobuild']);
  }, 240_000);

  it('refuses to merge a solution that fails a gate, and records the refusal', async () => {
    const before = mainHead();
    const r = await cmd('accept', ['race-clamp', '--solution', 'bd-nobuild', '--merge'], p);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'accept: bd-nobuild fails the mergeable gate: builds (build failed (exit 1)); pass_to_pass_kept (tests not run: the build failed); --force merges anyway\n',
    );
    const dry = await cmd('accept', ['race-clamp', '--solution', 'bd-nobuild', '--merge', '--dry-run'], p);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('merge: refused: bd-nobuild fails the mergeable gate: builds (build failed (exit 1))');
    expect(mainHead()).toBe(before);
    const choice = new StateStore(p.state).read<RaceChoice>('race_choices', 'race-clamp')!;
    expect(choice).toMatchObject({
      user_choice: 'chose_other',
      chosen_solution_id: 'bd-nobuild',
      recommended_solution_id: 'bd-clean',
      merge: { status: 'refused', forced: false },
    });
  });

  it('--dry-run says it would merge and changes nothing', async () => {
    const before = mainHead();
    const store = new StateStore(p.state);
    const choiceBefore = store.read<RaceChoice>('race_choices', 'race-clamp');
    const r = await cmd('accept', ['race-clamp', '--solution', 'bd-clean', '--merge', '--dry-run'], p);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('race-clamp: would record accepted_winner');
    const head = gitIn(p.repo, 'rev-parse', 'agent/clean');
    expect(r.stdout).toContain(
      `merge: dry_run: agent/clean at ${head.slice(0, 12)} (the agent's commits, as measured) merges cleanly into main; nothing changed\n`,
    );
    expect(store.read<RaceChoice>('race_choices', 'race-clamp')).toEqual(choiceBefore);
    expect(mainHead()).toBe(before);
    expect(gitIn(p.repo, 'show', 'main:src/clamp.mjs') + '\n').toBe(BUGGY);
  });

  it("merges the agent's own commit (its author and message) by the repository's identity", async () => {
    const before = mainHead();
    const agent = gitIn(p.repo, 'rev-parse', 'agent/clean');
    const refs = () => gitIn(p.repo, 'for-each-ref', '--format=%(refname)', 'refs/judgeloop/candidates/');
    const sealed = gitIn(p.repo, 'rev-parse', 'refs/judgeloop/candidates/bd-clean');
    expect(refs().split('\n').sort()).toEqual([
      'refs/judgeloop/candidates/bd-clean',
      'refs/judgeloop/candidates/bd-nobuild',
    ]);
    // bin/accept merging for real, under the HOME whose global identity must not be used.
    const r = bin(
      'accept',
      ['race-clamp', '--solution', 'bd-clean', '--merge', '--notes', 'the clean one', '--json'],
      p,
    );
    expect(r.code, r.stderr).toBe(0);
    // The merge done, the race's candidate refs are pruned (both solutions', the chosen one's too).
    expect(r.stderr).toBe('accept: pruned 2 candidate ref(s) of race race-clamp\n');
    expect(refs()).toBe('');
    const { state_dir, ...printed } = JSON.parse(r.stdout) as RaceChoice & { state_dir: string };
    expect(state_dir).toBe(p.state);
    const head = mainHead();
    // The branch holds exactly what was measured (its tree is the sealed candidate's): its commit is what merges.
    expect(gitIn(p.repo, 'rev-parse', `${sealed}^{tree}`)).toBe(gitIn(p.repo, 'rev-parse', `${agent}^{tree}`));
    expect(gitIn(p.repo, 'rev-list', '--parents', '-n', '1', head).split(' ')).toEqual([head, before, agent]);
    expect(logOf(p)).toEqual([
      { author: KEEPER, committer: KEEPER, merge: true, subject: 'Merge agent/clean (chosen with judgeloop accept)' },
      {
        author: 'Ada Agent <ada@agents.example>',
        committer: KEEPER,
        merge: false,
        subject: 'clamp: honour the upper bound',
      },
      { author: BASE, committer: BASE, merge: false, subject: 'base' },
    ]);
    expect(gitIn(p.repo, 'show', 'main:src/clamp.mjs') + '\n').toBe(FIXED);
    const choice = new StateStore(p.state).read<RaceChoice>('race_choices', 'race-clamp')!;
    expect(choice).toMatchObject({
      user_choice: 'accepted_winner',
      chosen_solution_id: 'bd-clean',
      feedback_notes: 'the clean one',
      merge: { status: 'merged', merged: 'commits', source: agent, sealed, commit: head, into: 'main' },
    });
    expect(printed).toEqual(choice);
  });

  it('a second accept says already merged and changes nothing', async () => {
    const head = mainHead();
    for (const extra of [[], ['--dry-run']]) {
      const r = await cmd('accept', ['race-clamp', '--solution', 'bd-clean', '--merge', ...extra], p);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain(
        `merge: already_merged: bd-clean is already merged into main (${head.slice(0, 12)}); nothing changed\n`,
      );
      expect(mainHead()).toBe(head);
    }
    // Without the recorded choice, git itself says so: the agent's commit is in main.
    rmSync(join(p.state, 'race-choices', 'race-clamp.json'));
    const again = await cmd('accept', ['race-clamp', '--solution', 'bd-clean', '--merge'], p);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /merge: already_merged: agent\/clean at [0-9a-f]{12} \(the agent's commits, as measured\) is already merged into main/,
    );
    expect(mainHead()).toBe(head);
  });

  it('the race then says where its winner was merged instead of offering to accept it', async () => {
    const head = mainHead();
    const merged = `Merged into main as ${head.slice(0, 12)} (bd-clean, with judgeloop accept).`;
    const table = await cmd('race', ['--race', 'race-clamp'], p);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      new RegExp(
        `Winner: clean \\(bd-clean, branch: agent/clean\\) — resolved \\(fixes \\d+ of \\d+ target tests?\\)\\n${merged.replace(/[.()]/g, '\\$&')}\\n`,
      ),
    );
    expect(table.stdout).not.toContain('--merge`');
    const md = (await cmd('race', ['--race', 'race-clamp', '--markdown'], p)).stdout;
    expect(md).toContain(`- ${merged}\n`);
    expect(md).not.toContain('Accept winner');
    // main reset to before the merge: the race offers the accept line again.
    gitIn(p.repo, 'update-ref', 'refs/heads/main', gitIn(p.repo, 'rev-parse', `${head}^1`));
    try {
      expect((await cmd('race', ['--race', 'race-clamp'], p)).stdout).toContain(
        'Run `judgeloop accept race-clamp --solution bd-clean --merge` to merge into your branch.\n',
      );
    } finally {
      gitIn(p.repo, 'update-ref', 'refs/heads/main', head);
    }
  });

  it('--force overrides the gate, and a conflicting merge is aborted and reported', async () => {
    const before = mainHead();
    const r = await cmd('accept', ['race-clamp', '--solution', 'bd-nobuild', '--merge', '--force'], p);
    expect(r.code).toBe(1);
    expect(new StateStore(p.state).read<RaceChoice>('race_choices', 'race-clamp')!.merge).toMatchObject({
      status: 'conflict',
      forced: true,
    });
    expect(mainHead()).toBe(before);
    expect(gitIn(p.repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  });

  it('bad usage is one line and exit 2', async () => {
    // bin/accept's exit 2 as a process; the rest through the same entry in this process.
    expect(bin('accept', ['no-such-race', '--solution', 'x'], p)).toMatchObject({
      code: 2,
      stderr: 'race no-such-race: no state/races/no-such-race.json (run judgeloop race first)\n',
    });
    expect(await cmd('accept', ['race-clamp', '--solution', 'bd-x'], p)).toMatchObject({
      code: 2,
      stderr: '--solution bd-x: not a solution of race race-clamp (bd-clean, bd-nobuild)\n',
    });
    expect((await cmd('accept', ['race-clamp', '--reject-all', '--merge'], p)).code).toBe(2);
    expect((await cmd('race', ['--race', 'nothing-here'], p)).code).toBe(2);
    // A stored race that does not fit the schema (older judgeloop, hand edit): one line, how to get a fresh one.
    const file = join(p.state, 'races', 'old-race.json');
    writeFileSync(file, JSON.stringify({ schema_version: '1.0.0', race_id: 'old-race' }));
    const old = await cmd('race', ['--race', 'old-race'], p);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(
      /^--race old-race: the stored race cannot be read \(.*\); evaluate it again with judgeloop race --race old-race --recollect\n$/,
    );
  });

  it('shows the learned adjustments (from the override above) without applying them', async () => {
    const r = await cmd('accept', ['--show-learning', '--json'], p);
    expect(r.code).toBe(0);
    const l = JSON.parse(r.stdout) as { based_on: number; applied: boolean };
    // The latest choice per race stands: the forced pick of bd-nobuild over the recommended bd-clean.
    expect(l).toMatchObject({ based_on: 1, applied: false });
  });
});

describe('accept --merge of work the agent left uncommitted', () => {
  it("commits the measured tree on the agent's head (the agent as author, the task's first line as message), merges it once", async () => {
    const p = makeRaceProject();
    gitIn(p.repo, 'config', 'user.name', 'Repo Keeper');
    // The agent committed its test, then left the fix uncommitted in its worktree.
    addSolution(
      p,
      'wip',
      { 'test/clamp.test.mjs': MORE_TESTS },
      {
        race_id: 'race-wip',
        agent: { slug: 'wip', model: 'model-x' },
        task: { id: 'fix-clamp', prompt: '\nclamp ignores the upper bound: fix it\n\nThe tests say how.' },
      },
    );
    const wt = join(p.dir, 'wt-wip');
    gitIn(wt, 'commit', '-q', '--amend', '--author', 'Ada Agent <ada@agents.example>', '-m', 'test: the upper bound');
    writeTree(wt, { 'src/clamp.mjs': FIXED });
    const agentHead = gitIn(wt, 'rev-parse', 'HEAD');
    const race = await cmd('race', ['--quiet', 'wip.json'], p);
    expect(race.code, race.stderr).toBe(0);
    const candidate = new StateStore(p.state).read<Feedback>('feedback', 'bd-wip')!.candidate!;

    // The branch moved after it was measured (a commit that is not what was measured): refused, as before.
    const moved = gitIn(wt, 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'later');
    gitIn(p.repo, 'update-ref', 'refs/heads/agent/wip', moved);
    const refused = await cmd('accept', ['race-wip', '--solution', 'bd-wip', '--merge'], p);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^accept: agent\/wip no longer holds what was measured .*src\/clamp\.mjs differ/);
    const forced = await cmd('accept', ['race-wip', '--solution', 'bd-wip', '--merge', '--force', '--dry-run'], p);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(
      `merge: dry_run: agent/wip as it is now (${moved.slice(0, 12)}) merges cleanly into main; nothing changed\n`,
    );
    gitIn(p.repo, 'update-ref', 'refs/heads/agent/wip', agentHead);

    const before = gitIn(p.repo, 'rev-parse', 'main');
    const r = await cmd('accept', ['race-wip', '--solution', 'bd-wip', '--merge'], p);
    expect(r.code, r.stderr).toBe(0);
    const head = gitIn(p.repo, 'rev-parse', 'main');
    const [, first, work] = gitIn(p.repo, 'rev-list', '--parents', '-n', '1', head).split(' ');
    expect(first).toBe(before);
    expect(r.stdout).toContain(
      `merge: merged: the measured work of agent/wip (committed as ${work!.slice(0, 12)}) merged into main at ${head.slice(0, 12)}\n`,
    );
    // The commit holds exactly what was measured, on the agent's own commit; main's history keeps both.
    expect(gitIn(p.repo, 'rev-parse', `${work}^{tree}`)).toBe(candidate.tree);
    expect(gitIn(p.repo, 'rev-parse', `${work}^`)).toBe(agentHead);
    expect(gitIn(p.repo, 'log', '-1', '--format=%B', work!)).toBe(
      'clamp ignores the upper bound: fix it\n\nJudgeloop-Run: bd-wip\nJudgeloop-Agent: wip (model-x)',
    );
    expect(logOf(p)).toEqual([
      { author: KEEPER, committer: KEEPER, merge: true, subject: 'Merge agent/wip (chosen with judgeloop accept)' },
      {
        author: 'wip <wip@judgeloop.invalid>',
        committer: KEEPER,
        merge: false,
        subject: 'clamp ignores the upper bound: fix it',
      },
      { author: 'Ada Agent <ada@agents.example>', committer: KEEPER, merge: false, subject: 'test: the upper bound' },
      { author: BASE, committer: BASE, merge: false, subject: 'base' },
    ]);
    expect(gitIn(p.repo, 'show', 'main:src/clamp.mjs') + '\n').toBe(FIXED);
    expect(new StateStore(p.state).read<RaceChoice>('race_choices', 'race-wip')!.merge).toMatchObject({
      status: 'merged',
      merged: 'committed',
      source: work,
      commit: head,
    });
    // Twice: already merged, nothing new — and, the same measurement committing to the same id, git says so too.
    for (const forget of [false, true]) {
      if (forget) rmSync(join(p.state, 'race-choices', 'race-wip.json'));
      const again = await cmd('accept', ['race-wip', '--solution', 'bd-wip', '--merge'], p);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/merge: already_merged: .*already merged into main/);
      expect(gitIn(p.repo, 'rev-parse', 'main')).toBe(head);
    }
    expect(gitIn(p.repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  }, 240_000);
});
