import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createRng as seededRandom } from '../../lib/stats/prng.js';
import {
  addMoment,
  averageRanks,
  emptyMoments,
  kendallTauB,
  spearman,
  t95,
  tInterval,
  wilsonInterval,
} from '../../lib/stats/stats.js';

// Expected values come from scipy (a real tool), not from hand arithmetic: one python process answers every
// case's question (importing scipy costs a second of CPU), each `it` reads its own answer.
const WILSON_CASES = [
  [8, 10],
  [0, 5],
  [5, 5],
  [1, 1],
  [37, 120],
  [999, 1000],
] as const;
const DFS = [1, 2, 5, 10, 29, 30, 31, 45, 100, 1000];
const XS = [0.2, 0.9, 0.55, 0.7, 0.65, 0.4];
const PAIRS: [number[], number[]][] = [
  [
    [0.9, 0.8, 0.7, 0.6],
    [0.9, 0.8, 0.7, 0.6],
  ],
  [
    [0.9, 0.8, 0.7, 0.6],
    [0.1, 0.2, 0.3, 0.4],
  ],
  [
    [0.9, 0.8, 0.8, 0.6, 0.3],
    [0.7, 0.85, 0.6, 0.6, 0.2],
  ],
  [
    [0.5, 0.4, 0.3, 0.2, 0.1, 0.05],
    [0.45, 0.5, 0.1, 0.3, 0.2, 0.05],
  ],
];
interface Scipy {
  wilson: [number, number][];
  t95: number[];
  tInterval: [number, number];
  rank: [number, number][];
}
let answers: Scipy | undefined;
function scipy(): Scipy {
  answers ??= JSON.parse(
    execFileSync(
      'python3',
      [
        '-c',
        [
          'import json, statistics as s, scipy.stats as st',
          `x=${JSON.stringify(XS)}`,
          `p=${JSON.stringify(PAIRS)}`,
          'print(json.dumps({',
          `  "wilson": [[c.low, c.high] for c in [st.binomtest(k, n).proportion_ci(0.95, 'wilson') for k, n in ${JSON.stringify(WILSON_CASES)}]],`,
          `  "t95": [st.t.ppf(0.975, d) for d in ${JSON.stringify(DFS)}],`,
          '  "tInterval": list(st.t.interval(0.95, len(x)-1, loc=s.mean(x), scale=st.sem(x))),',
          '  "rank": [[st.spearmanr(a,b).statistic, st.kendalltau(a,b).statistic] for a,b in p],',
          '}))',
        ].join('\n'),
      ],
      { encoding: 'utf8' },
    ),
  ) as Scipy;
  return answers;
}

describe('wilsonInterval', () => {
  it('matches scipy binomtest(...).proportion_ci(method="wilson")', () => {
    const expected = scipy().wilson;
    WILSON_CASES.forEach(([k, n], i) => {
      const w = wilsonInterval(k, n)!;
      expect(w.method).toBe('wilson');
      expect(w.low).toBeCloseTo(expected[i]![0], 9);
      expect(w.high).toBeCloseTo(expected[i]![1], 9);
    });
  });
  it('is null with no trials', () => expect(wilsonInterval(0, 0)).toBeNull());
});

describe('t95 and tInterval', () => {
  it('t quantiles agree with scipy to 1e-3 for every df', () => {
    const expected = scipy().t95;
    DFS.forEach((d, i) => expect(Math.abs(t95(d) - expected[i]!)).toBeLessThan(1e-3));
  });
  it('a mean interval matches scipy t.interval, and is null below two values', () => {
    const m = emptyMoments();
    XS.forEach((x) => addMoment(m, x));
    const [lo, hi] = scipy().tInterval;
    const iv = tInterval(m)!;
    expect(iv.low).toBeCloseTo(lo, 3);
    expect(iv.high).toBeCloseTo(hi, 3);
    const one = emptyMoments();
    addMoment(one, 0.5);
    expect(tInterval(one)).toBeNull();
  });
});

describe('rank correlation', () => {
  it('Spearman (with ties) and Kendall tau-b match scipy', () => {
    const expected = scipy().rank;
    PAIRS.forEach(([a, b], i) => {
      expect(spearman(a, b)).toBeCloseTo(expected[i]![0], 10);
      expect(kendallTauB(a, b)).toBeCloseTo(expected[i]![1], 10);
    });
  });
  it('is null with fewer than two items or no variation', () => {
    expect(spearman([0.5], [0.5])).toBeNull();
    expect(spearman([0.5, 0.5], [0.1, 0.2])).toBeNull();
    expect(kendallTauB([0.5, 0.5], [0.1, 0.2])).toBeNull();
  });
  it('average ranks put the best first and share ties', () =>
    expect(averageRanks([0.2, 0.9, 0.5, 0.5])).toEqual([4, 1, 2.5, 2.5]));
});

describe('seededRandom', () => {
  it('repeats for a seed, differs across seeds, stays in [0, 1)', () => {
    const a = seededRandom('42');
    const b = seededRandom('42');
    const c = seededRandom('43');
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const meanX = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(meanX - 0.5)).toBeLessThan(0.05);
  });
});
