// bin/rate: rates agent runs from their feedback records (seed 002), with a reviewer's quality or the judge's.
import { main, type Io } from '../lib/cli/cli.js';
import type { Config } from '../lib/config/config.js';
import { errorMessage, UserError } from '../lib/cli/errors.js';
import { readStoredJudgment } from '../lib/store/judgment.js';
import { assertSafeId } from '../lib/store/bead.js';
import { parse, usage } from '../lib/cli/command.js';
import { RATE } from '../lib/cli/commands/rate.js';
import { openState, parseNumber } from '../lib/ratings/_cli.js';
import { nowIso } from '../lib/cli/clock.js';
import { judgeQuality, rateBead, readFeedback, type QualityInput, type RateResult } from '../lib/ratings/store-io.js';
import type { StateStore } from '../lib/store/store.js';


const USAGE = usage(RATE);

/** The judge's quality: state/judgments/<bead>.json, else the judgment merged into feedback (0-1 × 10). */
export function storedQuality(store: StateStore, bead: string, warn: (msg: string) => void): QualityInput | null {
  const { judgment: j, note } = readStoredJudgment(store, bead);
  if (note) warn(note);
  if (j && j.status === 'judged' && j.score !== null) return { score0to10: j.score * 10, source: 'judge', raw: j, reviewer: j.model };
  return judgeQuality(readFeedback(store, bead));
}

export function describe(r: RateResult): string {
  const s = r.summary;
  if (r.status === 'rated' && s) {
    const cx = s.max_complexity_after !== s.max_complexity_before ? `, max_complexity ${s.max_complexity_before} → ${s.max_complexity_after} (${s.complexity_action})` : '';
    const capped = s.reviewed_quality !== undefined && s.reviewed_quality !== s.quality_score ? ` capped from ${s.reviewed_quality.toFixed(1)} (checks ${s.qa_status})` : '';
    return `${r.bead}: rated ${r.agent}: quality ${s.quality_score.toFixed(1)}${capped} (${s.quality_source}), run score ${s.run_score.toFixed(2)}, rating ${s.rating_before === null ? '—' : s.rating_before.toFixed(2)} → ${s.rating_after.toFixed(2)} (n=${s.rating_samples})${cx}`;
  }
  return `${r.bead}: ${r.status === 'already_rated' ? 'already rated' : 'not rated'}${r.agent ? ` (${r.agent})` : ''}: ${r.reason}`;
}

/**
 * --rate-agents (bin/judge, bin/race): rates a run's agent from its stored judgment; an unreviewed run is not
 * rated. Returns the exit code it asks for: 1 when `strict` and nothing could be rated, else 0.
 */
export async function rateFromStoredJudgment(
  io: Io,
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
    const r = await rateBead({ store: ctx.store, config: ctx.config, bead, quality, strict: opts.strict, now: ctx.now });
    for (const p of r.problems) io.stderr(`warning: ${p}\n`);
    io.stderr(describe(r) + '\n');
    return 0;
  } catch (e) {
    if (!opts.strict) throw e;
    io.stderr(`${bead}: ${errorMessage(e)}\n`);
    return 1;
  }
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(RATE, argv);
  if (positionals.length === 0) throw new UserError(`no bead given\n${USAGE}`);
  positionals.forEach((b) => assertSafeId(b));
  const q = parseNumber('quality', values.quality, 0, 10);
  const { store, config } = openState(io, values.config);
  const results: RateResult[] = [];
  for (const bead of positionals) {
    const quality: QualityInput | null =
      q !== undefined ? { score0to10: q, source: 'reviewer', raw: { quality_score: q }, reviewer: values.reviewer ?? null } : storedQuality(store, bead, (m) => io.stderr(`warning: ${m}\n`));
    const r = await rateBead({ store, config, bead, quality, strict: values.strict || values['rating-strict'], now: () => nowIso(io.env) });
    for (const p of r.problems) io.stderr(`warning: ${p}\n`);
    io.stderr(describe(r) + '\n');
    results.push(r);
  }
  if (values.json) io.stdout(JSON.stringify(results, null, 2) + '\n');
  return 0;
}

main(import.meta.url, run);
