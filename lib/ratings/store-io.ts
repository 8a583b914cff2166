// The thin IO of ratings: reads feedback, the ratings logs and profiles; under one lock per agent it appends
// the run's row, rewrites the profile (a replay of the log) and writes the job's rating summary.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { UserError, WorkError } from '../base/errors.js';
import { KINDS } from '../store/kinds.js';
import { writeFileAtomic } from '../store/state-write.js';
import { CorruptStateError, parseValidated, type StateStore } from '../store/store.js';
import type { AgentProfile, AgentRatingState, AgentRunRating, AgentRunRow, Config, Feedback, RatingSummary, RoutingDecision } from '../schema/types.generated.js';
import { resolveBudget, type BudgetSample } from './budgets.js';
import { emaAlpha } from './ema.js';
import { applyAdjust, applyRun, assembleProfile, initialFromRows, ratingStateOf, registrationOf, replay, startFold, type FoldState, type Registration } from './profile.js';
import { computeRunScore, computeTotalCost } from './score.js';
import { cappedQuality, qaVerdict } from './qa.js';

export const RATING_VERSION = 'seed002-1';

export type RatingsConfig = NonNullable<Config['ratings']>;

export function ratingsConfig(cfg: Config): RatingsConfig {
  if (!cfg.ratings) throw new UserError('configuration: /ratings: is required (see config/defaults.json)');
  return cfg.ratings;
}

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

const rel = (store: StateStore, file: string): string => `state/${relative(store.root, file)}`;

export interface LogRead {
  rows: { row: AgentRunRating; line: number }[];
  bad: { line: number; problems: string[] }[];
  /** Lines in the file, counting bad ones; the next row is line `lines + 1`. */
  lines: number;
  text: string;
}

/** The agent's ratings log: valid rows with their line numbers, and the lines that are not (reported, skipped). */
export function readLog(store: StateStore, slug: string): LogRead {
  const file = store.path('ratings', slug);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const rows: LogRead['rows'] = [];
  const bad: LogRead['bad'] = [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  parts.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push({ row: parseValidated<AgentRunRating>(file, line, KINDS.ratings.schema), line: i + 1 });
    } catch (e) {
      if (!(e instanceof CorruptStateError)) throw e;
      bad.push({ line: i + 1, problems: e.problems });
    }
  });
  return { rows, bad, lines: parts.length, text };
}

export interface LoadedAgent {
  slug: string;
  /** Null when neither a profile nor a log exists. */
  registration: Registration | null;
  initial: AgentRatingState;
  state: FoldState;
  log: LogRead;
  /** The profile file as read, when it was valid. */
  stored: AgentProfile | null;
  /** The profile file exists but is corrupt. */
  corruptProfile: boolean;
  problems: string[];
}

/** What can be salvaged from a corrupt profile's registration (wrong types are dropped). */
function salvageRegistration(file: string, slug: string, log: LogRead, now: string): Registration {
  let raw: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>;
  } catch {
    // Not even JSON: nothing to salvage; the log's rows still give the price they used.
  }
  const lastRun = [...log.rows].reverse().find((r) => r.row.event === 'run')?.row as AgentRunRow | undefined;
  const num = (v: unknown) => (typeof v === 'number' && v >= 0 ? v : null);
  return {
    slug,
    // Enabled only when the damaged profile still says so: routing is never switched on by a repair.
    enabled: typeof raw.enabled === 'boolean' ? raw.enabled : false,
    commands: Array.isArray(raw.commands) && raw.commands.every((c) => typeof c === 'string') ? (raw.commands as string[]) : [],
    cost_per_million: num(raw.cost_per_million) ?? lastRun?.cost_per_million ?? null,
    best_usage: typeof raw.best_usage === 'string' ? raw.best_usage : null,
    registered_at: typeof raw.registered_at === 'string' && !Number.isNaN(Date.parse(raw.registered_at)) ? raw.registered_at : (log.rows[0]?.row.created_at ?? now),
  };
}

/** Loads an agent as the log says it is: the profile's registration and initial state, replayed over the log. */
export function loadAgent(store: StateStore, slug: string, rc: RatingsConfig, now: string): LoadedAgent {
  const problems: string[] = [];
  const log = readLog(store, slug);
  const logName = rel(store, store.path('ratings', slug));
  for (const b of log.bad) problems.push(`${logName} line ${b.line}: unreadable row skipped (${b.problems.join('; ')}); the other rows are used`);
  let stored: AgentProfile | null = null;
  let corruptProfile = false;
  let registration: Registration | null = null;
  const profileFile = store.path('agents', slug);
  try {
    stored = store.read<AgentProfile>('agents', slug);
    if (stored && stored.slug !== slug) throw new CorruptStateError(profileFile, [`/slug: is ${JSON.stringify(stored.slug)}, expected ${JSON.stringify(slug)}`]);
    if (stored) registration = registrationOf(stored);
  } catch (e) {
    if (!(e instanceof CorruptStateError)) throw e;
    stored = null;
    corruptProfile = true;
    problems.push(`${rel(store, profileFile)} is corrupt (${e.problems.join('; ')}); its rating fields are rebuilt from ${logName}`);
    registration = salvageRegistration(profileFile, slug, log, now);
  }
  if (!registration && log.rows.length > 0) {
    registration = salvageRegistration(profileFile, slug, log, now);
    problems.push(`${rel(store, profileFile)} is missing; rebuilt from ${logName}${registration.enabled ? '' : ` (disabled for routing until bin/agents enable ${slug})`}`);
  }
  const initial = stored?.initial ?? initialFromRows(log.rows.map((r) => r.row), rc.default_max_complexity);
  const { state, mismatches } = replay(initial, log.rows);
  for (const m of mismatches) problems.push(`${logName} ${m}`);
  if (stored && stored.rating_samples !== state.rating_samples) {
    problems.push(`${rel(store, profileFile)} rests on ${stored.rating_samples} rated run(s) but the log has ${state.rating_samples}; the replay is used`);
  }
  return { slug, registration, initial, state, log, stored, corruptProfile, problems };
}

/** Writes the profile the log implies; a corrupt profile is first copied aside so nothing is lost. */
function writeProfile(store: StateStore, a: LoadedAgent, reg: Registration, state: FoldState, now: string): AgentProfile {
  if (a.corruptProfile) {
    const file = store.path('agents', a.slug);
    const aside = `${file}.corrupt-${now.replace(/[:.]/g, '-')}`;
    writeFileAtomic(aside, readFileSync(file), store.atomic());
    a.problems.push(`the corrupt profile was kept as ${rel(store, aside)}`);
  }
  const profile = assembleProfile(reg, a.initial, state, now);
  store.write('agents', a.slug, profile);
  return profile;
}

/** Appends one row (the store closes a half-written last line first); returns its line number. */
function appendRow(store: StateStore, slug: string, log: LogRead, row: AgentRunRating): number {
  store.appendLine('ratings', slug, row);
  return log.lines + 1;
}

const lockName = (slug: string) => `ratings-${slug}`;

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
    row: line,
    rated_at: row.created_at,
  };
}

/** Past rated runs of one command and complexity, over every agent's log (unreadable lines are skipped). */
function budgetHistory(store: StateStore, own: LoadedAgent, command: string | null, complexity: number): BudgetSample[] {
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
  let fb: Feedback | null;
  try {
    fb = store.read<Feedback>('feedback', bead);
  } catch (e) {
    if (e instanceof CorruptStateError) throw new UserError(e.message);
    throw e;
  }
  if (!fb) throw new UserError(`${rel(store, store.path('feedback', bead))}: no feedback record for bead ${bead} (run bin/collect first)`);
  return fb;
}

function notRated(bead: string, agent: string | null, reason: string, strict: boolean | undefined): RateResult {
  if (strict) throw new WorkError(`${bead}: not rated: ${reason} (--rating-strict)`);
  return { bead, status: 'skipped', agent, reason, summary: null, problems: [] };
}

/** Rates one agent run (seed 002 §5-§7); rating the same bead again changes nothing. */
export async function rateBead(opts: RateOptions): Promise<RateResult> {
  const { store, bead, quality } = opts;
  const rc = ratingsConfig(opts.config);
  const fb = readFeedback(store, bead);
  const run = fb.run;
  const slug = run.agent;
  if (fb.outcome === 'infra_failure' || run.status === 'infra_failure') {
    return { bead, status: 'skipped', agent: slug, reason: 'infra failure: infrastructure failures are never rated', summary: null, problems: [] };
  }
  if (run.complexity === undefined) return notRated(bead, slug, 'the run has no task complexity, so no budget bucket applies', opts.strict);
  if (quality === null) return notRated(bead, slug, 'no judgment and no reviewer quality: an unreviewed run is not rated', opts.strict);
  if (!(Number.isFinite(quality.score0to10) && quality.score0to10 >= 0 && quality.score0to10 <= 10)) {
    throw new UserError(`${bead}: quality must be a number from 0 to 10, got ${JSON.stringify(quality.score0to10)}`);
  }
  const complexity = run.complexity;
  const started = Date.parse(run.started_at);
  const completed = Date.parse(run.completed_at);
  if (!(completed >= started)) {
    throw new UserError(`${bead}: run.completed_at ${run.completed_at} is before run.started_at ${run.started_at}: the duration would be negative (fix the run record; nothing was rated)`);
  }
  const qa = qaVerdict(fb, rc.qa_caps);
  const used = cappedQuality(quality.score0to10, qa);

  return store.withLock(lockName(slug), () => {
    const now = typeof opts.now === 'function' ? opts.now() : opts.now;
    const done = store.read<RatingSummary>('rating-jobs', bead);
    const a = loadAgent(store, slug, rc, now);
    const existing = a.log.rows.find((r) => r.row.event === 'run' && r.row.bead === bead);
    if (done || existing) {
      let summary = done;
      if (!summary && existing) {
        // The process that appended the row died before writing the summary: finish its work.
        const samples = a.log.rows.filter((r) => r.row.event === 'run' && r.line <= existing.line).length;
        summary = ratingSummary(existing.row as AgentRunRow, existing.line, samples);
        store.write('rating-jobs', bead, summary);
      }
      const same = summary && (summary.reviewed_quality ?? summary.quality_score) === quality.score0to10;
      return {
        bead, status: 'already_rated', agent: slug, summary, problems: a.problems,
        reason: `already rated at ${summary?.rated_at}${same ? '' : ` with quality ${summary?.quality_score}; quality ${quality.score0to10} ignored`}`,
      } satisfies RateResult;
    }
    let reg = a.registration;
    if (!reg) {
      // A run names its agent; the name alone does not make it routable (issue 17: one run at 9.5 won 42 of 50 routes).
      reg = { slug, enabled: false, commands: [], cost_per_million: null, best_usage: null, registered_at: now };
      a.problems.push(`agent ${slug} was not registered: added DISABLED for routing (rated, never routed) with max_complexity ${rc.default_max_complexity} and no price; enable it with bin/agents enable ${slug} (price: bin/agents set ${slug} --cost-per-million USD)`);
    }
    const command = run.command ?? null;
    const tokens = run.usage?.total_tokens ?? null;
    const cost = computeTotalCost(tokens, reg.cost_per_million, run.usage?.cost_usd ?? null);
    const duration = (completed - started) / 1000;
    const iterations = run.iterations ?? null;
    const budget = resolveBudget(rc.budgets, command, complexity, budgetHistory(store, a, command, complexity));
    const scored = computeRunScore({ quality: used, totalCost: cost.total_cost, durationSeconds: duration, iterations, budget, weights: rc.weights });
    const params = {
      alpha: emaAlpha(rc.ema_n),
      ...rc.complexity,
      reasoning: run.discipline !== undefined && rc.reasoning_disciplines.includes(run.discipline),
    };
    const facts = { bead, run_score: scored.score, quality_score: used, complexity, created_at: now, params };
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
      quality_score: used,
      quality_source: quality.source,
      qa: { status: qa.status, cap: qa.cap, reviewed_quality: quality.score0to10, reason: qa.reason },
      reviewer: quality.reviewer ?? null,
      raw_review: quality.raw ?? null,
      tokens_total: tokens,
      duration_seconds: duration,
      iterations,
      total_cost: cost.total_cost,
      cost_source: cost.source,
      cost_per_million: reg.cost_per_million,
      budget: { cost_usd: budget.cost_usd, duration_seconds: budget.duration_seconds, iterations: budget.iterations, source: budget.source, samples: budget.samples },
      norms: scored.norms,
      weights_used: scored.weights_used,
      run_score: scored.score,
      rating_version: RATING_VERSION,
      params,
      before: ratingStateOf(a.state),
      after: ratingStateOf(state),
      complexity_decision: { action: decision.action, reason: decision.reason },
      created_at: now,
    };
    const line = appendRow(store, slug, a.log, row);
    writeProfile(store, a, reg, state, now);
    const summary = ratingSummary(row, line, state.rating_samples);
    store.write('rating-jobs', bead, summary);
    return { bead, status: 'rated', agent: slug, reason: `run score ${scored.score.toFixed(2)}${used < quality.score0to10 ? ` (quality ${quality.score0to10} capped at ${used}: ${qa.status}, ${qa.reason})` : ''}`, summary, problems: a.problems } satisfies RateResult;
  });
}

export interface AgentFields {
  enabled?: boolean;
  commands?: string[];
  cost_per_million?: number | null;
  best_usage?: string | null;
}

export interface RatingFields {
  rating?: number;
  reasoning_rating?: number;
  max_complexity?: number;
}

/** Registers a new agent; its rating fields start from `initial` (max_complexity defaults to the config's). */
export async function registerAgent(store: StateStore, cfg: Config, slug: string, fields: AgentFields & RatingFields, now: string): Promise<AgentProfile> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (a.registration) throw new UserError(`agent ${slug} is already registered (${rel(store, store.path('agents', slug))}); use bin/agents set`);
    const reg: Registration = {
      slug,
      enabled: fields.enabled ?? true,
      commands: fields.commands ?? [],
      cost_per_million: fields.cost_per_million ?? null,
      best_usage: fields.best_usage ?? null,
      registered_at: now,
    };
    const initial: AgentRatingState = {
      rating: fields.rating ?? null,
      reasoning_rating: fields.reasoning_rating ?? null,
      max_complexity: fields.max_complexity ?? rc.default_max_complexity,
      complexity_updated_at: null,
    };
    const profile = assembleProfile(reg, initial, startFold(initial), now);
    store.write('agents', slug, profile);
    return profile;
  });
}

/** Changes registration fields; rating fields change through an `adjust` row so the log still replays to the profile. */
export async function updateAgent(store: StateStore, cfg: Config, slug: string, fields: AgentFields & RatingFields & { reason?: string }, now: string): Promise<{ profile: AgentProfile; problems: string[] }> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (!a.registration) throw new UserError(`agent ${slug} is not registered (bin/agents add ${slug})`);
    const reg: Registration = {
      ...a.registration,
      ...(fields.enabled !== undefined ? { enabled: fields.enabled } : {}),
      ...(fields.commands !== undefined ? { commands: fields.commands } : {}),
      ...(fields.cost_per_million !== undefined ? { cost_per_million: fields.cost_per_million } : {}),
      ...(fields.best_usage !== undefined ? { best_usage: fields.best_usage } : {}),
    };
    const set: RatingFields = {};
    if (fields.rating !== undefined && fields.rating !== a.state.rating) set.rating = fields.rating;
    if (fields.reasoning_rating !== undefined && fields.reasoning_rating !== a.state.reasoning_rating) set.reasoning_rating = fields.reasoning_rating;
    if (fields.max_complexity !== undefined && fields.max_complexity !== a.state.max_complexity) set.max_complexity = fields.max_complexity;
    let state = a.state;
    if (Object.keys(set).length > 0) {
      state = applyAdjust(a.state, set, now);
      appendRow(store, slug, a.log, {
        schema_version: '1.0.0', event: 'adjust', agent: slug, set, reason: fields.reason ?? 'set by bin/agents set', before: ratingStateOf(a.state), after: ratingStateOf(state), created_at: now,
      });
    }
    const profile = writeProfile(store, a, reg, state, now);
    return { profile, problems: a.problems };
  });
}

/** Rewrites the profile from the log (after a corrupt or stale profile); reports what it found. */
export async function rebuildAgent(store: StateStore, cfg: Config, slug: string, now: string): Promise<{ profile: AgentProfile; problems: string[] }> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (!a.registration) throw new UserError(`agent ${slug}: no profile and no ratings log to rebuild from`);
    const profile = writeProfile(store, a, a.registration, a.state, now);
    return { profile, problems: a.problems };
  });
}

/** Every agent with a profile or a ratings log, loaded (corrupt parts reported in problems). */
export function loadAllAgents(store: StateStore, cfg: Config, now: string): LoadedAgent[] {
  const rc = ratingsConfig(cfg);
  const slugs = [...new Set([...store.list('agents'), ...store.list('ratings')])].sort();
  return slugs.map((s) => loadAgent(store, s, rc, now));
}

/** Appends one routing decision (a lock keeps the log's order the order of decisions). */
export async function logRouting(store: StateStore, decision: RoutingDecision): Promise<void> {
  await store.withLock('routing-decisions', () => store.appendLine('routing', 'decisions', decision));
}

