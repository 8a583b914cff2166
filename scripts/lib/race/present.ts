// Presentation: seed 000's "Race Results" terminal table and seed 001's markdown comparison (pure).
import type { Race, RaceSolution } from '../types.generated.js';
import { CATEGORIES } from './categories.js';

const pct = (x: number | null) => (x === null ? '--' : String(Math.round(x * 100)));
const one = (x: number | null) => (x === null ? '--' : (x * 100).toFixed(1));

function label(s: RaceSolution): string {
  return `${s.agent} (${s.id})`;
}

/** Seed 000's "Race Results" block, with the gates and the command to accept the winner. */
export function raceResultsTable(race: Race): string {
  const title = `Race Results — Task: ${JSON.stringify(race.task_prompt ?? race.task_id)}`;
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
    lines.push(`  ${rank.padEnd(3)} ${names[i]!.padEnd(width)}  ${one(s.score).padStart(5)} / 100  composite ${one(s.composite).padStart(5)}  ${dims}  ${gate}`);
  });
  lines.push('');
  lines.push(`Ranked by ${race.settings.rank_by === 'categories' ? "seed 001's categories" : "seed 000's composite"}; confidence ${(race.ranking.confidence * 100).toFixed(0)}%.`);
  const w = race.ranking.winner ? race.solutions.find((s) => s.id === race.ranking.winner)! : null;
  if (race.ranking.all_failed) lines.push(`All agents failed: every composite is below ${race.settings.fail_maximum}.`);
  if (w) {
    lines.push(`Winner: ${w.agent} (${w.id}${w.branch ? `, branch: ${w.branch}` : ''})`);
    lines.push(`Run \`bin/accept ${race.race_id} --solution ${w.id} --merge\` to merge into your branch.`);
  } else {
    lines.push(`No winner: ${race.ranking.winner_reason}.`);
  }
  lines.push(`Auto-accept: ${race.auto_accept.accept ? `yes (${race.auto_accept.solution})` : 'no'} — ${race.auto_accept.reason}.`);
  for (const s of race.solutions) if (!s.gates.mergeable && s.status === 'evaluated') lines.push(`  ${s.id} not mergeable: ${s.gates.reasons.filter((r) => !/unknown/.test(r)).join('; ')}`);
  return lines.join('\n') + '\n';
}

const f2 = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** Seed 001's "Solution Comparison Results" markdown. */
export function markdownComparison(race: Race): string {
  const ranked = race.solutions.filter((s) => s.rank !== null);
  const w = race.ranking.winner ? race.solutions.find((s) => s.id === race.ranking.winner)! : null;
  const out: string[] = ['## Solution Comparison Results', ''];
  out.push(w ? `### Winner: ${w.id} (Score: ${f2(w.score)}, Confidence: ${Math.round(race.ranking.confidence * 100)}%)` : `### No winner (Confidence: ${Math.round(race.ranking.confidence * 100)}%): ${race.ranking.winner_reason}`, '');
  const head = ranked.map((s) => `#${s.rank} ${s.id}${s.id === w?.id ? ' (Winner)' : ''}`);
  out.push(`| Category | ${head.join(' | ')} |`, `|----------|${head.map(() => '-----').join('|')}|`);
  const cell = (v: number | null, all: (number | null)[]) => {
    const nums = all.filter((x): x is number => x !== null);
    const best = nums.length > 1 && v !== null && v === Math.max(...nums) && nums.filter((x) => x === v).length === 1;
    return best ? `**${f2(v)}**` : f2(v);
  };
  for (const c of CATEGORIES) {
    const vals = ranked.map((s) => s.evaluation!.categories[c].overall);
    out.push(`| ${c[0]!.toUpperCase()}${c.slice(1)} | ${vals.map((v) => cell(v, vals)).join(' | ')} |`);
  }
  const overall = ranked.map((s) => s.score);
  out.push(`| **Overall** | ${overall.map((v) => cell(v, overall)).join(' | ')} |`, '');
  const subject = w ?? ranked[0];
  if (subject) {
    out.push(`### Why ${subject.id}?`, '', '**Strengths:**');
    out.push(...(subject.strengths.length ? subject.strengths.map((s) => `- ${s}`) : ['- none stands out']), '');
    out.push('**Trade-offs:**');
    const trade: string[] = subject.weaknesses.map((x) => `- ${x}`);
    for (const cmp of race.comparisons) {
      if (cmp.solution_a === subject.id && cmp.winner === cmp.solution_b) trade.push(`- ${cmp.solution_b} is better on ${cmp.category} (${f2(-cmp.score_diff)} ahead)`);
    }
    out.push(...(trade.length ? trade : ['- none']), '');
  }
  const failed = race.solutions.filter((s) => s.rank === null);
  if (failed.length) out.push('### Not ranked', '', ...failed.map((s) => `- ${s.id}: ${s.failure}`), '');
  out.push('### Actions', '');
  if (w) out.push(`- Accept winner: \`bin/accept ${race.race_id} --solution ${w.id} --merge\``);
  for (const s of ranked.filter((x) => x.id !== w?.id)) out.push(`- ${w ? `Choose ${s.id} instead` : `Choose ${s.id}`}: \`bin/accept ${race.race_id} --solution ${s.id}\``);
  out.push(`- Manual edit: \`bin/accept ${race.race_id} --manual-edit\``, `- Reject all: \`bin/accept ${race.race_id} --reject-all\``, '');
  out.push(`Auto-accept: ${race.auto_accept.accept ? 'yes' : 'no'} — ${race.auto_accept.reason}.`);
  return out.join('\n') + '\n';
}

export function present(race: Race, format: 'json' | 'markdown' | 'table'): string {
  if (format === 'json') return `${JSON.stringify(race)}\n`;
  return format === 'markdown' ? markdownComparison(race) : raceResultsTable(race);
}
