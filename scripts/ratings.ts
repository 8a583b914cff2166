// bin/ratings: agent profiles and their recent rated runs, ordered by time, with samples and movement.
import { assertSafeId } from '../lib/store/bead.js';
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { parse } from '../lib/cli/command.js';
import { RATINGS } from '../lib/cli/commands/ratings.js';
import { fmtDelta, fmtRating, openState, parseNumber } from '../lib/cli/command-helpers.js';
import { textTable as table } from '../lib/report/table.js';
import { nowIso } from '../lib/base/clock.js';
import type { LoadedAgent } from '../lib/ratings/agent-log.js';
import { loadAgentsOf } from '../lib/ratings/fleet.js';
import { otherStateDirs } from '../lib/config/state-dirs.js';
import type { AgentRunRating } from '../lib/schema/types.generated.js';
import { plural } from '../lib/base/plural.js';

export interface RecentRow {
  agent: string;
  line: number;
  row: AgentRunRating;
}

/** The last `n` rows of the given agents, ordered by time (then agent and line, so the order is total). */
export function recentRows(agents: readonly LoadedAgent[], n: number): RecentRow[] {
  const all = agents.flatMap((a) => a.log.rows.map(({ row, line }) => ({ agent: a.slug, line, row })));
  all.sort(
    (x, y) =>
      Date.parse(x.row.created_at) - Date.parse(y.row.created_at) ||
      (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : x.line - y.line),
  );
  return n > 0 ? all.slice(-n) : [];
}

/** How far each agent's rating moved: over its last row, and since the first row shown. */
export function movement(a: LoadedAgent, shown: readonly RecentRow[]) {
  const mine = shown.filter((r) => r.agent === a.slug);
  const lastRun = [...a.log.rows].reverse().find((r) => r.row.event === 'run')?.row;
  const delta = (from: number | null | undefined, to: number | null) =>
    from === null || from === undefined || to === null ? null : to - from;
  return {
    moved_last: lastRun ? delta(lastRun.before.rating, lastRun.after.rating) : null,
    // An agent's first row has no rating before it: its movement is then counted from its first rating.
    moved_window: mine.length ? delta(mine[0]!.row.before.rating ?? mine[0]!.row.after.rating, a.state.rating) : null,
    window_rows: mine.length,
    complexity_changes: a.log.rows.filter((r) => r.row.before.max_complexity !== r.row.after.max_complexity).length,
  };
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(RATINGS, argv);
  const last = parseNumber('last', values.last, 0, 1_000_000, true)!; // --last has a default
  const { store, config } = openState(io, values.config);
  const others = otherStateDirs(values['state-dir'], config, { env: io.env, cwd: io.cwd, configFile: values.config });
  let agents = loadAgentsOf(store, others, config, nowIso(io.env));
  if (values.agent !== undefined) {
    assertSafeId(values.agent, 'agent slug');
    agents = agents.filter((a) => a.slug === values.agent);
    if (agents.length === 0)
      throw new UserError(`agent ${values.agent}: no profile and no ratings log in ${store.root}`);
  }
  const problems = agents.flatMap((a) => a.problems);
  for (const p of problems) io.stderr(`warning: ${p}\n`);
  const recent = recentRows(agents, last);
  const profiles = agents.map((a) => ({
    slug: a.slug,
    enabled: a.registration?.enabled ?? true,
    rating: a.state.rating,
    rating_samples: a.state.rating_samples,
    reasoning_rating: a.state.reasoning_rating,
    reasoning_samples: a.state.reasoning_samples,
    rating_last_score: a.state.rating_last_score,
    rating_updated_at: a.state.rating_updated_at,
    max_complexity: a.state.max_complexity,
    complexity_samples: a.state.complexity_samples,
    complexity_updated_at: a.state.complexity_updated_at,
    cost_per_million: a.registration?.cost_per_million ?? null,
    ...movement(a, recent),
  }));
  if (values.json) {
    io.stdout(
      JSON.stringify({ profiles, runs: recent.map((r) => ({ line: r.line, ...r.row })), problems }, null, 2) + '\n',
    );
    return 0;
  }
  io.stdout(
    'Agents\n' +
      table(
        [
          'agent',
          'rating',
          'n',
          'moved(last)',
          `moved(shown)`,
          'reasoning',
          'n',
          'max_cx',
          'cx_changes',
          'last_score',
          'cost/M',
        ],
        profiles.map((p) => [
          p.slug + (p.enabled ? '' : ' (disabled)'),
          fmtRating(p.rating),
          String(p.rating_samples),
          fmtDelta(p.moved_last),
          fmtDelta(p.moved_window),
          fmtRating(p.reasoning_rating),
          String(p.reasoning_samples),
          String(p.max_complexity),
          String(p.complexity_changes),
          fmtRating(p.rating_last_score),
          p.cost_per_million === null ? '—' : `$${p.cost_per_million}`,
        ]),
      ),
  );
  io.stdout(
    `\nLast ${plural(recent.length, 'rated run')} and adjustments, oldest first\n` +
      table(
        ['time', 'agent', 'bead', 'command', 'cx', 'quality', 'score', 'rating', 'Δ', 'max_cx'],
        recent.map(({ agent, row }) => {
          const cx =
            row.before.max_complexity === row.after.max_complexity
              ? String(row.after.max_complexity)
              : `${row.before.max_complexity}→${row.after.max_complexity}`;
          const rating = `${fmtRating(row.before.rating)}→${fmtRating(row.after.rating)}`;
          const d =
            row.before.rating === null || row.after.rating === null ? null : row.after.rating - row.before.rating;
          if (row.event === 'adjust')
            return [row.created_at, agent, '(set)', '', '', '', '', rating, fmtDelta(d), `${cx} ${row.reason}`];
          const hold = row.complexity_decision.action === 'held_by_cooldown' ? ' (cooldown)' : '';
          return [
            row.created_at,
            agent,
            row.bead,
            row.command ?? '—',
            String(row.complexity),
            `${row.quality_score.toFixed(1)} ${row.quality_source}${row.qa && row.qa.cap !== null && row.qa.reviewed_quality > row.quality_score ? ` (${row.qa.status === 'no_op' ? 'no-op' : row.qa.status})` : ''}`,
            row.run_score.toFixed(2) +
              (row.qa?.formula_score !== undefined && row.qa.formula_score > row.run_score ? ' held' : ''),
            rating,
            fmtDelta(d),
            cx + hold,
          ];
        }),
      ),
  );
  return 0;
}

main(import.meta.url, run);
