// The pure parts of bin/report: per-day aggregation against score-templates' own aggregator, the view model's
// empty states and chart tables, and the escaping of text and script data.
import { describe, expect, it } from 'vitest';
import type { FeedbackIndexRow, Outcome } from '../../lib/schema/types.generated.js';
import { TemplateAggregator, type ScoreSettings } from '../../lib/templates/aggregate.js';
import { LEARNING_LOOP } from '../../lib/templates/formula.js';
import { esc, renderHtml, scriptJson } from '../../lib/view/html.js';
import { buildModel, chartTable, since, type ReportInput } from '../../lib/view/model.js';
import { dayOf, TemplateTimeline } from '../../lib/view/timeline.js';

const settings = (blend: boolean): ScoreSettings => ({
  weights: { mechanical: 0.6, judge: 0.4 },
  mechanical: LEARNING_LOOP,
  trendWindow: 10,
  recurringWindow: 10,
  blend,
  blendOffReason: 'off',
});

const row = (i: number, outcome: Outcome, day: string, judge: number | null, retries: number | null = 0) =>
  ({
    bead: `bd-${i}`,
    template: 't',
    task_type: null,
    completed_at: `${day}T${String(i % 24).padStart(2, '0')}:00:00Z`,
    outcome,
    retries,
    composite: 0.5,
    judge: judge === null ? null : { score: judge, verdict: 'partial', issues: [] },
    file: { size: 1, mtime_ms: 1 },
    indexed_at: '2026-01-01T00:00:00Z',
  }) as FeedbackIndexRow;

describe('TemplateTimeline', () => {
  it("gives each day score-templates' score over that day's runs (mechanical, judge, blend, interval)", () => {
    const outcomes: Outcome[] = ['full_pass', 'partial_pass', 'timeout', 'agent_failure', 'infra_failure', 'full_pass'];
    for (const blend of [false, true]) {
      const tl = new TemplateTimeline(settings(blend));
      const perDay = new Map<string, TemplateAggregator>();
      outcomes.forEach((o, i) => {
        for (const day of ['2026-01-01', '2026-01-02']) {
          const r = row(
            i,
            o,
            day,
            day === '2026-01-02' && i % 2 ? 0.3 + i / 10 : null,
            i === 1 ? 2 : i === 5 ? null : 0,
          );
          tl.add(r);
          if (!perDay.has(day)) perDay.set(day, new TemplateAggregator(settings(blend)));
          perDay.get(day)!.add(r);
        }
      });
      const days = tl.finish().get('t')!;
      expect(days.map((d) => d.day)).toEqual(['2026-01-01', '2026-01-02']);
      for (const d of days) {
        const t = perDay.get(d.day)!.finish()[0]!;
        expect(d).toMatchObject({
          runs: t.runs,
          scored: t.scored_runs,
          mechanical: t.mechanical.value,
          judge: t.judge.value,
        });
        expect(d.blended).toBe(t.blended.value);
        const interval = t.blended.interval ?? t.mechanical.interval;
        expect([d.low, d.high]).toEqual([interval?.low ?? null, interval?.high ?? null]);
      }
    }
  });

  it('puts a run on its UTC day and skips a time that does not parse', () => {
    expect(dayOf('2026-01-01T23:30:00-02:00')).toBe('2026-01-02');
    expect(dayOf('yesterday')).toBeNull();
    const tl = new TemplateTimeline(settings(false));
    tl.add({ ...row(1, 'full_pass', '2026-01-01', null), completed_at: 'never' });
    expect(tl.finish().size).toBe(0);
  });
});

const empty = (over: Partial<ReportInput> = {}): ReportInput => ({
  generatedAt: '2026-01-01T00:00:00Z',
  stateDir: '/s',
  filters: { since: null, template: null, race: null, agent: null },
  problems: [],
  templates: { list: [], days: new Map(), ab: null, blend: false, phase: 1, feedbackFiles: 0 },
  triggers: [],
  selections: [],
  races: [],
  choices: [],
  agents: [],
  routing: [],
  ledger: [],
  judgments: [],
  queue: { waiting: 0, claimed: 0, oldest: null },
  ...over,
});

describe('buildModel', () => {
  it('says what is missing in every section of an empty state, and draws nothing', () => {
    const m = buildModel(empty());
    expect(m.sections.map((s) => s.id)).toEqual(['templates', 'races', 'agents', 'judge']);
    for (const s of m.sections) expect(s.missing.length, s.id).toBeGreaterThan(0);
    expect(m.sections.flatMap((s) => s.blocks.filter((b) => b.chart))).toEqual([]);
  });

  it("makes each chart's table of exactly its numbers", () => {
    const c = {
      kind: 'line' as const,
      x: ['2026-01-01', '2026-01-02'],
      series: [{ label: 'a', values: [1, null] }],
      y: '',
    };
    expect(chartTable(c, 'day')).toEqual({
      columns: ['day', 'a'],
      rows: [
        ['2026-01-01', 1],
        ['2026-01-02', null],
      ],
    });
  });

  it('filters by --since on the instant, whatever the offset', () => {
    const f = { since: '2026-01-01T00:00:00.000Z', template: null, race: null, agent: null };
    expect(since(f, '2026-01-01T01:00:00+02:00')).toBe(false);
    expect(since(f, '2026-01-01T00:00:00Z')).toBe(true);
  });
});

describe('escaping', () => {
  it('escapes text and attributes, and keeps script data from closing its element', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const data = scriptJson({ label: '</script><script>alert(1)</script>\u2028' });
    expect(data).not.toMatch(/<|\u2028/);
    expect(JSON.parse(data)).toEqual({ label: '</script><script>alert(1)</script>\u2028' });
  });

  it('allows only its own two scripts by hash and no fetch at all', () => {
    const html = renderHtml(buildModel(empty()), { js: 'window.uPlot=1', css: '' });
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+' 'sha256-[^']+'; /);
    expect(/script-src [^;]*/.exec(csp)![0]).not.toContain('unsafe-inline');
  });
});
