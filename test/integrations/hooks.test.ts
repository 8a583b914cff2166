// The git post-commit hook and the Claude Code Stop hook of examples/, installed verbatim on real temporary
// repositories and fired for real: the records land in the configured state and nowhere else, and the commit
// does not wait for the judge.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { goodReply } from '../judge/helpers/messages-server.js';
import { gitIn, writeTree } from '../helpers/repo.js';
import { cleanEnv, EXAMPLES, filesUnder, makeJudging, runProc, TEST_ONLY, waitFor, type Judging } from './_setup.js';

let server: MessagesServer;
// The judge's reply is held back long enough that a commit waiting for it could not return first.
const JUDGE_DELAY_MS = 4000;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply(), delayMs: JUDGE_DELAY_MS });
});
afterAll(async () => server.close());
let made: Judging[] = [];
afterEach(() => {
  for (const j of made) j.cleanup();
  made = [];
});

/** The hook records only agent worktrees: this one is marked as one (examples/git/post-commit). */
const markAgent = (j: Judging) => writeFileSync(join(j.repo, '.git', 'judgeloop-agent'), '');
const installHook = (j: Judging) => {
  copyFileSync(join(EXAMPLES, 'git', 'post-commit'), join(j.repo, '.git', 'hooks', 'post-commit'));
  chmodSync(join(j.repo, '.git', 'hooks', 'post-commit'), 0o755);
};

const outsideState = (j: Judging) => filesUnder(j.top, (rel) => rel === 'state' || rel === 'repo/.git');

describe('examples/git/post-commit', () => {
  it('records the commit and judges it in the background; the commit returns before the judge answers', async () => {
    const j = makeJudging({ judge: { enabled: true } });
    made.push(j);
    copyFileSync(join(EXAMPLES, 'git', 'post-commit'), join(j.repo, '.git', 'hooks', 'post-commit'));
    chmodSync(join(j.repo, '.git', 'hooks', 'post-commit'), 0o755);
    markAgent(j);
    writeTree(j.repo, {
      'src/sub.mjs': 'export function sub(a, b) {\n  return a - b;\n}\n',
      'test/sub.test.mjs':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { sub } from '../src/sub.mjs';\ntest('subs', () => assert.equal(sub(3, 1), 2));\n",
    });
    gitIn(j.repo, 'add', '-A');
    const before = outsideState(j);
    const env = cleanEnv(j.top, { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: server.url });
    const requestsBefore = server.requests.length;
    const commit = await runProc('git', ['commit', '-q', '-m', 'Add sub() with a test'], { cwd: j.repo, env });
    // Back from `git commit` (its output pipes closed too): the judge has not answered yet.
    const judgedAtReturn = existsSync(join(j.state, 'judgments'));
    expect(commit.code, commit.stderr).toBe(0);
    expect(judgedAtReturn).toBe(false);
    const head = gitIn(j.repo, 'rev-parse', 'HEAD');
    const bead = `repo-${head.slice(0, 12)}`;
    const log = join(j.state, 'logs', 'record.log');
    // The hook says where it wrote: the record's path and the log.
    expect(commit.stderr).toContain(join(j.state, 'runs', `${bead}.json`));
    expect(commit.stderr).toContain(`record: ${bead}: judge runs in the background (pid `);
    expect(commit.stderr).toContain(`log: ${log}`);
    expect(await waitFor(() => existsSync(join(j.state, 'judgments', `${bead}.json`)), 90_000)).toBe(true);
    const judgment = JSON.parse(readFileSync(join(j.state, 'judgments', `${bead}.json`), 'utf8'));
    expect(judgment.status).toBe('judged');
    expect(server.requests.length).toBe(requestsBefore + 1);
    const fb = JSON.parse(readFileSync(join(j.state, 'feedback', `${bead}.json`), 'utf8'));
    expect(fb.outcome).toBe('full_pass');
    expect(fb.run.record_path).toBe(join(j.state, 'runs', `${bead}.json`));
    expect(JSON.parse(readFileSync(fb.run.record_path, 'utf8')).task.prompt).toBe('Add sub() with a test');
    expect(readFileSync(log, 'utf8')).toContain(
      `record: ${bead}: wrote ${join(j.state, 'runs', `${bead}.json`)}; judge started`,
    );
    // Nothing written outside the configured state: not in the judging folder, not in the worktree.
    expect(outsideState(j)).toEqual(before);
    expect(gitIn(j.repo, 'status', '--porcelain', '--ignored')).toBe('');
  }, 120_000);

  it('never fails the commit: without a usable config the hook prints why and git commit still succeeds', async () => {
    const j = makeJudging({ record: {} });
    made.push(j);
    copyFileSync(join(EXAMPLES, 'git', 'post-commit'), join(j.repo, '.git', 'hooks', 'post-commit'));
    chmodSync(join(j.repo, '.git', 'hooks', 'post-commit'), 0o755);
    markAgent(j);
    writeFileSync(join(j.repo, 'NOTES.md'), 'x\n');
    gitIn(j.repo, 'add', '-A');
    const commit = await runProc('git', ['commit', '-q', '-m', 'notes'], { cwd: j.repo, env: cleanEnv(j.top) });
    expect(commit.code).toBe(0);
    expect(commit.stderr).toContain('record: no agent: give --agent SLUG');
    expect(commit.stderr).toContain('judgeloop: post-commit: nothing recorded (exit 2)');
    expect(gitIn(j.repo, 'log', '-1', '--format=%s')).toBe('notes');
    expect(existsSync(j.state)).toBe(false);
  });
});

describe('examples/git/post-commit: only agent runs, nothing lost in the background', () => {
  it("a person's commit (a branch not an agent's, no marker, no JUDGELOOP_AGENT) is skipped with one line", async () => {
    const j = makeJudging({ judge: { enabled: true }, collector: TEST_ONLY });
    made.push(j);
    installHook(j);
    writeFileSync(join(j.repo, 'NOTES.md'), 'mine\n');
    gitIn(j.repo, 'add', '-A');
    const commit = await runProc('git', ['commit', '-q', '-m', 'notes'], { cwd: j.repo, env: cleanEnv(j.top) });
    expect(commit).toMatchObject({ code: 0, stderr: "judgeloop: post-commit: main is not an agent's; skipped\n" });
    expect(existsSync(j.state)).toBe(false);
    // The same commit with JUDGELOOP_AGENT set by an orchestrator, or on an agent/* branch, is recorded.
    for (const [branch, extra] of [
      ['main', { JUDGELOOP_AGENT: 'codex-cli' }],
      ['agent/x', {}],
    ] as const) {
      gitIn(j.repo, 'checkout', '-q', '-B', branch);
      writeFileSync(join(j.repo, 'NOTES.md'), `${branch}\n`);
      gitIn(j.repo, 'add', '-A');
      const c = await runProc('git', ['commit', '-q', '-m', 'more'], {
        cwd: j.repo,
        env: cleanEnv(j.top, { JUDGE_ENABLED: 'false', ...extra }),
      });
      expect(c.stderr, branch).toContain('judge runs in the background');
    }
    // Both background runs finish (collected, the judge off) before the folder goes.
    expect(
      await waitFor(() => existsSync(join(j.state, 'feedback')) && readdirSync(join(j.state, 'feedback')).length === 2),
    ).toBe(true);
  });

  it('a key refused (401) in the hook: the run queued with the failure logged (time, bead), the next commit in the hour asks nothing; one drain judges both', async () => {
    const api = await startMessagesServer({ kind: 'reply', text: goodReply() });
    try {
      api.script.push({ kind: 'status', status: 401, errorType: 'authentication_error' });
      const j = makeJudging({ judge: { enabled: true }, collector: TEST_ONLY });
      made.push(j);
      installHook(j);
      markAgent(j);
      writeFileSync(join(j.repo, 'NOTES.md'), 'agent work\n');
      gitIn(j.repo, 'add', '-A');
      const env = cleanEnv(j.top, { ANTHROPIC_API_KEY: 'sk-ant-bad', ANTHROPIC_BASE_URL: api.url });
      const commit = await runProc('git', ['commit', '-q', '-m', 'agent work'], { cwd: j.repo, env });
      expect(commit.code, commit.stderr).toBe(0);
      const bead = `repo-${gitIn(j.repo, 'rev-parse', 'HEAD').slice(0, 12)}`;
      const queued = join(j.state, 'queue', `${bead}.json`);
      const log = join(j.state, 'logs', 'record.log');
      expect(
        await waitFor(() => existsSync(queued) && readFileSync(log, 'utf8').includes('queued for judge --drain')),
      ).toBe(true);
      expect(JSON.parse(readFileSync(queued, 'utf8')).reason).toMatch(
        /^failed in the background: .*refused the credentials/,
      );
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      for (const line of lines) expect(line).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z (record: )?${bead}: `));
      expect(existsSync(join(j.state, 'judgments', `${bead}.json`))).toBe(false);
      expect(api.requests).toHaveLength(1);
      // The next commit within the hour asks nothing (the refusal was reported once): measured, queued, one line.
      writeFileSync(join(j.repo, 'NOTES.md'), 'more agent work\n');
      gitIn(j.repo, 'add', '-A');
      expect((await runProc('git', ['commit', '-q', '-m', 'more'], { cwd: j.repo, env })).code).toBe(0);
      const bead2 = `repo-${gitIn(j.repo, 'rev-parse', 'HEAD').slice(0, 12)}`;
      const queued2 = join(j.state, 'queue', `${bead2}.json`);
      expect(
        await waitFor(() => existsSync(queued2) && readFileSync(log, 'utf8').includes(`${bead2}: failed in the`)),
      ).toBe(true);
      expect(JSON.parse(readFileSync(queued2, 'utf8')).reason).toMatch(
        /^failed in the background: not sent: the judge API refused the credentials at \S+ \(reported then\); no request until /,
      );
      expect(existsSync(join(j.state, 'feedback', `${bead2}.json`))).toBe(true);
      expect(api.requests).toHaveLength(1);
      // The key fixed (the API answers 200): one drain judges both.
      const drain = await runProc('judgeloop', ['judge', '--drain'], { cwd: j.top, env });
      expect(drain.code, drain.stderr).toBe(0);
      for (const b of [bead, bead2])
        expect(JSON.parse(readFileSync(join(j.state, 'judgments', `${b}.json`), 'utf8')).status).toBe('judged');
      expect(existsSync(queued)).toBe(false);
      expect(existsSync(queued2)).toBe(false);
      expect(api.requests).toHaveLength(3);
    } finally {
      await api.close();
    }
  }, 120_000);
});

describe('examples/claude-code/settings.json (Stop hook)', () => {
  const stopCommand = (): string => {
    const s = JSON.parse(readFileSync(join(EXAMPLES, 'claude-code', 'settings.json'), 'utf8'));
    return s.hooks.Stop[0].hooks[0].command as string;
  };

  it("records the session's worktree (commits and uncommitted work) as a run and collects it", async () => {
    const j = makeJudging({
      record: { agent: 'claude-code', template: 'default', base_ref: 'main' },
      collector: TEST_ONLY,
    });
    made.push(j);
    gitIn(j.repo, 'checkout', '-q', '-b', 'claude/session');
    writeTree(j.repo, { 'src/sub.mjs': 'export function sub(a, b) {\n  return a - b;\n}\n' });
    gitIn(j.repo, 'add', '-A');
    gitIn(j.repo, 'commit', '-q', '-m', 'wip');
    // Work left uncommitted when the turn ended is part of the run.
    writeTree(j.repo, {
      'test/sub.test.mjs':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { sub } from '../src/sub.mjs';\ntest('subs', () => assert.equal(sub(3, 1), 2));\n",
    });
    const transcript = join(j.top, 'session.jsonl');
    // A session that began 5 minutes ago, whatever the machine's clock says: its start is the run's started_at and
    // the hook's now its completed_at, so a fixed date would be in the future on a machine whose clock is earlier.
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    writeFileSync(
      transcript,
      [
        {
          type: 'user',
          timestamp: ago(5),
          sessionId: 'sess-1',
          cwd: j.repo,
          message: { role: 'user', content: 'Add sub() and test it' },
        },
        {
          type: 'assistant',
          timestamp: ago(1),
          sessionId: 'sess-1',
          message: {
            id: 'msg_a',
            model: 'claude-opus-4-5',
            content: [{ type: 'text', text: 'Done.' }],
            usage: { input_tokens: 900, output_tokens: 120 },
          },
        },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    const before = outsideState(j);
    const input = JSON.stringify({
      session_id: 'sess-1',
      transcript_path: transcript,
      cwd: j.repo,
      permission_mode: 'default',
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    // Claude Code runs the command through a shell in the project folder, the hook's JSON on stdin.
    const hook = await runProc('sh', ['-c', stopCommand()], { cwd: j.repo, env: cleanEnv(j.top), input });
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).toBe('');
    expect(await waitFor(() => existsSync(join(j.state, 'feedback', 'claude-sess-1.json')), 90_000)).toBe(true);
    const fb = JSON.parse(readFileSync(join(j.state, 'feedback', 'claude-sess-1.json'), 'utf8'));
    expect(fb.outcome).toBe('full_pass');
    expect(fb.checks.test.tests.passed).toBe(2); // graded with the base's tests; the session's own test runs apart
    expect(fb.own_tests.check.tests.passed).toBe(3);
    expect(fb.run.record_path).toBe(join(j.state, 'runs', 'claude-sess-1.json'));
    expect(JSON.parse(readFileSync(fb.run.record_path, 'utf8'))).toMatchObject({
      agent: { slug: 'claude-code', model: 'claude-opus-4-5' },
      task: { id: 'sess-1', prompt: 'Add sub() and test it' },
      usage: { input_tokens: 900, output_tokens: 120 },
    });
    expect(outsideState(j)).toEqual(before);
  }, 120_000);

  it('a failure exits 1 (shown to the user), never 2 (which would keep Claude working on our message)', async () => {
    const j = makeJudging({ record: { agent: 'claude-code' } });
    made.push(j);
    const input = JSON.stringify({
      session_id: 'sess-2',
      transcript_path: join(j.top, 'missing.jsonl'),
      cwd: j.repo,
      hook_event_name: 'Stop',
    });
    const hook = await runProc('sh', ['-c', stopCommand()], { cwd: j.repo, env: cleanEnv(j.top), input });
    expect(hook.code).toBe(1);
    expect(hook.stderr).toContain('record: no template');
    expect(existsSync(join(j.state, 'runs'))).toBe(false);
  });
});
