// Presentation: seed 000's "Race Results" terminal table and seed 001's markdown comparison (pure).
import { markdownCell, markdownTable } from '../report/table.js';
import type { Race, RaceSolution } from '../schema/types.generated.js';
import { CATEGORIES } from './categories.js';
import { judgeReviewLines } from './present-review.js';

const pct = (x: number | null) => (x === null ? '--' : String(Math.round(x * 100)));
const one = (x: number | null) => (x === null ? '--' : (x * 100).toFixed(1));

/** A 0-1 score on the people's scale, 0-100 with one decimal: the one unit of every view (table, markdown, JSON, report). */
export function raceScore(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 10;
}
/** The solution's race score as stored (older races: from its 0-1 score). */
const shownScore = (s: RaceSolution) => {
  const v = s.race_score ?? raceScore(s.score);
  return v === null ? '--' : v.toFixed(1);
};

/** The winner's verdict beside its name: resolved, fixes k of n, or where correctness comes from. */
function verdict(race: Race, s: RaceSolution): string {
  const t = s.target_tests;
  if (!race.targets.count || !t) return 'no target tests: correctness from its own tests and the judge';
  const hidden = t.hidden ? `; ${t.hidden.line}` : '';
  if (t.resolved) return `resolved (fixes ${t.target_passed} of ${race.targets.count} target tests${hidden})`;
  return `fixes ${t.target_passed} of ${race.targets.count} target tests${hidden}`;
}

/** The race's targets in one line, and those no solution fixes with how to exclude them (never dropped). */
function targetLines(race: Race, code: (id: string) => string): string[] {
  const t = race.targets;
  const out = [
    `Target tests (${t.source}): ${t.fail_to_pass.length ? nameList(t.fail_to_pass.map(code)) + ` — ${t.note}` : t.note}.`,
  ];
  if (t.unfixed_by_all?.length)
    out.push(
      `No solution fixes ${nameList(t.unfixed_by_all.map(code))}: each fails the same way in every solution and on the base. If it lies outside the task, name the real targets: \`judgeloop race --race ${race.race_id} --recollect --target ID\` (or task.target_tests in the run records).`,
    );
  return out;
}

function label(s: RaceSolution): string {
  return `${s.agent} (${s.id})`;
}

/** A solution of the race that `accept --merge` merged and that is still in its base branch. */
export interface RaceMerged {
  solution: string;
  into: string;
  /** The commit of `into` that brought it in. */
  commit: string;
}

function mergedLine(m: RaceMerged, race: Race): string {
  const other = m.solution === race.ranking.winner ? '' : ", not the ranking's pick";
  return `Merged into ${m.into} as ${m.commit.slice(0, 12)} (${m.solution}${other}, with judgeloop accept).`;
}

const MARK = { pass: '✓', fail: '✗', unknown: '?' } as const;
const nameList = (xs: string[], n = 5) =>
  xs.length > n ? `${xs.slice(0, n).join(', ')}, … (${xs.length} in all)` : xs.join(', ');

/** The names of the gate's failed blocking conditions (target_tests_pass decides who wins; it does not block). */
const blockingFailures = (s: RaceSolution) =>
  s.gates.conditions
    .filter((c) => c.status === 'fail' && c.name !== 'target_tests_pass')
    .map((c) => c.name)
    .join(', ');

/** The gate's conditions on one line: ✓ pass, ✗ fail, ? unknown. */
function gateLine(s: RaceSolution): string {
  return s.gates.conditions.map((c) => `${MARK[c.status]} ${c.name}`).join('  ');
}

/** The tests a solution broke or left failing, by name (or by count when per-test results are absent). */
function testLines(s: RaceSolution): string[] {
  const t = s.target_tests;
  if (!t) return [];
  const out: string[] = [];
  if (t.target_failing.length) out.push(`left failing: ${nameList(t.target_failing)}`);
  if (t.broke.length) out.push(`broke: ${nameList(t.broke)}`);
  if (t.disappeared.length) out.push(`gone: ${nameList(t.disappeared)}`);
  if (t.newly_skipped.length) out.push(`now skipped: ${nameList(t.newly_skipped)}`);
  return out;
}

/** Findings that point at code, as `kind file:line detail`. */
function findingLines(s: RaceSolution): string[] {
  return s.flags.filter((f) => f.file).map((f) => `${f.kind} ${f.file}${f.line ? `:${f.line}` : ''} — ${f.detail}`);
}

/** Why there is no winner, and the command to run next. */
function noWinnerAdvice(race: Race): string[] {
  const r = race.ranking;
  const first = race.solutions.find((s) => s.id === r.order[0]);
  switch (r.outcome) {
    case 'no_fix':
      return [
        `No solution fixes the task: none of the ${race.targets.count} target tests passes in any solution (${race.solutions
          .filter((s) => s.rank !== null)
          .map((s) => `${s.id}: ${s.target_tests?.line ?? 'not measured'}`)
          .join('; ')}).`,
        `Next: re-run the agents on the task, then \`judgeloop race --race ${race.race_id} --recollect\`.`,
      ];
    case 'no_mergeable_solution':
      return [
        `No mergeable solution: every ranked solution fails the gate (${race.solutions
          .filter((s) => s.rank !== null)
          .map((s) => `${s.id}: ${blockingFailures(s) || s.target_tests?.line || 'the gate'}`)
          .join('; ')}).`,
        `Next: re-run the agents on the task, or inspect one with \`judgeloop race --race ${race.race_id} --markdown\`; after new work, \`judgeloop race --race ${race.race_id} --recollect\`.`,
      ];
    case 'low_confidence':
      return [
        `No winner: ${r.winner_reason}.`,
        `Next: compare them with \`judgeloop race --race ${race.race_id} --markdown\`, then choose one: \`judgeloop accept ${race.race_id} --solution ${first?.id ?? 'ID'} --merge\`.`,
      ];
    case 'all_failed':
      return [
        `No winner: ${r.winner_reason}.`,
        `Next: re-run the agents, then \`judgeloop race --race ${race.race_id} --recollect\`.`,
      ];
    case 'nothing_evaluated':
      return [
        `No winner: ${r.winner_reason}.`,
        `Next: fix what the failures above name, then \`judgeloop race --race ${race.race_id} --recollect\`.`,
      ];
    default:
      return [];
  }
}

/** The one line that says what each number of a solution's line is. */
const LEGEND =
  'Legend (0-100): race score = correctness, quality, efficiency, completeness and safety weighted; checks = build, tests, lint, diff size and speed weighted; TESTS LINT DIFF SPEED = each check alone.';

/** What the header names the task by: the prompt's first non-blank line, cut at `max` characters; else the task id. */
export function taskHeadline(prompt: string | null | undefined, taskId: string, max = 80): string {
  const first = (prompt ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length);
  if (!first) return taskId;
  const chars = [...first];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : first;
}

/** Seed 000's "Race Results" block, with the gates and the command to accept the winner. */
function raceResultsTable(race: Race, merged: RaceMerged | null): string {
  const title = `Race Results — Task: ${taskHeadline(race.task_prompt, race.task_id)}`;
  const lines = [title, '='.repeat(Math.min(title.length, 60)), ''];
  const names = race.solutions.map(label);
  const width = Math.max(...names.map((n) => n.length), 8);
  race.solutions.forEach((s, i) => {
    const rank = s.rank === null ? '--' : `#${s.rank}`;
    if (s.status === 'failed') {
      lines.push(`  ${rank.padEnd(3)} ${names[i]!.padEnd(width)}  FAILED: ${s.failure}`);
      return;
    }
    const b = s.breakdown;
    const build = b.build === null ? '--' : b.build >= 1 ? '✓' : '✗';
    const dims = `[BUILD: ${build}] [TESTS: ${pct(b.tests)}] [LINT: ${pct(b.lint)}] [DIFF: ${pct(b.diff_size)}] [SPEED: ${pct(b.speed)}]`;
    const gate = s.gates.mergeable ? '✓ mergeable' : '✗ not mergeable';
    lines.push(
      `  ${rank.padEnd(3)} ${names[i]!.padEnd(width)}  race score ${shownScore(s).padStart(5)}  checks ${one(s.composite).padStart(5)}  ${dims}  ${gate}`,
    );
    const pad = ' '.repeat(6);
    lines.push(`${pad}gate: ${gateLine(s)}`);
    for (const c of s.gates.conditions.filter((x) => x.status === 'fail'))
      lines.push(`${pad}  ✗ ${c.name}: ${c.detail}`);
    for (const t of testLines(s)) lines.push(`${pad}tests ${t}`);
    if (s.target_tests?.hidden) lines.push(`${pad}${s.target_tests.hidden.line}`);
    for (const f of findingLines(s).slice(0, 8)) lines.push(`${pad}finding ${f}`);
  });
  lines.push('');
  lines.push(LEGEND);
  lines.push(
    `Ranked by ${race.settings.rank_by === 'categories' ? 'the race score' : 'the checks score'}; confidence in the ranking ${(race.ranking.confidence * 100).toFixed(0)}% (a winner needs 60%: the lead of #1 over #2 and how sure each evaluation is).`,
  );
  const w = race.ranking.winner ? race.solutions.find((s) => s.id === race.ranking.winner)! : null;
  lines.push(...targetLines(race, (id) => id));
  lines.push(`Order: ${race.ranking.tie_break}.`);
  lines.push(...judgeReviewLines(race.judge_review));
  if (race.ranking.all_failed) lines.push(`All agents failed: every composite is below ${race.settings.fail_maximum}.`);
  if (w) lines.push(`Winner: ${w.agent} (${w.id}${w.branch ? `, branch: ${w.branch}` : ''}) — ${verdict(race, w)}`);
  else lines.push(...noWinnerAdvice(race).slice(0, merged ? 1 : undefined));
  if (merged) lines.push(mergedLine(merged, race));
  else if (w)
    lines.push(`Run \`judgeloop accept ${race.race_id} --solution ${w.id} --merge\` to merge into your branch.`);
  lines.push(
    `Auto-accept: ${race.auto_accept.accept ? `yes (${race.auto_accept.solution})` : 'no'} — ${race.auto_accept.reason}.`,
  );
  return lines.join('\n') + '\n';
}

/** A 0-1 figure in the markdown's unit, 0-100 with one decimal (the race score's). */
const f2 = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(1));
const mdCell = (s: string) => markdownCell(s, 120);

/** Seed 001's "Solution Comparison Results" markdown. */
function markdownComparison(race: Race, merged: RaceMerged | null): string {
  const ranked = race.solutions.filter((s) => s.rank !== null);
  const w = race.ranking.winner ? race.solutions.find((s) => s.id === race.ranking.winner)! : null;
  const out: string[] = ['## Solution Comparison Results', ''];
  out.push(
    w
      ? `### Winner: ${w.id} — ${verdict(race, w)} (race score ${shownScore(w)} of 100, ranking confidence ${Math.round(race.ranking.confidence * 100)}%)`
      : `### No winner (ranking confidence ${Math.round(race.ranking.confidence * 100)}%): ${race.ranking.winner_reason}`,
    '',
  );
  if (!w && !merged) out.push(...noWinnerAdvice(race).slice(1), '');
  const head = ranked.map((s) => `#${s.rank} ${s.id}${s.id === w?.id ? ' (Winner)' : ''}`);
  const rows: string[][] = [];
  const cell = (v: number | null, all: (number | null)[]) => {
    const nums = all.filter((x): x is number => x !== null);
    const best = nums.length > 1 && v !== null && v === Math.max(...nums) && nums.filter((x) => x === v).length === 1;
    return best ? `**${f2(v)}**` : f2(v);
  };
  for (const c of CATEGORIES) {
    const vals = ranked.map((s) => s.evaluation!.categories[c].overall);
    rows.push([`${c[0]!.toUpperCase()}${c.slice(1)}`, ...vals.map((v) => cell(v, vals))]);
  }
  const overall = ranked.map((s) => s.score);
  rows.push(['**Race score**', ...overall.map((v) => cell(v, overall))]);
  for (const name of [
    'builds',
    'target_tests_pass',
    'pass_to_pass_kept',
    'substantive_change',
    'no_blocking_finding',
  ] as const) {
    rows.push([
      `Gate: ${name}`,
      ...ranked.map((s) => {
        const c = s.gates.conditions.find((x) => x.name === name);
        return c ? `${MARK[c.status]}${c.status === 'pass' ? '' : ` ${mdCell(c.detail)}`}` : '—';
      }),
    ]);
  }
  rows.push(['**Mergeable**', ...ranked.map((s) => (s.gates.mergeable ? '✓' : '✗'))]);
  rows.push(['**Task**', ...ranked.map((s) => mdCell(s.target_tests?.line ?? '—'))]);
  // Quality criteria one by one: a criterion not measured for a language shows as missing, never as a score.
  for (const name of ['complexity', 'function_length', 'duplication', 'comment_coverage']) {
    rows.push([
      `Quality: ${name}`,
      ...ranked.map((s) => {
        const q = s.evaluation!.categories.quality;
        const c = q.criteria.find((x) => x.name === name);
        if (c) return f2(c.score);
        const a = q.absent.find((x) => x.name === name);
        return a ? (a.reason === 'unmeasured' ? 'missing' : 'n/a') : '—';
      }),
    ]);
  }
  out.push(markdownTable(['Category', ...head], rows));
  out.push(`Scores 0-100. ${targetLines(race, (id) => `\`${id}\``).join(' ')} Order: ${race.ranking.tie_break}.`, '');
  const detail = ranked.filter(
    (s) => testLines(s).length || findingLines(s).length || s.evaluation!.categories.correctness.override,
  );
  if (detail.length) {
    out.push('### Tests and findings', '');
    for (const s of detail) {
      out.push(`- **${s.id}**${s.gates.mergeable ? '' : ' (not mergeable)'}`);
      for (const t of testLines(s)) out.push(`  - tests ${t}`);
      for (const f of findingLines(s).slice(0, 10)) out.push(`  - ${f}`);
      const o = s.evaluation!.categories.correctness.override;
      if (o) out.push(`  - scored 0: ${o}`);
    }
    out.push('');
  }
  const review = judgeReviewLines(race.judge_review);
  if (review.length) out.push('### The judge beside the others', '', '```', ...review, '```', '');
  const subject = w ?? ranked[0];
  if (subject) {
    out.push(`### Why ${subject.id}?`, '', '**Strengths:**');
    out.push(...(subject.strengths.length ? subject.strengths.map((s) => `- ${s}`) : ['- none stands out']), '');
    out.push('**Trade-offs:**');
    const trade: string[] = subject.weaknesses.map((x) => `- ${x}`);
    for (const cmp of race.comparisons) {
      if (cmp.solution_a === subject.id && cmp.winner === cmp.solution_b)
        trade.push(`- ${cmp.solution_b} is better on ${cmp.category} (${f2(-cmp.score_diff)} ahead)`);
    }
    out.push(...(trade.length ? trade : ['- none']), '');
  }
  const failed = race.solutions.filter((s) => s.rank === null);
  if (failed.length) out.push('### Not ranked', '', ...failed.map((s) => `- ${s.id}: ${s.failure}`), '');
  out.push('### Actions', '');
  if (merged) out.push(`- ${mergedLine(merged, race)}`);
  else if (w) out.push(`- Accept winner: \`judgeloop accept ${race.race_id} --solution ${w.id} --merge\``);
  // No solution fixes the task: nothing to accept, only to reject or re-run.
  for (const s of race.ranking.outcome === 'no_fix' ? [] : ranked.filter((x) => x.id !== w?.id)) {
    const gate = s.gates.mergeable
      ? ''
      : ` (fails the gate: ${blockingFailures(s)}; --merge is refused without --force)`;
    out.push(
      `- ${w ? `Choose ${s.id} instead` : `Choose ${s.id}`}${gate}: \`judgeloop accept ${race.race_id} --solution ${s.id}\``,
    );
  }
  if (!w && (race.ranking.outcome === 'no_mergeable_solution' || race.ranking.outcome === 'no_fix'))
    out.push(`- Re-evaluate after new work: \`judgeloop race --race ${race.race_id} --recollect\``);
  out.push(
    `- Manual edit: \`judgeloop accept ${race.race_id} --manual-edit\``,
    `- Reject all: \`judgeloop accept ${race.race_id} --reject-all\``,
    '',
  );
  out.push(`Auto-accept: ${race.auto_accept.accept ? 'yes' : 'no'} — ${race.auto_accept.reason}.`);
  return out.join('\n') + '\n';
}

/** The race as text; `merged`: the solution accept merged (then no accept line is offered). */
export function present(race: Race, format: 'json' | 'markdown' | 'table', merged: RaceMerged | null = null): string {
  if (format === 'json') return `${JSON.stringify(race)}\n`;
  return format === 'markdown' ? markdownComparison(race, merged) : raceResultsTable(race, merged);
}
