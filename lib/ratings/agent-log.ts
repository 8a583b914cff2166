// The ratings log of one agent and the profile it implies: read (bad lines reported), replayed, written under the
// agent's lock by rate-run and agents-io.
import { parseJsonLines, readTextIfExists } from '../store/store.js';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { UserError } from '../base/errors.js';
import { KINDS } from '../store/kinds.js';
import { writeFileAtomic } from '../store/state-write.js';
import { CorruptStateError, type StateStore } from '../store/store.js';
import type { AgentProfile, AgentRatingState, AgentRunRating, AgentRunRow, Config } from '../schema/types.generated.js';
import {
  assembleProfile,
  initialFromRows,
  registrationOf,
  replay,
  type FoldState,
  type Registration,
} from './profile.js';
import { plural } from '../base/plural.js';

export const RATING_VERSION = 'seed002-1';

export type RatingsConfig = NonNullable<Config['ratings']>;

export function ratingsConfig(cfg: Config): RatingsConfig {
  if (!cfg.ratings) throw new UserError('configuration: /ratings: is required (see config/defaults.json)');
  return cfg.ratings;
}

export const rel = (store: StateStore, file: string): string => `state/${relative(store.root, file)}`;

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
  const text = readTextIfExists(file) ?? '';
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  const { rows, bad } = parseJsonLines<AgentRunRating>(file, text, KINDS.ratings.schema);
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
    commands:
      Array.isArray(raw.commands) && raw.commands.every((c) => typeof c === 'string') ? (raw.commands as string[]) : [],
    cost_per_million: num(raw.cost_per_million) ?? lastRun?.cost_per_million ?? null,
    best_usage: typeof raw.best_usage === 'string' ? raw.best_usage : null,
    registered_at:
      typeof raw.registered_at === 'string' && !Number.isNaN(Date.parse(raw.registered_at))
        ? raw.registered_at
        : (log.rows[0]?.row.created_at ?? now),
  };
}

/** Loads an agent as the log says it is: the profile's registration and initial state, replayed over the log. */
export function loadAgent(store: StateStore, slug: string, rc: RatingsConfig, now: string): LoadedAgent {
  const problems: string[] = [];
  const log = readLog(store, slug);
  const logName = rel(store, store.path('ratings', slug));
  for (const b of log.bad)
    problems.push(
      `${logName} line ${b.line}: unreadable row skipped (${b.problems.join('; ')}); the other rows are used`,
    );
  let stored: AgentProfile | null = null;
  let corruptProfile = false;
  let registration: Registration | null = null;
  const profileFile = store.path('agents', slug);
  try {
    stored = store.read<AgentProfile>('agents', slug);
    if (stored && stored.slug !== slug)
      throw new CorruptStateError(profileFile, [
        `/slug: is ${JSON.stringify(stored.slug)}, expected ${JSON.stringify(slug)}`,
      ]);
    if (stored) registration = registrationOf(stored);
  } catch (e) {
    if (!(e instanceof CorruptStateError)) throw e;
    stored = null;
    corruptProfile = true;
    problems.push(
      `${rel(store, profileFile)} is corrupt (${e.problems.join('; ')}); its rating fields are rebuilt from ${logName}`,
    );
    registration = salvageRegistration(profileFile, slug, log, now);
  }
  if (!registration && log.rows.length > 0) {
    registration = salvageRegistration(profileFile, slug, log, now);
    problems.push(
      `${rel(store, profileFile)} is missing; rebuilt from ${logName}${registration.enabled ? '' : ` (disabled for routing until judgeloop agents enable ${slug})`}`,
    );
  }
  const initial =
    stored?.initial ??
    initialFromRows(
      log.rows.map((r) => r.row),
      rc.default_max_complexity,
    );
  const { state, mismatches } = replay(initial, log.rows);
  for (const m of mismatches) problems.push(`${logName} ${m}`);
  if (stored && stored.rating_samples !== state.rating_samples) {
    problems.push(
      `${rel(store, profileFile)} rests on ${plural(stored.rating_samples, 'rated run')} but the log has ${state.rating_samples}; the replay is used`,
    );
  }
  return { slug, registration, initial, state, log, stored, corruptProfile, problems };
}

/** Writes the profile the log implies; a corrupt profile is first copied aside so nothing is lost. */
export function writeProfile(
  store: StateStore,
  a: LoadedAgent,
  reg: Registration,
  state: FoldState,
  now: string,
): AgentProfile {
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
export function appendRow(store: StateStore, slug: string, log: LogRead, row: AgentRunRating): number {
  store.appendLine('ratings', slug, row);
  return log.lines + 1;
}

export const lockName = (slug: string) => `ratings-${slug}`;

/** Every agent with a profile or a ratings log, loaded (corrupt parts reported in problems). */
export function loadAllAgents(store: StateStore, cfg: Config, now: string): LoadedAgent[] {
  const rc = ratingsConfig(cfg);
  const slugs = [...new Set([...store.list('agents'), ...store.list('ratings')])].sort();
  return slugs.map((s) => loadAgent(store, s, rc, now));
}
