// A run's evidence in a form two repositories can be compared by: the feedback without timings, ids and temp paths.
import type { Feedback } from '../../lib/schema/types.generated.js';

/** What a run's evidence says: its feedback without timings, commit ids and temporary paths (two repositories). */
export function evidence(fb: Feedback): unknown {
  const { outcome, outcome_reason, composite, scores, diff, checks, baseline, resolution, integrity } = fb;
  const text = JSON.stringify(
    { outcome, outcome_reason, composite, scores, diff, checks, baseline, resolution, integrity },
    (k, v) => (/(duration|_ms$|_at$|elapsed|speed|seconds|^commit$|merge_base|hash|^key$)/.test(k) ? undefined : v),
  );
  return JSON.parse(
    text
      .replace(/[0-9a-f]{40}/g, '<oid>')
      .replace(/ in [0-9.]+s\b/g, '')
      .replace(/\/[^"\s]*judgeloop-[^"\s]*/g, '<tmp>'),
  );
}
