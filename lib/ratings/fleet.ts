// Agents over several state folders read as one (issue 37, item 9): every folder's ratings log replayed together in
// time order, as if one folder had held them all; each machine's rows keep its own before/after as evidence.
import { UserError } from '../base/errors.js';
import type { AgentRatingState, AgentRunRating, Config } from '../schema/types.generated.js';
import type { StateStore } from '../store/store.js';
import { stateSet } from '../store/state-set.js';
import { loadAgent, loadAllAgents, ratingsConfig, type LoadedAgent } from './agent-log.js';
import { applyAdjust, applyRun, initialFromRows, ratingStateOf, startFold, type FoldState } from './profile.js';
import { scoreCeiling } from './qa.js';

export interface FolderRow {
  row: AgentRunRating;
  line: number;
  /** The folder's place in the set (0: the state folder). */
  folder: number;
}

const beadOf = (r: AgentRunRating): string => (r.event === 'run' ? r.bead : '');

/** One agent's rows of every folder in time order; ties by folder, then bead, then line (a total, stable order). */
export function mergeRows(rows: readonly FolderRow[]): FolderRow[] {
  return [...rows].sort(
    (x, y) =>
      Date.parse(x.row.created_at) - Date.parse(y.row.created_at) ||
      x.folder - y.folder ||
      (beadOf(x.row) < beadOf(y.row) ? -1 : beadOf(x.row) > beadOf(y.row) ? 1 : 0) ||
      x.line - y.line,
  );
}

/**
 * The fold over merged rows, and the rows as one folder would have recorded them (before, after, the complexity
 * decision). A run row's recorded score is used, except for a run that fixes nothing: its formula score is held at the
 * rating before it in the merged order, as one folder would have held it.
 */
export function replayMerged(
  initial: AgentRatingState,
  rows: readonly FolderRow[],
): { state: FoldState; rows: AgentRunRating[] } {
  let state = startFold(initial);
  const out: AgentRunRating[] = [];
  for (const { row } of rows) {
    const before = ratingStateOf(state);
    if (row.event === 'adjust') {
      state = applyAdjust(state, row.set, row.created_at);
      out.push({ ...row, before, after: ratingStateOf(state) });
      continue;
    }
    const formula = row.qa?.formula_score;
    const ceiling = formula === undefined ? null : scoreCeiling({ fixesNothing: true }, before, row.params.reasoning);
    const runScore = formula === undefined ? row.run_score : ceiling === null ? formula : Math.min(formula, ceiling);
    const next = applyRun(state, { ...row, run_score: runScore });
    state = next.state;
    out.push({
      ...row,
      run_score: runScore,
      ...(row.qa && formula !== undefined ? { qa: { ...row.qa, score_ceiling: ceiling } } : {}),
      before,
      after: ratingStateOf(state),
      complexity_decision: { action: next.decision.action, reason: next.decision.reason },
    });
  }
  return { state, rows: out };
}

/**
 * Every agent of every folder, loaded as one: registration and initial state from the first folder that holds a
 * profile, the log replayed over all folders. A bead rated in two folders is a UserError naming both.
 */
function loadAgentsAcross(stores: readonly StateStore[], cfg: Config, now: string): LoadedAgent[] {
  const rc = ratingsConfig(cfg);
  const slugs = [...new Set(stores.flatMap((s) => [...s.list('agents'), ...s.list('ratings')]))].sort();
  return slugs.map((slug) => {
    const parts = stores.map((s) => loadAgent(s, slug, rc, now));
    const problems = parts.flatMap((p) => p.problems);
    const where = new Map<string, number>();
    parts.forEach((p, folder) => {
      for (const { row } of p.log.rows) {
        if (row.event !== 'run') continue;
        const first = where.get(row.bead);
        if (first !== undefined && first !== folder)
          throw new UserError(
            `bead ${row.bead} is rated in two state folders (${stores[first]!.root} and ${stores[folder]!.root}): bead ids must be unique across the folders read as one`,
          );
        where.set(row.bead, folder);
      }
    });
    const merged = mergeRows(parts.flatMap((p, folder) => p.log.rows.map((r) => ({ ...r, folder }))));
    const withProfile = parts.find((p) => p.stored !== null);
    const registered = parts.find((p) => p.registration !== null && !p.corruptProfile && p.stored !== null);
    const initial =
      withProfile?.initial ??
      initialFromRows(
        merged.map((r) => r.row),
        rc.default_max_complexity,
      );
    const differing = parts.filter((p) => p.stored !== null && JSON.stringify(p.initial) !== JSON.stringify(initial));
    if (differing.length)
      problems.push(
        `agent ${slug}: its profile's initial state differs between state folders; the one in ${stores[parts.indexOf(withProfile!)]!.root} is used`,
      );
    const first = parts.find((p) => p.registration !== null);
    const replayed = replayMerged(initial, merged);
    return {
      slug,
      registration: (registered ?? first)?.registration ?? null,
      initial,
      state: replayed.state,
      log: {
        rows: replayed.rows.map((row, i) => ({ row, line: i + 1 })),
        bad: parts.flatMap((p) => p.log.bad),
        lines: merged.length,
        text: '',
      },
      stored: withProfile?.stored ?? null,
      corruptProfile: parts.some((p) => p.corruptProfile),
      problems,
    };
  });
}

/** The agents of the state folder and the other folders read as one (the folder alone: its own logs, as before). */
export function loadAgentsOf(store: StateStore, others: readonly string[], cfg: Config, now: string): LoadedAgent[] {
  const stores = stateSet(store, others);
  return stores.length === 1 ? loadAllAgents(store, cfg, now) : loadAgentsAcross(stores, cfg, now);
}
