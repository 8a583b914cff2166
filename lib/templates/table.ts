// The tables for people (0-100 where it reads better). Pure.
import { textTable } from '../report/table.js';
import type { Interval, TemplateScores, Trend, Trigger } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

const pct = (x: number | null): string => (x === null ? '-' : (x * 100).toFixed(0) + '%');
const num = (x: number | null): string => (x === null ? '-' : (x * 100).toFixed(1));
const iv = (i: Interval): string => (i === null ? '' : ` [${(i.low * 100).toFixed(0)}-${(i.high * 100).toFixed(0)}]`);

/** First column left-aligned (the template), the figures right-aligned. */
const table = (rows: string[][]): string =>
  textTable(rows[0]!, rows.slice(1), { align: rows[0]!.map((_, c) => (c === 0 ? 'left' : 'right')) });

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}`;

/** The trend: "—" when the runs cannot tell; the interval alone when it holds 0; the change and its interval else. */
function trendCell(tr: Trend): string {
  const i = tr.interval ?? null;
  if (tr.change === null || i === null) return '—';
  const range = `[${signed(i.low)}, ${signed(i.high)}]/${tr.runs.length}`;
  return tr.distinguishable ? `${tr.change >= 0 ? '+' : ''}${(tr.change * 100).toFixed(1)} ${range}` : `~0 ${range}`;
}

/** How the resolved verdict set the passes counted, said when it changed one or could not be read. */
function resolutionNote(s: TemplateScores): string {
  const sum = (k: 'counted' | 'not_passes' | 'by_outcome') =>
    s.templates.reduce((n, t) => n + (t.resolution?.[k] ?? 0), 0);
  let out = '';
  const lowered = sum('not_passes');
  if (lowered)
    out += `passes: only a resolved run is one; ${plural(lowered, 'pass', 'passes')} that did not resolve their task counted as partial_pass (a target fixed) or agent_failure\n`;
  const old = sum('by_outcome');
  if (old)
    out += `${plural(old, 'scored run')} counted by outcome alone: no resolved verdict in their feedback (collected before it, or it cannot be told); collect again to count by it\n`;
  return out;
}

export function renderScores(s: TemplateScores, fired: Trigger[], closed: Trigger[] = []): string {
  let out = `Template scores (phase ${s.phase}, judge ${s.judge_enabled ? 'enabled' : 'disabled'}, ${s.blend_active ? `blend ${s.settings.weights.mechanical}/${s.settings.weights.judge}` : 'mechanical only'}${s.task_type ? `, task type ${s.task_type}` : ''}); scores 0-100 with 95% intervals\n`;
  const rows = [
    [
      'template',
      'runs',
      'infra',
      'pass',
      'full',
      'retry',
      'timeout',
      'mechanical',
      'judge (n)',
      'blended',
      'score',
      'trend',
    ],
  ];
  for (const t of s.templates) {
    rows.push([
      t.template,
      String(t.runs),
      String(t.outcomes.infra_failure),
      pct(t.pass_rate.value),
      pct(t.full_pass_rate.value),
      pct(t.retry_rate.value),
      pct(t.timeout_rate.value),
      num(t.mechanical.value) + iv(t.mechanical.interval),
      `${num(t.judge.value)} (${t.judge.n})`,
      num(t.blended.value) + iv(t.blended.interval),
      `${num(t.score)} ${t.basis === 'blended' ? 'B' : 'M'}`,
      trendCell(t.trend),
    ]);
  }
  out += s.templates.length ? table(rows) : '(no feedback records)\n';
  out +=
    'score: B blended, M mechanical; trend: later half - earlier half over the last runs by completion time, 95% interval/runs (~0: not told apart from no change; —: too few runs)\n';
  out += resolutionNote(s);
  if (s.ab) {
    out += `\nA/B (mechanical-only vs blended): Spearman ${s.ab.spearman === null ? '-' : s.ab.spearman.toFixed(3)}, Kendall tau-b ${s.ab.kendall_tau_b === null ? '-' : s.ab.kendall_tau_b.toFixed(3)} over ${s.ab.templates} templates\n`;
    for (const m of s.ab.moves.filter((x) => x.change !== 0))
      out += `  ${m.template}: ${m.mechanical_rank} -> ${m.blended_rank}: ${m.why}\n`;
    if (!s.ab.moves.some((x) => x.change !== 0)) out += '  no template changes rank\n';
    for (const sh of s.ab.shared_issues)
      out += `  shared by templates moving down: ${sh.key} (${sh.templates.join(', ')})\n`;
  }
  for (const t of fired) out += `\ntrigger fired: ${t.id}: ${t.summary}\n`;
  for (const t of closed) out += `\ntrigger closed: ${t.id}: ${t.closed_reason}\n`;
  if (s.sources.skipped.length) out += `\n${plural(s.sources.skipped.length, 'feedback file')} skipped (see stderr)\n`;
  return out;
}
