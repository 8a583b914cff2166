// Issue 17 through bin/select-template: the incumbent (read from the selection log) stays on a gap inside the
// intervals and gives way to a challenger whose interval clears it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/select-template.js';
import type { SelectionLogRow } from '../../lib/schema/types.generated.js';
import { captureIo } from './_io.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

let st: TempState;
beforeEach(() => (st = tempState()));
afterEach(() => st.cleanup());

const runs = (template: string, full: number, failed: number, from: number): RunSpec[] =>
  Array.from({ length: full + failed }, (_, i) => ({
    bead: `${template}-${from + i}`,
    template,
    task_type: 'fix',
    outcome: i < full ? 'full_pass' : 'agent_failure',
    iterations: 0,
    completed_at: at(from + i),
  }));

async function select(seed: string): Promise<SelectionLogRow> {
  const io = captureIo({
    JUDGELOOP_STATE_DIR: st.root,
    JUDGELOOP_NOW: '2026-03-01T00:00:00Z',
    JUDGE_ENABLED: 'false',
    JUDGE_PHASE: '4',
  });
  expect(await run(['--task-type', 'fix', '--exploration-share', '0', '--seed', seed, '--json'], io)).toBe(0);
  return JSON.parse(io.out()) as SelectionLogRow;
}

describe('select-template keeps the incumbent until a challenger clears it', () => {
  it('no switch on a gap inside the intervals, a switch on a clear one', async () => {
    await writeRuns(st.store, runs('old', 12, 8, 0)); // 0.60 over 20 runs
    expect((await select('a')).chosen).toBe('old');

    await writeRuns(st.store, runs('new', 13, 7, 100)); // 0.65 over 20 runs: better, inside the intervals
    const kept = await select('b');
    expect(kept).toMatchObject({
      chosen: 'old',
      incumbent: 'old',
      margin: { decision: 'kept', challenger: 'new', rule: 'interval' },
    });
    expect(kept.candidates.find((c) => c.template === 'new')!.score!).toBeGreaterThan(
      kept.candidates.find((c) => c.template === 'old')!.score!,
    );
    expect(kept.reason).toMatch(/^kept the incumbent old/);
    // Asked again, the same: no flip-flopping on noise.
    expect((await select('c')).chosen).toBe('old');

    await writeRuns(st.store, runs('new', 80, 0, 200)); // 93/100 now: its interval lies above old's
    const switched = await select('d');
    expect(switched).toMatchObject({
      chosen: 'new',
      incumbent: 'old',
      margin: { decision: 'switched', challenger: 'new' },
    });
    const [o, n] = ['old', 'new'].map((t) => switched.candidates.find((c) => c.template === t)!);
    expect(n!.interval!.low).toBeGreaterThan(o!.interval!.high);
    // The new choice is the incumbent from now on.
    expect(await select('e')).toMatchObject({
      chosen: 'new',
      incumbent: 'new',
      margin: { decision: 'incumbent_best' },
    });
  });
});
