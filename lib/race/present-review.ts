// The judge's race questions in the race's text and markdown (issue 37, items 5 and 8): each contrastive answer
// beside the mechanical findings, and the position-swapped pairwise result (pure).
import type { Race } from '../schema/types.generated.js';

type Review = NonNullable<Race['judge_review']>;
type Entry = Review['contrastive'][number];
type Pair = NonNullable<Review['pairwise']>;

const QUESTIONS = [
  ['special_cases_tests', 'special-cases the tests'],
  ['edits_grader', 'edits what grades it'],
  ['does_less', 'does less than the others'],
] as const;

const AGREEMENT: Record<Entry['agreement'], string> = {
  both: 'a mechanical finding agrees: blocking',
  judge_only: 'no mechanical finding agrees: not blocking',
  mechanical_only: 'the judge did not confirm the mechanical finding',
  neither: 'clean by both',
  unanswered: 'no answer',
};

/** A reply's reason on one line, cut at `max` characters. */
export function shortReason(reason: string, max = 160): string {
  const flat = reason.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

function entryLine(e: Entry): string {
  if (!e.answered) return `${e.id}: no answer (${e.error ?? 'unknown'})`;
  const yes = QUESTIONS.filter(([k]) => e[k] === true).map(([, text]) => text);
  const said = yes.length ? `flagged: ${yes.join(', ')}` : 'not flagged';
  const mech = e.mechanical.length ? ` [${e.mechanical.join(', ')}]` : '';
  const reason = e.reason ? ` — "${shortReason(e.reason)}"` : '';
  return `${e.id}: ${said}; ${AGREEMENT[e.agreement]}${mech}${e.cached ? ' (cached)' : ''}${reason}`;
}

function pairLine(p: Pair): string {
  const pick = (better: 'A' | 'B' | 'tie', first: string, second: string) =>
    better === 'tie' ? 'tie' : better === 'A' ? first : second;
  const ab = `${p.a} shown first → ${pick(p.ab.better, p.a, p.b)} ("${shortReason(p.ab.reason, 100)}")`;
  const ba = `${p.b} shown first → ${pick(p.ba.better, p.b, p.a)} ("${shortReason(p.ba.reason, 100)}")`;
  const outcome =
    p.outcome === 'tie' ? 'a tie (the orders disagree or both say tie)' : `${p.outcome === 'a' ? p.a : p.b} settled`;
  return `${p.a} vs ${p.b}: ${ab}; ${ba}: ${outcome}${p.cached ? ' (cached)' : ''}`;
}

/** The review's lines (no indentation, no bullets); [] when the race has none. */
export function judgeReviewLines(review: Race['judge_review']): string[] {
  if (!review) return [];
  const out: string[] = [];
  if (review.contrastive.length) {
    out.push("Judge's reward-hack question (each solution against the others' diffs):");
    for (const e of review.contrastive) out.push(`  ${entryLine(e)}`);
    const a = review.agreement;
    out.push(
      `  Agreement with the mechanical findings: both ${a.both}, judge only ${a.judge_only}, mechanical only ${a.mechanical_only}, neither ${a.neither}.`,
    );
  }
  if (review.pairwise) out.push(`Judge's pairwise comparison, both orders: ${pairLine(review.pairwise)}`);
  return out;
}
