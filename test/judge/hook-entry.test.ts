// bin/judge <run.json> is the hook's one entry point: it collects when the run has no feedback yet whatever
// the judge setting, judges when enabled, merges; the cache is keyed on what the judge sees, so re-collecting
// (which moves derived scores such as speed) does not pay twice; config errors name their cause.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, Judgment } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';
import { captureIo } from './helpers/feedback.js';
import { makeRun, removeRun, type RunFixture, removeRuns } from './helpers/fixtures.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

let server: MessagesServer;
const made: RunFixture[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => made.splice(0).forEach(removeRun));

// Each case collects into its own copy of one run (a file copy, not the eight git processes of a new repository).
let template: RunFixture | undefined;
const fixture = (): RunFixture => {
  template ??= makeRun();
  const repo = tempDir('judgeloop-repo-');
  cpSync(template.repo, repo, { recursive: true });
  const record = { ...template.record, worktree: repo };
  const recordPath = join(tempDir('judgeloop-runs-'), `${record.bead}.json`);
  writeFileSync(recordPath, JSON.stringify(record, null, 2));
  const fx = { repo, stateDir: tempDir('judgeloop-state-'), recordPath, record };
  made.push(fx);
  return fx;
};

function configFile(cfg: Record<string, unknown>): string {
  const dir = tempDir('judgeloop-cfg-');
  dirs.push(dir);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(cfg));
  return file;
}

const judgeBin = (args: string[], env: Record<string, string>) =>
  spawnSync(join(import.meta.dirname, '..', '..', 'bin', 'judge'), args, {
    env: { PATH: process.env.PATH!, TMPDIR: tmpdir(), ...env },
    encoding: 'utf8',
  });

describe('the judge off (the default)', () => {
  it('bin/judge run.json (the real command) collects the run, says so, exits 0, calls nothing', () => {
    const fx = fixture();
    const r = judgeBin([fx.recordPath], { JUDGELOOP_STATE_DIR: fx.stateDir, ANTHROPIC_BASE_URL: server.url });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('skipped: judge disabled (JUDGE_ENABLED is not true); feedback collected');
    const store = new StateStore(fx.stateDir);
    expect(store.read<Feedback>('feedback', fx.record.bead)?.checks.test?.tests).toMatchObject({ passed: 1 });
    expect(store.list('judgments')).toEqual([]);
  });

  it('with --rate-agents: collected, nothing to rate without a judgment (exit 0; 1 with --rating-strict)', async () => {
    const fx = fixture();
    const env = { JUDGELOOP_STATE_DIR: fx.stateDir };
    const io = captureIo(env);
    expect(await run(['--rate-agents', fx.recordPath], io)).toBe(0);
    expect(new StateStore(fx.stateDir).list('feedback')).toEqual([fx.record.bead]);
    expect(await run(['--rate-agents', '--rating-strict', fx.recordPath], captureIo(env))).toBe(1);
  });

  it('a second call finds the feedback current and collects nothing more', async () => {
    const fx = fixture();
    const env = { JUDGELOOP_STATE_DIR: fx.stateDir };
    await run([fx.recordPath], captureIo(env));
    const io = captureIo(env);
    expect(await run([fx.recordPath], io)).toBe(0);
    expect(io.err.join('')).toContain('feedback already current');
  });
});

describe('the judgment cache is keyed on what the judge sees', () => {
  it('re-collecting with another time budget moves the composite, not the key: no second call, merged again', async () => {
    const fx = fixture();
    const store = new StateStore(fx.stateDir);
    const env = (budget: number) => ({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: configFile({ judge: { phase: 2, max_retries: 0 }, collector: { time_budget_seconds: budget } }),
    });
    server.requests.length = 0;
    expect(await run([fx.recordPath], captureIo(env(100)))).toBe(0);
    const first = store.read<Feedback>('feedback', fx.record.bead)!;
    const j1 = store.read<Judgment>('judgments', fx.record.bead)!;
    rmSync(store.path('feedback', fx.record.bead));
    const io = captureIo(env(200));
    expect(await run([fx.recordPath], io)).toBe(0);
    const second = store.read<Feedback>('feedback', fx.record.bead)!;
    expect(second.scores.speed).not.toBe(first.scores.speed);
    expect(second.composite).not.toBe(first.composite);
    expect(server.requests).toHaveLength(1);
    expect(io.err.join('')).toContain('cached');
    expect(store.read<Judgment>('judgments', fx.record.bead)!.cache_key).toBe(j1.cache_key);
    expect(second.judgment).toMatchObject({ score: j1.score });
  });
});

describe('configuration errors name their cause, exit 2, never 0', () => {
  it.each([
    ['JUDGE_BACKEND', 'bogus'],
    ['JUDGE_PHASE', '9'],
    ['JUDGE_MAX_PER_HOUR', 'many'],
    ['JUDGE_ENABLED', 'yes please'],
  ])('%s=%s', (name, value) => {
    const fx = fixture();
    const r = judgeBin([fx.recordPath], {
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'k',
      JUDGELOOP_STATE_DIR: fx.stateDir,
      [name]: value,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(name);
  });

  it('an ANTHROPIC_BASE_URL that is not an http(s) URL names the variable; nothing is called or written', async () => {
    const fx = fixture();
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'localhost:8080',
      JUDGELOOP_STATE_DIR: fx.stateDir,
    });
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toContain('ANTHROPIC_BASE_URL="localhost:8080": expected an http(s) URL');
    expect(new StateStore(fx.stateDir).list('judgments')).toEqual([]);
  });

  it('a missing ANTHROPIC_API_KEY names the variable', async () => {
    const fx = fixture();
    const io = captureIo({ JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir });
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toContain('ANTHROPIC_API_KEY');
  });

  it('a config file with a bad judge key: exit 2, names the file and the key', () => {
    const fx = fixture();
    const file = configFile({ judge: { max_retries: -1 } });
    const r = judgeBin([fx.recordPath], {
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'k',
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: file,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${file}.*/judge/max_retries`));
  });
});
