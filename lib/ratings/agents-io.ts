// Registering, updating and rebuilding agent profiles (bin/agents), and the routing log.
import { UserError } from '../base/errors.js';
import type { StateStore } from '../store/store.js';
import type { AgentProfile, AgentRatingState, Config, RoutingDecision } from '../schema/types.generated.js';
import { applyAdjust, assembleProfile, ratingStateOf, startFold, type Registration } from './profile.js';
import { appendRow, loadAgent, lockName, ratingsConfig, rel, writeProfile } from './agent-log.js';

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
export async function registerAgent(
  store: StateStore,
  cfg: Config,
  slug: string,
  fields: AgentFields & RatingFields,
  now: string,
): Promise<AgentProfile> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (a.registration)
      throw new UserError(
        `agent ${slug} is already registered (${rel(store, store.path('agents', slug))}); use judgeloop agents set`,
      );
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
export async function updateAgent(
  store: StateStore,
  cfg: Config,
  slug: string,
  fields: AgentFields & RatingFields & { reason?: string },
  now: string,
): Promise<{ profile: AgentProfile; problems: string[] }> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (!a.registration) throw new UserError(`agent ${slug} is not registered (judgeloop agents add ${slug})`);
    const reg: Registration = {
      ...a.registration,
      ...(fields.enabled !== undefined ? { enabled: fields.enabled } : {}),
      ...(fields.commands !== undefined ? { commands: fields.commands } : {}),
      ...(fields.cost_per_million !== undefined ? { cost_per_million: fields.cost_per_million } : {}),
      ...(fields.best_usage !== undefined ? { best_usage: fields.best_usage } : {}),
    };
    const set: RatingFields = {};
    if (fields.rating !== undefined && fields.rating !== a.state.rating) set.rating = fields.rating;
    if (fields.reasoning_rating !== undefined && fields.reasoning_rating !== a.state.reasoning_rating)
      set.reasoning_rating = fields.reasoning_rating;
    if (fields.max_complexity !== undefined && fields.max_complexity !== a.state.max_complexity)
      set.max_complexity = fields.max_complexity;
    let state = a.state;
    if (Object.keys(set).length > 0) {
      state = applyAdjust(a.state, set, now);
      appendRow(store, slug, a.log, {
        schema_version: '1.0.0',
        event: 'adjust',
        agent: slug,
        set,
        reason: fields.reason ?? 'set by judgeloop agents set',
        before: ratingStateOf(a.state),
        after: ratingStateOf(state),
        created_at: now,
      });
    }
    const profile = writeProfile(store, a, reg, state, now);
    return { profile, problems: a.problems };
  });
}

/** Rewrites the profile from the log (after a corrupt or stale profile); reports what it found. */
export async function rebuildAgent(
  store: StateStore,
  cfg: Config,
  slug: string,
  now: string,
): Promise<{ profile: AgentProfile; problems: string[] }> {
  const rc = ratingsConfig(cfg);
  return store.withLock(lockName(slug), () => {
    const a = loadAgent(store, slug, rc, now);
    if (!a.registration) throw new UserError(`agent ${slug}: no profile and no ratings log to rebuild from`);
    const profile = writeProfile(store, a, a.registration, a.state, now);
    return { profile, problems: a.problems };
  });
}

/** Appends one routing decision (a lock keeps the log's order the order of decisions). */
export async function logRouting(store: StateStore, decision: RoutingDecision): Promise<void> {
  await store.withLock('routing-decisions', () => store.appendLine('routing', 'decisions', decision));
}
