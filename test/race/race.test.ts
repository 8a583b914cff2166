import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessage } from '../../lib/base/errors.js';
import { present } from '../../lib/race/present.js';
import { runRace } from '../../lib/race/run-race.js';
import { loadRunRecord } from '../../lib/collector/run-record.js';
import { StateStore } from '../../lib/store/store.js';
import { gitIn } from '../helpers/repo.js';
import type { Race, RaceSolution } from '../../lib/schema/types.generated.js';
import {
  addSolution,
  BUGGY,
  FIXED,
  makeRaceProject,
  raceTestConfig,
  SOLUTIONS,
  writeJudgment,
  type RaceProject,
} from './_fixture.js';

const now = () => new Date('2026-01-01T12:00:00Z');

function sol(race: Race, name: string): RaceSolution {
  return race.solutions.find((s) => s.id === `bd-${name}`)!;
}
const kinds = (s: RaceSolution) => new Set(s.flags.map((f) => f.kind));

/**
 * One project and store for the races that write no judgment: the base is measured once, and a solution raced again
 * (same tree, commands and configuration) is read from its current feedback, as a second bin/race would.
 */
let shared: RaceProject | null = null;
const added = new Map<string, { files: string; record: string }>();
function project(): RaceProject {
  shared ??= makeRaceProject();
  return shared;
}
/** The run record of solution `name` in the shared project, made on first use (one name, one content). */
function run(name: string, files: Record<string, string>, over: Record<string, unknown> = {}): string {
  const key = JSON.stringify([files, over]);
  const had = added.get(name);
  if (had && had.files !== key) throw new Error(`solution ${name} is already in the shared project, with other files`);
  if (!had) added.set(name, { files: key, record: addSolution(project(), name, files, over) });
  return added.get(name)!.record;
}
const store = () => new StateStore(project().state);

describe('a race of six real branches', () => {
  let race: Race;
  beforeAll(async () => {
    const records = Object.entries(SOLUTIONS).map(([name, files]) => run(name, files));
    const config = raceTestConfig({ race: { auto_accept: { enabled: true } } });
    race = await runRace(
      records.map((f) => loadRunRecord(f, project().dir)),
      { store: store(), config, processEnv: process.env, now },
    );
  });

  it('evaluates every solution and stores the race', () => {
    expect(race.solutions.map((s) => s.status)).toEqual(Array(6).fill('evaluated'));
    expect(store().read<Race>('races', 'race-clamp')).toEqual(race);
  });

  it('ranks the clean fix first and the one that does not build last', () => {
    expect(race.ranking.order[0]).toBe('bd-clean');
    expect(race.ranking.order.at(-1)).toBe('bd-nobuild');
    const score = (n: string) => sol(race, n).score!;
    for (const other of ['reformat', 'deltest', 'secret', 'stub', 'nobuild'])
      expect(score('clean')).toBeGreaterThan(score(other));
    // The fixes that work outrank those that do not fix the bug.
    for (const fixed of ['reformat', 'secret'])
      for (const broken of ['deltest', 'stub', 'nobuild']) expect(score(fixed)).toBeGreaterThan(score(broken));
  });

  it('leaves comment coverage out of a change of a few lines (not applicable, with the count)', () => {
    const absent = sol(race, 'clean').evaluation!.categories.quality.absent.find((a) => a.name === 'comment_coverage');
    expect(absent).toEqual({
      name: 'comment_coverage',
      reason: 'not_applicable',
      detail: '1 added code line: too few for a comment ratio (at least 10)',
    });
  });

  it('keeps the mergeability gates apart from the rank, each failed condition named', () => {
    const g = (n: string) => sol(race, n).gates;
    const failed = (n: string) =>
      g(n)
        .conditions.filter((c) => c.status === 'fail')
        .map((c) => c.name);
    expect(g('clean')).toMatchObject({ build_passes: true, no_test_regression: true, mergeable: true });
    expect(g('clean').conditions.map((c) => [c.name, c.status])).toEqual([
      ['builds', 'pass'],
      ['target_tests_pass', 'pass'],
      ['pass_to_pass_kept', 'pass'],
      ['substantive_change', 'pass'],
      ['no_blocking_finding', 'pass'],
    ]);
    expect(g('reformat').mergeable).toBe(true);
    expect(failed('secret')).toEqual(['no_blocking_finding']);
    expect(g('secret').conditions[4]!.detail).toBe('secret at src/clamp.mjs:1');
    // The stub leaves the base's failing test (the task's target: no type, so a fix) failing and adds only a
    // comment: a no-op, and ✗ target_tests_pass (shown; it is the no-op that blocks).
    expect(failed('stub')).toEqual(['target_tests_pass', 'substantive_change']);
    // The deleted test is restored from the base in the graded run (so it still fails there); the deletion itself
    // is a blocking finding.
    expect(failed('deltest')).toEqual(['target_tests_pass', 'substantive_change', 'no_blocking_finding']);
    expect(g('deltest')).toMatchObject({ build_passes: true, no_test_regression: true, mergeable: false });
    expect(g('nobuild')).toMatchObject({ build_passes: false, mergeable: false });
    expect(failed('nobuild')[0]).toBe('builds');
  });

  it('flags each defect where it is', () => {
    expect(kinds(sol(race, 'clean'))).toEqual(new Set());
    expect(kinds(sol(race, 'reformat'))).toEqual(new Set(['formatting_churn']));
    expect(sol(race, 'reformat').metrics.formatting_only_files).toBe(8);
    // The deletion is found in the diff; the graded run restores the test, so no test is missing there.
    expect(kinds(sol(race, 'deltest'))).toContain('test_deleted');
    expect(kinds(sol(race, 'deltest'))).not.toContain('tests_removed');
    const secret = sol(race, 'secret').flags.filter((f) => f.kind === 'secret');
    expect(secret).toHaveLength(1);
    expect(secret[0]).toMatchObject({ file: 'src/clamp.mjs', line: 1 });
    expect(secret[0]!.detail).not.toContain('4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c');
    expect(sol(race, 'secret').evaluation!.categories.safety.criteria.find((c) => c.name === 'no_secrets')!.score).toBe(
      0,
    );
    const stub = sol(race, 'stub').flags.find((f) => f.kind === 'stub')!;
    expect(stub).toMatchObject({ file: 'src/clamp.mjs', line: 2 });
    expect(kinds(sol(race, 'stub'))).toContain('tests_failed');
    expect(kinds(sol(race, 'nobuild'))).toContain('build_failed');
  });

  it('marks the judge criteria as unmeasured (no judgment) and lowers the confidence for it', () => {
    const c = sol(race, 'clean').evaluation!;
    expect(c.categories.correctness.absent.map((a) => a.name)).toEqual(
      expect.arrayContaining(['requirement_coverage', 'edge_cases', 'typecheck']),
    );
    expect(c.categories.correctness.criteria.map((x) => x.name)).toEqual(
      expect.arrayContaining(['tests_pass', 'build', 'lint_clean', 'no_regressions', 'api_compatible']),
    );
    expect(c.confidence).toBeLessThan(0.8);
    expect(c.confidence).toBeGreaterThan(0.4);
  });

  it('refuses auto-accept with the reason (the gap to the secret-carrying fix is small)', () => {
    expect(race.auto_accept.enabled).toBe(true);
    expect(race.auto_accept.accept).toBe(false);
    expect(race.auto_accept.reason).toMatch(/No clear winner|Confidence|gap/);
  });

  it('writes pairwise comparisons for every pair and category measured', () => {
    expect(
      race.comparisons.filter(
        (c) => c.category === 'safety' && c.solution_a === 'bd-clean' && c.solution_b === 'bd-secret',
      )[0],
    ).toMatchObject({ winner: 'bd-clean' });
    expect(race.comparisons.length).toBe(15 * 5);
  });
});

describe('auto-accept on real branches', () => {
  it('accepts a clear, fully measured, mergeable winner — and not when disabled', async () => {
    const p = makeRaceProject();
    const files = [addSolution(p, 'clean', SOLUTIONS.clean!), addSolution(p, 'nobuild', SOLUTIONS.nobuild!)];
    writeJudgment(p.state, 'bd-clean', 0.95, 0.95);
    writeJudgment(p.state, 'bd-nobuild', 0.5, 0.9);
    const store = new StateStore(p.state);
    const runs = files.map((f) => loadRunRecord(f, p.dir));
    const on = await runRace(runs, {
      store,
      config: raceTestConfig({ race: { auto_accept: { enabled: true } } }),
      processEnv: process.env,
      now,
    });
    expect(on.ranking.winner).toBe('bd-clean');
    expect(on.auto_accept).toEqual({ enabled: true, accept: true, reason: 'All criteria met', solution: 'bd-clean' });
    const off = await runRace(runs, { store, config: raceTestConfig(), processEnv: process.env, now, raceId: 'off' });
    expect(off.auto_accept).toEqual({
      enabled: false,
      accept: false,
      reason: 'Auto-acceptance disabled',
      solution: null,
    });
  });
});

describe('named target tests', () => {
  it('takes the test failing on the base as the target of a fix task; --target names them, and a name no run reported is noted', async () => {
    const dead = {
      'src/clamp.mjs': `${BUGGY}\nexport function clampAll(xs, lo, hi) {\n  return xs.map((x) => clamp(x, lo, hi));\n}\n`,
    };
    const runs = [run('clean', SOLUTIONS.clean!), run('stub', SOLUTIONS.stub!), run('dead', dead)].map((f) =>
      loadRunRecord(f, project().dir),
    );
    const ctx = { store: store(), config: raceTestConfig(), processEnv: process.env, now };
    const derived = await runRace(runs, { ...ctx, raceId: 'derived' });
    // No task type: a task that fixes something, so the test failing on the base is the target.
    expect(derived.targets).toMatchObject({ source: 'base_failing', count: 1 });
    expect(derived.targets.fail_to_pass).toHaveLength(1);
    expect(derived.targets.fail_to_pass[0]).toMatch(/above$/);
    const above = derived.targets.fail_to_pass[0]!;
    // The clean fix also added a test: evidence of testing, never one of its targets.
    expect(sol(derived, 'clean').target_tests).toMatchObject({ targets: [above], resolved: true });
    expect(sol(derived, 'clean').target_tests!.added.length).toBeGreaterThan(0);
    expect(sol(derived, 'stub').target_tests).toMatchObject({
      target_failing: [above],
      resolved: false,
      line: 'fixes 0 of 1 target test',
    });
    // Code that changes but fixes no target earns no correctness: it did not do the task.
    expect(sol(derived, 'dead').gates.conditions.find((c) => c.name === 'substantive_change')!.status).toBe('pass');
    expect(sol(derived, 'dead').evaluation!.categories.correctness).toMatchObject({
      overall: 0,
      override: 'no credit: fixes 0 of 1 target test',
    });
    expect(sol(derived, 'clean').evaluation!.categories.correctness.override).toBeUndefined();
    expect(derived.ranking).toMatchObject({ winner: 'bd-clean', outcome: 'winner' });

    const named = await runRace(runs, {
      ...ctx,
      raceId: 'named',
      targets: [above, 'no-such-test'],
    });
    expect(named.targets).toMatchObject({ source: 'race', fail_to_pass: [above, 'no-such-test'].sort(), count: 2 });
    expect(named.notes).toContain('target tests not reported by any run (check the id): no-such-test');
    expect(sol(named, 'clean').gates.conditions[1]).toMatchObject({
      name: 'target_tests_pass',
      status: 'fail',
      detail: 'fixes 1 of 2; not passing: no-such-test',
    });
    // Safe and fixing one of two: the winner, with what it did beside its name.
    expect(sol(named, 'clean').gates.mergeable).toBe(true);
    expect(named.ranking).toMatchObject({ winner: 'bd-clean', outcome: 'winner' });
    expect(present(named, 'table')).toMatch(/^Winner: clean \(bd-clean.*\) — fixes 1 of 2 target tests$/m);
  });
});

describe('bad input and odd races', () => {
  it('a race of a single run has confidence 1 and a winner', async () => {
    const race = await runRace([loadRunRecord(run('clean', SOLUTIONS.clean!), project().dir)], {
      store: store(),
      config: raceTestConfig(),
      processEnv: process.env,
      now,
      raceId: 'single',
    });
    expect(race.ranking).toMatchObject({ confidence: 1, winner: 'bd-clean', order: ['bd-clean'] });
    expect(race.comparisons).toEqual([]);
  });

  it('refuses runs of different tasks and duplicate beads, naming the files', async () => {
    const p = makeRaceProject();
    const a = addSolution(p, 'clean', SOLUTIONS.clean!);
    const b = addSolution(p, 'other', SOLUTIONS.clean!, { task: { id: 'another-task', prompt: 'x' } });
    const c = addSolution(p, 'dup', SOLUTIONS.clean!, { bead: 'bd-clean' });
    const ctx = { store: new StateStore(p.state), config: raceTestConfig(), processEnv: process.env, now };
    const msg = async (files: string[]) =>
      runRace(
        files.map((f) => loadRunRecord(f, p.dir)),
        ctx,
      ).then(() => 'no error', errorMessage);
    expect(await msg([a, b])).toBe(
      `${b}: /task/id: "another-task" differs from "fix-clamp" in ${a}; a race compares runs of one task`,
    );
    expect(await msg([a, c])).toBe(
      `${c}: /bead: "bd-clean" is also the bead of ${a}; each solution needs its own bead`,
    );
    expect(new StateStore(p.state).list('races')).toEqual([]);
  });

  it('records a missing worktree as that solution failing and ranks the others', async () => {
    const a = run('clean', SOLUTIONS.clean!);
    const b = run('gone', SOLUTIONS.clean!, { worktree: 'wt-does-not-exist' });
    const race = await runRace(
      [a, b].map((f) => loadRunRecord(f, project().dir)),
      { store: store(), config: raceTestConfig(), processEnv: process.env, now, raceId: 'missing' },
    );
    const gone = race.solutions.find((s) => s.id === 'bd-gone')!;
    expect(gone).toMatchObject({ status: 'failed', rank: null, score: null });
    expect(gone.failure).toContain(join(project().dir, 'wt-does-not-exist'));
    expect(race.ranking.order).toEqual(['bd-clean']);
  });
});

describe('comment coverage in a race', () => {
  it('is measured on the added non-test code: the same helper with and without comments', async () => {
    const helper = (comment: boolean) =>
      Array.from(
        { length: 12 },
        (_, i) =>
          `${comment && i % 4 === 0 ? `// step ${i}: keep the running total in range\n` : ''}export const k${i} = (v) => Math.min(${i}, v);\n`,
      ).join('');
    const records = [
      run('commented', { 'src/clamp.mjs': FIXED, 'src/helpers.mjs': helper(true) }),
      run('bare', { 'src/clamp.mjs': FIXED, 'src/helpers.mjs': helper(false) }),
    ];
    const race = await runRace(
      records.map((f) => loadRunRecord(f, project().dir)),
      { store: store(), config: raceTestConfig(), processEnv: process.env, now, raceId: 'comments' },
    );
    const coverage = (n: string) =>
      sol(race, n).evaluation!.categories.quality.criteria.find((c) => c.name === 'comment_coverage');
    // 3 comment lines for 13 code lines (12 helpers + the fix): ratio 0.23 ≥ target 0.1.
    expect(coverage('commented')).toMatchObject({ score: 1, source: 'mechanical' });
    expect(coverage('commented')!.detail).toMatch(/^3 comment lines for 13 added code lines/);
    expect(sol(race, 'commented').metrics).toMatchObject({ comment_lines: 3, code_lines: 13 });
    expect(coverage('bare')).toMatchObject({ score: 0 });
    expect(sol(race, 'commented').evaluation!.categories.quality.overall!).toBeGreaterThan(
      sol(race, 'bare').evaluation!.categories.quality.overall!,
    );
  });

  it('measures complexity and function length of a Python change by token heuristics, and says so', async () => {
    const py =
      'def pick(xs, lo):\n    for x in xs:\n        if x > lo and x % 2:\n            return x\n    return None\n';
    const record = run('python', { 'src/clamp.mjs': FIXED, 'tools/pick.py': py });
    const race = await runRace([loadRunRecord(record, project().dir)], {
      store: store(),
      config: raceTestConfig(),
      processEnv: process.env,
      now,
      raceId: 'python',
    });
    const q = sol(race, 'python').evaluation!.categories.quality.criteria;
    // pick: 1 + for + if + and = 4 (the JS fix: 1 + two ifs = 3); longest changed function: pick's 5 lines.
    // Change-local: clamp gained one decision (2 → 3), pick is new with 4; both within their ideal, the first is named.
    expect(q.find((c) => c.name === 'complexity')!.detail).toBe(
      'clamp (src/clamp.mjs:1): complexity 2 → 3 (+1); ideal ≤ +2 (worst of 2 changed functions) (token heuristic for .py)',
    );
    expect(sol(race, 'python').metrics).toMatchObject({
      max_complexity: 4,
      max_function_lines: 5,
      functions_measured: 2,
    });
  });
});

describe('the race benchmark runs where the checks run', () => {
  it("in a checkout of each sealed candidate: the worktree's ignored files are absent, a printed figure is not the memory", async () => {
    const p = project();
    // Fails where an ignored .fast file exists (it would be the worktree's, not the solution's); runs bench.sh if any.
    const command = 'test ! -e .fast && { test ! -f bench.sh || sh bench.sh; }';
    const hack = {
      ...SOLUTIONS.clean!,
      '.gitignore': '.fast\n',
      '.fast': 'precomputed\n',
      'bench.sh': 'echo JUDGELOOP_MAXRSS_KB=1\n',
    };
    const files = [run('clean', SOLUTIONS.clean!), run('hack', hack)];
    expect(gitIn(join(p.dir, 'wt-hack'), 'ls-files', '.fast')).toBe('');
    const race = await runRace(
      files.map((f) => loadRunRecord(f, p.dir)),
      {
        store: store(),
        config: raceTestConfig({ race: { benchmark: { command } } }),
        processEnv: process.env,
        now,
        raceId: 'benchmark',
      },
    );
    for (const id of ['bd-clean', 'bd-hack']) {
      const s = race.solutions.find((x) => x.id === id)!;
      expect(s.metrics.benchmark_ms, id).toBeGreaterThan(0);
      expect(s.metrics.benchmark_max_rss_kb, id).toBeGreaterThan(100);
    }
    expect(
      gitIn(p.repo, 'worktree', 'list')
        .split('\n')
        .filter((l) => l.includes('judgeloop-base-')),
    ).toEqual([]);
  });
});
