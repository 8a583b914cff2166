// Rating a run from what is stored (its judgment, else the judgment merged into feedback): bin/rate, and
// --rate-agents of bin/judge and bin/race.
import type { Config } from '../config/config.js';
import { errorMessage } from '../base/errors.js';
import { readStoredJudgment } from '../store/judgment.js';
import { judgeQuality, rateBead, readFeedback, type QualityInput, type RateResult } from './rate-run.js';
import type { StateStore } from '../store/store.js';
import type { RatingSummary } from '../schema/types.generated.js';

/** The judge's quality: state/judgments/<bead>.json, else the judgment merged into feedback (0-1 × 10). */
export function storedQuality(store: StateStore, bead: string, warn: (msg: string) => void): QualityInput | null {
  const { judgment: j, note } = readStoredJudgment(store, bead);
  if (note) warn(note);
  if (j && j.status === 'judged' && j.score !== null)
    return { score0to10: j.score * 10, source: 'judge', raw: j, reviewer: j.model };
  return judgeQuality(readFeedback(store, bead));
}

/** 95 s, 25 min, 2.5 h. */
function duration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

type Penalty = NonNullable<RatingSummary['penalties']>[number];
const AMOUNT: Record<Penalty['dimension'], (x: number) => string> = {
  cost: (x) => `$${x.toFixed(2)}`,
  time: duration,
  iterations: (x) => `${x} retr${x === 1 ? 'y' : 'ies'}`,
};

/**
 * "time penalty 4.50: 2.0 h against a 30 min budget, complexity 5": each penalty that cost at least a hundredth of
 * a point, and the complexity whose budget it was (saying when --complexity gave it); '' when none.
 */
export function penaltyText(s: Pick<RatingSummary, 'penalties' | 'complexity' | 'complexity_source'>): string {
  const shown = (s.penalties ?? []).filter((p) => p.points >= 0.005);
  const cx =
    s.complexity === undefined
      ? ''
      : `complexity ${s.complexity}${s.complexity_source === 'rate_flag' ? ' from --complexity' : ''}`;
  const text = shown
    .map(
      (p) =>
        `${p.dimension} penalty ${p.points.toFixed(2)}: ${AMOUNT[p.dimension](p.value)} against a ${AMOUNT[p.dimension](p.budget)} budget${p.budget_source === 'empirical' ? ' (2 × the median)' : ''}`,
    )
    .join('; ');
  return text && cx ? `${text}, ${cx}` : text || (s.complexity_source === 'rate_flag' ? cx : '');
}

export function describe(r: RateResult): string {
  const s = r.summary;
  if (r.status === 'rated' && s) {
    const cx =
      s.max_complexity_after !== s.max_complexity_before
        ? `, max_complexity ${s.max_complexity_before} → ${s.max_complexity_after} (${s.complexity_action})`
        : '';
    const capped =
      s.reviewed_quality !== undefined && s.reviewed_quality !== s.quality_score
        ? ` capped from ${s.reviewed_quality.toFixed(1)} (${s.qa_status === 'no_op' ? 'a no-op: the change does nothing' : s.qa_status === 'unfixed' ? 'fixes none of its target tests' : `checks ${s.qa_status}`})`
        : '';
    const penalties = penaltyText(s);
    const held =
      s.score_ceiling !== undefined && s.score_ceiling !== null && s.run_score >= s.score_ceiling - 1e-9
        ? ` held at the rating before (${s.score_ceiling.toFixed(2)}): a run that fixes none of its target tests never raises it`
        : '';
    return `${r.bead}: rated ${r.agent}: quality ${s.quality_score.toFixed(1)}${capped} (${s.quality_source}), run score ${s.run_score.toFixed(2)}${penalties ? ` (${penalties})` : ''}${held}, rating ${s.rating_before === null ? '—' : s.rating_before.toFixed(2)} → ${s.rating_after.toFixed(2)} (n=${s.rating_samples})${cx}`;
  }
  return `${r.bead}: ${r.status === 'already_rated' ? 'already rated' : 'not rated'}${r.agent ? ` (${r.agent})` : ''}: ${r.reason}`;
}

/**
 * --rate-agents (bin/judge, bin/race): rates a run's agent from its stored judgment; an unreviewed run is not
 * rated. Returns the exit code it asks for: 1 when `strict` and nothing could be rated, else 0.
 */
export async function rateFromStoredJudgment(
  io: { stderr: (text: string) => void },
  ctx: { store: StateStore; config: Config; now: () => string },
  bead: string,
  opts: { reviewer?: string | undefined; strict: boolean; complexity?: number | undefined },
): Promise<number> {
  if (!ctx.store.read('feedback', bead)) {
    io.stderr(`${bead}: not rated: no feedback record (the judge is disabled or deferred and nothing was collected)\n`);
    return opts.strict ? 1 : 0;
  }
  const quality = storedQuality(ctx.store, bead, (m) => io.stderr(`warning: ${m}\n`));
  if (quality && opts.reviewer) quality.reviewer = opts.reviewer;
  try {
    const r = await rateBead({
      store: ctx.store,
      config: ctx.config,
      bead,
      quality,
      strict: opts.strict,
      complexity: opts.complexity,
      now: ctx.now,
    });
    for (const p of r.problems) io.stderr(`warning: ${p}\n`);
    io.stderr(describe(r) + '\n');
    return 0;
  } catch (e) {
    if (!opts.strict) throw e;
    io.stderr(`${bead}: ${errorMessage(e)}\n`);
    return 1;
  }
}
