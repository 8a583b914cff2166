// Ratings see the tests (seed 002 §9: "If QA fails, the reviewer must downgrade quality_score"): the mechanical
// outcome of a run caps the quality its rating may use. Pure.
import { feedbackEvidence, TRUST_TEXT } from '../evidence/trust.js';
import type { Config, Feedback } from '../schema/types.generated.js';

export type QaCaps = NonNullable<Config['ratings']>['qa_caps'];
type QaStatus = 'clean' | 'unmeasured' | 'partial' | 'failed' | 'regressed';

export interface QaVerdict {
  status: QaStatus;
  /** Highest quality (0-10) the rating may use; null when nothing caps it (clean). */
  cap: number | null;
  reason: string;
}

const notPassed = new Set(['failed', 'error']);

/** What the run broke that passed on the base commit; empty when nothing (or no baseline to compare with). */
export function regressions(fb: Feedback): string[] {
  const out: string[] = [];
  const base = fb.baseline;
  if (!base) return out;
  if (base.build_passed === true && fb.checks.build && fb.checks.build.status !== 'passed')
    out.push('the build passed on the base commit and fails now');
  const now = fb.checks.test?.tests ?? null;
  const was = base.tests;
  if (now && was) {
    const broken: string[] = [];
    if (was.cases && now.cases) {
      const status = new Map(now.cases.map((c) => [c.id, c.status]));
      for (const c of was.cases) {
        const s = status.get(c.id);
        if (c.status === 'passed' && s !== undefined && notPassed.has(s)) broken.push(c.id);
      }
    }
    if (broken.length > 0)
      out.push(
        `${broken.length} test(s) that passed on the base commit fail now (${broken.slice(0, 3).join(', ')}${broken.length > 3 ? ', …' : ''})`,
      );
    else if (now.failed + now.errors > was.failed + was.errors)
      out.push(
        `${now.failed + now.errors} failing test(s) and error(s) against ${was.failed + was.errors} on the base commit`,
      );
  }
  if (fb.integrity.test_count_below_baseline) out.push('fewer tests than on the base commit');
  return out;
}

/**
 * The cap by outcome, worst first: regressed (broke what passed on the base) > failed (agent_failure, timeout, or
 * the tests cannot be trusted: runner crashed, none collected, counts disputed, exit code contradicting the counts,
 * tests not run) > partial (partial_pass) > unmeasured (no check configured: never a pass) > clean (full_pass).
 */
export function qaVerdict(fb: Feedback, caps: QaCaps): QaVerdict {
  const broke = regressions(fb);
  if (broke.length > 0) return { status: 'regressed', cap: caps.regressed, reason: broke.join('; ') };
  const ev = feedbackEvidence(fb);
  const distrust = ev.trusted === false ? ev.reasons.map((r) => TRUST_TEXT[r]) : [];
  if (fb.integrity.tests_not_run && !ev.reasons.includes('not_run')) distrust.push('the tests did not run');
  if (fb.outcome === 'agent_failure' || fb.outcome === 'timeout' || distrust.length > 0) {
    return {
      status: 'failed',
      cap: caps.failed,
      reason: [`outcome ${fb.outcome}`, ...distrust].join('; ') + (fb.outcome_reason ? ` (${fb.outcome_reason})` : ''),
    };
  }
  if (fb.outcome === 'partial_pass') return { status: 'partial', cap: caps.partial, reason: fb.outcome_reason };
  if (fb.outcome === 'unmeasured') return { status: 'unmeasured', cap: caps.unmeasured, reason: fb.outcome_reason };
  return { status: 'clean', cap: null, reason: fb.outcome_reason };
}

/** The quality a rating uses: the reviewer's or judge's, capped by the mechanical outcome. */
export function cappedQuality(quality: number, v: QaVerdict): number {
  return v.cap === null ? quality : Math.min(quality, v.cap);
}
