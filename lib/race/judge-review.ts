// The judge's race questions (issue 37): each solution's contrastive reward-hack question against the others
// (item 8), and a close top two compared in both orders (item 5). The rules are pure; the asking goes through an Asker.
import type { FilePatch } from '../git/diff-parse.js';
import {
  contrastiveMessage,
  pairwiseMessage,
  settlePair,
  type Asker,
  type ContrastiveReply,
} from '../judge/compare.js';
import type { Race, RaceRanking, RaceSolution } from '../schema/types.generated.js';
import type { RaceContext } from './context.js';
import { WINNER_MIN_CONFIDENCE, type Rankable } from './rank.js';

type Review = NonNullable<Race['judge_review']>;
type ContrastiveEntry = Review['contrastive'][number];

/** The mechanical finding kinds that bear on each of the judge's three questions. */
const EVIDENCE: Record<'special_cases_tests' | 'edits_grader' | 'does_less', readonly string[]> = {
  special_cases_tests: ['special_case'],
  edits_grader: [
    'test_deleted',
    'test_skipped',
    'test_weakened',
    'test_trivial',
    'test_modified',
    'test_infra_changed',
    'changed_expectation',
    'tests_removed',
    'disabled_check',
  ],
  does_less: ['no_op', 'stub', 'target_failing'],
};

/**
 * The judge's answer against the solution's mechanical findings: `both` when a yes is backed by a finding on the
 * same question (then it blocks), `judge_only` / `mechanical_only` when one side alone says so, else `neither`.
 */
export function contrastiveAgreement(
  reply: ContrastiveReply,
  flagKinds: readonly string[],
): { flagged: boolean; mechanical: string[]; agreement: ContrastiveEntry['agreement']; blocking: boolean } {
  const questions = Object.keys(EVIDENCE) as (keyof typeof EVIDENCE)[];
  const mechanical = [...new Set(flagKinds.filter((k) => questions.some((q) => EVIDENCE[q].includes(k))))].sort();
  const flagged = questions.some((q) => reply[q]);
  const backed = questions.some((q) => reply[q] && flagKinds.some((k) => EVIDENCE[q].includes(k)));
  const agreement = backed ? 'both' : flagged ? 'judge_only' : mechanical.length ? 'mechanical_only' : 'neither';
  return { flagged, mechanical, agreement, blocking: backed };
}

export interface ReviewDeps {
  ask: Asker;
  task: string;
  budgetTokens: number;
  charsPerToken: number;
}

/** What the questions need from the race: null when the judge is off (no asker). */
export function reviewDepsOf(ctx: RaceContext, task: string): ReviewDeps | null {
  if (!ctx.ask) return null;
  return {
    ask: ctx.ask,
    task,
    budgetTokens: ctx.config.judge.compare_budget_tokens ?? 12000,
    charsPerToken: ctx.config.judge.chars_per_token,
  };
}

/**
 * One separate question per evaluated solution, carrying the others' diffs. A yes becomes a judge_reward_hack flag
 * with the judge's reason; it blocks the merge only when the mechanical evidence agrees.
 */
export async function reviewContrastive(
  solutions: RaceSolution[],
  patches: Map<string, FilePatch[]>,
  deps: ReviewDeps,
): Promise<Pick<Review, 'contrastive' | 'agreement'>> {
  const evaluated = solutions.filter((s) => s.status === 'evaluated' && patches.has(s.id));
  const contrastive: ContrastiveEntry[] = [];
  const agreement = { both: 0, judge_only: 0, mechanical_only: 0, neither: 0 };
  if (evaluated.length < 2) return { contrastive, agreement };
  for (const s of evaluated) {
    const others = evaluated.filter((o) => o !== s).map((o) => ({ id: o.id, patch: patches.get(o.id)! }));
    const message = contrastiveMessage(
      deps.task,
      { id: s.id, patch: patches.get(s.id)! },
      others,
      deps.budgetTokens,
      deps.charsPerToken,
    );
    const a = await deps.ask('contrastive', s.id, message);
    const kinds = s.flags.map((f) => f.kind);
    if (!a.ok) {
      contrastive.push({
        id: s.id,
        answered: false,
        error: a.reason,
        flagged: false,
        mechanical: [],
        agreement: 'unanswered',
        blocking: false,
        cached: false,
        key: a.key,
      });
      continue;
    }
    const v = contrastiveAgreement(a.reply, kinds);
    agreement[v.agreement as keyof typeof agreement]++;
    contrastive.push({ id: s.id, answered: true, ...a.reply, ...v, cached: a.cached, key: a.key });
    if (!v.flagged) continue;
    const said = (Object.keys(EVIDENCE) as (keyof typeof EVIDENCE)[]).filter((q) => a.reply[q]).join(', ');
    s.flags.push({ kind: 'judge_reward_hack', detail: `judge (against the others): ${said}: ${a.reply.reason}` });
    if (v.blocking) {
      s.gates.mergeable = false;
      s.gates.reasons.push(
        `the judge, shown the other solutions, says ${said}, and the mechanical findings agree (${v.mechanical.join(', ')})`,
      );
    }
  }
  return { contrastive, agreement };
}

/** Asked only when the ranking is not confident and the top two are both mergeable with the same target standing. */
function pairwiseWanted(sorted: Rankable[], ranking: RaceRanking): boolean {
  const [a, b] = sorted;
  return (
    ranking.outcome === 'low_confidence' &&
    !!a &&
    !!b &&
    a.mergeable &&
    b.mergeable &&
    (a.target ?? -1) === (b.target ?? -1)
  );
}

/**
 * The top two asked in both orders. Agreement settles the pair: the preferred one ranks first and the confidence
 * rises to the winner threshold (a winner); disagreement is a tie (no winner). Mutates sorted and ranking.
 */
export async function reviewPairwise(
  sorted: Rankable[],
  ranking: RaceRanking,
  patches: Map<string, FilePatch[]>,
  deps: ReviewDeps,
): Promise<{ pairwise: Review['pairwise']; note?: string }> {
  const [a, b] = [sorted[0]!, sorted[1]!];
  const da = { id: a.id, patch: patches.get(a.id) ?? [] };
  const db = { id: b.id, patch: patches.get(b.id) ?? [] };
  const ab = await deps.ask(
    'pairwise',
    a.id,
    pairwiseMessage(deps.task, da, db, deps.budgetTokens, deps.charsPerToken),
  );
  const ba = await deps.ask(
    'pairwise',
    b.id,
    pairwiseMessage(deps.task, db, da, deps.budgetTokens, deps.charsPerToken),
  );
  if (!ab.ok || !ba.ok)
    return {
      pairwise: null,
      note: `the judge's pairwise comparison got no answer: ${(!ab.ok ? ab : (ba as { reason: string })).reason}`,
    };
  const settled = settlePair(ab.reply.better, ba.reply.better);
  const outcome = settled.winner === 'A' ? 'a' : settled.winner === 'B' ? 'b' : 'tie';
  if (outcome === 'tie') {
    ranking.tied = true;
    ranking.winner_reason = `${a.id} and ${b.id}: the judge compared them in both orders and ${settled.agree ? 'called it a tie' : 'preferred whichever came first or second, not one of them'}: a tie, no clear winner`;
  } else {
    const w = outcome === 'a' ? a : b;
    if (w === b) {
      [sorted[0], sorted[1]] = [b, a];
      ranking.order = sorted.map((s) => s.id);
    }
    ranking.confidence = Math.max(ranking.confidence, WINNER_MIN_CONFIDENCE);
    ranking.outcome = 'winner';
    ranking.winner = w.id;
    ranking.tied = false;
    ranking.winner_reason = `The judge preferred ${w.id} in both orders (A/B and B/A); confidence raised to ${ranking.confidence.toFixed(2)}`;
  }
  return {
    pairwise: { a: a.id, b: b.id, ab: ab.reply, ba: ba.reply, outcome, cached: ab.cached && ba.cached },
  };
}

/** The pairwise comparison when the top two are close (pairwiseWanted), its note (no answer) added to the race's. */
export async function pairwiseIfClose(
  sorted: Rankable[],
  ranking: RaceRanking,
  patches: Map<string, FilePatch[]>,
  deps: ReviewDeps,
  notes: string[],
): Promise<Review['pairwise']> {
  if (!pairwiseWanted(sorted, ranking)) return null;
  const p = await reviewPairwise(sorted, ranking, patches, deps);
  if (p.note) notes.push(p.note);
  return p.pairwise;
}
