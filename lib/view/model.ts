// State, as read by gather.ts, → the report's view model: sections of blocks, each a table and maybe the chart of
// that table's numbers. Pure: no IO, no HTML. Scores are shown 0-100 and ratings 0-10 (AGENTS.md, Conventions).
import { CALIBRATION_HEADER, calibrationRows, type Calibration } from '../judge/calibration.js';
import type {
  Ab,
  AgentRunRating,
  JudgeLedgerRow,
  Race,
  RaceChoice,
  RoutingDecision,
  SelectionLogRow,
  Template,
  Trigger,
} from '../schema/types.generated.js';
import { dayOf, type DayPoint } from './timeline.js';
import { plural } from '../base/plural.js';

export type Cell = string | number | null;

export interface Table {
  columns: string[];
  rows: Cell[][];
}

/** A line chart over days (x: 'YYYY-MM-DD') or a bar chart over labels; each series one value per x. */
export interface Chart {
  kind: 'line' | 'bars';
  x: string[];
  series: { label: string; values: (number | null)[]; dash?: boolean; step?: boolean; right?: boolean }[];
  y: string;
  y2?: string;
}

export interface Block {
  title: string;
  /** When set, `table` holds exactly the chart's numbers (chartTable). */
  chart?: Chart;
  table: Table;
  note?: string;
}

export interface Section {
  id: 'templates' | 'races' | 'agents' | 'judge';
  title: string;
  /** What is missing from state for this section to say more, one sentence each. */
  missing: string[];
  blocks: Block[];
}

export interface ReportModel {
  title: string;
  generatedAt: string;
  stateDir: string;
  filters: string[];
  problems: string[];
  sections: Section[];
}

export interface Filters {
  since: string | null;
  template: string | null;
  race: string | null;
  agent: string | null;
}

interface AgentInput {
  slug: string;
  enabled: boolean;
  rating: number | null;
  rating_samples: number;
  reasoning_rating: number | null;
  max_complexity: number;
  rows: AgentRunRating[];
}

/** A judgment, reduced to what the report needs. */
export interface JudgmentFact {
  bead: string;
  judged_at: string;
  status: 'judged' | 'failed';
  score: number | null;
  cached: boolean;
  failure: string | null;
}

export interface ReportInput {
  generatedAt: string;
  stateDir: string;
  filters: Filters;
  problems: string[];
  templates: {
    list: Template[];
    days: Map<string, DayPoint[]>;
    ab: Ab | null;
    blend: boolean;
    phase: number;
    feedbackFiles: number;
  };
  triggers: Trigger[];
  selections: SelectionLogRow[];
  races: Race[];
  choices: RaceChoice[];
  agents: AgentInput[];
  routing: RoutingDecision[];
  ledger: JudgeLedgerRow[];
  judgments: JudgmentFact[];
  queue: { waiting: number; claimed: number; oldest: string | null };
  /** judgeloop calibrate's comparison with the user's recorded choices (all of state, no --since). */
  calibration: Calibration;
}

/** A 0-1 score on the people's 0-100 scale, one decimal; null stays null. */
const pct = (x: number | null | undefined): number | null =>
  x === null || x === undefined ? null : Math.round(x * 1000) / 10;
/** A 0-10 rating, two decimals (as bin/ratings prints it). */
const r2 = (x: number | null | undefined): number | null =>
  x === null || x === undefined ? null : Math.round(x * 100) / 100;
const usd = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The table of a chart's numbers: the x column, then one column per series. */
export function chartTable(c: Chart, xName: string): Table {
  return {
    columns: [xName, ...c.series.map((s) => s.label)],
    rows: c.x.map((x, i) => [x, ...c.series.map((s) => s.values[i] ?? null)]),
  };
}

const block = (title: string, chart: Chart, xName: string, note?: string): Block => ({
  title,
  chart,
  table: chartTable(chart, xName),
  ...(note ? { note } : {}),
});

/** Whether an ISO time is on or after --since (no filter: always; a time that does not parse: never). */
export const since = (f: Filters, iso: string): boolean => f.since === null || Date.parse(iso) >= Date.parse(f.since);

export function buildModel(input: ReportInput): ReportModel {
  const f = input.filters;
  const filters = [
    f.since && `since ${f.since}`,
    f.template && `template ${f.template}`,
    f.race && `race ${f.race}`,
    f.agent && `agent ${f.agent}`,
  ].filter((x): x is string => Boolean(x));
  return {
    title: 'judgeloop report',
    generatedAt: input.generatedAt,
    stateDir: input.stateDir,
    filters,
    problems: input.problems,
    sections: [templatesSection(input), racesSection(input), agentsSection(input), judgeSection(input)],
  };
}

// ---- templates

function templateChart(days: DayPoint[], blend: boolean): Chart {
  const score = (d: DayPoint) => (blend ? (d.blended ?? d.mechanical) : d.mechanical);
  return {
    kind: 'line',
    x: days.map((d) => d.day),
    series: [
      { label: 'mechanical', values: days.map((d) => pct(d.mechanical)) },
      ...(blend ? [{ label: 'blended', values: days.map((d) => pct(d.blended)) }] : []),
      { label: 'interval low', values: days.map((d) => (score(d) === null ? null : pct(d.low))), dash: true },
      { label: 'interval high', values: days.map((d) => (score(d) === null ? null : pct(d.high))), dash: true },
      { label: 'runs', values: days.map((d) => d.runs), right: true, step: true },
    ],
    y: 'score 0-100',
    y2: 'runs',
  };
}

function templatesSection(input: ReportInput): Section {
  const t = input.templates;
  const f = input.filters;
  const list = t.list.filter((x) => f.template === null || x.template === f.template);
  const missing: string[] = [];
  if (t.feedbackFiles === 0)
    missing.push('No feedback records in state/feedback: run judgeloop collect after an agent run.');
  else if (list.length === 0) missing.push(`No runs of template ${f.template ?? ''} in the records shown.`);
  else if (list.length === 1 && f.template === null)
    missing.push('Only one template has runs: no comparison, no A/B and no exploration between templates yet.');
  if (!t.blend)
    missing.push(
      `No blended score: phase ${t.phase} with the judge ${t.phase >= 3 ? 'disabled' : 'before phase 3'} scores templates mechanically (judge.phase 3 and judge.enabled in the config, or JUDGE_PHASE=3 and JUDGE_ENABLED=true, blend in the judge; score-templates and select-template read the same setting).`,
    );
  const blocks: Block[] = [];
  if (list.length)
    blocks.push({
      title: 'Templates (as judgeloop score-templates scores them)',
      table: {
        columns: [
          'template',
          'runs',
          'scored runs',
          'score',
          'basis',
          'mechanical',
          'mechanical low',
          'mechanical high',
          'judge',
          'judged runs',
          'blended',
          'full pass %',
        ],
        rows: list.map((x) => [
          x.template,
          x.runs,
          x.scored_runs,
          pct(x.score),
          x.basis,
          pct(x.mechanical.value),
          pct(x.mechanical.interval?.low),
          pct(x.mechanical.interval?.high),
          pct(x.judge.value),
          x.judge.n,
          pct(x.blended.value),
          pct(x.full_pass_rate.value),
        ]),
      },
    });
  for (const x of list) {
    const days = t.days.get(x.template) ?? [];
    if (days.length) blocks.push(block(`${x.template}: score per day`, templateChart(days, t.blend), 'day'));
  }
  if (t.ab && list.length > 1)
    blocks.push({
      title: `A/B: mechanical against blended ranking (Spearman ${t.ab.spearman?.toFixed(2) ?? '—'}, Kendall τb ${t.ab.kendall_tau_b?.toFixed(2) ?? '—'})`,
      table: {
        columns: ['template', 'mechanical rank', 'blended rank', 'change', 'why'],
        rows: t.ab.moves
          .filter((m) => f.template === null || m.template === f.template)
          .map((m) => [m.template, m.mechanical_rank, m.blended_rank, m.change, m.why]),
      },
    });
  const picks = input.selections.filter((s) => since(f, s.at) && (f.template === null || s.chosen === f.template));
  if (picks.length) {
    const counts = new Map<string, { explore: number; exploit: number; other: number }>();
    for (const p of picks) {
      const c = counts.get(p.chosen) ?? { explore: 0, exploit: 0, other: 0 };
      if (p.mode === 'explore') c.explore++;
      else if (p.mode === 'exploit') c.exploit++;
      else c.other++;
      counts.set(p.chosen, c);
    }
    const names = [...counts.keys()].sort();
    blocks.push(
      block(
        'Template picks by judgeloop select-template (exploration against choice by score)',
        {
          kind: 'bars',
          x: names,
          series: [
            { label: 'explore', values: names.map((n) => counts.get(n)!.explore) },
            { label: 'exploit', values: names.map((n) => counts.get(n)!.exploit) },
            { label: 'other', values: names.map((n) => counts.get(n)!.other) },
          ],
          y: 'picks',
        },
        'template',
      ),
    );
  } else missing.push('No template picks in state/selections/log.jsonl: judgeloop select-template has not chosen yet.');
  const triggers = input.triggers.filter(
    (x) => since(f, x.fired_at) && (f.template === null || x.template === f.template),
  );
  if (triggers.length)
    blocks.push({
      title: 'Refinement triggers',
      table: {
        columns: ['template', 'kind', 'fired', 'closed', 'summary', 'evidence'],
        rows: triggers.map((x) => [
          x.template,
          x.kind,
          x.fired_at,
          x.cleared_at ? `${x.cleared_at}: ${x.closed_reason ?? ''}` : 'open',
          x.summary,
          evidenceText(x),
        ]),
      },
    });
  else missing.push('No refinement triggers in state/triggers (they fire from phase 4).');
  return { id: 'templates', title: 'Templates', missing, blocks };
}

/** A trigger's evidence in one line: its test's numbers, recurring issues and the runs behind it. */
function evidenceText(t: Trigger): string {
  const e = t.evidence;
  const parts: string[] = [];
  const d = e.drop;
  if (d && 'min_drop' in d)
    parts.push(
      `${d.series} window ${pct(d.window.mean) ?? '—'} (n=${d.window.n}) against baseline ${pct(d.baseline.mean) ?? '—'} (n=${d.baseline.n}): drop ${pct(d.drop)} ≥ ${pct(d.min_drop)}`,
    );
  else if (d)
    parts.push(
      `${d.test} on ${d.series}: ${d.statistic.toFixed(2)} ≥ ${d.threshold.toFixed(2)} since ${d.change_day} (before ${pct(d.before.mean) ?? '—'} n=${d.before.n}, after ${pct(d.after.mean) ?? '—'} n=${d.after.n})`,
    );
  if (e.level)
    parts.push(
      `full pass ${pct(e.level.full_pass_rate)}% over ${plural(e.level.n, 'run')} (interval ${pct(e.level.interval?.low) ?? '—'}–${pct(e.level.interval?.high) ?? '—'}) below ${pct(e.level.below)}%`,
    );
  for (const i of e.issues) parts.push(`issue ${i.key} in ${plural(i.runs, 'run')}, e.g. "${i.example}"`);
  parts.push(`runs: ${e.beads.join(', ')}`);
  return parts.join('; ');
}

// ---- races

const CATEGORIES = ['correctness', 'quality', 'completeness', 'efficiency', 'safety'] as const;

function raceBlocks(r: Race, choice: RaceChoice | undefined): Block[] {
  const ranked = r.solutions;
  const chart: Chart = {
    kind: 'bars',
    x: [...CATEGORIES, 'overall'],
    series: ranked.map((s) => ({
      label: `#${s.rank ?? '—'} ${s.id}`,
      values: [
        ...CATEGORIES.map((c) => pct(s.evaluation?.categories[c]?.overall ?? null)),
        pct(s.evaluation?.overall ?? null),
      ],
    })),
    y: 'score 0-100',
  };
  const winner = r.ranking.winner;
  const chosen =
    choice === undefined
      ? 'no choice recorded (judgeloop accept)'
      : `${choice.user_choice}${choice.chosen_solution_id ? ` ${choice.chosen_solution_id}` : ''} at ${choice.timestamp}`;
  const head = `winner ${winner ?? 'none'} (${r.ranking.winner_reason}); confidence ${pct(r.ranking.confidence)}%; user's choice: ${chosen}`;
  const findings = ranked.flatMap((s) =>
    s.flags.map((x) => [s.id, x.kind, x.file ? `${x.file}${x.line ? `:${x.line}` : ''}` : '—', x.detail] as Cell[]),
  );
  return [
    block(`Race ${r.race_id}: ${r.task_id}`, chart, 'category', head),
    {
      title: `Race ${r.race_id}: ranking and the mergeable gate`,
      table: {
        columns: [
          'rank',
          'solution',
          'agent',
          'template',
          'score',
          'composite',
          'mergeable',
          ...['builds', 'target_tests_pass', 'pass_to_pass_kept', 'substantive_change', 'no_blocking_finding'],
        ],
        rows: ranked.map((s) => [
          s.rank,
          s.id,
          s.agent,
          s.template,
          s.race_score ?? pct(s.score),
          pct(s.composite),
          s.gates.mergeable ? 'yes' : 'no',
          ...['builds', 'target_tests_pass', 'pass_to_pass_kept', 'substantive_change', 'no_blocking_finding'].map(
            (n) => {
              const c = s.gates.conditions.find((x) => x.name === n);
              return c ? `${c.status}${c.status === 'pass' ? '' : `: ${c.detail}`}` : '—';
            },
          ),
        ]),
      },
    },
    {
      title: `Race ${r.race_id}: findings`,
      table: { columns: ['solution', 'kind', 'where', 'detail'], rows: findings },
      ...(findings.length ? {} : { note: 'No findings.' }),
    },
  ];
}

function racesSection(input: ReportInput): Section {
  const f = input.filters;
  const races = input.races.filter((r) => since(f, r.created_at) && (f.race === null || r.race_id === f.race));
  const missing: string[] = [];
  if (input.races.length === 0) missing.push('No races in state/races: run judgeloop race on competing solutions.');
  else if (races.length === 0) missing.push('No race matches the filters.');
  const choiceOf = new Map(input.choices.map((c) => [c.ranking_id, c]));
  const blocks = races.flatMap((r) => raceBlocks(r, choiceOf.get(r.race_id)));
  if (races.length && !races.some((r) => choiceOf.has(r.race_id)))
    missing.push("No user's choice recorded for these races (judgeloop accept records one).");
  return { id: 'races', title: 'Races', missing, blocks };
}

// ---- agents

/** Last rating and max_complexity of each day an agent's log moved. */
function agentDays(rows: AgentRunRating[], f: Filters): { day: string; rating: number | null; cx: number }[] {
  const byDay = new Map<string, { day: string; rating: number | null; cx: number }>();
  for (const r of rows) {
    const day = dayOf(r.created_at);
    if (day === null || !since(f, r.created_at)) continue;
    byDay.set(day, { day, rating: r2(r.after.rating), cx: r.after.max_complexity });
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

function agentsSection(input: ReportInput): Section {
  const f = input.filters;
  const agents = input.agents.filter((a) => f.agent === null || a.slug === f.agent);
  const missing: string[] = [];
  if (input.agents.length === 0)
    missing.push('No agents in state/agents or state/ratings: judgeloop agents add, then judgeloop rate.');
  else if (agents.length === 0) missing.push(`No agent ${f.agent}.`);
  const blocks: Block[] = [];
  if (agents.length)
    blocks.push({
      title: 'Agents (as judgeloop ratings shows them)',
      table: {
        columns: ['agent', 'enabled', 'rating', 'rated runs', 'reasoning', 'max_complexity'],
        rows: agents.map((a) => [
          a.slug,
          a.enabled ? 'yes' : 'no',
          r2(a.rating),
          a.rating_samples,
          r2(a.reasoning_rating),
          a.max_complexity,
        ]),
      },
    });
  for (const a of agents) {
    const days = agentDays(a.rows, f);
    if (days.length)
      blocks.push(
        block(
          `${a.slug}: rating and max_complexity (last of each day)`,
          {
            kind: 'line',
            x: days.map((d) => d.day),
            series: [
              { label: 'rating', values: days.map((d) => d.rating) },
              { label: 'max_complexity', values: days.map((d) => d.cx), step: true },
            ],
            y: '0-10',
          },
          'day',
        ),
      );
  }
  const moves = agents.flatMap((a) =>
    a.rows
      .filter((r) => since(f, r.created_at))
      .flatMap((r): Cell[][] => {
        if (r.event === 'adjust')
          return r.before.max_complexity === r.after.max_complexity
            ? []
            : [[r.created_at, a.slug, 'set', `${r.before.max_complexity}→${r.after.max_complexity}`, r.reason]];
        const d = r.complexity_decision;
        if (d.action === 'none' || d.action === 'at_limit') return [];
        return [[r.created_at, a.slug, d.action, `${r.before.max_complexity}→${r.after.max_complexity}`, d.reason]];
      }),
  );
  if (moves.length)
    blocks.push({
      title: 'Promotions, demotions and cooldowns',
      table: { columns: ['time', 'agent', 'action', 'max_complexity', 'evidence'], rows: moves },
    });
  else if (agents.length) missing.push('No promotion, demotion or cooldown in the ratings logs yet.');
  const picks = input.routing.filter((r) => since(f, r.decided_at) && (f.agent === null || r.agent === f.agent));
  if (picks.length) {
    const counts = new Map<string, { exploit: number; explore: number }>();
    for (const p of picks) {
      const k = p.agent ?? '(none)';
      const c = counts.get(k) ?? { exploit: 0, explore: 0 };
      if (p.mode === 'explore') c.explore++;
      else c.exploit++;
      counts.set(k, c);
    }
    const names = [...counts.keys()].sort();
    blocks.push(
      block(
        'Routing picks by judgeloop route',
        {
          kind: 'bars',
          x: names,
          series: [
            { label: 'exploit', values: names.map((n) => counts.get(n)!.exploit) },
            { label: 'explore', values: names.map((n) => counts.get(n)!.explore) },
          ],
          y: 'picks',
        },
        'agent',
      ),
    );
  } else
    missing.push('No routing decisions in state/routing/decisions.jsonl: judgeloop route has not routed a task yet.');
  return { id: 'agents', title: 'Agents', missing, blocks };
}

// ---- judge

interface JudgeDay {
  calls: number;
  cost: number;
  cacheHits: number;
  failures: number;
}

function judgeSection(input: ReportInput): Section {
  const f = input.filters;
  const missing: string[] = [];
  const days = new Map<string, JudgeDay>();
  const dayAcc = (iso: string) => {
    const d = dayOf(iso)!;
    const a = days.get(d) ?? { calls: 0, cost: 0, cacheHits: 0, failures: 0 };
    days.set(d, a);
    return a;
  };
  const causes = new Map<string, number>();
  for (const r of input.ledger) {
    if (r.type !== 'call' || !since(f, r.at) || dayOf(r.at) === null) continue;
    const a = dayAcc(r.at);
    a.calls++;
    a.cost += r.cost_usd ?? 0;
    if (r.outcome && r.outcome !== 'ok') {
      a.failures++;
      causes.set(r.outcome, (causes.get(r.outcome) ?? 0) + 1);
    }
  }
  for (const j of input.judgments)
    if (j.cached && since(f, j.judged_at) && dayOf(j.judged_at) !== null) dayAcc(j.judged_at).cacheHits++;
  const blocks: Block[] = [];
  const names = [...days.keys()].sort();
  if (names.length)
    blocks.push(
      block(
        'Judge calls, cost and cache hits per day',
        {
          kind: 'line',
          x: names,
          series: [
            { label: 'calls', values: names.map((d) => days.get(d)!.calls) },
            { label: 'cache hits', values: names.map((d) => days.get(d)!.cacheHits) },
            { label: 'failed calls', values: names.map((d) => days.get(d)!.failures) },
            { label: 'cost USD', values: names.map((d) => usd(days.get(d)!.cost)), right: true },
          ],
          y: 'count',
          y2: 'USD',
        },
        'day',
      ),
    );
  else
    missing.push('No judge calls in state/ledger/judge.jsonl: the judge is off (JUDGE_ENABLED=true) or has not run.');
  if (input.judgments.length === 0) missing.push('No judgments in state/judgments.');
  const failedJudgments = input.judgments.filter((j) => j.status === 'failed' && since(f, j.judged_at));
  for (const j of failedJudgments) {
    const k = `judgment failed: ${j.failure ?? 'unknown'}`;
    causes.set(k, (causes.get(k) ?? 0) + 1);
  }
  const causeNames = [...causes.keys()].sort();
  if (causeNames.length)
    blocks.push(
      block(
        'Failures by cause',
        {
          kind: 'bars',
          x: causeNames,
          series: [{ label: 'failures', values: causeNames.map((c) => causes.get(c)!) }],
          y: 'count',
        },
        'cause',
      ),
    );
  const q = input.queue;
  blocks.push({
    title: 'Judge queue (state/queue)',
    table: {
      columns: ['waiting', 'claimed by a drain', 'oldest queued'],
      rows: [[q.waiting, q.claimed, q.oldest ?? '—']],
    },
  });
  const c = input.calibration;
  if (c.verdicts.n + c.races.agreed_of > 0)
    blocks.push({
      title: `Calibration against your recorded choices (judgeloop calibrate; floor ${Math.round(c.floor * 100)}%)`,
      table: { columns: CALIBRATION_HEADER.map((h) => h || 'warning'), rows: calibrationRows(c) },
      ...(c.warnings.length ? { note: c.warnings.join('. ') } : {}),
    });
  else
    missing.push(
      'No user verdict on a judged run nor a race choice: record one with judgeloop calibrate --record BEAD --verdict pass|fail.',
    );
  const agreement = agreementRows(input);
  if (agreement.rows.length) blocks.push(agreement.block);
  else
    missing.push(
      "No user's choice recorded on a race: agreement with the user cannot be measured yet (judgeloop accept).",
    );
  return { id: 'judge', title: 'Judge', missing, blocks };
}

/** Per recorded choice: the race's recommendation and the judge's best-scored solution against the user's pick. */
function agreementRows(input: ReportInput): { rows: Cell[][]; block: Block } {
  const score = new Map(input.judgments.filter((j) => j.score !== null).map((j) => [j.bead, j.score!]));
  const races = new Map(input.races.map((r) => [r.race_id, r]));
  const rows: Cell[][] = [];
  let judgeAgrees = 0;
  let judged = 0;
  for (const c of input.choices) {
    if (!since(input.filters, c.timestamp)) continue;
    const r = races.get(c.ranking_id);
    const scored = (r?.solutions ?? [])
      .filter((s) => score.has(s.id))
      .sort((a, b) => score.get(b.id)! - score.get(a.id)!);
    const top = scored[0]?.id ?? null;
    const chosen = c.chosen_solution_id;
    let verdict = '—';
    if (top !== null && chosen !== null) {
      judged++;
      if (top === chosen) judgeAgrees++;
      verdict = top === chosen ? 'agrees' : 'differs';
    }
    rows.push([c.ranking_id, c.user_choice, chosen ?? '—', c.recommended_solution_id ?? '—', top ?? '—', verdict]);
  }
  const share = judged ? `${Math.round((judgeAgrees / judged) * 1000) / 10}%` : '—';
  return {
    rows,
    block: {
      title: `Agreement with the user's recorded choices: judge ${judgeAgrees} of ${judged} (${share})`,
      table: {
        columns: ['race', 'user choice', 'chosen', 'race recommended', "judge's best", 'judge'],
        rows,
      },
    },
  };
}
