// Rating one run (seed 002 §5-§7): under the agent's lock, append its row, rewrite the profile (a replay of the
// log) and write the job's rating summary; rating the same bead again changes nothing.
import { readFeedback as readFeedbackFile } from '../store/feedback-read.js';
import { staleness } from '../evidence/currency.js';
import { UserError, WorkError } from '../base/errors.js';
import type { StateStore } from '../store/store.js';
import type { AgentRunRow, Config, Feedback, RatingSummary } from '../schema/types.generated.js';
import { resolveBudget, type BudgetSample } from './budgets.js';
import { emaAlpha } from './ema.js';
import { applyRun, ratingStateOf, type FoldState, type Registration } from './profile.js';
import { computeRunScore, computeTotalCost } from './score.js';
import { cappedQuality, qaVerdict, scoreCeiling } from './qa.js';
import {
  appendRow,
  loadAgent,
  lockName,
  RATING_VERSION,
  ratingsConfig,
  readLog,
  rel,
  writeProfile,
  type LoadedAgent,
  type RatingsConfig,
} from './agent-log.js';

export interface QualityInput {
  /** Quality, 0-10 (a judge's 0-1 score × 10). */
  score0to10: number;
  source: 'judge' | 'reviewer';
  /** The review as given, kept in the row as raw_review. */
  raw: unknown;
  /** Who reviewed (judge model or reviewer slug). */
  reviewer?: string | null;
}

export interface RateOptions {
  store: StateStore;
  config: Config;
  bead: string;
  quality: QualityInput | null;
  /** Missing quality or complexity is an error (exit 1) instead of "not rated". */
  strict?: boolean;
  /** The task complexity (1-10) for a run recorded without one (bin/rate --complexity); the run's own wins. */
  complexity?: number | undefined;
  /** ISO 8601 time of the rating, or a clock read once the agent's lock is held (so rows' times follow their order). */
  now: string | (() => string);
}

export interface RateResult {
  bead: string;
  status: 'rated' | 'already_rated' | 'skipped';
  agent: string | null;
  reason: string;
  summary: RatingSummary | null;
  /** Problems found and worked around (corrupt profile, half-written lines, stale profile). */
  problems: string[];
}

/** The penalties that cost points (seed 002 §6.2's terms), from a row: value, budget, weight and points 0-10. */
function penaltiesOf(row: AgentRunRow): NonNullable<RatingSummary['penalties']> {
  const dims = [
    ['cost', row.total_cost, 'cost_usd'],
    ['time', row.duration_seconds, 'duration_seconds'],
    ['iterations', row.iterations, 'iterations'],
  ] as const;
  const out: NonNullable<RatingSummary['penalties']> = [];
  for (const [dimension, value, budget] of dims) {
    const norm = row.norms[dimension];
    const weight = row.weights_used[dimension];
    if (value === null || norm === null || !(weight > 0) || !(norm > 0)) continue;
    out.push({
      dimension,
      value,
      budget: row.budget[budget],
      budget_source: row.budget.source[budget],
      weight,
      points: 10 * weight * norm,
    });
  }
  return out;
}

function ratingSummary(row: AgentRunRow, line: number, samples: number): RatingSummary {
  return {
    schema_version: '1.0.0',
    bead: row.bead,
    job_id: row.job_id,
    agent: row.agent,
    quality_score: row.quality_score,
    quality_source: row.quality_source,
    run_score: row.run_score,
    rating_before: row.before.rating,
    rating_after: row.after.rating!,
    reasoning_rating_before: row.before.reasoning_rating,
    reasoning_rating_after: row.after.reasoning_rating,
    rating_samples: samples,
    max_complexity_before: row.before.max_complexity,
    max_complexity_after: row.after.max_complexity,
    complexity_action: row.complexity_decision.action,
    complexity_reason: row.complexity_decision.reason,
    ...(row.qa ? { qa_status: row.qa.status, reviewed_quality: row.qa.reviewed_quality } : {}),
    ...(row.qa?.score_ceiling !== undefined ? { score_ceiling: row.qa.score_ceiling } : {}),
    complexity: row.complexity,
    ...(row.complexity_source ? { complexity_source: row.complexity_source } : {}),
    penalties: penaltiesOf(row),
    row: line,
    rated_at: row.created_at,
  };
}

/** Past rated runs of one command and complexity, over every agent's log (unreadable lines are skipped). */
function budgetHistory(
  store: StateStore,
  own: LoadedAgent,
  command: string | null,
  complexity: number,
): BudgetSample[] {
  const out: BudgetSample[] = [];
  for (const slug of store.list('ratings')) {
    const rows = slug === own.slug ? own.log.rows : readLog(store, slug).rows;
    for (const { row } of rows) {
      if (row.event === 'run' && row.command === command && row.complexity === complexity) out.push(row);
    }
  }
  return out;
}

/** The judge's quality for a bead when one is stored: the judgment carried in the feedback record (0-1 → 0-10). */
export function judgeQuality(feedback: Feedback): QualityInput | null {
  const j = feedback.judgment;
  if (!j) return null;
  return { score0to10: j.score * 10, source: 'judge', raw: j, reviewer: j.model ?? null };
}

export function readFeedback(store: StateStore, bead: string): Feedback {
  const r = readFeedbackFile(store, bead);
  if (r.status === 'corrupt') throw new UserError(r.error.message);
  if (r.status === 'missing')
    throw new UserError(`${rel(store, r.file)}: no feedback record for bead ${bead} (run judgeloop collect first)`);
  // Rating stale feedback would credit the agent and template the run record no longer names.
  const stale = staleness(r.feedback);
  if (stale) throw new UserError(stale);
  return r.feedback;
}

function notRated(bead: string, agent: string | null, reason: string, strict: boolean | undefined): RateResult {
  if (strict) throw new WorkError(`${bead}: not rated: ${reason} (--rating-strict)`);
  return { bead, status: 'skipped', agent, reason, summary: null, problems: [] };
}

/** What rateBead checked before taking the lock: the feedback record, its run, and the quality used. */
interface Checked {
  fb: Feedback;
  run: Feedback['run'];
  slug: string;
  complexity: number;
  complexitySource: 'run' | 'rate_flag';
  quality: QualityInput;
  qa: ReturnType<typeof qaVerdict>;
  used: number;
  durationSeconds: number;
}

/** Rates one agent run (seed 002 §5-§7); rating the same bead again changes nothing. */
export async function rateBead(opts: RateOptions): Promise<RateResult> {
  const { store, bead } = opts;
  const rc = ratingsConfig(opts.config);
  const checked = checkRun(opts, rc);
  if ('status' in checked) return checked;
  const { slug } = checked;
  return store.withLock(lockName(slug), () => {
    const now = typeof opts.now === 'function' ? opts.now() : opts.now;
    const a = loadAgent(store, slug, rc, now);
    const again = alreadyRated(store, a, bead, checked.quality);
    if (again) return again;
    let reg = a.registration;
    if (!reg) {
      // A run names its agent; the name alone does not make it routable (issue 17: one run at 9.5 won 42 of 50 routes).
      reg = { slug, enabled: false, commands: [], cost_per_million: null, best_usage: null, registered_at: now };
      a.problems.push(
        `agent ${slug} was not registered: added DISABLED for routing (rated, never routed) with max_complexity ${rc.default_max_complexity} and no price; enable it with judgeloop agents enable ${slug} (price: judgeloop agents set ${slug} --cost-per-million USD)`,
      );
    }
    const { row, state } = runRow(store, rc, a, reg, checked, bead, now);
    const line = appendRow(store, slug, a.log, row);
    writeProfile(store, a, reg, state, now);
    const summary = ratingSummary(row, line, state.rating_samples);
    store.write('rating-jobs', bead, summary);
    const { used, quality, qa } = checked;
    if (opts.complexity !== undefined && checked.complexitySource === 'run' && checked.complexity !== opts.complexity)
      a.problems.push(
        `${bead}: the run record's complexity ${checked.complexity} is used; --complexity ${opts.complexity} applies only to runs recorded without one`,
      );
    return {
      bead,
      status: 'rated',
      agent: slug,
      reason: `run score ${row.run_score.toFixed(2)}${used < quality.score0to10 ? ` (quality ${quality.score0to10} capped at ${used}: ${qa.status}, ${qa.reason})` : ''}`,
      summary,
      problems: a.problems,
    } satisfies RateResult;
  });
}

/** The checks before any lock: a run that cannot be rated comes back as its RateResult (or an error). */
function checkRun(opts: RateOptions, rc: RatingsConfig): Checked | RateResult {
  const { store, bead, quality } = opts;
  const fb = readFeedback(store, bead);
  const run = fb.run;
  const slug = run.agent;
  if (fb.outcome === 'infra_failure' || run.status === 'infra_failure') {
    return {
      bead,
      status: 'skipped',
      agent: slug,
      reason: 'infra failure: infrastructure failures are never rated',
      summary: null,
      problems: [],
    };
  }
  const complexity = run.complexity ?? opts.complexity;
  if (complexity === undefined)
    return notRated(
      bead,
      slug,
      'the run has no task complexity, so no budget bucket applies (give one: rate --complexity 1-10)',
      opts.strict,
    );
  if (quality === null)
    return notRated(bead, slug, 'no judgment and no reviewer quality: an unreviewed run is not rated', opts.strict);
  if (!(Number.isFinite(quality.score0to10) && quality.score0to10 >= 0 && quality.score0to10 <= 10)) {
    throw new UserError(`${bead}: quality must be a number from 0 to 10, got ${JSON.stringify(quality.score0to10)}`);
  }
  const started = Date.parse(run.started_at);
  const completed = Date.parse(run.completed_at);
  if (!(completed >= started)) {
    throw new UserError(
      `${bead}: run.completed_at ${run.completed_at} is before run.started_at ${run.started_at}: the duration would be negative (fix the run record; nothing was rated)`,
    );
  }
  const qa = qaVerdict(fb, rc.qa_caps);
  const used = cappedQuality(quality.score0to10, qa);
  return {
    fb,
    run,
    slug,
    complexity,
    complexitySource: run.complexity === undefined ? 'rate_flag' : 'run',
    quality,
    qa,
    used,
    durationSeconds: (completed - started) / 1000,
  };
}

/** The bead was rated before (its summary, or its row when the rating process died before the summary): say so. */
function alreadyRated(store: StateStore, a: LoadedAgent, bead: string, quality: QualityInput): RateResult | null {
  const done = store.read<RatingSummary>('rating-jobs', bead);
  const existing = a.log.rows.find((r) => r.row.event === 'run' && r.row.bead === bead);
  if (!done && !existing) return null;
  let summary = done;
  if (!summary && existing) {
    // The process that appended the row died before writing the summary: finish its work.
    const samples = a.log.rows.filter((r) => r.row.event === 'run' && r.line <= existing.line).length;
    summary = ratingSummary(existing.row as AgentRunRow, existing.line, samples);
    store.write('rating-jobs', bead, summary);
  }
  const same = summary && (summary.reviewed_quality ?? summary.quality_score) === quality.score0to10;
  return {
    bead,
    status: 'already_rated',
    agent: a.slug,
    summary,
    problems: a.problems,
    reason: `already rated at ${summary?.rated_at}${same ? '' : ` with quality ${summary?.quality_score}; quality ${quality.score0to10} ignored`}`,
  };
}

/** The run's row of the ratings log and the agent's state after it. */
function runRow(
  store: StateStore,
  rc: RatingsConfig,
  a: LoadedAgent,
  reg: Registration,
  c: Checked,
  bead: string,
  now: string,
): { row: AgentRunRow; state: FoldState } {
  const { run, slug, complexity, quality, qa, used } = c;
  const reasoning = run.discipline !== undefined && rc.reasoning_disciplines.includes(run.discipline);
  const command = run.command ?? null;
  const tokens = run.usage?.total_tokens ?? null;
  const cost = computeTotalCost(tokens, reg.cost_per_million, run.usage?.cost_usd ?? null);
  const iterations = run.iterations ?? null;
  const budget = resolveBudget(rc.budgets, command, complexity, budgetHistory(store, a, command, complexity));
  const scored = computeRunScore({
    quality: used,
    totalCost: cost.total_cost,
    durationSeconds: c.durationSeconds,
    iterations,
    budget,
    weights: rc.weights,
  });
  const params = { alpha: emaAlpha(rc.ema_n), ...rc.complexity, reasoning };
  // A run that fixes none of its targets never raises its agent's rating: its score is held at the rating before.
  const ceiling = scoreCeiling(qa, ratingStateOf(a.state), reasoning);
  const runScore = ceiling === null ? scored.score : Math.min(scored.score, ceiling);
  const facts = { bead, run_score: runScore, quality_score: used, complexity, created_at: now, params };
  const { state, decision } = applyRun(a.state, facts);
  const row: AgentRunRow = {
    schema_version: '1.0.0',
    event: 'run',
    bead,
    agent: slug,
    job_id: run.job_id ?? null,
    task_id: run.task_id,
    command,
    discipline: run.discipline ?? null,
    complexity,
    ...(c.complexitySource === 'rate_flag' ? { complexity_source: c.complexitySource } : {}),
    quality_score: used,
    quality_source: quality.source,
    qa: {
      status: qa.status,
      cap: qa.cap,
      reviewed_quality: quality.score0to10,
      reason: qa.reason,
      ...(qa.fixesNothing ? { score_ceiling: ceiling, formula_score: scored.score } : {}),
    },
    reviewer: quality.reviewer ?? null,
    raw_review: quality.raw ?? null,
    tokens_total: tokens,
    duration_seconds: c.durationSeconds,
    iterations,
    total_cost: cost.total_cost,
    cost_source: cost.source,
    cost_per_million: reg.cost_per_million,
    budget: {
      cost_usd: budget.cost_usd,
      duration_seconds: budget.duration_seconds,
      iterations: budget.iterations,
      source: budget.source,
      samples: budget.samples,
    },
    norms: scored.norms,
    weights_used: scored.weights_used,
    run_score: runScore,
    rating_version: RATING_VERSION,
    params,
    before: ratingStateOf(a.state),
    after: ratingStateOf(state),
    complexity_decision: { action: decision.action, reason: decision.reason },
    created_at: now,
  };
  return { row, state };
}
