// Issue 34: a template's passes are resolved runs. A full or partial pass that fixes none of its targets is not a
// pass; one that fixes some earns partial credit; a record from before the verdict is counted by its outcome, said.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/score-templates.js';
import { countedOutcome, mechanicalComposite } from '../../lib/templates/formula.js';
import { parseRow, summarizeFeedback } from '../../lib/store/feedback-index.js';
import type { Outcome, Template, TemplateScores } from '../../lib/schema/types.generated.js';
import { resolutionOf } from '../helpers/resolution.js';
import { captureIo } from './_io.js';
import { at, makeFeedback, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

const P = { partial_credit: 0.4, retry_penalty: 0.2, timeout_penalty: 0.3 }; // the learning-loop's defaults

describe('countedOutcome', () => {
  const cases: [Outcome, boolean | null | undefined, number | null | undefined, Outcome, boolean][] = [
    ['full_pass', true, 1, 'full_pass', false],
    ['full_pass', false, 0, 'agent_failure', true], // a pass that fixes nothing is no pass
    ['full_pass', false, 1, 'partial_pass', true], // fixes some: partial credit
    ['partial_pass', false, 0, 'agent_failure', true],
    ['partial_pass', false, 2, 'partial_pass', false],
    ['partial_pass', true, 1, 'partial_pass', false],
    ['full_pass', null, 0, 'full_pass', false], // cannot be told: its outcome
    ['full_pass', undefined, undefined, 'full_pass', false], // a record from before the verdict
    ['agent_failure', false, 0, 'agent_failure', false],
    ['timeout', false, 1, 'timeout', false],
  ];
  it.each(cases)('%s, resolved %s, fixed %s → %s (lowered %s)', (outcome, resolved, fixed, want, lowered) => {
    const c = countedOutcome({ outcome, resolved, targets_fixed: fixed });
    expect(c.outcome).toBe(want);
    expect(c.lowered).toBe(lowered);
    expect(c.by).toBe(resolved === true || resolved === false ? 'resolution' : 'outcome');
  });
});

describe('the index row carries the verdict', () => {
  it('resolved and targets_fixed from feedback.resolution; null for a record without one; old rows still read', () => {
    const file = { size: 1, mtime_ms: 1 };
    const fixed = makeFeedback({ bead: 'r1', template: 'T', outcome: 'full_pass', resolution: resolutionOf(1, 1) });
    const none = makeFeedback({ bead: 'r2', template: 'T', outcome: 'partial_pass', resolution: resolutionOf(2, 0) });
    const old = makeFeedback({ bead: 'r3', template: 'T', outcome: 'full_pass' });
    expect(summarizeFeedback(fixed, file, at(0))).toMatchObject({ resolved: true, targets_fixed: 1 });
    expect(summarizeFeedback(none, file, at(0))).toMatchObject({ resolved: false, targets_fixed: 0 });
    expect(summarizeFeedback(old, file, at(0))).toMatchObject({ resolved: null, targets_fixed: null });
    // A row written before the fields existed is still a row (read as "not known").
    const { resolved: _r, targets_fixed: _f, ...before } = summarizeFeedback(old, file, at(0));
    expect(parseRow(JSON.stringify(before))).toEqual(before);
  });
});

describe('score-templates counts resolved runs as passes', () => {
  let st: TempState;
  beforeEach(() => (st = tempState()));
  afterEach(() => st.cleanup());

  async function score(args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGELOOP_NOW: '2026-03-01T00:00:00Z' });
    const code = await run(args, io);
    return { code, out: io.out(), err: io.err() };
  }
  const tpl = (d: TemplateScores, name: string): Template => d.templates.find((t) => t.template === name)!;

  // Template F fixes its tasks; template N passes by the pass rate while fixing nothing (issue 34's refactor and the
  // config that excludes the failing file, both partial_pass); template M mixes them with a record from before.
  const runs: RunSpec[] = [
    ...[0, 1, 2].map((i) => ({
      bead: `f${i}`,
      template: 'F',
      outcome: 'full_pass' as const,
      iterations: 0,
      completed_at: at(i),
      resolution: resolutionOf(1, 1),
    })),
    ...[0, 1, 2].map((i) => ({
      bead: `n${i}`,
      template: 'N',
      outcome: 'partial_pass' as const,
      iterations: 0,
      completed_at: at(i),
      resolution: resolutionOf(1, 0),
    })),
    {
      bead: 'm0',
      template: 'M',
      outcome: 'full_pass',
      iterations: 0,
      completed_at: at(0),
      resolution: resolutionOf(2, 2),
    },
    {
      bead: 'm1',
      template: 'M',
      outcome: 'full_pass',
      iterations: 0,
      completed_at: at(1),
      resolution: resolutionOf(2, 0),
    },
    {
      bead: 'm2',
      template: 'M',
      outcome: 'full_pass',
      iterations: 0,
      completed_at: at(2),
      resolution: resolutionOf(2, 1, 1),
    },
    {
      bead: 'm3',
      template: 'M',
      outcome: 'partial_pass',
      iterations: 0,
      completed_at: at(3),
      resolution: resolutionOf(2, 0),
    },
    { bead: 'm4', template: 'M', outcome: 'full_pass', iterations: 0, completed_at: at(4) },
  ];

  for (const index of [true, false])
    it(`only resolved runs are passes (${index ? 'rows from the index' : "rows read from the records' heads"})`, async () => {
      await writeRuns(st.store, runs, index);
      const { code, out } = await score(['--json']);
      expect(code).toBe(0);
      const data = JSON.parse(out) as TemplateScores;
      const f = tpl(data, 'F');
      const n = tpl(data, 'N');
      const m = tpl(data, 'M');
      expect(n.outcomes).toMatchObject({ full_pass: 0, partial_pass: 0, agent_failure: 3 });
      expect(n.pass_rate.value).toBe(0);
      expect(n.mechanical.value).toBe(0);
      expect(f.mechanical.value).toBe(1);
      // m0 resolved; m1 and m3 fix nothing (failures); m2 fixes 1 of 2 and broke one (partial); m4 predates the verdict.
      expect(m.outcomes).toMatchObject({ full_pass: 2, partial_pass: 1, agent_failure: 2 });
      expect(m.resolution).toEqual({ counted: 4, not_passes: 3, by_outcome: 1 });
      expect(m.mechanical.value).toBeCloseTo(
        mechanicalComposite({ full_pass: 2, partial_pass: 1, timeout: 0, scored: 5, retried: 0, retry_known: 5 }, P)!,
        12,
      );
      expect(m.trend.runs.map((r) => r.outcome)).toEqual([
        'full_pass',
        'agent_failure',
        'partial_pass',
        'agent_failure',
        'full_pass',
      ]);
      expect(data.templates.map((t) => t.template)).toEqual(['F', 'M', 'N']);
    });

  it('the table says how many passes the verdict lowered and how many runs were counted by outcome alone', async () => {
    await writeRuns(st.store, runs);
    const { out } = await score([]);
    expect(out).toMatch(/only a resolved run is one; 6 passes that did not resolve their task counted as/);
    expect(out).toMatch(/1 scored run counted by outcome alone: no resolved verdict in their feedback/);
  });
});
