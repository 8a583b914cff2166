// bin/judge on a run with no feedback record: the real collector runs first, then the judge, then the merge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, FeedbackIndexRow, Judgment } from '../../lib/schema/types.generated.js';
import { captureIo, judgeConfigFile } from './helpers/feedback.js';
import { makeRun, removeRuns } from './helpers/fixtures.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(() => server.close());

describe('bin/judge collects first', () => {
  it('writes feedback through the collector, judges the diff it measured, merges at phase 2 and re-indexes', async () => {
    const fx = makeRun();
    const store = new StateStore(fx.stateDir);
    expect(store.read('feedback', fx.record.bead)).toBeNull();
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: judgeConfigFile({ phase: 2, max_retries: 0 }),
    });
    expect(await run([fx.recordPath], io)).toBe(0);
    const fb = store.read<Feedback>('feedback', fx.record.bead)!;
    expect(fb.checks.test?.source).toBe('run_record');
    expect(fb.checks.test?.tests).toMatchObject({ runner: 'vitest', passed: 1, failed: 0 });
    expect(fb.diff?.files.map((f) => f.path).sort()).toEqual(['src/sub.ts', 'test/sub.test.ts']);
    const j = store.read<Judgment>('judgments', fx.record.bead)!;
    expect(j.status).toBe('judged');
    expect(fb.judgment).toMatchObject({ verdict: j.verdict, score: j.score });
    // The request carried the diff the collector measured.
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect(sent).toContain('src/sub.ts');
    // The index's last row for the bead is the merged record (score-templates reads it).
    const rows = store
      .readLines<FeedbackIndexRow>('feedback-index', 'feedback')
      .rows.filter((r) => r.bead === fx.record.bead);
    expect(rows.map((r) => r.judge?.score ?? null)).toEqual([null, j.score]);
  });
});
