// bin/judge --rate-agents: the judgment just made becomes the agent's rated quality, once per bead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { AgentProfile, AgentRunRating, Judgment } from '../../lib/schema/types.generated.js';
import { captureIo, feedbackFor, judgeConfigFile } from './helpers/feedback.js';
import { makeRun, removeRuns } from './helpers/fixtures.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => server.close());

const config = judgeConfigFile({ timeout_seconds: 5, max_retries: 0, phase: 2 });

function setup() {
  const fx = makeRun({
    record: { task: { id: 'task-sub', prompt: 'Add sub().', complexity: 3, command: 'work-on-tasks' } },
  });
  const store = new StateStore(fx.stateDir);
  const fb = feedbackFor(fx.record);
  fb.run = { ...fb.run, complexity: 3, command: 'work-on-tasks' };
  store.write('feedback', fx.record.bead, fb);
  const io = () =>
    captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: config,
      JUDGELOOP_NOW: '2025-06-01T11:00:00Z',
    });
  return { fx, store, io };
}

describe('bin/judge --rate-agents', () => {
  it('rates the agent from the computed judge score, and a second run of the hook changes nothing', async () => {
    server.script = [{ kind: 'reply', text: goodReply() }];
    const { fx, store, io } = setup();
    const first = io();
    expect(await run(['--rate-agents', fx.recordPath], first)).toBe(0);
    const j = store.read<Judgment>('judgments', fx.record.bead)!;
    const rows = store.readLines<AgentRunRating>('ratings', 'claude-a').rows;
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    if (!('quality_score' in row)) throw new Error('expected a run row');
    expect(row.quality_score).toBeCloseTo(j.score! * 10, 9);
    expect(row.quality_source).toBe('judge');
    const profile = store.read<AgentProfile>('agents', 'claude-a')!;
    expect(profile.rating_samples).toBe(1);

    const again = io();
    expect(await run(['--rate-agents', fx.recordPath], again)).toBe(0);
    expect(store.readLines<AgentRunRating>('ratings', 'claude-a').rows).toHaveLength(1);
    expect(store.read<AgentProfile>('agents', 'claude-a')).toEqual(profile);
    expect(again.err.join('')).toContain('already rated');
  });

  it('a failed judgment rates nothing (no made-up quality); --rating-strict makes that exit 1', async () => {
    const { fx, store, io } = setup();
    server.script = [{ kind: 'reply', text: '' }];
    expect(await run(['--rate-agents', fx.recordPath], io())).toBe(0);
    expect(store.readLines('ratings', 'claude-a').rows).toEqual([]);
    const { fx: fx2, store: store2, io: io2 } = setup();
    server.script = [{ kind: 'reply', text: '' }];
    const strictIo = io2();
    expect(await run(['--rate-agents', '--rating-strict', fx2.recordPath], strictIo)).toBe(1);
    expect(store2.readLines('ratings', 'claude-a').rows).toEqual([]);
    expect(strictIo.err.join('')).toMatch(/not rated|no quality|review/i);
  });

  it('--rating-agent or --complexity without --rate-agents is a usage error', async () => {
    const { fx, io } = setup();
    await expect(run(['--rating-agent', 'sonnet', fx.recordPath], io())).rejects.toThrow(
      /--rating-agent, --rating-strict and --complexity go with --rate-agents/,
    );
    await expect(run(['--complexity', '3', fx.recordPath], io())).rejects.toThrow(/go with --rate-agents/);
  });

  it('--complexity rates a run recorded without one (its budget bucket), nothing recorded again', async () => {
    server.script = [{ kind: 'reply', text: goodReply() }];
    const fx = makeRun({ record: { task: { id: 'task-sub', prompt: 'Add sub().', command: 'work-on-tasks' } } });
    const store = new StateStore(fx.stateDir);
    const fb = feedbackFor(fx.record);
    fb.run = { ...fb.run, command: 'work-on-tasks' };
    delete fb.run.complexity;
    store.write('feedback', fx.record.bead, fb);
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: config,
      JUDGELOOP_NOW: '2025-06-01T11:00:00Z',
    });
    expect(await run(['--rate-agents', '--complexity', '4', fx.recordPath], io)).toBe(0);
    const row = store.readLines<AgentRunRating>('ratings', 'claude-a').rows[0]!;
    expect(row).toMatchObject({ complexity: 4, complexity_source: 'rate_flag' });
  });
});
