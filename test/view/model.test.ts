// The pure parts of bin/report: per-day aggregation against score-templates' own aggregator, the view model's
// empty states and chart tables, and the escaping of text and script data.
import { describe, expect, it } from 'vitest';
import type { FeedbackIndexRow, Outcome } from '../../lib/schema/types.generated.js';
import { TemplateAggregator, type ScoreSettings } from '../../lib/templates/aggregate.js';
import { LEARNING_LOOP } from '../../lib/templates/formula.js';
import { esc, renderHtml, scriptJson } from '../../lib/view/html.js';
import { calibrate } from '../../lib/judge/calibration.js';
import type { Judgment, UserVerdict } from '../../lib/schema/types.generated.js';
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
  calibration: calibrate({ judgments: [], userVerdicts: [], races: [], choices: [], floor: 0.7 }),
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

  it("shows judgeloop calibrate's table in the judge section, with the warning under the floor", () => {
    const j = (bead: string, verdict: 'pass' | 'fail') => ({ bead, status: 'judged', verdict }) as unknown as Judgment;
    const u = (bead: string, verdict: 'pass' | 'fail') =>
      ({ bead, verdict, dimension: null }) as unknown as UserVerdict;
    const calibration = calibrate({
      judgments: [j('a', 'pass'), j('b', 'pass'), j('c', 'fail')],
      userVerdicts: [u('a', 'pass'), u('b', 'fail'), u('c', 'pass')],
      races: [],
      choices: [],
      floor: 0.7,
    });
    const judge = buildModel(empty({ calibration })).sections.find((s) => s.id === 'judge')!;
    const b = judge.blocks.find((x) => x.title.startsWith('Calibration against your recorded choices'))!;
    expect(b.table.rows[0]!.slice(0, 2)).toEqual(['verdicts', '3']);
    expect(b.table.rows[0]![4]).toBe('1 1 / 1 0');
    expect(b.note).toMatch(/the judge agrees with your verdicts on 1 of 3 \(33%\), below the floor 70%/);
    expect(judge.missing.join(' ')).not.toMatch(/calibrate --record/);
    const none = buildModel(empty()).sections.find((s) => s.id === 'judge')!;
    expect(none.missing.join(' ')).toMatch(/judgeloop calibrate --record BEAD --verdict pass\|fail/);
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
