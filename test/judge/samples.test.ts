// Repeated judging with its spread, the uncertain verdict, per-sample caching, and the actor-is-judge flag (issue 37).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import type { StateStore } from '../../lib/store/store.js';
import type { Feedback, Judgment } from '../../lib/schema/types.generated.js';
import { validate } from '../../lib/schema/schema.js';
import { isSelfJudged, modelFamily, quantile, sampleSpread, verdictUncertain } from '../../lib/judge/spread.js';
import { type RunFixture, makeRun, removeRuns, scratchDir } from './helpers/fixtures.js';
import { captureIo, feedbackFor, judgeConfigFile } from './helpers/feedback.js';
import { goodReply, resetServer, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';
import { StateStore as Store } from '../../lib/store/store.js';

const d = (c: number, s: number, q: number, p: number) => ({
  correctness: c,
  scope_adherence: s,
  code_quality: q,
  completeness: p,
});
const reply = (dims: ReturnType<typeof d>) => JSON.parse(goodReply({ dimensions: dims }));

describe('spread and uncertainty (pure)', () => {
  it('quantile interpolates between order statistics (type 7): 1,2,3,4 → Q1 1.75, Q3 3.25', () => {
    expect(quantile([4, 1, 3, 2], 0.25)).toBe(1.75);
    expect(quantile([4, 1, 3, 2], 0.75)).toBe(3.25);
    expect(quantile([0.5], 0.75)).toBe(0.5);
  });
  it('min, max, IQR per dimension and of the composite; the composites mean', () => {
    const s = sampleSpread([reply(d(0.9, 0.8, 0.8, 0.9)), reply(d(0.5, 0.8, 0.7, 0.6)), reply(d(0.7, 0.6, 0.8, 0.8))]);
    expect(s.dimensions.correctness).toEqual({ min: 0.5, max: 0.9, iqr: 0.2 });
    expect(s.dimensions.scope_adherence).toEqual({ min: 0.6, max: 0.8, iqr: 0.1 });
    // composites 0.86, 0.62, 0.72
    expect(s.score).toEqual({ min: 0.62, max: 0.86, iqr: 0.12 });
    expect(s.score_mean).toBe(0.733333);
    expect(sampleSpread([reply(d(0.9, 0.8, 0.8, 0.9))]).score.iqr).toBe(0);
  });
  it('uncertain when the margin flips the verdict, or the samples disagree', () => {
    expect(verdictUncertain(d(0.72, 0.9, 0.9, 0.9), [], 0.05)).toBe(true); // 0.67 partial vs pass
    expect(verdictUncertain(d(0.72, 0.9, 0.9, 0.9), [], 0.01)).toBe(false);
    expect(verdictUncertain(d(0.42, 0.6, 0.6, 0.6), [], 0.05)).toBe(true); // correctness under 0.4: fail
    expect(verdictUncertain(d(0.9, 0.9, 0.9, 0.9), [d(0.9, 0.9, 0.9, 0.9), d(0.9, 0.9, 0.9, 0.9)], 0.05)).toBe(false);
    expect(verdictUncertain(d(0.9, 0.9, 0.9, 0.9), [d(0.9, 0.9, 0.9, 0.9), d(0.5, 0.6, 0.6, 0.6)], 0.05)).toBe(true);
  });
  it('model family: Claude tiers in any spelling; other names by their leading word', () => {
    expect(modelFamily('claude-opus-5-5')).toBe('claude-opus');
    expect(modelFamily('claude-3-opus-20240229')).toBe('claude-opus');
    expect(modelFamily('us.anthropic.claude-opus-4-6-v1:0')).toBe('claude-opus');
    expect(modelFamily('opus')).toBe('claude-opus');
    expect(modelFamily('claude-sonnet-4-6')).toBe('claude-sonnet');
    expect(modelFamily('gpt-5.1-codex')).toBe('gpt');
    expect(modelFamily('openai/gpt-5')).toBe('gpt');
    expect(isSelfJudged('claude-opus-4-6', 'claude-opus-5-5')).toBe(true);
    expect(isSelfJudged('claude-sonnet-4-6', 'claude-opus-5-5')).toBe(false);
    expect(isSelfJudged('gpt-5', 'claude-opus-5-5')).toBe(false);
    expect(isSelfJudged(undefined, 'claude-opus-5-5')).toBe(false);
  });
});

afterAll(removeRuns);

let server: MessagesServer;
let fx: RunFixture;
let store: StateStore;

beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => server.close());
// One run (repository and record) for every case: the judge only reads it; each case judges into a fresh state.
let run0: RunFixture;
beforeAll(() => {
  run0 = makeRun();
});
beforeEach(() => {
  fx = { ...run0, stateDir: scratchDir('judgeloop-state-') };
  store = new Store(fx.stateDir);
  store.write('feedback', fx.record.bead, feedbackFor(fx.record));
  resetServer(server);
});

async function judge(env: Record<string, string>, config: Record<string, unknown> = {}) {
  const io = captureIo({
    JUDGE_ENABLED: 'true',
    ANTHROPIC_API_KEY: 'sk-test-dummy',
    ANTHROPIC_BASE_URL: server.url,
    JUDGELOOP_STATE_DIR: fx.stateDir,
    JUDGELOOP_CONFIG: judgeConfigFile({ timeout_seconds: 2, max_retries: 0, ...config }),
    ...env,
  });
  const code = await run(['--json', fx.recordPath], io);
  return { code, io, j: store.read<Judgment>('judgments', fx.record.bead) };
}

const text = (dims: ReturnType<typeof d>) => ({ kind: 'reply' as const, text: goodReply({ dimensions: dims }) });

describe('JUDGE_SAMPLES through the real SDK (loopback)', () => {
  it('three samples that disagree: every one stored, median with its spread, uncertain; more samples pay only for the new', async () => {
    server.script = [text(d(0.9, 0.9, 0.9, 0.9)), text(d(0.5, 0.6, 0.6, 0.6)), text(d(0.8, 0.8, 0.7, 0.8))];
    const first = await judge({ JUDGE_SAMPLES: '3', JUDGE_PHASE: '2' });
    expect(first.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    const j = first.j!;
    expect(validate('judgment', j).ok).toBe(true);
    expect(j.samples).toBe(3);
    expect(j.sample_replies?.map((r) => r.dimensions.correctness)).toEqual([0.9, 0.5, 0.8]);
    expect(j.dimensions).toEqual(d(0.8, 0.8, 0.7, 0.8));
    expect(j.verdict).toBe('pass');
    expect(j.spread?.dimensions.correctness).toEqual({ min: 0.5, max: 0.9, iqr: 0.2 });
    expect(j.spread?.score).toEqual({ min: 0.56, max: 0.9, iqr: 0.17 });
    expect(j.uncertain).toBe(true);
    expect(j.warnings?.[0]).toMatch(/^verdict pass uncertain/);
    // Merged at phase 2: the feedback (and so the templates) carry the samples' mean composite, not the median's.
    const fb = store.read<Feedback>('feedback', fx.record.bead)!;
    expect(j.spread?.score_mean).toBe(0.746667);
    expect(j.score).toBe(0.78);
    expect(fb.judgment).toMatchObject({ verdict: 'pass', score: 0.7467 }); // feedback keeps 4 places

    // judge.samples raised to 4: the three stored replies are reused, one new call.
    server.script = [text(d(0.9, 0.9, 0.8, 0.9))];
    const more = await judge({ JUDGE_SAMPLES: '4' });
    expect(server.requests).toHaveLength(4);
    expect(more.j!.sample_replies).toHaveLength(4);
    expect(more.j!.sample_replies!.slice(0, 3)).toEqual(j.sample_replies);
    expect(more.j!.dimensions).toEqual(d(0.85, 0.85, 0.75, 0.85));
    // Lowered to 2: the stored judgment stands, no call.
    const fewer = await judge({ JUDGE_SAMPLES: '2' });
    expect(JSON.parse(fewer.io.out.join('')).status).toBe('cached');
    expect(server.requests).toHaveLength(4);
  });

  it('samples that agree far from a threshold: not uncertain, zero spread', async () => {
    const { j } = await judge({ JUDGE_SAMPLES: '2' });
    expect(server.requests).toHaveLength(2);
    expect(j!.uncertain).toBe(false);
    expect(j!.spread?.score).toEqual({ min: 0.86, max: 0.86, iqr: 0 });
    expect(j!.warnings).toBeUndefined();
  });

  it('JUDGE_SAMPLES out of range names the variable (a UserError: exit 2)', async () => {
    await expect(judge({ JUDGE_SAMPLES: '9' })).rejects.toThrow('JUDGE_SAMPLES="9" (environment): must be <= 5');
    await expect(judge({ JUDGE_SAMPLES: 'x' })).rejects.toThrow('JUDGE_SAMPLES="x": expected a whole number');
    expect(server.requests).toHaveLength(0);
  });
});

describe('actor ≠ judge', () => {
  function opusRun() {
    fx = makeRun({ record: { agent: { slug: 'opus-agent', model: 'claude-opus-4-6' } } });
    store = new Store(fx.stateDir);
    store.write('feedback', fx.record.bead, feedbackFor(fx.record));
  }
  it('an Opus agent judged by Opus: self_judged with a warning on stderr and in the judgment', async () => {
    opusRun();
    const { code, io, j } = await judge({});
    expect(code).toBe(0);
    expect(j!.self_judged).toBe(true);
    expect(j!.warnings?.[0]).toMatch(/^self-judged: the agent \(claude-opus-4-6\) is of the judge's model family/);
    expect(io.err.join('')).toContain('warning: bd-1: self-judged');
  });
  it('a Sonnet agent judged by Opus: not self-judged', async () => {
    const { j } = await judge({});
    expect(j!.self_judged).toBe(false);
  });
  it('judge.refuse_self_judged: skipped, no request, no judgment', async () => {
    opusRun();
    const { code, io, j } = await judge({}, { refuse_self_judged: true });
    expect(code).toBe(0);
    expect(JSON.parse(io.out.join(''))).toMatchObject({ status: 'skipped' });
    expect(JSON.parse(io.out.join('')).message).toMatch(/^refused \(judge.refuse_self_judged\): self-judged/);
    expect(server.requests).toHaveLength(0);
    expect(j).toBeNull();
  });
});
