// Seed 003's phase-3 A/B report: the mechanical-only ranking beside the blended one. Pure.
import type { Ab, Template } from '../schema/types.generated.js';
import { kendallTauB, spearman } from '../stats/stats.js';
import { plural } from '../base/plural.js';

const f2 = (x: number): string => x.toFixed(2);

/** Ordinal ranks 1..n by value, best first; ties by template id so the order is stable. */
function ordinalRanks(items: { template: string; value: number }[]): Map<string, number> {
  const sorted = [...items].sort((a, b) => b.value - a.value || (a.template < b.template ? -1 : 1));
  return new Map(sorted.map((x, i) => [x.template, i + 1]));
}

/** Issue keys reported in at least 2 of a template's judged runs. */
function recurringKeys(t: Template): string[] {
  return t.top_issues.filter((i) => i.runs >= 2).map((i) => i.key);
}

export function abReport(templates: Template[]): Ab {
  const ranked = templates.filter((t) => t.mechanical.value !== null);
  const mech = ranked.map((t) => t.mechanical.value!);
  const blend = ranked.map((t) => t.score!);
  const mRank = ordinalRanks(ranked.map((t, i) => ({ template: t.template, value: mech[i]! })));
  const bRank = ordinalRanks(ranked.map((t, i) => ({ template: t.template, value: blend[i]! })));
  const moves = ranked.map((t) => {
    const mr = mRank.get(t.template)!;
    const br = bRank.get(t.template)!;
    const change = mr - br;
    const issues = recurringKeys(t);
    let why: string;
    if (t.judge.n === 0)
      why =
        change === 0
          ? 'no judged runs: mechanical kept, same rank'
          : 'no judged runs: mechanical kept; others moved around it';
    else if (change === 0)
      why = `same rank: judge average ${f2(t.judge.value!)} over ${plural(t.judge.n, 'run')}, mechanical ${f2(t.mechanical.value!)}`;
    else {
      const dir = change > 0 ? 'lifts it' : 'pulls it down';
      why = `judge average ${f2(t.judge.value!)} over ${plural(t.judge.n, 'run')} against mechanical ${f2(t.mechanical.value!)} ${dir} ${plural(Math.abs(change), 'place')}`;
      if (change < 0 && issues.length) why += `; recurring issues: ${issues.join(', ')}`;
    }
    return {
      template: t.template,
      mechanical_rank: mr,
      blended_rank: br,
      change,
      mechanical: t.mechanical.value!,
      judge: t.judge.value,
      judge_n: t.judge.n,
      why,
      issues,
    };
  });
  moves.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.blended_rank - b.blended_rank);
  const byKey = new Map<string, string[]>();
  for (const m of moves.filter((x) => x.change < 0))
    for (const k of m.issues) byKey.set(k, [...(byKey.get(k) ?? []), m.template]);
  const shared = [...byKey.entries()]
    .filter(([, ts]) => ts.length >= 2)
    .map(([key, ts]) => ({ key, templates: ts.sort() }))
    .sort((a, b) => b.templates.length - a.templates.length || (a.key < b.key ? -1 : 1));
  return {
    templates: ranked.length,
    spearman: spearman(mech, blend),
    kendall_tau_b: kendallTauB(mech, blend),
    moves,
    shared_issues: shared,
  };
}
