import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/score-templates.js';
import { recurringIssues, triggerId } from '../../scripts/lib/templates/triggers.js';
import { isSafeId } from '../../scripts/lib/bead.js';
import type { Trigger } from '../../scripts/lib/types.generated.js';
import { captureIo } from './_io.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

let st: TempState;
let cfg: string;
beforeEach(() => {
  st = tempState();
  cfg = join(st.root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ templates: { trend_window: 6, triggers: { score_drop: 0.15, min_runs: 6, recurring_min_runs: 3, recurring_window: 5 } } }));
});
afterEach(() => st.cleanup());

async function score(now: string, phase = '4', enabled = 'true'): Promise<{ code: number; err: string }> {
  const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGELOOP_NOW: now, JUDGE_ENABLED: enabled, JUDGE_PHASE: phase, JUDGELOOP_CONFIG: cfg });
  const code = await run(['--json'], io);
  return { code, err: io.err() };
}
function triggers(): Trigger[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(st.root, 'triggers'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(join(st.root, 'triggers', n), 'utf8')) as Trigger);
}

const stub = [{ description: 'Left a stub where the parser should be', category: 'stub' }];
// Bead ids are not chronological: the good runs have the high ids.
const good = (i: number, minute: number): RunSpec => ({ bead: `x-${90 + i}`, template: 'tpl', outcome: 'full_pass', iterations: 0, judge: 0.9, completed_at: at(minute) });
const bad = (i: number, minute: number): RunSpec => ({ bead: `x-${10 + i}`, template: 'tpl', outcome: 'agent_failure', iterations: 0, judge: 0.3, issues: stub, completed_at: at(minute) });

describe('refinement triggers', () => {
  it('fire once per change with the evidence, clear when the condition goes, fire again on the next change', async () => {
    await writeRuns(st.store, [good(0, 0), good(1, 1), good(2, 2), bad(0, 3), bad(1, 4), bad(2, 5)]);
    expect((await score('2026-03-01T00:00:00Z')).code).toBe(0);
    let ts = triggers();
    expect(ts.map((t) => t.kind).sort()).toEqual(['recurring_issue', 'score_drop']);
    const drop = ts.find((t) => t.kind === 'score_drop')!;
    expect(drop.evidence.beads).toEqual(['x-90', 'x-91', 'x-92', 'x-10', 'x-11', 'x-12']);
    expect(drop.evidence.trend.earlier).toBeCloseTo(0.6 * 1 + 0.4 * 0.9, 12);
    expect(drop.evidence.trend.later).toBeCloseTo(0.4 * 0.3, 12);
    expect(drop.cleared_at).toBeNull();
    expect(drop.summary).toMatch(/tpl: blended score fell from 0\.960 to 0\.120 over its last 6 runs/);
    const rec = ts.find((t) => t.kind === 'recurring_issue')!;
    expect(rec.evidence.issues).toEqual([{ key: 'stub', runs: 3, beads: ['x-10', 'x-11', 'x-12'], example: 'Left a stub where the parser should be' }]);
    expect(rec.evidence.beads).toEqual(['x-10', 'x-11', 'x-12']);

    // Same state, and one more bad run: nothing new fires.
    expect((await score('2026-03-01T01:00:00Z')).code).toBe(0);
    await writeRuns(st.store, [bad(3, 6)]);
    await score('2026-03-01T02:00:00Z');
    expect(triggers()).toHaveLength(2);

    // Recovery: six good runs; both conditions go, both triggers are marked cleared (and stay on disk).
    await writeRuns(st.store, Array.from({ length: 6 }, (_, i) => good(10 + i, 10 + i)));
    await score('2026-03-02T00:00:00Z');
    ts = triggers();
    expect(ts).toHaveLength(2);
    expect(ts.every((t) => t.cleared_at === '2026-03-02T00:00:00.000Z')).toBe(true);

    // A new drop is a new change: it fires again.
    await writeRuns(st.store, Array.from({ length: 3 }, (_, i) => bad(20 + i, 30 + i)));
    await score('2026-03-03T00:00:00Z');
    ts = triggers();
    expect(ts).toHaveLength(4);
    expect(ts.filter((t) => t.cleared_at === null).map((t) => t.kind).sort()).toEqual(['recurring_issue', 'score_drop']);
  });

  it('a recurring issue the open trigger does not list fires a new one that supersedes it', async () => {
    await writeRuns(st.store, [bad(0, 0), bad(1, 1), bad(2, 2)]);
    await score('2026-03-01T00:00:00Z');
    expect(triggers().filter((t) => t.kind === 'recurring_issue')).toHaveLength(1);
    const scope = [...stub, { description: 'Touched unrelated files', category: 'scope_creep' }];
    await writeRuns(st.store, [0, 1, 2].map((i) => ({ ...bad(5 + i, 5 + i), issues: scope })));
    await score('2026-03-01T01:00:00Z');
    const rec = triggers().filter((t) => t.kind === 'recurring_issue');
    expect(rec).toHaveLength(2);
    const open = rec.filter((t) => t.cleared_at === null);
    expect(open).toHaveLength(1);
    expect(open[0]!.evidence.issues.map((i) => i.key)).toEqual(['stub', 'scope_creep']);
  });

  it('do not fire before phase 4; with the judge disabled only score drops count', async () => {
    await writeRuns(st.store, [good(0, 0), good(1, 1), good(2, 2), bad(0, 3), bad(1, 4), bad(2, 5)]);
    await score('2026-03-01T00:00:00Z', '3');
    expect(triggers()).toHaveLength(0);
    await score('2026-03-01T00:00:00Z', '4', 'false');
    const ts = triggers();
    expect(ts.map((t) => t.kind)).toEqual(['score_drop']);
    expect(ts[0]!.summary).toMatch(/mechanical score fell from 1\.000 to 0\.000/);
    expect(ts[0]!.evidence.issues).toEqual([]);
  });

  it('a drop below the threshold or with too few runs does not fire', async () => {
    await writeRuns(st.store, [good(0, 0), good(1, 1), bad(0, 2), bad(1, 3)]); // 4 runs < min_runs 6
    await score('2026-03-01T00:00:00Z', '4', 'false');
    expect(triggers()).toHaveLength(0);
  });
});

describe('trigger helpers', () => {
  it('ids are safe file names even for odd template ids', () => {
    const id = triggerId('../prompts/fix bug.md', 'score_drop', '2026-03-01T00:00:00.000Z', ['a']);
    expect(isSafeId(id)).toBe(true);
    expect(id).toMatch(/^prompts_fix_bug.md-score_drop-20260301T000000Z-[0-9a-f]{8}$/);
  });
  it('recurringIssues counts runs, not mentions', () => {
    const r = (bead: string, keys: string[], ms: number) => ({ bead, completed_at: '', ms, outcome: 'full_pass' as const, mechanical: 1, judge: 0.5, issues: keys.map((key) => ({ key, text: key })) });
    expect(recurringIssues([r('b', ['x', 'x'], 2), r('a', ['x'], 1), r('c', ['y'], 3)], 2)).toEqual([{ key: 'x', runs: 2, beads: ['a', 'b'], example: 'x' }]);
  });
});
