// collectRun / bin/collect's run() end to end: real git repos, real node --test runs, real state files.
import { REGRESSION_CAP } from '../../lib/collector/regressions.js';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/collect.js';
import { parseTestOutput } from '../../lib/collector/parsers/index.js';
import { compositeScore, scoreDiffSize, scoreLint, scoreTests, tallyTests } from '../../lib/collector/scoring.js';
import { validate } from '../../lib/schema/schema.js';
import { FEEDBACK_KEY_ORDER, round4 } from '../../lib/collector/record-order.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, FeedbackIndexRow, RaceRun } from '../../lib/schema/types.generated.js';
import { judgmentFor, writeJudgmentFile } from '../helpers/judgment.js';
import { gitIn, tempDir } from '../helpers/repo.js';
import {
  agentWorktree,
  expectPreserved,
  HEADER,
  makeIo,
  makeProject,
  readJson,
  runRecord,
  snapshot,
  writeRecord,
  type Project,
} from './_project.js';

const W = { build: 30, tests: 30, lint: 15, diff_size: 15, speed: 10 };
const t = (name: string, expr: string) => `test(${JSON.stringify(name)}, () => assert.ok(${expr}));\n`;

async function collect(p: Project, args: string[], env: Record<string, string> = {}) {
  const { io, out, err } = makeIo(p, env);
  const code = await run(['--quiet', ...args], io);
  return { code, out: out.join(''), err: err.join('') };
}

function feedback(p: Project, bead: string): Feedback {
  const fb = readJson<Feedback>(join(p.state, 'feedback', `${bead}.json`));
  const v = validate('feedback', fb);
  expect(v.ok ? [] : v.errors).toEqual([]);
  // The stored layout: summary first, raw output last (every record a test here collects is checked).
  expect(Object.keys(fb)).toEqual(FEEDBACK_KEY_ORDER.filter((k) => k in fb));
  for (const c of Object.values(fb.checks)) if (c?.output) expect(Object.keys(c).at(-1)).toBe('output');
  return fb;
}

describe('collect: the three agents of the demo', () => {
  const p = makeProject();
  // A clean fix: one new passing test (committed) and an untracked helper file.
  agentWorktree(p, 'a', {
    commit: { 'test/more.test.mjs': HEADER + t('adds negatives', 'add(-1, -2) === -3') },
    uncommitted: { 'src/util.mjs': 'export const one = 1;\n' },
  });
  // Breaks a test: add() subtracts.
  agentWorktree(p, 'b', {
    uncommitted: { 'src/add.mjs': 'export function add(a, b) {\n  console.log(a);\n  return a - b;\n}\n' },
  });
  // Does not build.
  agentWorktree(p, 'c', { commit: { 'src/add.mjs': 'export function add(a, b) {\n  return a +;\n}\n' } });

  it('clean fix: full_pass, counts parsed, diff includes uncommitted and untracked files, exact composite', async () => {
    const file = writeRecord(p, 'a', runRecord({ bead: 'bd-a', worktree: 'wt-a' }));
    const r = await collect(p, [file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const fb = feedback(p, 'bd-a');
    expect(fb.outcome).toBe('full_pass');
    // Graded: the candidate's code with the base's tests; the agent's added test runs apart, as its own.
    expect(fb.checks.test?.tests).toMatchObject({ passed: 2, failed: 0, total: 2 });
    expect(fb.baseline?.tests).toMatchObject({ passed: 2, total: 2 });
    expect(fb.candidate?.excluded).toEqual(['test/more.test.mjs']);
    expect(fb.own_tests?.files).toEqual(['test/more.test.mjs']);
    expect(fb.own_tests?.check?.tests).toMatchObject({ passed: 3, failed: 0, total: 3 });
    expect(fb.diff?.files.map((f) => [f.path, f.added, f.removed, f.untracked]).sort()).toEqual([
      ['src/util.mjs', 1, 0, true],
      ['test/more.test.mjs', 4, 0, false],
    ]);
    // 2/2 pass → 100; lint clean; diff tiny; 60 s against a 600 s budget.
    expect(fb.scores).toEqual({ build: 1, tests: 1, lint: 1, diff_size: 1, speed: 1 });
    expect(fb.composite).toBe(1);
    expect(fb.speed).toEqual({ basis: 'budget', duration_seconds: 60, reference_seconds: 600 });
    expect(fb.integrity).toEqual({
      tests_not_run: false,
      exit_code_contradicts_counts: false,
      test_count_below_baseline: false,
      counts_disputed: false,
      runner_crashed: false,
      no_tests_collected: false,
      test_evidence: { trusted: true, reasons: [] },
      notes: [],
    });
    expect(fb.head?.commit).toBe(gitIn(join(p.dir, 'wt-a'), 'rev-parse', 'HEAD'));
    expect(r.out).toMatch(/^bd-a\s+full_pass\s+100\.0\/100/);
  });

  it('broken test: partial_pass with the regression penalty and a lint warning, composite from the parsed counts', async () => {
    const file = writeRecord(p, 'b', runRecord({ bead: 'bd-b', worktree: 'wt-b' }));
    expect((await collect(p, [file])).code).toBe(0);
    const fb = feedback(p, 'bd-b');
    expect(fb.outcome).toBe('partial_pass');
    expect(fb.checks.test?.status).toBe('failed');
    const counts = fb.checks.test!.tests!;
    expect(counts).toMatchObject({ passed: 1, failed: 1, total: 2 });
    // Expected values from the formulas applied to what the real runs printed.
    const tests = scoreTests(tallyTests(counts)!, tallyTests(fb.baseline!.tests!)!);
    expect(tests).toBe(25); // 50 − (2−1)/2×50
    expect(fb.checks.lint?.lint).toMatchObject({ errors: 0, warnings: 1 });
    expect(scoreLint(fb.checks.lint!.lint!, fb.baseline!.lint)).toBe(98);
    const diff = scoreDiffSize({
      linesAdded: fb.diff!.lines_added,
      linesRemoved: fb.diff!.lines_removed,
      filesChanged: fb.diff!.files_changed,
    });
    expect(fb.diff).toMatchObject({ files_changed: 1, lines_added: 2, lines_removed: 1 });
    expect(fb.scores).toEqual({ build: 1, tests: 0.25, lint: 0.98, diff_size: diff / 100, speed: 1 });
    // It broke a test that passed on the base: the composite is capped (regressions.ts).
    const uncapped = compositeScore({ build: 100, tests: 25, lint: 98, diff_size: diff, speed: 100 }, W)!;
    expect(uncapped).toBeGreaterThan(REGRESSION_CAP);
    expect(fb.composite).toBeCloseTo(REGRESSION_CAP / 100, 12);
  });

  it('failed build: tests and lint 0 without running, diff and speed still scored, agent_failure', async () => {
    const file = writeRecord(p, 'c', runRecord({ bead: 'bd-c', worktree: 'wt-c' }));
    expect((await collect(p, [file])).code).toBe(0);
    const fb = feedback(p, 'bd-c');
    expect(fb.outcome).toBe('agent_failure');
    expect(fb.outcome_reason).toMatch(/build failed/);
    expect(fb.checks.build?.status).toBe('failed');
    expect(fb.checks.test).toMatchObject({ status: 'skipped', skipped_reason: 'the build failed', output: null });
    expect(fb.checks.lint?.status).toBe('skipped');
    expect(fb.scores).toMatchObject({ build: 0, tests: 0, lint: 0, diff_size: 1, speed: 1 });
    expect(fb.composite).toBeCloseTo(0.25, 12); // (15×100 + 10×100) / 100
    expect(fb.integrity.tests_not_run).toBe(false);
  });

  it('the baseline was computed once, in a temporary checkout that is gone, and never in the agent worktrees', () => {
    expect(readdirSync(join(p.state, 'baselines'))).toHaveLength(1);
    expect(gitIn(p.repo, 'worktree', 'list').split('\n')).toHaveLength(4);
    for (const wt of ['wt-a', 'wt-b', 'wt-c'])
      expect(gitIn(join(p.dir, wt), 'status', '--porcelain', '--ignored')).not.toMatch(/judgeloop/);
  });
});

describe('collect: configuration and reported checks', () => {
  it('a check whose command is not configured is null and the weights re-normalise', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const file = writeRecord(
      p,
      'a',
      runRecord({ commands: { build: null, test: 'node --test test/', lint: null, typecheck: null } }),
    );
    expect((await collect(p, [file])).code).toBe(0);
    const fb = feedback(p, 'bd-1');
    expect(fb.checks.build).toBeNull();
    expect(fb.checks.lint).toBeNull();
    expect(fb.scores).toMatchObject({ build: null, lint: null, tests: 1 });
    // Stored to 4 places (lib/collector/record-order.ts).
    expect(fb.weights_used).toEqual({ tests: round4(30 / 55), diff_size: round4(15 / 55), speed: round4(10 / 55) });
    expect(fb.outcome).toBe('full_pass');
  });

  it('no command at all: nothing measured is not a pass — unmeasured, no composite, a warning', async () => {
    const p = makeProject();
    agentWorktree(p, 'a', { uncommitted: { 'src/add.mjs': 'export const add = (a, b) => a + b;\n' } });
    const file = writeRecord(p, 'a', runRecord({ commands: undefined, completed_at: '2026-01-01T00:20:00Z' }));
    const r = await collect(p, [file]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: recorded unmeasured: no build, test, lint or typecheck command is configured/);
    const fb = feedback(p, 'bd-1');
    expect(fb.baseline).toBeNull();
    expect(fb.scores).toEqual({ build: null, tests: null, lint: null, diff_size: 1, speed: 0.5 });
    expect(fb.composite).toBeNull();
    expect(fb.outcome).toBe('unmeasured');
    expect(existsSync(join(p.state, 'baselines'))).toBe(false);
  });

  it("the run record's own check results are parsed instead of running the command", async () => {
    const p = makeProject();
    const wt = agentWorktree(p, 'a', {
      uncommitted: { 'src/add.mjs': 'export function add(a, b) {\n  return a * b;\n}\n' },
    });
    // Real output of a real failing node --test run, as an orchestrator would have captured it.
    const real = spawnSync('node', ['--test', 'test/'], { cwd: wt, encoding: 'utf8' });
    const out = real.stdout + real.stderr;
    expect(real.status).toBe(1);
    const file = writeRecord(
      p,
      'a',
      runRecord({
        commands: { build: 'exit 9', test: 'exit 9', lint: null, typecheck: null },
        checks: {
          build: { exit_code: 0, output: '' },
          test: { exit_code: real.status, output: out, duration_ms: 1234 },
        },
      }),
    );
    expect((await collect(p, [file])).code).toBe(0);
    const fb = feedback(p, 'bd-1');
    expect(fb.checks.build).toMatchObject({ status: 'passed', source: 'run_record' });
    expect(fb.checks.test).toMatchObject({ status: 'failed', exit_code: 1, source: 'run_record', duration_ms: 1234 });
    expect(fb.checks.test?.tests).toEqual({ ...parseTestOutput(out), source: 'console', observer: 'none' });
    expect(fb.checks.test?.tests).toMatchObject({ passed: 1, failed: 1 });
    expect(fb.integrity.exit_code_contradicts_counts).toBe(false);
    expect(fb.outcome).toBe('partial_pass');
  });

  it('speed is relative to the fastest known run of the same race, else the budget', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    agentWorktree(p, 'b');
    const cmds = { build: null, test: null, lint: null, typecheck: null };
    await collect(p, [
      writeRecord(
        p,
        'a',
        runRecord({ bead: 'r-a', race_id: 'race-1', commands: cmds, completed_at: '2026-01-01T00:00:36Z' }),
      ),
    ]);
    await collect(p, [
      writeRecord(
        p,
        'b',
        runRecord({
          bead: 'r-b',
          worktree: 'wt-b',
          race_id: 'race-1',
          commands: cmds,
          completed_at: '2026-01-01T00:00:45Z',
        }),
      ),
    ]);
    expect(feedback(p, 'r-a').speed).toEqual({ basis: 'budget', duration_seconds: 36, reference_seconds: 600 });
    expect(feedback(p, 'r-b').speed).toEqual({ basis: 'race', duration_seconds: 45, reference_seconds: 36 });
    expect(feedback(p, 'r-b').scores.speed).toBe(0.8);
    // Re-collecting the first run now sees the second: still the fastest, 100.
    await collect(p, [join(p.dir, 'a.json')]);
    expect(feedback(p, 'r-a').speed).toEqual({ basis: 'race', duration_seconds: 36, reference_seconds: 36 });
  });

  it('runs of a race given in one call are scored against the fastest of them, whatever the order; each collect logs the race run and indexes the feedback', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    agentWorktree(p, 'b');
    const cmds = { build: null, test: null, lint: null, typecheck: null };
    const slow = writeRecord(
      p,
      'a',
      runRecord({ bead: 'r-slow', race_id: 'race-2', commands: cmds, completed_at: '2026-01-01T00:00:45Z' }),
    );
    const fast = writeRecord(
      p,
      'b',
      runRecord({
        bead: 'r-fast',
        worktree: 'wt-b',
        race_id: 'race-2',
        commands: cmds,
        completed_at: '2026-01-01T00:00:36Z',
      }),
    );
    expect((await collect(p, [slow, fast])).code).toBe(0);
    expect(feedback(p, 'r-slow').speed).toEqual({ basis: 'race', duration_seconds: 45, reference_seconds: 36 });
    expect(feedback(p, 'r-fast').speed).toEqual({ basis: 'race', duration_seconds: 36, reference_seconds: 36 });
    const store = new StateStore(p.state);
    expect(store.readLines<RaceRun>('race-runs', 'race-2').rows.map((r) => [r.bead, r.duration_seconds])).toEqual([
      ['r-slow', 45],
      ['r-fast', 36],
    ]);
    expect(store.readLines<FeedbackIndexRow>('feedback-index', 'feedback').rows.map((r) => r.bead)).toEqual([
      'r-slow',
      'r-fast',
    ]);
  });

  it("carries the judge's verdict and score at phase ≥ 2 only, and ignores a judgment that failed or is malformed", async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'a', runRecord({ commands: {} }));
    const judgments = join(p.state, 'judgments');
    const j = judgmentFor('bd-1', {
      verdict: 'partial',
      score: 0.62,
      dimensions: { correctness: 0.7, scope_adherence: 0.5, code_quality: 0.6, completeness: 0.6 },
      issues: [{ severity: 'major', description: 'stub left', category: 'stub' }],
      judged_at: '2026-01-02T00:00:00.000Z',
      model: 'claude-opus-4',
    });
    writeJudgmentFile(p.state, j);
    await collect(p, [rec]);
    expect(feedback(p, 'bd-1').judgment).toBeNull();
    // A judgment of another tree is never carried: this one judged the tree the collector measures.
    j.run = { ...j.run, head_tree: feedback(p, 'bd-1').head!.tree };
    writeJudgmentFile(p.state, j);
    const cfg = join(p.dir, 'phase2.json');
    writeFileSync(cfg, JSON.stringify({ judge: { phase: 2 } }));
    await collect(p, ['--config', cfg, rec]);
    expect(feedback(p, 'bd-1').judgment).toEqual({
      verdict: 'partial',
      score: 0.62,
      dimensions: { correctness: 0.7, scope_adherence: 0.5, code_quality: 0.6, completeness: 0.6 },
      issues: [{ severity: 'major', description: 'stub left', category: 'stub' }],
      judged_at: '2026-01-02T00:00:00.000Z',
      model: 'claude-opus-4',
    });
    writeJudgmentFile(p.state, {
      ...j,
      status: 'failed',
      verdict: null,
      score: null,
      dimensions: null,
      failure: { reason: 'refusal', message: 'the model refused' },
    });
    await collect(p, ['--config', cfg, rec]);
    expect(feedback(p, 'bd-1').judgment).toBeNull();
    // Not a judgment the judge could have written: never carried, not even in part.
    writeFileSync(join(judgments, 'bd-1.json'), JSON.stringify({ ...j, dimensions: { ...j.dimensions, extra: 9 } }));
    await collect(p, ['--config', cfg, rec]);
    expect(feedback(p, 'bd-1').judgment).toBeNull();
    writeFileSync(join(judgments, 'bd-1.json'), '{"verdict": "pass", "score": 7}');
    await collect(p, ['--config', cfg, rec]);
    const fb = feedback(p, 'bd-1');
    expect(fb.judgment).toBeNull();
    expect(fb.integrity.notes.join(' ')).toMatch(
      /judgment not used: .*bd-1\.json: \/schema_version: is required; .*\/score: must be <= 1/,
    );
  });
});

describe('collect: integrity flags from real runs', () => {
  async function one(commands: Record<string, string | null>, files: Record<string, string> = {}) {
    const p = makeProject();
    agentWorktree(p, 'a', { uncommitted: files });
    const r = await collect(p, [
      writeRecord(p, 'a', runRecord({ commands: { build: null, lint: null, typecheck: null, ...commands } })),
    ]);
    expect(r.code).toBe(0);
    return feedback(p, 'bd-1');
  }

  it('unparsable test output: unmeasured evidence, never a pass (scored 0), flagged', async () => {
    const fb = await one({ test: 'echo all good' });
    expect(fb.checks.test?.tests).toBeNull();
    expect(fb.scores.tests).toBe(0);
    expect(fb.integrity.test_evidence).toEqual({ trusted: false, reasons: ['no_counts'] });
    expect(fb.integrity.tests_not_run).toBe(true);
    expect(fb.integrity.notes.join(' ')).toMatch(/tests scored 0: not trusted: no test result could be parsed/);
    expect(fb.outcome).toBe('partial_pass');
    const failing = await one({ test: 'echo nope; exit 3' });
    expect(failing.scores.tests).toBe(0);
    expect(failing.outcome).toBe('agent_failure');
  });

  it('zero tests: tests_not_run, score 0, agent_failure', async () => {
    const fb = await one({
      test: 'node --test test/nothing-here-*.mjs || node --test --test-name-pattern=NO_SUCH_TEST test/',
    });
    expect(fb.checks.test?.tests).toMatchObject({ passed: 0 });
    expect(fb.integrity.tests_not_run).toBe(true);
    expect(fb.scores.tests).toBe(0);
    expect(fb.outcome).toBe('agent_failure');
  });

  it('tests deleted: restored from the base in the graded run, so the deletion hides nothing', async () => {
    const p = makeProject();
    const wt = agentWorktree(p, 'a');
    writeFileSync(join(wt, 'test/add.test.mjs'), HEADER + t('adds', 'add(1, 2) === 3'));
    await collect(p, [
      writeRecord(
        p,
        'a',
        runRecord({ commands: { build: null, test: 'node --test test/', lint: null, typecheck: null } }),
      ),
    ]);
    const fb = feedback(p, 'bd-1');
    expect(fb.candidate?.replaced).toEqual(['test/add.test.mjs']);
    expect(fb.checks.test?.tests).toMatchObject({ total: fb.baseline?.tests?.total });
    expect(fb.integrity.test_count_below_baseline).toBe(false);
    // The agent's own version (one test fewer) is its evidence, not the verdict.
    expect(fb.own_tests?.check?.tests?.total).toBe((fb.baseline?.tests?.total ?? 0) - 1);
  });

  it('a runner that exits non-zero after all tests pass: exit_code_contradicts_counts', async () => {
    const fb = await one({ test: 'node --test test/; exit 1' });
    expect(fb.integrity.exit_code_contradicts_counts).toBe(true);
    expect(fb.outcome).toBe('partial_pass');
  });

  it('a runner killed by a signal: tests_not_run', async () => {
    const fb = await one({ test: 'node --test test/; kill -9 $$' });
    expect(fb.checks.test?.signal).toBe('SIGKILL');
    expect(fb.integrity.tests_not_run).toBe(true);
    expect(fb.outcome).toBe('agent_failure');
  });

  it('secrets never reach the checks', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'a', runRecord({ commands: { build: 'env', test: null, lint: null, typecheck: null } }));
    const cfg = join(p.dir, 'env-cfg.json');
    // A pass-through name that looks secret is still dropped; an unlisted one never reaches the check.
    writeFileSync(cfg, JSON.stringify({ collector: { check_env: ['VISIBLE_SETTING', 'MY_DB_PASSWORD'] } }));
    const { io } = makeIo(p, {
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      GITHUB_TOKEN: 'ghp_secret',
      MY_DB_PASSWORD: 'pw',
      VISIBLE_SETTING: 'yes',
      UNLISTED_SETTING: 'no',
      GIT_DIR: '/elsewhere',
    });
    expect(await run(['--quiet', '--config', cfg, rec], io)).toBe(0);
    const text = feedback(p, 'bd-1').checks.build!.output!.text;
    expect(text).toContain('VISIBLE_SETTING=yes');
    expect(text).toMatch(/^PATH=/m);
    expect(text).not.toMatch(/secret|ANTHROPIC|GITHUB_TOKEN|PASSWORD|UNLISTED_SETTING|GIT_DIR/);
  });
});

describe('collect: bad input never changes what is stored', () => {
  const p = makeProject();
  agentWorktree(p, 'a');
  const cmds = { build: null, test: null, lint: null, typecheck: null };
  const seeded = () => collect(p, [writeRecord(p, 'seed', runRecord({ bead: 'bd-kept', commands: cmds }))]);

  async function rejects(content: Record<string, unknown> | string, message: RegExp) {
    if (!existsSync(join(p.state, 'feedback', 'bd-kept.json'))) await seeded();
    const before = snapshot(p.state);
    const file = writeRecord(p, 'bad', content);
    const r = await collect(p, [file]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(file);
    expect(r.err).toMatch(message);
    expect(snapshot(p.state)).toEqual(before);
  }

  it('malformed JSON', () => rejects('{"bead": "bd-2", ', /not valid JSON/));
  it('a wrong type names the field', () =>
    rejects(runRecord({ bead: 'bd-2', exit_code: 'zero' }), /\/exit_code: must be integer,null/));
  it('a missing field names the field', () =>
    rejects({ ...runRecord({ bead: 'bd-2' }), template: undefined }, /\/template: is required/));
  it('a nested wrong type names the path', () =>
    rejects(
      runRecord({ bead: 'bd-2', task: { id: 'x', prompt: 'p', complexity: 11 } }),
      /\/task\/complexity: must be <= 10/,
    ));
  it('a bead with a slash', () => rejects(runRecord({ bead: 'a/b' }), /\/bead: must be safe as a file name/));
  it('a bead with ..', () => rejects(runRecord({ bead: '..' }), /\/bead: must be safe as a file name/));
  it('a bead escaping the state folder', () =>
    rejects(runRecord({ bead: '../feedback/bd-kept' }), /\/bead: must be safe as a file name/));
  it('an unknown base ref names /base_ref and the ref', () =>
    rejects(
      runRecord({ bead: 'bd-2', base_ref: 'no-such-branch' }),
      /\/base_ref: "no-such-branch" does not name a commit in .*wt-a/,
    ));
  it('an empty file', () => rejects('', /not valid JSON/));

  it('a missing worktree is recorded as infra_failure (scores null, reason given), other state untouched', async () => {
    if (!existsSync(join(p.state, 'feedback', 'bd-kept.json'))) await seeded();
    const before = snapshot(p.state);
    const r = await collect(p, [writeRecord(p, 'gone', runRecord({ bead: 'bd-gone', worktree: 'wt-nowhere' }))]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/recorded infra_failure: worktree .*wt-nowhere does not exist/);
    const fb = feedback(p, 'bd-gone');
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toMatch(/wt-nowhere does not exist/);
    expect(fb.composite).toBeNull();
    expect(fb.scores).toEqual({ build: null, tests: null, lint: null, diff_size: null, speed: null });
    const after = snapshot(p.state);
    expectPreserved(before, after);
  });

  it('a missing worktree never replaces an already measured record', async () => {
    const q = makeProject();
    const wt = agentWorktree(q, 'a');
    const file = writeRecord(q, 'a', runRecord({ commands: cmds }));
    expect((await collect(q, [file])).code).toBe(0);
    const before = snapshot(q.state);
    gitIn(q.repo, 'worktree', 'remove', '--force', wt);
    const r = await collect(q, [file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\/worktree: .* does not exist; state\/feedback\/bd-1.json \(already measured\) is kept/);
    expect(snapshot(q.state)).toEqual(before);
  });

  it('several records: the bad one is named, the others are still collected, exit 2', async () => {
    const good = writeRecord(p, 'good', runRecord({ bead: 'bd-good', commands: cmds }));
    const bad = writeRecord(p, 'bad2', '[1, 2');
    const r = await collect(p, [bad, good]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(bad);
    expect(feedback(p, 'bd-good').outcome).toBe('unmeasured');
  });

  it('an orchestrator-reported infra_failure is recorded without measuring', async () => {
    const r = await collect(p, [
      writeRecord(
        p,
        'infra',
        runRecord({
          bead: 'bd-infra',
          worktree: 'never-created',
          status: 'infra_failure',
          failure_reason: 'container did not start',
          exit_code: null,
        }),
      ),
    ]);
    expect(r.code).toBe(0);
    const fb = feedback(p, 'bd-infra');
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toBe('the orchestrator reported an infrastructure failure: container did not start');
    expect(fb.composite).toBeNull();
  });
});

describe('collect: hostile commands', () => {
  it('a hanging test command is killed at its timeout (whole tree) and classified timeout', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const cfg = join(p.dir, 'fast.json');
    writeFileSync(cfg, JSON.stringify({ collector: { timeouts_seconds: { test: 1 }, kill_grace_seconds: 0.2 } }));
    const marker = join(tempDir(), 'grandchild-alive');
    const rec = writeRecord(
      p,
      'a',
      runRecord({
        commands: {
          build: null,
          test: `echo started; (sleep 3; touch ${marker}) & sleep 600`,
          lint: null,
          typecheck: null,
        },
      }),
    );
    const r = await collect(p, ['--config', cfg, rec]);
    expect(r.code).toBe(0);
    const fb = feedback(p, 'bd-1');
    expect(fb.checks.test).toMatchObject({ status: 'timeout', exit_code: null });
    expect(fb.checks.test?.output?.text).toContain('started');
    expect(fb.outcome).toBe('timeout');
    expect(fb.outcome_reason).toBe('the test check was killed at its timeout');
    expect(fb.scores.tests).toBe(0);
    expect(fb.integrity.tests_not_run).toBe(true);
    // The baseline's run of the same command timed out too and was cached as such.
    expect(fb.baseline?.tests).toBeNull();
    await new Promise((res) => setTimeout(res, 3500));
    expect(existsSync(marker)).toBe(false);
  });

  it('non-UTF-8 output is decoded with replacement characters and still parsed', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(
      p,
      'a',
      runRecord({
        commands: {
          build: "printf 'bad \\377\\376 bytes\\n'",
          test: "printf '\\377\\n'; node --test test/; printf '\\300\\n'",
          lint: null,
          typecheck: null,
        },
      }),
    );
    expect((await collect(p, [rec])).code).toBe(0);
    const fb = feedback(p, 'bd-1');
    expect(fb.checks.build?.output?.text).toBe('bad \uFFFD\uFFFD bytes\n');
    expect(fb.checks.test?.tests).toMatchObject({ passed: 2, total: 2 });
    expect(fb.outcome).toBe('full_pass');
  });

  it('a worktree path that is a plain folder (not git) is an infra_failure', async () => {
    const p = makeProject();
    const plain = tempDir();
    const r = await collect(p, [writeRecord(p, 'a', runRecord({ worktree: plain }))]);
    expect(r.code).toBe(0);
    expect(feedback(p, 'bd-1').outcome_reason).toMatch(/is not the top level of a git worktree/);
    rmSync(plain, { recursive: true, force: true });
  });
});
