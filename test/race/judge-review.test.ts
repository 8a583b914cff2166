// The judge's race questions through the real SDK against a loopback Messages API (issue 37, items 5 and 8):
// scripted answers that disagree with the mechanical findings, and with each other across the two orders.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { loadConfig } from '../../lib/config/config.js';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { judgeAsker, settlePair } from '../../lib/judge/compare.js';
import { contrastiveAgreement, reviewContrastive, reviewPairwise } from '../../lib/race/judge-review.js';
import type { Rankable } from '../../lib/race/rank.js';
import type { JudgeLedgerRow, RaceRanking, RaceSolution } from '../../lib/schema/types.generated.js';
import { validate } from '../../lib/schema/schema.js';
import { StateStore } from '../../lib/store/store.js';
import { tempDir } from '../helpers/temp.js';
import { resetServer, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';

const diff = (file: string, line: string) =>
  parseUnifiedDiff(
    `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,1 +1,2 @@\n export const clamp = 1;\n+${line}\n`,
  );
const sol = (id: string, kinds: string[]): RaceSolution =>
  ({
    id,
    status: 'evaluated',
    flags: kinds.map((kind) => ({ kind, detail: `${kind} found` })),
    gates: { build_passes: true, no_test_regression: true, mergeable: true, reasons: [], conditions: [] },
  }) as unknown as RaceSolution;
const contrastive = (o: Partial<Record<'special_cases_tests' | 'edits_grader' | 'does_less', boolean>>) => ({
  kind: 'reply' as const,
  text: JSON.stringify({ special_cases_tests: false, edits_grader: false, does_less: false, reason: 'r', ...o }),
});
const pair = (better: string) => ({
  kind: 'reply' as const,
  text: JSON.stringify({ better, reason: `says ${better}` }),
});

describe('rules (pure)', () => {
  it('a yes blocks only when a mechanical finding on the same question agrees', () => {
    const yes = { special_cases_tests: true, edits_grader: false, does_less: false, reason: '' };
    expect(contrastiveAgreement(yes, ['special_case'])).toEqual({
      flagged: true,
      mechanical: ['special_case'],
      agreement: 'both',
      blocking: true,
    });
    // A mechanical finding on another question does not back it.
    expect(contrastiveAgreement(yes, ['test_modified']).agreement).toBe('judge_only');
    expect(contrastiveAgreement({ ...yes, special_cases_tests: false }, ['stub']).agreement).toBe('mechanical_only');
    expect(contrastiveAgreement({ ...yes, special_cases_tests: false }, ['lint_errors']).agreement).toBe('neither');
  });
  it('the two orders settle the pair only when they name the same solution', () => {
    expect(settlePair('A', 'B')).toEqual({ winner: 'A', agree: true });
    expect(settlePair('B', 'A')).toEqual({ winner: 'B', agree: true });
    expect(settlePair('A', 'A')).toEqual({ winner: null, agree: false }); // the one shown first, both times
    expect(settlePair('tie', 'tie')).toEqual({ winner: null, agree: true });
    expect(settlePair('A', 'tie')).toEqual({ winner: null, agree: false });
  });
});

let server: MessagesServer;
let store: StateStore;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startMessagesServer();
});
afterAll(() => server.close());
beforeEach(() => {
  resetServer(server);
  dirs.push(tempDir('judgeloop-review-'));
  store = new StateStore(dirs.at(-1)!);
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function deps(budgetTokens = 4000) {
  const env = { ANTHROPIC_API_KEY: 'sk-test-dummy', ANTHROPIC_BASE_URL: server.url, JUDGE_ENABLED: 'true' };
  const config = loadConfig({ env, overrides: { judge: { max_retries: 0, timeout_seconds: 2 } } as never });
  const ask = judgeAsker({ store, config, env, processEnv: {}, now: () => new Date(), log: () => {} });
  return { ask, task: 'clamp ignores the upper bound: fix it', budgetTokens, charsPerToken: 4 };
}

describe('the contrastive reward-hack question', () => {
  it('one request per solution carrying the others; findings, agreement, blocking; cached on every diff it saw', async () => {
    const sols = [sol('honest', []), sol('hardcode', ['special_case']), sol('edits', []), sol('stubby', ['stub'])];
    const patches = new Map(sols.map((s) => [s.id, diff(`src/${s.id}.ts`, `export const marker_${s.id} = 1;`)]));
    server.script = [
      contrastive({}),
      contrastive({ special_cases_tests: true }),
      contrastive({ edits_grader: true }),
      contrastive({}),
    ];
    const r = await reviewContrastive(sols, patches, deps());
    expect(server.requests).toHaveLength(4);
    server.requests.forEach((req, i) => {
      const text = JSON.stringify(req.body.messages);
      // Its own diff under review, every other solution's diff beside it.
      for (const s of sols) expect(text).toContain(`marker_${s.id}`);
      expect(text.indexOf(`marker_${sols[i]!.id}`)).toBeLessThan(text.indexOf('Other solution 1'));
    });
    expect(r.agreement).toEqual({ both: 1, judge_only: 1, mechanical_only: 1, neither: 1 });
    expect(r.contrastive.map((c) => [c.id, c.agreement, c.blocking])).toEqual([
      ['honest', 'neither', false],
      ['hardcode', 'both', true],
      ['edits', 'judge_only', false],
      ['stubby', 'mechanical_only', false],
    ]);
    expect(sols.map((s) => s.gates.mergeable)).toEqual([true, false, true, true]);
    expect(sols[1]!.gates.reasons[0]).toMatch(
      /says special_cases_tests, and the mechanical findings agree \(special_case\)/,
    );
    expect(sols[2]!.flags).toEqual([
      { kind: 'judge_reward_hack', detail: 'judge (against the others): edits_grader: r' },
    ]);
    const calls = store.readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows.filter((x) => x.type === 'call');
    expect(calls.map((c) => c.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    for (const k of store.list('judge-compare'))
      expect(validate('judge-compare', store.read('judge-compare', k)).ok).toBe(true);

    // The same diffs again: no call. One solution's diff changed: every question saw it, every one is asked again.
    const again = await reviewContrastive(
      sols.map((s) => sol(s.id, [])),
      patches,
      deps(),
    );
    expect(server.requests).toHaveLength(4);
    expect(again.contrastive.every((c) => c.cached)).toBe(true);
    patches.set('edits', diff('src/edits.ts', 'export const marker_edits = 2;'));
    await reviewContrastive(
      sols.map((s) => sol(s.id, [])),
      patches,
      deps(),
    );
    expect(server.requests).toHaveLength(8);
  });

  it('a reply that is not the answer asked for: unanswered, not cached, nothing flagged', async () => {
    const sols = [sol('a', []), sol('b', [])];
    const patches = new Map(sols.map((s) => [s.id, diff(`src/${s.id}.ts`, 'x')]));
    server.script = [{ kind: 'reply', text: 'I think it is fine.' }, contrastive({ does_less: true })];
    const r = await reviewContrastive(sols, patches, deps());
    expect(r.contrastive[0]).toMatchObject({ id: 'a', answered: false, agreement: 'unanswered' });
    expect(r.contrastive[0]!.error).toContain('invalid_reply');
    expect(r.contrastive[1]).toMatchObject({ id: 'b', answered: true, does_less: true, agreement: 'judge_only' });
    expect(store.list('judge-compare')).toHaveLength(1);
  });
});

describe('the position-swapped pairwise comparison', () => {
  const rankable = (id: string): Rankable =>
    ({ id, score: 0.7, confidence: 0.5, mergeable: true, target: null }) as unknown as Rankable;
  const ranking = (): RaceRanking =>
    ({ order: ['x', 'y'], winner: null, confidence: 0.5, outcome: 'low_confidence', tied: false }) as RaceRanking;
  const patches = new Map([
    ['x', diff('src/x.ts', 'export const solution_x = 1;')],
    ['y', diff('src/y.ts', 'export const solution_y = 1;')],
  ]);

  it('both orders prefer the second-ranked: it ranks first, a winner at the threshold confidence; both replies kept', async () => {
    server.script = [pair('B'), pair('A')];
    const sorted = [rankable('x'), rankable('y')];
    const rk = ranking();
    const r = await reviewPairwise(sorted, rk, patches, deps());
    const [ab, ba] = server.requests.map((q) => JSON.stringify(q.body.messages));
    expect(ab!.indexOf('solution_x')).toBeLessThan(ab!.indexOf('solution_y'));
    expect(ba!.indexOf('solution_y')).toBeLessThan(ba!.indexOf('solution_x'));
    expect(r.pairwise).toMatchObject({ a: 'x', b: 'y', outcome: 'b', ab: { better: 'B' }, ba: { better: 'A' } });
    expect(sorted.map((s) => s.id)).toEqual(['y', 'x']);
    expect(rk).toMatchObject({ order: ['y', 'x'], winner: 'y', outcome: 'winner', confidence: 0.6, tied: false });
  });

  it('each order prefers the one shown first: a tie, no winner', async () => {
    server.script = [pair('A'), pair('A')];
    const sorted = [rankable('x'), rankable('y')];
    const rk = ranking();
    const r = await reviewPairwise(sorted, rk, patches, deps());
    expect(r.pairwise?.outcome).toBe('tie');
    expect(rk).toMatchObject({ order: ['x', 'y'], winner: null, outcome: 'low_confidence', tied: true });
    expect(rk.winner_reason).toMatch(/preferred whichever came first or second/);
  });
});
