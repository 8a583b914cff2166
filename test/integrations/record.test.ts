// bin/record: facts found in the worktree, a commit or a Claude Code hook; each missing fact one line (exit 2);
// what it writes is what bin/collect accepts; a config the agent planted in its own worktree is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleRunRecord, beadFrom, MISSING, type RecordFacts } from '../../lib/record/assemble.js';
import { summarizeTranscript } from '../../lib/record/claude-hook.js';
import { gitIn, makeRepo } from '../helpers/repo.js';
import { readEnv } from '../../lib/base/env.js';
import { execute } from '../../lib/cli/cli.js';
import { run as recordRun } from '../../scripts/record.js';
import { agentCommit, BIN, cleanEnv, filesUnder, makeJudging, runProc, TEST_ONLY, type Judging } from './_setup.js';

let made: Judging[] = [];
afterEach(() => {
  for (const j of made) j.cleanup();
  made = [];
});
function judging(config: Record<string, unknown> = {}): Judging {
  const j = makeJudging(config);
  made.push(j);
  return j;
}
const record = (j: Judging, args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}) =>
  runProc(join(BIN, 'record'), args, {
    cwd: o.cwd ?? j.repo,
    env: cleanEnv(j.top, o.env),
    ...(o.input !== undefined ? { input: o.input } : {}),
  });

/** What `record` does with `args` run in this process (scripts/record.ts through execute, as bin/record runs it). */
async function recordHere(j: Judging, args: string[]) {
  const env = cleanEnv(j.top);
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const code = await execute(recordRun, args, { ...io, env: readEnv(env), processEnv: env, cwd: j.repo, color: false });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('assembleRunRecord (pure)', () => {
  const all: RecordFacts = {
    bead: 'b1',
    worktree: '/w',
    base_ref: 'abc',
    agent: 'a',
    template: 't',
    task_id: 'T',
    prompt: 'p',
    started_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:10:00.000Z',
    exit_code: 0,
  };
  it('names every missing required fact once, in a fixed order', () => {
    const r = assembleRunRecord({ bead: 'b1', worktree: '/w', completed_at: all.completed_at, exit_code: 0 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.missing).toEqual(Object.values(MISSING));
  });
  it.each(Object.keys(MISSING))('only %s missing: exactly its line', (key) => {
    const r = assembleRunRecord({ ...all, [key]: undefined });
    expect(!r.ok && r.missing).toEqual([MISSING[key as keyof typeof MISSING]]);
  });
  it('status follows the exit code unless given', () => {
    expect(assembleRunRecord(all).ok && (assembleRunRecord(all) as { record: { status: string } }).record.status).toBe(
      'completed',
    );
    const failed = assembleRunRecord({ ...all, exit_code: 3 });
    expect(failed.ok && failed.record.status).toBe('failed');
    const timeout = assembleRunRecord({ ...all, exit_code: null, status: 'timeout' });
    expect(timeout.ok && timeout.record.status).toBe('timeout');
  });
  it('beadFrom makes a file-name-safe id', () => {
    expect(beadFrom('my repo', 'abc')).toBe('my-repo-abc');
    expect(beadFrom('..hidden', 'x')).toBe('hidden-x');
    expect(beadFrom('ü')).toBe('run');
  });
});

describe('summarizeTranscript (pure)', () => {
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  const text = [
    line({ type: 'summary', summary: 'x' }),
    line({
      type: 'user',
      isMeta: true,
      timestamp: '2026-11-24T10:00:00.000Z',
      message: { role: 'user', content: '<local-command-caveat>Caveat</local-command-caveat>' },
    }),
    line({
      type: 'user',
      timestamp: '2026-11-24T10:00:01.000Z',
      message: { role: 'user', content: '<command-name>/clear</command-name>' },
    }),
    line({
      type: 'user',
      timestamp: '2026-11-24T10:00:02.000Z',
      message: { role: 'user', content: [{ type: 'text', text: 'Add sub() with a test' }] },
    }),
    // One API message logged once per content block, each line with the same usage.
    line({
      type: 'assistant',
      timestamp: '2026-11-24T10:00:05.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: 'ok' }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5 },
      },
    }),
    line({
      type: 'assistant',
      timestamp: '2026-11-24T10:00:06.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'tool_use', id: 't', name: 'Write', input: {} }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5 },
      },
    }),
    line({
      type: 'user',
      timestamp: '2026-11-24T10:00:07.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'done' }] },
    }),
    line({
      type: 'assistant',
      isSidechain: true,
      timestamp: '2026-11-24T10:00:08.000Z',
      message: { id: 'msg_side', model: 'claude-haiku', usage: { input_tokens: 7, output_tokens: 7 } },
    }),
    line({
      type: 'assistant',
      timestamp: '2026-11-24T10:03:00.000Z',
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: 'done' }],
        usage: { input_tokens: 20, output_tokens: 50 },
      },
    }),
    '{"type":"assistant","message":{"id":"msg_3", cut while writ',
  ].join('\n');
  it('first real prompt, last model, times, tokens counted once per message, bad lines counted', () => {
    const f = summarizeTranscript(text);
    expect(f.prompt).toBe('Add sub() with a test');
    expect(f.model).toBe('claude-opus-4-5');
    expect(f.started_at).toBe('2026-11-24T10:00:00.000Z');
    expect(f.completed_at).toBe('2026-11-24T10:03:00.000Z');
    expect(f.usage).toEqual({ input_tokens: 1110 + 20, output_tokens: 55, total_tokens: 1185 });
    expect(f.bad_lines).toBe(1);
  });
});

describe('bin/record', () => {
  it('refuses each missing fact with one line and exit 2, writing nothing', async () => {
    const j = judging({ record: {} });
    const r = await record(j, []);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual(Object.values(MISSING).map((m) => `record: ${m}`));
    expect(existsSync(j.state)).toBe(false);
    // Each fact given removes exactly its own line (the same parse and checks in-process: no process per fact).
    const given: Record<string, string[]> = {
      agent: ['--agent', 'a'],
      template: ['--template', 't'],
      task_id: ['--task', 'T'],
      prompt: ['--prompt', 'p'],
      base_ref: ['--base', 'HEAD'],
      started_at: ['--started-at', '2026-11-24T10:00:00Z'],
    };
    for (const [key, missing] of Object.entries(MISSING)) {
      const args = Object.entries(given)
        .filter(([k]) => k !== key)
        .flatMap(([, a]) => a);
      const one = await recordHere(j, args);
      expect(one.code, key).toBe(2);
      expect(one.stderr.trim(), key).toBe(`record: ${missing}`);
    }
  });

  it('--from-commit writes a record bin/collect accepts and measures (base = the parent, prompt = the message)', async () => {
    const j = judging();
    const base = gitIn(j.repo, 'rev-parse', 'HEAD');
    agentCommit(j.repo, 'Add sub() with a test\n\nAnd nothing else.');
    const head = gitIn(j.repo, 'rev-parse', 'HEAD');
    const r = await record(j, [
      '--from-commit',
      '--input-tokens',
      '1200',
      '--output-tokens',
      '300',
      '--cost-usd',
      '0.02',
    ]);
    expect(r.code).toBe(0);
    const path = r.stdout.trim();
    expect(path).toBe(join(j.state, 'runs', `repo-${head.slice(0, 12)}.json`));
    const rec = JSON.parse(readFileSync(path, 'utf8'));
    // Which times speed is scored from, and where the state went.
    expect(r.stderr).toBe(
      `record: times from the commits: started ${rec.started_at} (the parent commit), completed ${rec.completed_at} (the commit); --started-at/--completed-at give the run's own\njudgeloop: state folder ${j.state} (beside the config file)\n`,
    );
    expect(rec).toMatchObject({
      base_ref: base,
      head_ref: 'main',
      worktree: j.repo,
      agent: { slug: 'claude-code' },
      template: 'default',
      task: { id: 'main', prompt: 'Add sub() with a test\n\nAnd nothing else.' },
      usage: { input_tokens: 1200, output_tokens: 300, total_tokens: 1500, cost_usd: 0.02 },
      status: 'completed',
      exit_code: 0,
    });
    const c = await runProc(join(BIN, 'collect'), ['--json', path], { cwd: j.top, env: cleanEnv(j.top) });
    expect(c.code, c.stderr).toBe(0);
    const fb = JSON.parse(c.stdout);
    expect(fb.outcome).toBe('full_pass');
    // Graded with the base's tests; the test the commit added runs apart, as the agent's own.
    expect(fb.checks.test.tests.passed).toBe(2);
    expect(fb.own_tests.check.tests.passed).toBe(3);
    expect(existsSync(join(j.state, 'feedback', `${rec.bead}.json`))).toBe(true);
  });

  it("--target (repeatable) stores the task's target tests once each, with --task-type", async () => {
    const j = judging();
    agentCommit(j.repo);
    const ids = ['tests/test_m.py::test_sub', 'tests/test_m.py::test_add'];
    const r = await record(j, [
      '--from-commit',
      '--task-type',
      'bugfix',
      ...ids.flatMap((t) => ['--target', t]),
      '--target',
      ids[0]!,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rec = JSON.parse(readFileSync(r.stdout.trim(), 'utf8'));
    expect(rec.task).toMatchObject({ type: 'bugfix', target_tests: ids });
  });

  it('--collect hands the record on from any folder below the config, with the same state', async () => {
    const j = judging({ collector: TEST_ONLY });
    agentCommit(j.repo);
    mkdirSync(join(j.repo, 'docs', 'deep'), { recursive: true });
    const r = await record(j, ['--from-commit', '--collect', '--bead', 'run-1'], { cwd: join(j.repo, 'docs', 'deep') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/run-1\s+full_pass/);
    expect(JSON.parse(readFileSync(join(j.state, 'feedback', 'run-1.json'), 'utf8')).outcome).toBe('full_pass');
  });

  it("a hook's GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE naming another repository change nothing", async () => {
    const j = judging();
    agentCommit(j.repo);
    const other = makeRepo({ 'x.txt': 'other\n' });
    try {
      const env = { GIT_DIR: join(other, '.git'), GIT_WORK_TREE: other, GIT_INDEX_FILE: join(other, '.git', 'index') };
      const r = await record(j, ['--from-commit', '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      const rec = JSON.parse(r.stdout);
      expect(rec.worktree).toBe(j.repo);
      expect(rec.task.prompt).toBe('Add sub() with a test');
    } finally {
      (await import('node:fs')).rmSync(other, { recursive: true, force: true });
    }
  });

  it('hostile: a judgeloop.json the agent planted in its worktree is refused (exit 2), nothing written anywhere', async () => {
    const j = judging();
    agentCommit(j.repo);
    // The agent's own config would switch the sandbox off, make the tests `true`, and move the state into its tree.
    writeFileSync(
      join(j.repo, 'judgeloop.json'),
      JSON.stringify({
        collector: { sandbox: 'off', commands: { test: 'true' } },
        record: { agent: 'x', template: 'y' },
      }),
    );
    const before = filesUnder(j.top, (rel) => rel.startsWith('repo/.git'));
    const r = await record(j, ['--from-commit', '--collect']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/judgeloop\.json lies inside the worktree being measured/);
    expect(filesUnder(j.top, (rel) => rel.startsWith('repo/.git'))).toEqual(before);
  });

  it('hostile: bin/collect refuses the same planted config when run from inside the worktree', async () => {
    const j = judging();
    agentCommit(j.repo);
    const r = await record(j, ['--from-commit', '--bead', 'b2']);
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(
      join(j.repo, '.judgeloop.json'),
      JSON.stringify({ collector: { commands: { test: 'true' } }, state_dir: '/tmp' }),
    );
    const c = await runProc(join(BIN, 'collect'), [r.stdout.trim()], { cwd: j.repo, env: cleanEnv(j.top) });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/\.judgeloop\.json lies inside the worktree being measured/);
    expect(existsSync(join(j.state, 'feedback', 'b2.json'))).toBe(false);
  });

  it('hostile: a state folder inside the worktree is refused (checks could write into it)', async () => {
    const j = judging();
    agentCommit(j.repo);
    const r = await record(j, ['--from-commit'], { env: { JUDGELOOP_STATE_DIR: join(j.repo, '.state') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/state folder .* lies inside the worktree being measured/);
    expect(existsSync(join(j.repo, '.state'))).toBe(false);
  });

  it("--claude-hook: the session's worktree, prompt, model, tokens and times from the hook input and transcript", async () => {
    const j = judging({ record: { template: 'default', base_ref: 'main' } });
    gitIn(j.repo, 'checkout', '-q', '-b', 'agent/session');
    agentCommit(j.repo);
    const transcript = join(j.top, 'transcript.jsonl');
    writeFileSync(
      transcript,
      [
        {
          type: 'user',
          timestamp: '2026-11-24T10:00:00.000Z',
          cwd: j.repo,
          sessionId: 's',
          message: { role: 'user', content: 'Add sub() with a test' },
        },
        {
          type: 'assistant',
          timestamp: '2026-11-24T10:02:00.000Z',
          message: { id: 'm1', model: 'claude-opus-4-5', usage: { input_tokens: 3, output_tokens: 4 } },
        },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    const input = JSON.stringify({
      session_id: '3c07f08f-e544-47b9-898a-f169f651788c',
      transcript_path: transcript,
      cwd: join(j.repo, 'src'),
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    const r = await record(j, ['--claude-hook', '--json', '--completed-at', '2026-11-24T10:05:00Z'], { input });
    expect(r.code, r.stderr).toBe(0);
    const rec = JSON.parse(r.stdout);
    expect(rec).toMatchObject({
      bead: 'claude-3c07f08f-e544-47b9-898a-f169f651788c',
      worktree: j.repo,
      head_ref: 'agent/session',
      agent: { slug: 'claude-code', model: 'claude-opus-4-5' },
      task: { id: '3c07f08f-e544-47b9-898a-f169f651788c', prompt: 'Add sub() with a test' },
      started_at: '2026-11-24T10:00:00.000Z',
      completed_at: '2026-11-24T10:05:00.000Z',
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
    });
    // The base by name (accept's target branch) and the commit it named when recorded (what is measured).
    expect(rec.base_ref).toBe('main');
    expect(rec.base_commit).toBe(gitIn(j.repo, 'rev-parse', 'main'));
    const bad = await record(j, ['--claude-hook'], { input: '{"cwd": "/tmp"}' });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('--claude-hook: /session_id: missing in the hook input');
  });

  it('bad values are one line each: a bead that is not file-name safe, a time that is not ISO, a root commit', async () => {
    const j = judging();
    const bead = await record(j, ['--bead', '../x', '--from-commit']);
    expect(bead.code).toBe(2);
    expect(bead.stderr.trim().split('\n')).toHaveLength(1);
    const root = await record(j, ['--from-commit']);
    expect(root.code).toBe(2);
    expect(root.stderr).toMatch(/root commit/);
    const time = await record(j, ['--started-at', 'yesterday']);
    expect(time.code).toBe(2);
    expect(time.stderr.trim()).toMatch(/^--started-at "yesterday": expected an ISO 8601 time/);
  });
});

describe('a re-recorded run makes its feedback stale', () => {
  it('complexity from record.complexity; rate refuses stale feedback naming the collect; judge re-collects', async () => {
    const j = judging({ record: { agent: 'claude-code', template: 'default', complexity: 3 }, collector: TEST_ONLY });
    agentCommit(j.repo);
    const env = cleanEnv(j.top);
    const first = await record(j, ['--from-commit', '--bead', 'st-1', '--quiet', '--collect']);
    expect(first.code, first.stderr).toBe(0);
    const path = join(j.state, 'runs', 'st-1.json');
    expect(JSON.parse(readFileSync(path, 'utf8')).task.complexity).toBe(3);
    const fb1 = JSON.parse(readFileSync(join(j.state, 'feedback', 'st-1.json'), 'utf8'));
    expect(fb1.run.record_hash).toMatch(/^[0-9a-f]{16}$/);
    const rate = () => runProc(join(BIN, 'rate'), ['st-1', '--quality', '7', '--quiet'], { cwd: j.top, env });
    // Another agent, same bead and times: the old feedback measured someone else's run.
    const again = await record(j, ['--from-commit', '--bead', 'st-1', '--quiet', '--agent', 'codex-cli']);
    expect(again.code, again.stderr).toBe(0);
    const refused = await rate();
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      `st-1: the feedback is stale (its run record ${path} changed since it was measured); run: judgeloop collect ${path}\n`,
    );
    expect(existsSync(join(j.state, 'ratings'))).toBe(false);
    // score-templates leaves it out (it would credit the template the record no longer names), with the same line.
    const scores = () => runProc(join(BIN, 'score-templates'), ['--json', '--quiet'], { cwd: j.top, env });
    const left = await scores();
    expect(left.code).toBe(1);
    expect(left.stderr).toBe(`score-templates: skipped ${join(j.state, 'feedback', 'st-1.json')}: ${refused.stderr}`);
    expect(JSON.parse(left.stdout).templates).toEqual([]);
    // select-template does not pick on it either: the template has no scored run, and the line names the collect.
    const pick = () =>
      runProc(join(BIN, 'select-template'), ['--candidates', 'default', '--dry-run', '--json', '--quiet'], {
        cwd: j.top,
        env,
      });
    const picked = await pick();
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stderr).toBe(`select-template: skipped ${join(j.state, 'feedback', 'st-1.json')}: ${refused.stderr}`);
    expect(JSON.parse(picked.stdout).candidates[0].scored_runs).toBe(0);
    // Nor does the report's template section (the scan leaves stale rows out for every reader).
    const page = join(j.top, 'report.html');
    const report = await runProc(join(BIN, 'report'), ['--out', page], { cwd: j.top, env });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toContain(`report: skipped ${join(j.state, 'feedback', 'st-1.json')}: ${refused.stderr}`);
    // judge (off) collects first: the feedback is current again and names the new agent; rate takes it.
    const judge = await runProc(join(BIN, 'judge'), [path, '--quiet'], { cwd: j.top, env });
    expect(judge.code, judge.stderr).toBe(0);
    const fb2 = JSON.parse(readFileSync(join(j.state, 'feedback', 'st-1.json'), 'utf8'));
    expect(fb2.run.agent).toBe('codex-cli');
    expect(fb2.run.record_hash).not.toBe(fb1.run.record_hash);
    const rated = await rate();
    expect(rated.code, rated.stderr).toBe(0);
    expect(rated.stderr).not.toContain('stale');
    const counted = await scores();
    expect(counted.code, counted.stderr).toBe(0);
    expect(JSON.parse(counted.stdout).templates.map((t: { runs: number }) => t.runs)).toEqual([1]);
    const repicked = await pick();
    expect(repicked.stderr).toBe('');
    expect(JSON.parse(repicked.stdout).candidates[0].scored_runs).toBe(1);
  }, 120_000);
});
