// Rating a run from what is stored (its judgment, else the judgment merged into feedback): bin/rate, and
// --rate-agents of bin/judge and bin/race.
import type { Config } from '../config/config.js';
import { errorMessage } from '../base/errors.js';
import { readStoredJudgment } from '../store/judgment.js';
import { judgeQuality, rateBead, readFeedback, type QualityInput, type RateResult } from './rate-run.js';
import type { StateStore } from '../store/store.js';

/** The judge's quality: state/judgments/<bead>.json, else the judgment merged into feedback (0-1 × 10). */
export function storedQuality(store: StateStore, bead: string, warn: (msg: string) => void): QualityInput | null {
  const { judgment: j, note } = readStoredJudgment(store, bead);
  if (note) warn(note);
  if (j && j.status === 'judged' && j.score !== null)
    return { score0to10: j.score * 10, source: 'judge', raw: j, reviewer: j.model };
  return judgeQuality(readFeedback(store, bead));
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
        ? ` capped from ${s.reviewed_quality.toFixed(1)} (checks ${s.qa_status})`
        : '';
    return `${r.bead}: rated ${r.agent}: quality ${s.quality_score.toFixed(1)}${capped} (${s.quality_source}), run score ${s.run_score.toFixed(2)}, rating ${s.rating_before === null ? '—' : s.rating_before.toFixed(2)} → ${s.rating_after.toFixed(2)} (n=${s.rating_samples})${cx}`;
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
  opts: { reviewer?: string | undefined; strict: boolean },
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
