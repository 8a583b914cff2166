// Reads state/ for the report through the readers the other commands use; corrupt files are named in
// `problems`, never thrown.
import type {
  Config,
  Judgment,
  JudgeLedgerRow,
  JudgeQueueEntry,
  Race,
  RaceChoice,
  RoutingDecision,
  SelectionLogRow,
  Trigger,
  UserVerdict,
} from '../schema/types.generated.js';
import { calibrate } from '../judge/calibration.js';
import type { Kind } from '../store/kinds.js';
import type { StateStore } from '../store/store.js';
import { scanFeedbackAll } from '../store/state-set.js';
import { LEDGER_ID } from '../judge/throttle.js';
import { loadAllAgents } from '../ratings/agent-log.js';
import { abReport } from '../templates/ab.js';
import { TemplateAggregator } from '../templates/aggregate.js';
import { scoreSettings } from '../templates/settings.js';
import { since, type Filters, type JudgmentFact, type ReportInput } from './model.js';
import { TemplateTimeline } from './timeline.js';

export interface GatherOptions {
  store: StateStore;
  /** Other machines' state folders read as one with `store` (templates, races, choices, judgments, ledger, queue). */
  others?: StateStore[];
  config: Config;
  filters: Filters;
  now: string;
}

function readAllOk<T>(stores: StateStore | StateStore[], kind: Kind, problems: string[]): T[] {
  const out: T[] = [];
  for (const store of Array.isArray(stores) ? stores : [stores])
    for (const r of store.readAll<T>(kind)) {
      if ('error' in r) problems.push(`skipped ${r.file}: ${r.error.problems.join('; ')}`);
      else out.push(r.value);
    }
  return out;
}

function linesOk<T>(stores: StateStore | StateStore[], kind: Kind, id: string, problems: string[]): T[] {
  const out: T[] = [];
  for (const store of Array.isArray(stores) ? stores : [stores]) {
    const { rows, bad } = store.readLines<T>(kind, id);
    for (const b of bad) problems.push(`${store.path(kind, id)} line ${b.line} skipped: ${b.problems.join('; ')}`);
    out.push(...rows);
  }
  return out;
}

const fact = (j: Judgment): JudgmentFact => ({
  bead: j.bead,
  judged_at: j.judged_at,
  status: j.status,
  score: j.score,
  cached: j.cached_from !== undefined && j.cached_from !== null,
  failure: j.failure ? j.failure.reason : null,
});

export async function gatherReport(o: GatherOptions): Promise<ReportInput> {
  const { store, config, filters } = o;
  const problems: string[] = [];
  const settings = scoreSettings(config, 3); // as judgeloop score-templates scores
  const agg = new TemplateAggregator(settings);
  const timeline = new TemplateTimeline(settings);
  const all = [store, ...(o.others ?? [])];
  const scan = await scanFeedbackAll(
    all,
    (row) => {
      if (!since(filters, row.completed_at)) return;
      agg.add(row);
      timeline.add(row);
    },
    { now: o.now },
  );
  for (const s of scan.skipped) problems.push(`skipped ${s.file}: ${s.problem}`);
  const list = agg.finish();
  const queue = readAllOk<JudgeQueueEntry>(all, 'queue', problems);
  const oldest = queue.map((q) => q.queued_at).sort()[0] ?? null;
  const judgments = readAllOk<Judgment>(all, 'judgments', problems);
  const races = readAllOk<Race>(all, 'races', problems);
  const choices = readAllOk<RaceChoice>(all, 'race_choices', problems);
  return {
    generatedAt: o.now,
    stateDir: store.root,
    filters,
    problems,
    templates: {
      list,
      days: timeline.finish(),
      ab: settings.blend ? abReport(list) : null,
      blend: settings.blend,
      phase: config.judge.phase,
      feedbackFiles: scan.feedbackFiles,
    },
    triggers: readAllOk<Trigger>(store, 'triggers', problems),
    selections: linesOk<SelectionLogRow>(store, 'selections', 'log', problems),
    races,
    choices,
    agents: loadAllAgents(store, config, o.now).map((a) => {
      problems.push(...a.problems);
      return {
        slug: a.slug,
        enabled: a.registration?.enabled ?? true,
        rating: a.state.rating,
        rating_samples: a.state.rating_samples,
        reasoning_rating: a.state.reasoning_rating,
        max_complexity: a.state.max_complexity,
        rows: a.log.rows.map((r) => r.row),
      };
    }),
    routing: linesOk<RoutingDecision>(store, 'routing', 'decisions', problems),
    ledger: linesOk<JudgeLedgerRow>(all, 'judge-ledger', LEDGER_ID, problems),
    judgments: judgments.map(fact),
    queue: {
      waiting: queue.filter((q) => q.claimed_at === null).length,
      claimed: queue.filter((q) => q.claimed_at !== null).length,
      oldest,
    },
    calibration: calibrate({
      judgments,
      userVerdicts: readAllOk<UserVerdict>(all, 'user_verdicts', problems),
      races,
      choices,
      floor: config.judge.calibration_floor,
    }),
  };
}
