// Feedback index rows → per template, per day: the score-templates formulas over each day's runs. Pure; memory is
// one accumulator per (template, day), whatever the number of runs (aggregate before plotting).
import type { FeedbackIndexRow, Outcome } from '../schema/types.generated.js';
import { blendInterval, type ScoreSettings } from '../templates/aggregate.js';
import { blendScore, mechanicalComposite, runMechanicalValue } from '../templates/formula.js';
import { addMoment, emptyMoments, mean, tInterval, type Moments } from '../stats/stats.js';

/** One day of one template; scores 0-1, null when nothing of that kind was measured that day. */
export interface DayPoint {
  day: string;
  runs: number;
  scored: number;
  mechanical: number | null;
  judge: number | null;
  judged: number;
  blended: number | null;
  /** The 95% interval of the day's score (blended when blended, else mechanical); null under two runs. */
  low: number | null;
  high: number | null;
}

interface DayAcc {
  outcomes: Record<Outcome, number>;
  retried: number;
  retryKnown: number;
  m: Moments;
  j: Moments;
  mJudged: Moments;
  sumMJ: number;
}

/** The UTC calendar day of an ISO time ('YYYY-MM-DD'); null when it does not parse. */
export function dayOf(iso: string): string | null {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

const newAcc = (): DayAcc => ({
  outcomes: { full_pass: 0, partial_pass: 0, agent_failure: 0, infra_failure: 0, timeout: 0, unmeasured: 0 },
  retried: 0,
  retryKnown: 0,
  m: emptyMoments(),
  j: emptyMoments(),
  mJudged: emptyMoments(),
  sumMJ: 0,
});

export class TemplateTimeline {
  private readonly days = new Map<string, Map<string, DayAcc>>();
  constructor(private readonly settings: ScoreSettings) {}

  add(row: FeedbackIndexRow): void {
    const day = dayOf(row.completed_at);
    if (day === null) return;
    let t = this.days.get(row.template);
    if (!t) {
      t = new Map();
      this.days.set(row.template, t);
    }
    let a = t.get(day);
    if (!a) {
      a = newAcc();
      t.set(day, a);
    }
    a.outcomes[row.outcome] += 1;
    const m = runMechanicalValue(row.outcome, row.retries, this.settings.mechanical);
    if (m === null) return;
    addMoment(a.m, m);
    if (row.retries !== null) {
      a.retryKnown += 1;
      if (row.retries > 0) a.retried += 1;
    }
    const j = row.judge?.score ?? null;
    if (j !== null) {
      addMoment(a.j, j);
      addMoment(a.mJudged, m);
      a.sumMJ += m * j;
    }
  }

  /** Each template's days, oldest first. */
  finish(): Map<string, DayPoint[]> {
    const out = new Map<string, DayPoint[]>();
    for (const [template, days] of this.days)
      out.set(
        template,
        [...days.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([day, a]) => dayPoint(day, a, this.settings)),
      );
    return out;
  }
}

function dayPoint(day: string, a: DayAcc, s: ScoreSettings): DayPoint {
  const o = a.outcomes;
  const runs = Object.values(o).reduce((x, y) => x + y, 0);
  const scored = runs - o.infra_failure - o.unmeasured;
  const mechanical = mechanicalComposite(
    {
      full_pass: o.full_pass,
      partial_pass: o.partial_pass,
      timeout: o.timeout,
      scored,
      retried: a.retried,
      retry_known: a.retryKnown,
    },
    s.mechanical,
  );
  const judge = mean(a.j);
  const blended = s.blend ? blendScore(mechanical, judge, s.weights) : null;
  const interval =
    blended !== null
      ? blendInterval(blended, a.m, a.j, a.mJudged, a.sumMJ, s.weights)
      : tInterval(a.m, mechanical ?? null);
  return {
    day,
    runs,
    scored,
    mechanical,
    judge,
    judged: a.j.n,
    blended,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
  };
}
