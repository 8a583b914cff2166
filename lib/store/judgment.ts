// The one reader of state/judgments/<bead>.json outside the judge: validated, a corrupt file a note (never
// thrown), and the summary that goes into feedback.
import { CorruptStateError, type StateStore } from './store.js';
import type { Judgment, JudgmentSummary } from '../schema/types.generated.js';

interface StoredJudgment {
  /** The validated judgment, or null when there is none or it is corrupt. */
  judgment: Judgment | null;
  /** Why there is no usable judgment, when a file exists but cannot be used. */
  note: string | null;
}

export function readStoredJudgment(store: StateStore, bead: string): StoredJudgment {
  try {
    return { judgment: store.read<Judgment>('judgments', bead), note: null };
  } catch (e) {
    if (e instanceof CorruptStateError) return { judgment: null, note: `judgment not used: ${e.message}` };
    throw e;
  }
}

/** The verdict as merged into feedback; null unless the judge succeeded (a failed judgment has no score). */
export function summarizeJudgment(j: Judgment): JudgmentSummary | null {
  if (j.status !== 'judged' || j.verdict === null || j.score === null || j.dimensions === null) return null;
  return {
    verdict: j.verdict,
    score: j.score,
    dimensions: j.dimensions,
    issues: j.issues,
    model: j.model,
    judged_at: j.judged_at,
  };
}
