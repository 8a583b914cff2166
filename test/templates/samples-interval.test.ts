// Issue 37: with JUDGE_SAMPLES > 1 the blended score's interval widens by the samples' variance. Runs judged through
// the real SDK (loopback) with scripted samples that agree, and that disagree around the same means.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as judgeRun } from '../../scripts/judge.js';
import { run as scoreTemplates } from '../../scripts/score-templates.js';
import { judgeVarianceWithSamples } from '../../lib/templates/formula.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, TemplateScores } from '../../lib/schema/types.generated.js';
import { makeRun, removeRuns } from '../judge/helpers/fixtures.js';
import { captureIo, feedbackFor, judgeConfigFile } from '../judge/helpers/feedback.js';
import { goodReply, resetServer, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { tempDir } from '../helpers/temp.js';

const d = (x: number) => ({ correctness: x, scope_adherence: x, code_quality: x, completeness: x });
const text = (x: number) => ({ kind: 'reply' as const, text: goodReply({ dimensions: d(x) }) });
const MEANS = [0.6, 0.7, 0.8];

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => {
  server.close();
  removeRuns();
});

/** Three runs of one template in a fresh state folder, each judged 3 times with the given samples around its mean. */
async function judgedFolder(offsets: readonly number[]): Promise<TemplateScores> {
  const stateDir = tempDir('jl-samples-');
  const config = judgeConfigFile({ timeout_seconds: 2, max_retries: 0 });
  for (const [i, mean] of MEANS.entries()) {
    // Each run's own change: the judge's cache is keyed on what it reads.
    const files = { 'src/sub.ts': `export const sub${i} = (a: number, b: number) => a - b;\n` };
    const fx = makeRun({ bead: `s-${i}`, stateDir, files });
    new StateStore(stateDir).write('feedback', fx.record.bead, feedbackFor(fx.record));
    resetServer(server);
    server.script = offsets.map((o) => text(mean + o));
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      JUDGE_SAMPLES: String(offsets.length),
      JUDGE_PHASE: '2',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: stateDir,
      JUDGELOOP_CONFIG: config,
    });
    expect(await judgeRun(['--json', fx.recordPath], io)).toBe(0);
    expect(server.requests).toHaveLength(offsets.length);
  }
  const fb = new StateStore(stateDir).read<Feedback>('feedback', 's-0')!;
  expect(fb.judgment?.samples).toBe(offsets.length);
  const io = captureIo({
    JUDGELOOP_STATE_DIR: stateDir,
    JUDGE_ENABLED: 'true',
    JUDGE_PHASE: '3',
    JUDGELOOP_NOW: '2030-01-01T00:00:00Z',
  });
  expect(await scoreTemplates(['--json', '--quiet'], io)).toBe(0);
  return JSON.parse(io.out.join('')) as TemplateScores;
}

describe('template intervals allow for the judge samples spread', () => {
  it('judgeVarianceWithSamples adds the mean within-run variance of the mean', () => {
    expect(judgeVarianceWithSamples(0.01, 0, 0)).toBe(0.01);
    // Two judged runs: samples' variances 0.03 (3 samples) and 0 (judged once): 0.01 + (0.01 + 0) / 2.
    expect(judgeVarianceWithSamples(0.01, 0.03 / 3, 2)).toBeCloseTo(0.015, 12);
  });

  it('samples that disagree give a wider blended interval than samples that agree, at the same mean', async () => {
    const agree = (await judgedFolder([0, 0, 0])).templates[0]!;
    const disagree = (await judgedFolder([-0.2, 0.2, 0])).templates[0]!;
    expect(agree.basis).toBe('blended');
    expect(disagree.blended.value).toBeCloseTo(agree.blended.value!, 3);
    // The half-width below the centre (the top is cut at 1): the runs' judge variance is 0.01, the samples' 0.04 / 3.
    const below = (t: typeof agree) => t.blended.value! - t.blended.interval!.low;
    expect(below(agree)).toBeGreaterThan(0);
    expect(below(disagree) / below(agree)).toBeCloseTo(Math.sqrt((0.01 + 0.04 / 3) / 0.01), 1);
  }, 120_000);
});
