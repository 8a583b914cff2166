// bin/judge's decisions that need no model: disabled, nothing to judge, bad input, missing key.
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import { captureIo } from './helpers/feedback.js';
import { makeRun, removeRuns } from './helpers/fixtures.js';

afterAll(removeRuns);

describe('bin/judge without a model call', () => {
  it('JUDGE_ENABLED unset: skipped, exit 0, says why, collects the run, judges nothing', async () => {
    const fx = makeRun();
    const io = captureIo({ JUDGELOOP_STATE_DIR: fx.stateDir, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    expect(await run([fx.recordPath], io)).toBe(0);
    expect(io.err.join('')).toContain('skipped: judge disabled');
    expect(new StateStore(fx.stateDir).list('judgments')).toEqual([]);
    expect(new StateStore(fx.stateDir).list('feedback')).toEqual([fx.record.bead]);
  });

  it.each(['infra_failure', 'timeout'] as const)('a run that ended with %s is skipped', async (status) => {
    const fx = makeRun({ record: { status } });
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      JUDGELOOP_STATE_DIR: fx.stateDir,
      ANTHROPIC_API_KEY: 'x',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(await run(['--json', fx.recordPath], io)).toBe(0);
    expect(JSON.parse(io.out.join(''))).toMatchObject({
      status: 'skipped',
      message: `nothing to judge: the run ended with ${status}; feedback collected`,
    });
    // Collected all the same: the templates' timeout and infra rates count these runs.
    expect(new StateStore(fx.stateDir).read<{ outcome: string }>('feedback', fx.record.bead)?.outcome).toBe(status);
  });

  it('a bad run record: one line naming the file and path, exit 2, nothing written', async () => {
    const fx = makeRun();
    writeFileSync(fx.recordPath, JSON.stringify({ ...fx.record, bead: '../escape' }));
    const io = captureIo({ JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir, ANTHROPIC_API_KEY: 'x' });
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toMatch(new RegExp(`${fx.recordPath}: /bead: must be safe as a file name`));
    expect(new StateStore(fx.stateDir).list('judgments')).toEqual([]);
  });

  it('sdk backend without ANTHROPIC_API_KEY: a configuration error (exit 2) before any slot is taken', async () => {
    const fx = makeRun();
    const io = captureIo({ JUDGE_ENABLED: 'true', JUDGELOOP_STATE_DIR: fx.stateDir });
    expect(await run([fx.recordPath], io)).toBe(2);
    expect(io.err.join('')).toContain('ANTHROPIC_API_KEY is not set');
    expect(new StateStore(fx.stateDir).readLines('judge-ledger', 'judge').rows).toEqual([]);
  });
});
