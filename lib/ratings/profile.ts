// The profile's rating fields as a fold over the ratings log: live updates and replays share applyRow.
import type {
  AgentAdjustRow,
  AgentProfile,
  AgentRatingParams,
  AgentRatingState,
  AgentRunRating,
} from '../schema/types.generated.js';
import { decideComplexity, type ComplexityDecision } from './complexity.js';
import { emaUpdate } from './ema.js';

export interface FoldState extends AgentRatingState {
  rating_samples: number;
  reasoning_samples: number;
  complexity_samples: number;
  rating_last_score: number | null;
  rating_updated_at: string | null;
  last_bead: string | null;
}

/** What a rated run contributes to the fold (the rest of the row is evidence). */
export interface RunFacts {
  bead: string;
  run_score: number;
  quality_score: number;
  complexity: number;
  created_at: string;
  params: AgentRatingParams;
}

export function startFold(initial: AgentRatingState): FoldState {
  return {
    ...ratingStateOf(initial),
    rating_samples: 0,
    reasoning_samples: 0,
    complexity_samples: 0,
    rating_last_score: null,
    rating_updated_at: null,
    last_bead: null,
  };
}

export function ratingStateOf(s: AgentRatingState): AgentRatingState {
  return {
    rating: s.rating,
    reasoning_rating: s.reasoning_rating,
    max_complexity: s.max_complexity,
    complexity_updated_at: s.complexity_updated_at,
  };
}

/** One rated run: EMA of the rating (and of reasoning_rating for reasoning disciplines), then max_complexity. */
export function applyRun(state: FoldState, run: RunFacts): { state: FoldState; decision: ComplexityDecision } {
  const p = run.params;
  const decision = decideComplexity({
    runScore: run.run_score,
    quality: run.quality_score,
    taskComplexity: run.complexity,
    maxComplexity: state.max_complexity,
    complexityUpdatedAt: state.complexity_updated_at,
    now: run.created_at,
    params: p,
  });
  const changed = decision.max_complexity_after !== state.max_complexity;
  return {
    decision,
    state: {
      rating: emaUpdate(state.rating, run.run_score, p.alpha),
      reasoning_rating: p.reasoning
        ? emaUpdate(state.reasoning_rating, run.run_score, p.alpha)
        : state.reasoning_rating,
      max_complexity: decision.max_complexity_after,
      complexity_updated_at: changed ? run.created_at : state.complexity_updated_at,
      rating_samples: state.rating_samples + 1,
      reasoning_samples: state.reasoning_samples + (p.reasoning ? 1 : 0),
      complexity_samples: state.complexity_samples + (run.complexity >= state.max_complexity ? 1 : 0),
      rating_last_score: run.run_score,
      rating_updated_at: run.created_at,
      last_bead: run.bead,
    },
  };
}

/** A manual adjustment (bin/agents set); a max_complexity change starts a cooldown like a promotion. */
export function applyAdjust(state: FoldState, set: AgentAdjustRow['set'], at: string): FoldState {
  const max = set.max_complexity ?? state.max_complexity;
  return {
    ...state,
    rating: set.rating ?? state.rating,
    reasoning_rating: set.reasoning_rating ?? state.reasoning_rating,
    max_complexity: max,
    complexity_updated_at: max !== state.max_complexity ? at : state.complexity_updated_at,
  };
}

function applyRow(state: FoldState, row: AgentRunRating): FoldState {
  if (row.event === 'adjust') return applyAdjust(state, row.set, row.created_at);
  return applyRun(state, row).state;
}

const sameState = (a: AgentRatingState, b: AgentRatingState): boolean =>
  a.rating === b.rating &&
  a.reasoning_rating === b.reasoning_rating &&
  a.max_complexity === b.max_complexity &&
  a.complexity_updated_at === b.complexity_updated_at;

/**
 * Replays rows in order from `initial`. A row whose recorded before/after differ from the replay is
 * reported (someone edited the log, or rows were lost); the replay's values win.
 */
export function replay(
  initial: AgentRatingState,
  rows: readonly { row: AgentRunRating; line: number }[],
): { state: FoldState; mismatches: string[] } {
  let state = startFold(initial);
  const mismatches: string[] = [];
  for (const { row, line } of rows) {
    if (!sameState(row.before, state))
      mismatches.push(
        `line ${line}: recorded before-state ${JSON.stringify(row.before)} differs from the replay ${JSON.stringify(ratingStateOf(state))}`,
      );
    state = applyRow(state, row);
    if (!sameState(row.after, state))
      mismatches.push(
        `line ${line}: recorded after-state ${JSON.stringify(row.after)} differs from the replay ${JSON.stringify(ratingStateOf(state))}`,
      );
  }
  return { state, mismatches };
}

/** The initial state a log implies when the profile that held it is lost: the first row's before-state. */
export function initialFromRows(rows: readonly AgentRunRating[], defaultMax: number): AgentRatingState {
  const first = rows[0];
  return first
    ? ratingStateOf(first.before)
    : { rating: null, reasoning_rating: null, max_complexity: defaultMax, complexity_updated_at: null };
}

export interface Registration {
  slug: string;
  enabled: boolean;
  commands: string[];
  cost_per_million: number | null;
  best_usage: string | null;
  registered_at: string;
}

/** Assembles a profile from its registration, its initial state and the fold. */
export function assembleProfile(
  reg: Registration,
  initial: AgentRatingState,
  state: FoldState,
  updatedAt: string,
): AgentProfile {
  return {
    schema_version: '1.0.0',
    slug: reg.slug,
    enabled: reg.enabled,
    commands: reg.commands,
    cost_per_million: reg.cost_per_million,
    best_usage: reg.best_usage,
    initial: ratingStateOf(initial),
    rating: state.rating,
    reasoning_rating: state.reasoning_rating,
    rating_samples: state.rating_samples,
    reasoning_samples: state.reasoning_samples,
    rating_last_score: state.rating_last_score,
    rating_updated_at: state.rating_updated_at,
    max_complexity: state.max_complexity,
    complexity_samples: state.complexity_samples,
    complexity_updated_at: state.complexity_updated_at,
    last_bead: state.last_bead,
    registered_at: reg.registered_at,
    updated_at: updatedAt,
  };
}

export function registrationOf(p: AgentProfile): Registration {
  return {
    slug: p.slug,
    enabled: p.enabled,
    commands: p.commands,
    cost_per_million: p.cost_per_million,
    best_usage: p.best_usage,
    registered_at: p.registered_at,
  };
}
