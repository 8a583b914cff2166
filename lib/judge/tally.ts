// What the judge did for a batch of runs (a race), in one line for its stdout: how many were judged, reused, deferred
// and why, and which runs were ranked without the judge. Pure.

export interface OutcomeLine {
  bead: string;
  status: 'judged' | 'failed' | 'skipped' | 'deferred' | 'cached' | 'dry-run' | 'outage' | 'prepared';
  message: string;
}

export interface JudgeTally {
  judged: number;
  cached: number;
  deferred: number;
  failed: number;
  skipped: number;
  /** Runs the judge did not assess (deferred, failed, skipped): ranked without the judge's criteria. */
  without: string[];
  /** Why the first deferred run was deferred (the judge's own message), when one was. */
  deferred_reason: string | null;
}

/** Counts the outcomes; a dry run or an outage (only a drain meets one) counts as not judged. */
export function tallyOutcomes(outcomes: readonly OutcomeLine[]): JudgeTally {
  const t: JudgeTally = {
    judged: 0,
    cached: 0,
    deferred: 0,
    failed: 0,
    skipped: 0,
    without: [],
    deferred_reason: null,
  };
  for (const o of outcomes) {
    if (o.status === 'judged' || o.status === 'cached') {
      t[o.status]++;
      continue;
    }
    if (o.status === 'deferred') {
      t.deferred++;
      // "deferred: 8 of 8 judge calls used in the last hour; queued in state/queue/<bead>.json …": the first part.
      t.deferred_reason ??= o.message.replace(/^deferred: /, '').split(';')[0]!;
    } else if (o.status === 'skipped') t.skipped++;
    else t.failed++;
    t.without.push(o.bead);
  }
  return t;
}

/** The line a race prints under its ranking; null when the judge was not asked about any run. */
export function tallyLine(t: JudgeTally, raceId: string): string | null {
  const total = t.judged + t.cached + t.deferred + t.failed + t.skipped;
  if (total === 0) return null;
  const parts = [`${t.judged} judged`, `${t.cached} reused from the cache (no call)`];
  if (t.deferred)
    parts.push(
      `${t.deferred} deferred (the hourly limit, judge.max_per_hour: ${t.deferred_reason ?? 'reached'}; queued)`,
    );
  if (t.failed) parts.push(`${t.failed} failed`);
  if (t.skipped) parts.push(`${t.skipped} skipped`);
  let line = `Judge: ${parts.join(', ')}.`;
  if (t.without.length)
    line += ` Ranked without the judge's criteria: ${t.without.join(', ')}${t.deferred ? `; \`judgeloop judge --drain\` judges the queued runs, then \`judgeloop race --race ${raceId} --recollect\` ranks again` : ''}.`;
  return line;
}
