import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnvSettings } from '../../lib/base/env.js';
import { run } from '../../scripts/score-templates.js';
import { mechanicalComposite } from '../../lib/templates/formula.js';
import { wilsonInterval } from '../../lib/stats/stats.js';
import type { Template, TemplateScores } from '../../lib/schema/types.generated.js';
import { captureIo } from './_io.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

const P = { partial_credit: 0.4, retry_penalty: 0.2, timeout_penalty: 0.3 }; // the learning-loop's defaults
let st: TempState;
beforeEach(() => (st = tempState()));
afterEach(() => st.cleanup());

async function score(
  env: EnvSettings = {},
  args: string[] = ['--json'],
): Promise<{ code: number; data: TemplateScores; err: string }> {
  const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGELOOP_NOW: '2026-03-01T00:00:00Z', ...env });
  const code = await run(args, io);
  return { code, data: JSON.parse(io.out()) as TemplateScores, err: io.err() };
}
const tpl = (d: TemplateScores, name: string): Template => d.templates.find((t) => t.template === name)!;

describe('counting and infra exclusion', () => {
  const runs: RunSpec[] = [
    { bead: 'a1', template: 'A', outcome: 'full_pass', iterations: 0 },
    { bead: 'a2', template: 'A', outcome: 'full_pass', iterations: 1 },
    { bead: 'a3', template: 'A', outcome: 'full_pass', iterations: 0 },
    { bead: 'a4', template: 'A', outcome: 'partial_pass', iterations: 2 },
    { bead: 'a5', template: 'A', outcome: 'agent_failure', iterations: 0 },
    { bead: 'a6', template: 'A', outcome: 'timeout' },
    { bead: 'a7', template: 'A', outcome: 'infra_failure', iterations: 3 },
    { bead: 'a8', template: 'A', outcome: 'infra_failure' },
    { bead: 'z1', template: 'Z', outcome: 'infra_failure' },
  ];

  it('counts every outcome, and leaves infra failures out of every rate', async () => {
    await writeRuns(st.store, runs);
    const { code, data } = await score();
    expect(code).toBe(0);
    const a = tpl(data, 'A');
    expect(a.runs).toBe(8);
    expect(a.outcomes).toEqual({
      full_pass: 3,
      partial_pass: 1,
      agent_failure: 1,
      infra_failure: 2,
      timeout: 1,
      unmeasured: 0,
    });
    expect(a.scored_runs).toBe(6);
    expect(a.full_pass_rate).toEqual({ value: 3 / 6, n: 6, interval: wilsonInterval(3, 6) });
    expect(a.pass_rate.value).toBeCloseTo(4 / 6, 12);
    expect(a.timeout_rate.value).toBeCloseTo(1 / 6, 12);
    // a6 reports no retries: the retry rate rests on the 5 that do (2 retried), the infra runs not at all.
    expect(a.retry_rate).toMatchObject({ value: 2 / 5, n: 5 });
    expect(a.mean_retries).toBeCloseTo(3 / 5, 12);
    const expected = mechanicalComposite(
      { full_pass: 3, partial_pass: 1, timeout: 1, scored: 6, retried: 2, retry_known: 5 },
      P,
    )!;
    expect(a.mechanical.value).toBeCloseTo(expected, 12);
    expect(a.mechanical.n).toBe(6);
    const z = tpl(data, 'Z');
    expect(z).toMatchObject({
      runs: 1,
      scored_runs: 0,
      score: null,
      basis_reason: 'no scored runs (only infra failures)',
    });
    expect(z.pass_rate).toEqual({ value: null, n: 0, interval: null });
    expect(data.templates.at(-1)!.template).toBe('Z');
  });

  it('more infra failures do not change a template score', async () => {
    await writeRuns(st.store, runs);
    const before = tpl((await score()).data, 'A');
    await writeRuns(
      st.store,
      Array.from({ length: 10 }, (_, i) => ({ bead: `inf${i}`, template: 'A', outcome: 'infra_failure' as const })),
    );
    const after = tpl((await score()).data, 'A');
    expect(after.runs).toBe(before.runs + 10);
    expect(after.mechanical).toEqual(before.mechanical);
    expect(after.pass_rate).toEqual(before.pass_rate);
  });
});

describe('judge average and blend', () => {
  const mixed: RunSpec[] = [
    { bead: 'j1', template: 'J', outcome: 'full_pass', iterations: 0, judge: 0.9 },
    { bead: 'j2', template: 'J', outcome: 'full_pass', iterations: 0, judge: 0.7 },
    { bead: 'j3', template: 'J', outcome: 'partial_pass', iterations: 0, judge: 0.5 },
    { bead: 'j4', template: 'J', outcome: 'agent_failure', iterations: 0, judge: null }, // failed judge: judgment null
    { bead: 'j5', template: 'J', outcome: 'infra_failure', judge: 0.1 }, // never counts, even judged
    { bead: 'u1', template: 'U', outcome: 'full_pass', iterations: 0 },
    { bead: 'u2', template: 'U', outcome: 'agent_failure', iterations: 0 },
  ];

  it('phase 3: 0.6 x mechanical + 0.4 x judge; a template with no judged runs keeps mechanical, marked', async () => {
    await writeRuns(st.store, mixed);
    const { data } = await score({ JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' });
    expect(data.blend_active).toBe(true);
    const j = tpl(data, 'J');
    expect(j.judge.n).toBe(3);
    expect(j.judge.value).toBeCloseTo(0.7, 12);
    // mechanical: (2 + 0.4) / 4 = 0.6 (learning-loop partial credit 0.4)
    expect(j.mechanical.value).toBeCloseTo(0.6, 12);
    expect(j.blended.value).toBeCloseTo(0.6 * 0.6 + 0.4 * 0.7, 12);
    expect(j).toMatchObject({ basis: 'blended' });
    expect(j.score).toBe(j.blended.value);
    const u = tpl(data, 'U');
    expect(u).toMatchObject({
      basis: 'mechanical',
      basis_reason: 'no judged runs: mechanical kept',
      blended: { value: null, interval: null },
    });
    expect(u.score).toBe(0.5);
    expect(u.judge).toEqual({ value: null, n: 0, interval: null });
  });

  it('blend weights come from config', async () => {
    await writeRuns(st.store, mixed);
    const cfg = join(st.root, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ templates: { weights: { mechanical: 0.5, judge: 0.5 } } }));
    const { data } = await score({ JUDGE_ENABLED: 'true', JUDGE_PHASE: '3', JUDGELOOP_CONFIG: cfg });
    expect(tpl(data, 'J').blended.value).toBeCloseTo(0.5 * 0.6 + 0.5 * 0.7, 12);
  });

  it('another coefficient set is used only under its own name with a reason, recorded in the scores file', async () => {
    await writeRuns(st.store, mixed);
    const cfg = join(st.root, 'cfg.json');
    const v1 = {
      name: 'judgeloop-v1',
      partial_credit: 0.5,
      retry_penalty: 0.1,
      timeout_penalty: 0.2,
      reason: 'reproduce scores from before issue 17',
    };
    writeFileSync(cfg, JSON.stringify({ templates: { mechanical: v1 } }));
    const { data } = await score({ JUDGELOOP_CONFIG: cfg });
    expect(data.settings.mechanical).toEqual(v1);
    expect(tpl(data, 'J').mechanical.value).toBeCloseTo((2 + 0.5) / 4, 12);
    writeFileSync(cfg, JSON.stringify({ templates: { mechanical: { partial_credit: 0.5 } } }));
    const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGELOOP_CONFIG: cfg });
    await expect(run([], io)).rejects.toMatchObject({
      name: 'UserError',
      message: expect.stringMatching(
        /\/templates\/mechanical \("learning-loop"\): coefficients 0\.5\/0\.2\/0\.3 are not the learning-loop's/,
      ),
    });
  });

  it('phase 2 and JUDGE_ENABLED=false score mechanical only, still reporting the judge average', async () => {
    await writeRuns(st.store, mixed);
    for (const env of [
      { JUDGE_ENABLED: 'true', JUDGE_PHASE: '2' },
      { JUDGE_ENABLED: 'false', JUDGE_PHASE: '4' },
    ]) {
      const { code, data } = await score(env);
      expect(code).toBe(0);
      expect(data.blend_active).toBe(false);
      expect(data.ab).toBeNull();
      const j = tpl(data, 'J');
      expect(j).toMatchObject({ basis: 'mechanical', blended: { value: null } });
      expect(j.score).toBeCloseTo(0.6, 12);
      expect(j.judge.n).toBe(3);
      expect(j.basis_reason).toMatch(env.JUDGE_ENABLED === 'false' ? /judge disabled/ : /phase 2/);
    }
  });

  it('every number carries its sample size and a 95% interval around it', async () => {
    await writeRuns(st.store, mixed);
    const { data } = await score({ JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' });
    const j = tpl(data, 'J');
    for (const [value, iv] of [
      [j.mechanical.value, j.mechanical.interval],
      [j.judge.value, j.judge.interval],
      [j.blended.value, j.blended.interval],
    ] as const) {
      expect(iv).not.toBeNull();
      expect(iv!.low).toBeLessThanOrEqual(value!);
      expect(iv!.high).toBeGreaterThanOrEqual(value!);
      expect(iv!.high - iv!.low).toBeGreaterThan(0);
    }
    expect(j.blended.interval!.method).toBe('delta_t');
    expect(j.pass_rate.interval).toEqual(wilsonInterval(3, 4));
    // One judged run: a value, but no interval can be estimated.
    await writeRuns(st.store, [
      { bead: 'k1', template: 'K', outcome: 'full_pass', judge: 0.8 },
      { bead: 'k2', template: 'K', outcome: 'full_pass' },
    ]);
    const k = tpl((await score({ JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' })).data, 'K');
    expect(k.judge).toEqual({ value: 0.8, n: 1, interval: null });
    expect(k.blended.value).not.toBeNull();
    expect(k.blended.interval).toBeNull();
  });

  it('a wider sample narrows the interval', async () => {
    const few = Array.from({ length: 4 }, (_, i) => ({
      bead: `f${i}`,
      template: 'F',
      outcome: (i % 2 ? 'full_pass' : 'agent_failure') as RunSpec['outcome'],
      iterations: 0,
    }));
    const many = Array.from({ length: 40 }, (_, i) => ({
      bead: `m${i}`,
      template: 'M',
      outcome: (i % 2 ? 'full_pass' : 'agent_failure') as RunSpec['outcome'],
      iterations: 0,
    }));
    await writeRuns(st.store, [...few, ...many]);
    const { data } = await score();
    const width = (t: Template) => t.mechanical.interval!.high - t.mechanical.interval!.low;
    expect(tpl(data, 'F').mechanical.value).toBe(tpl(data, 'M').mechanical.value);
    expect(width(tpl(data, 'M'))).toBeLessThan(width(tpl(data, 'F')));
  });
});

describe('trend', () => {
  it('takes the last N runs by completion time, never by bead id', async () => {
    const cfg = join(st.root, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ templates: { trend_window: 4 } }));
    // Bead ids run against time; one time is written with an offset (+02:00) and is earlier than it looks.
    await writeRuns(st.store, [
      { bead: 'bd-9', template: 'T', outcome: 'full_pass', completed_at: at(0) },
      { bead: 'bd-8', template: 'T', outcome: 'full_pass', completed_at: at(10) },
      { bead: 'bd-7', template: 'T', outcome: 'full_pass', completed_at: at(20) },
      { bead: 'bd-1', template: 'T', outcome: 'agent_failure', completed_at: at(30) },
      { bead: 'bd-5', template: 'T', outcome: 'agent_failure', completed_at: '2026-01-01T02:40:00+02:00' }, // = at(40)
      { bead: 'bd-3', template: 'T', outcome: 'agent_failure', completed_at: at(50) },
      { bead: 'bd-0', template: 'T', outcome: 'infra_failure', completed_at: at(60) }, // not a scored run
    ]);
    const { data } = await score({ JUDGELOOP_CONFIG: cfg });
    const t = tpl(data, 'T').trend;
    expect(t.runs.map((r) => r.bead)).toEqual(['bd-7', 'bd-1', 'bd-5', 'bd-3']);
    expect(t.window).toBe(4);
    expect(t.earlier).toBe(0.5);
    expect(t.later).toBe(0);
    expect(t.change).toBe(-0.5);
  });
});

describe('A/B report', () => {
  it('ranks mechanical-only beside blended, correlates them, and says who moves and why', async () => {
    const runs: RunSpec[] = [];
    const add = (
      tplName: string,
      outcomes: RunSpec['outcome'][],
      judge: number | null,
      issues: RunSpec['issues'][] = [],
    ) =>
      outcomes.forEach((o, i) =>
        runs.push({
          bead: `${tplName}-${i}`,
          template: tplName,
          outcome: o,
          iterations: 0,
          judge,
          issues: issues[i] ?? [],
        }),
      );
    const scope = [{ description: 'Rewrote unrelated modules', category: 'scope_creep' }];
    add('alpha', ['full_pass', 'full_pass', 'full_pass', 'full_pass'], 0.2, [scope, scope, scope, scope]); // mech 1.0, blend 0.68
    add('beta', ['full_pass', 'full_pass', 'full_pass', 'agent_failure'], 0.95); // mech 0.75, blend 0.83
    add('gamma', ['full_pass', 'full_pass', 'full_pass', 'partial_pass'], 0.1, [
      scope,
      [{ description: 'Left a TODO stub in parser.ts line 12' }],
      scope,
    ]); // 0.875 -> 0.565
    add('delta', ['full_pass', 'full_pass', 'agent_failure', 'agent_failure'], null); // 0.5, unjudged
    await writeRuns(st.store, runs);
    const { data } = await score({ JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' });
    const ab = data.ab!;
    expect(ab.templates).toBe(4);
    // Ranks mech alpha 1, gamma 2, beta 3, delta 4; blended beta 1, alpha 2, gamma 3, delta 4:
    // rho = 1 - 6 x (1 + 1 + 4) / (4 x 15) = 0.4; tau = (4 concordant - 2 discordant) / 6.
    expect(ab.spearman).toBeCloseTo(0.4, 12);
    expect(ab.kendall_tau_b).toBeCloseTo(1 / 3, 12);
    const m = Object.fromEntries(ab.moves.map((x) => [x.template, x]));
    expect(m.beta).toMatchObject({ mechanical_rank: 3, blended_rank: 1, change: 2, judge_n: 4 });
    expect(m.alpha).toMatchObject({ mechanical_rank: 1, blended_rank: 2, change: -1, issues: ['scope_creep'] });
    expect(m.gamma).toMatchObject({ mechanical_rank: 2, blended_rank: 3, change: -1, issues: ['scope_creep'] });
    expect(m.delta).toMatchObject({ change: 0, judge: null, judge_n: 0 });
    expect(m.alpha!.why).toMatch(
      /judge average 0\.20 over 4 runs against mechanical 1\.00 pulls it down 1 place; recurring issues: scope_creep/,
    );
    expect(m.delta!.why).toMatch(/no judged runs/);
    expect(ab.moves[0]!.template).toBe('beta');
    expect(ab.shared_issues).toEqual([{ key: 'scope_creep', templates: ['alpha', 'gamma'] }]);
    expect(tpl(data, 'gamma').top_issues.map((i) => i.key)).toEqual([
      'scope_creep',
      'left a todo stub in parser ts line #',
    ]);
  });
});

describe('output', () => {
  it('writes state/scores/templates.json and prints a table for people without --json', async () => {
    await writeRuns(st.store, [{ bead: 'a1', template: 'A', outcome: 'full_pass' }]);
    const io = captureIo({ JUDGELOOP_STATE_DIR: st.root });
    expect(await run([], io)).toBe(0);
    expect(io.out()).toMatch(/^Template scores \(phase 1, judge disabled, mechanical only\)/);
    expect(io.out()).toMatch(/\nA +1 +0 +100%/);
    const file = JSON.parse(readFileSync(join(st.root, 'scores', 'templates.json'), 'utf8')) as TemplateScores;
    expect(file.templates[0]!.template).toBe('A');
  });
  it('rejects a bad flag with exit 2', async () => {
    const io = captureIo({ JUDGELOOP_STATE_DIR: st.root });
    await expect(run(['--phase', '7'], io)).rejects.toThrow(/--phase "7": expected 1, 2, 3 or 4/);
  });
});
