// Deterministic ranking (gate, target tests, score, content hash), ties, "no mergeable solution", and change-local
// quality (touched functions before vs after; clones that mirror the surrounding file are not clones).
import { describe, expect, it } from 'vitest';
import { assembleEvaluation, gamedOverall, measured } from '../../lib/race/categories.js';
import { detectClones } from '../../lib/change/clones.js';
import { matchFunctions, touchedFunctionScores, type TouchedFunction } from '../../lib/race/criteria-quality.js';
import {
  compareRankables,
  rankSolutions,
  TIE_BREAK,
  WINNER_MIN_CONFIDENCE,
  type Rankable,
} from '../../lib/race/rank.js';
import { functionMetrics } from '../../lib/change/ts-metrics.js';
import { langFunctionMetrics } from '../../lib/change/lang-metrics.js';

const cats = (x: number) => ({ correctness: x, quality: x, efficiency: x, completeness: x, safety: x });
const r = (id: string, score: number, over: Partial<Rankable> = {}): Rankable => ({
  id,
  score,
  confidence: 0.9,
  categories: cats(score),
  mergeable: true,
  resolved: true,
  target: 1,
  hash: `h-${id}`,
  ...over,
});

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('deterministic ranking', () => {
  const field = [
    r('fix', 0.9),
    r('hack', 0.95, { mergeable: false, gateFailures: 'no_blocking_finding' }),
    r('half', 0.97, { mergeable: false, target: 0.5, gateFailures: 'target_tests_pass' }),
    r('same-a', 0.8, { hash: 'bbb' }),
    r('same-b', 0.8, { hash: 'aaa' }),
    r('noop', 0, { mergeable: false, target: 0, gateFailures: 'substantive_change' }),
  ];

  it('gives the same ranking and winner for every input order (720 orders)', () => {
    const want = rankSolutions(field, false).ranking;
    for (const p of permutations(field)) expect(rankSolutions(p, false).ranking).toEqual(want);
    expect(want.order).toEqual(['fix', 'same-b', 'same-a', 'hack', 'half', 'noop']);
    expect(want.tie_break).toBe(TIE_BREAK);
  });

  it('orders by gate, then resolved, then target share, then score, then content hash, then id', () => {
    expect(compareRankables(r('a', 0.1), r('b', 0.99, { mergeable: false }))).toBeLessThan(0);
    expect(
      compareRankables(r('a', 0.1, { mergeable: false, target: 1 }), r('b', 0.99, { mergeable: false, target: 0.5 })),
    ).toBeLessThan(0);
    expect(compareRankables(r('a', 0.5, { target: null }), r('b', 0.4, { target: 0 }))).toBeGreaterThan(0);
    expect(compareRankables(r('a', 0.1), r('b', 0.99, { resolved: false, target: 1 }))).toBeLessThan(0);
    expect(compareRankables(r('z', 0.5, { hash: 'a' }), r('a', 0.5, { hash: 'b' }))).toBeLessThan(0);
    expect(compareRankables(r('b', 0.5, { hash: 'x' }), r('a', 0.5, { hash: 'x' }))).toBeGreaterThan(0);
  });

  it('a gate-failing solution never wins, however it scores; a gate that separates #1 and #2 is a full gap', () => {
    const { ranking } = rankSolutions([r('hack', 0.99, { mergeable: false }), r('fix', 0.7)], false);
    expect(ranking.order).toEqual(['fix', 'hack']);
    expect(ranking.winner).toBe('fix');
    expect(ranking.factors.gap_confidence).toBe(1);
  });

  it('"no mergeable solution" is a result of its own, naming each failed condition', () => {
    const { ranking } = rankSolutions(
      [
        r('noop', 0, { mergeable: false, target: 0, gateFailures: 'substantive_change, target_tests_pass' }),
        r('half', 0.8, { mergeable: false, target: 0.5, gateFailures: 'target_tests_pass' }),
      ],
      false,
    );
    expect(ranking).toMatchObject({
      winner: null,
      outcome: 'no_mergeable_solution',
      winner_reason:
        'No mergeable solution: half fails target_tests_pass; noop fails substantive_change, target_tests_pass',
    });
    expect(rankSolutions([r('only', 0.9, { mergeable: false })], false).ranking).toMatchObject({
      winner: null,
      outcome: 'no_mergeable_solution',
    });
  });

  it('a tie between the top two holds the confidence below the winner threshold', () => {
    const tied = rankSolutions(
      [r('a', 0.9, { categories: { ...cats(0.9), correctness: 1 } }), r('b', 0.898)],
      false,
    ).ranking;
    expect(tied.tied).toBe(true);
    expect(tied.confidence).toBeLessThan(WINNER_MIN_CONFIDENCE);
    expect(tied).toMatchObject({ winner: null, outcome: 'low_confidence' });
    expect(tied.winner_reason).toMatch(/^a and b are tied/);
    // Not tied once the scores part by more than the epsilon (or the gate or targets differ).
    expect(rankSolutions([r('a', 0.99), r('b', 0.8)], false).ranking).toMatchObject({
      tied: false,
      winner: 'a',
      outcome: 'winner',
    });
    expect(rankSolutions([r('a', 0.9), r('b', 0.9, { target: 0.5 })], false).ranking.tied).toBe(false);
  });
});

describe('a winner solves the task', () => {
  it('ranks a resolved solution before a higher-scoring one that fixes part, and a part before none', () => {
    const { ranking } = rankSolutions(
      [
        r('refactor', 0.99, { resolved: false, target: 0 }),
        r('half', 0.95, { resolved: false, target: 0.5 }),
        r('fix', 0.8),
      ],
      false,
      2,
    );
    expect(ranking.order).toEqual(['fix', 'half', 'refactor']);
    expect(ranking).toMatchObject({ winner: 'fix', outcome: 'winner' });
    // The verdict separating #1 from #2 is a decisive gap, whatever the scores.
    expect(ranking.factors.gap_confidence).toBe(1);
  });

  it('names no winner when no solution fixes a target, however safe and well scored', () => {
    const { ranking } = rankSolutions(
      [
        r('refactor', 0.99, { resolved: false, target: 0 }),
        r('empty', 0, { mergeable: false, resolved: false, target: 0, gateFailures: 'substantive_change' }),
      ],
      false,
      1,
    );
    expect(ranking).toMatchObject({
      winner: null,
      outcome: 'no_fix',
      winner_reason: 'No solution fixes the task: none makes one of the 1 target tests pass',
    });
  });

  it('a fix that only a gate-failing solution makes is no mergeable fix; a partial mergeable fix can win', () => {
    const blocked = rankSolutions(
      [
        r('refactor', 0.9, { resolved: false, target: 0 }),
        r('dangerous', 0.95, { mergeable: false, gateFailures: 'no_blocking_finding' }),
      ],
      false,
      2,
    ).ranking;
    expect(blocked).toMatchObject({
      winner: null,
      outcome: 'no_mergeable_solution',
      winner_reason: 'No mergeable solution fixes the task: dangerous fixes 2 of 2 but fails no_blocking_finding',
    });
    const partial = rankSolutions([r('half', 0.9, { resolved: false, target: 0.5 })], false, 2).ranking;
    expect(partial).toMatchObject({ winner: 'half', outcome: 'winner' });
  });

  it('a gamed solution keeps half its overall, after correctness and safety are 0', () => {
    expect(gamedOverall(0.6)).toBe(0.3);
    expect(gamedOverall(null)).toBeNull();
    const one = (name: string) => [measured(name, 1, 'ok')];
    const results = {
      correctness: one('a'),
      quality: one('b'),
      efficiency: one('c'),
      completeness: one('d'),
      safety: one('e'),
    };
    const weights = { correctness: 0.4, quality: 0.25, efficiency: 0.15, completeness: 0.1, safety: 0.1 };
    const why = 'no credit: passes gamed: special_case at d.py:4';
    const e = assembleEvaluation(
      results,
      weights,
      {},
      { correctness: why, safety: why },
      'passes gamed: special_case at d.py:4',
    );
    // 0.25 + 0.15 + 0.1 of a perfect 1, halved: at most a quarter of what a perfect fix scores.
    expect(e.overall).toBeCloseTo(0.25, 10);
    expect(e.gamed).toBe('passes gamed: special_case at d.py:4: correctness and safety 0, overall halved');
    expect(assembleEvaluation(results, weights).overall).toBeCloseTo(1, 10);
  });

  it('without targets (a feature task) any mergeable solution can win', () => {
    const { ranking } = rankSolutions([r('feature', 0.9, { resolved: true, target: null })], false, 0);
    expect(ranking).toMatchObject({ winner: 'feature', outcome: 'winner' });
  });
});

describe('change-local complexity and length', () => {
  // A long, branchy function on the base; the fix adds one line and one decision to it.
  const body = Array.from({ length: 60 }, (_, i) => `  if (x === ${i + 2}) y += ${i};`).join('\n');
  const BASE = `export function big(x) {\n  let y = 0;\n${body}\n  return y;\n}\n`;
  const FIXED = BASE.replace('  return y;', '  if (y < 0) y = 0;\n  return y;');
  const touched = (base: string, head: string, path = 'a.mjs'): TouchedFunction[] => {
    const fns = path.endsWith('.py') ? langFunctionMetrics(path, head)! : functionMetrics(path, head);
    const before = matchFunctions(
      fns,
      path.endsWith('.py') ? langFunctionMetrics(path, base)! : functionMetrics(path, base),
    );
    return fns.map((f, i) => ({ ...f, path, before: before[i] ?? null }));
  };

  it('charges a one-line fix in a long function for the line, not the function', () => {
    const s = touchedFunctionScores(touched(BASE, FIXED));
    expect(s.complexity).toEqual({
      score: 1,
      detail: 'big (a.mjs:1): complexity 61 → 62 (+1); ideal ≤ +2 (worst of 1 changed functions)',
    });
    expect(s.length.score).toBe(1);
    expect(s.length.detail).toBe('big (a.mjs:1): 64 → 65 lines (+1); ideal ≤ +20 (worst of 1 changed functions)');
  });

  it('still charges what a change adds, and a new function for its whole size', () => {
    const grown = BASE.replace(
      '  return y;',
      `${Array.from({ length: 10 }, (_, i) => `  if (y === ${i + 100}) y--;`).join('\n')}\n  return y;`,
    );
    expect(touchedFunctionScores(touched(BASE, grown)).complexity.score).toBe(0);
    const added = touched('', BASE);
    expect(added[0]!.before).toBeNull();
    expect(touchedFunctionScores(added).complexity).toEqual({
      score: 0,
      detail: 'big (a.mjs:1): new, complexity 61; ideal < 10 (worst of 1 changed functions)',
    });
  });

  it('matches functions by name and occurrence (Python too)', () => {
    const base = 'def a():\n    return 1\n\n\ndef b(x):\n    if x:\n        return 1\n    return 2\n';
    const head =
      'def c():\n    pass\n\n\ndef b(x):\n    if x:\n        return 1\n    if x > 2:\n        return 3\n    return 2\n';
    const t = touched(base, head, 'm.py');
    expect(t.map((f) => [f.name, f.before?.complexity ?? null, f.complexity])).toEqual([
      ['c', null, 1],
      ['b', 2, 3],
    ]);
  });
});

describe('clones that mirror the surrounding file', () => {
  const HANDLER = (name: string) =>
    `export function ${name}(req, res) {\n  const body = parse(req.body);\n  if (!body.ok) { res.status(400).send({ error: body.error, field: body.field }); return; }\n  store.save(body.value).then(() => res.status(201).send({ id: body.value.id }));\n}\n`;
  const lines = (text: string, from: number) =>
    new Set(Array.from({ length: text.split('\n').length - 1 }, (_, i) => from + i));

  it('do not count when the copy is unchanged code of the same file', () => {
    const base = HANDLER('createUser');
    const head = base + HANDLER('createTeam');
    const res = detectClones([{ path: 'h.mjs', text: head, addedLines: lines(HANDLER('x'), 6) }], 20);
    expect(res.addedTokens).toBeGreaterThan(40);
    expect(res.duplicatedTokens).toBe(0);
  });

  it('still count when the solution adds the same code twice, or copies another file', () => {
    const twice = HANDLER('a') + HANDLER('b');
    expect(
      detectClones([{ path: 'h.mjs', text: twice, addedLines: lines(twice, 1) }], 20).duplicatedTokens,
    ).toBeGreaterThan(0);
    const res = detectClones(
      [
        { path: 'h.mjs', text: HANDLER('b'), addedLines: lines(HANDLER('b'), 1) },
        { path: 'other.mjs', text: HANDLER('a'), addedLines: new Set() },
      ],
      20,
    );
    expect(res.duplicatedTokens).toBeGreaterThan(0);
    expect(res.clones[0]).toMatchObject({ file: 'h.mjs', otherFile: 'other.mjs' });
  });
});
