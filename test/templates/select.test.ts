import { describe, expect, it } from 'vitest';
import { createRng as seededRandom } from '../../lib/stats/prng.js';
import { selectTemplate, type Candidate } from '../../lib/templates/select.js';

const cands: Candidate[] = [
  { template: 'tpl-good', score: 0.9, scored_runs: 40 },
  { template: 'tpl-ok', score: 0.6, scored_runs: 30 },
  { template: 'tpl-unlucky', score: 0.2, scored_runs: 2 },
  { template: 'tpl-new', score: null, scored_runs: 0 },
];

describe('selectTemplate', () => {
  it('explores at the configured share over many seeded draws, spread over every other candidate', () => {
    const n = 20_000;
    const share = 0.15;
    const rnd = seededRandom('share-test');
    const counts = new Map<string, number>();
    let explored = 0;
    for (let i = 0; i < n; i++) {
      const s = selectTemplate(cands, share, rnd);
      counts.set(s.chosen, (counts.get(s.chosen) ?? 0) + 1);
      if (s.mode === 'explore') {
        explored++;
        expect(s.chosen).not.toBe('tpl-good');
      } else expect(s.chosen).toBe('tpl-good');
    }
    // Within 4 standard deviations of the binomial expectation.
    const sd = Math.sqrt(n * share * (1 - share));
    expect(Math.abs(explored - n * share)).toBeLessThan(4 * sd);
    for (const t of ['tpl-ok', 'tpl-unlucky', 'tpl-new']) {
      const expected = (n * share) / 3;
      expect(Math.abs((counts.get(t) ?? 0) - expected)).toBeLessThan(4 * Math.sqrt(expected));
    }
  });
  it('never explores at share 0 and always explores at share 1', () => {
    const r = seededRandom('x');
    for (let i = 0; i < 500; i++) expect(selectTemplate(cands, 0, r).chosen).toBe('tpl-good');
    for (let i = 0; i < 500; i++) expect(selectTemplate(cands, 1, r).mode).toBe('explore');
  });
  it('is reproducible from the seed', () => {
    const a = Array.from({ length: 50 }, (_, i) => selectTemplate(cands, 0.3, seededRandom(`s${i}`)));
    const b = Array.from({ length: 50 }, (_, i) => selectTemplate(cands, 0.3, seededRandom(`s${i}`)));
    expect(b).toEqual(a);
  });
  it('prefers fewer runs on equal scores; explains the choice', () => {
    const s = selectTemplate(
      [
        { template: 'a', score: 0.7, scored_runs: 50 },
        { template: 'b', score: 0.7, scored_runs: 5 },
      ],
      0,
      seededRandom('1'),
    );
    expect(s.chosen).toBe('b');
    expect(s.reason).toMatch(/best score: b \(score 0\.700( \[[^\]]*\])? over 5 run/);
  });
  it('handles one candidate and a cold start', () => {
    expect(selectTemplate([cands[3]!], 0.5, seededRandom('1'))).toMatchObject({
      mode: 'only_candidate',
      chosen: 'tpl-new',
      draw: null,
    });
    const cold = selectTemplate(
      [
        { template: 'x', score: null, scored_runs: 0 },
        { template: 'y', score: null, scored_runs: 0 },
      ],
      0.1,
      seededRandom('1'),
    );
    expect(cold.mode).toBe('cold_start');
    expect(['x', 'y']).toContain(cold.chosen);
  });
});

describe('selection with a margin (issue 17)', () => {
  const iv = (low: number, high: number) => ({ low, high, method: 't' as const });
  const inc = { template: 'incumbent', score: 0.71, scored_runs: 30, interval: iv(0.6, 0.82) };
  const near = { template: 'challenger', score: 0.723, scored_runs: 30, interval: iv(0.61, 0.83) };
  const far = { template: 'challenger', score: 0.95, scored_runs: 30, interval: iv(0.9, 1) };
  const noExplore = () => 0.99;

  it('does not switch on a 0.013 gap inside overlapping intervals, and says why', () => {
    const s = selectTemplate([inc, near], 0.1, noExplore, {
      settings: { rule: 'interval', min_gap: 0.1 },
      incumbent: 'incumbent',
    });
    expect(s.chosen).toBe('incumbent');
    expect(s.margin).toMatchObject({ decision: 'kept', incumbent: 'incumbent', challenger: 'challenger' });
    expect(s.reason).toMatch(
      /kept the incumbent incumbent .* does not clear it \(interval: challenger's interval low 0\.610 <= incumbent's high 0\.820\)/,
    );
    // Without an incumbent the same scores pick the best: the margin is what keeps it.
    expect(selectTemplate([inc, near], 0.1, noExplore).chosen).toBe('challenger');
  });

  it('switches when the challenger clears the incumbent', () => {
    const s = selectTemplate([inc, far], 0.1, noExplore, {
      settings: { rule: 'interval', min_gap: 0.1 },
      incumbent: 'incumbent',
    });
    expect(s.chosen).toBe('challenger');
    expect(s.margin!.decision).toBe('switched');
  });

  it('min_gap (the learning-loop A/B promotion, 0.1) and interval_or_gap', () => {
    const gap = { template: 'challenger', score: 0.81, scored_runs: 3, interval: iv(0.2, 1) };
    expect(
      selectTemplate([inc, gap], 0, noExplore, { settings: { rule: 'min_gap', min_gap: 0.1 }, incumbent: 'incumbent' })
        .chosen,
    ).toBe('challenger');
    expect(
      selectTemplate([inc, gap], 0, noExplore, { settings: { rule: 'interval', min_gap: 0.1 }, incumbent: 'incumbent' })
        .chosen,
    ).toBe('incumbent');
    expect(
      selectTemplate([inc, gap], 0, noExplore, {
        settings: { rule: 'interval_or_gap', min_gap: 0.1 },
        incumbent: 'incumbent',
      }).chosen,
    ).toBe('challenger');
    expect(
      selectTemplate([inc, near], 0, noExplore, { settings: { rule: 'min_gap', min_gap: 0.1 }, incumbent: 'incumbent' })
        .chosen,
    ).toBe('incumbent');
  });

  it('exploration picks another than the exploit choice, and is marked', () => {
    const rnd = seededRandom('x');
    for (let i = 0; i < 200; i++) {
      const s = selectTemplate(
        [inc, near, { template: 'third', score: 0.3, scored_runs: 5, interval: iv(0.1, 0.5) }],
        0.5,
        rnd,
        { settings: { rule: 'interval', min_gap: 0.1 }, incumbent: 'incumbent' },
      );
      if (s.mode === 'explore') {
        expect(s.chosen).not.toBe('incumbent');
        expect(s.reason).toMatch(/^exploring/);
      } else expect(s.chosen).toBe('incumbent');
    }
  });
});

describe('selection needs evidence (templates.selection.min_runs)', () => {
  const settings = { rule: 'interval' as const, min_gap: 0.1, min_runs: 5 };
  const thin: Candidate[] = [
    { template: 'tpl-lucky', score: 1, scored_runs: 2, interval: { low: 0.9, high: 1, method: 't' as const } },
    { template: 'tpl-steady', score: 0.7, scored_runs: 12, interval: { low: 0.6, high: 0.8, method: 't' as const } },
  ];
  it('a higher score on fewer runs is passed over by exploitation, and the pick says why', () => {
    const s = selectTemplate(thin, 0, () => 0.5, { settings, incumbent: null });
    expect(s).toMatchObject({ mode: 'exploit', chosen: 'tpl-steady' });
    expect(s.reason).toContain('passed over for too few measured runs (< 5): tpl-lucky (2)');
    // With min_runs 1 the same candidates pick the lucky one: the setting is what decides.
    expect(selectTemplate(thin, 0, () => 0.5, { settings: { ...settings, min_runs: 1 }, incumbent: null }).chosen).toBe(
      'tpl-lucky',
    );
  });
  it('the thin template is chosen only as exploration', () => {
    const draws = [0.01, 0.3];
    const s = selectTemplate(thin, 0.1, () => draws.shift()!, { settings, incumbent: null });
    expect(s).toMatchObject({ mode: 'explore', chosen: 'tpl-lucky' });
    expect(s.reason).toMatch(/^exploring/);
  });
  it('none with enough runs: an exploration pick, named as such', () => {
    const s = selectTemplate(
      thin.map((c) => ({ ...c, scored_runs: 2 })),
      0,
      () => 0.7,
      { settings, incumbent: null },
    );
    expect(s.mode).toBe('explore');
    expect(s.chosen).toBe('tpl-steady');
    expect(s.reason).toContain('no template has the 5 measured runs a choice by score needs');
  });
});
