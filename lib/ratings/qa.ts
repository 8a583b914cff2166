// Ratings see the tests (seed 002 §9: "If QA fails, the reviewer must downgrade quality_score"): the mechanical
// outcome of a run caps the quality its rating may use. Pure.
import { feedbackEvidence, TRUST_TEXT } from '../evidence/trust.js';
import type { Config, Feedback } from '../schema/types.generated.js';
import { plural } from '../base/plural.js';

export type QaCaps = NonNullable<Config['ratings']>['qa_caps'];
type QaStatus = 'clean' | 'unmeasured' | 'partial' | 'failed' | 'unfixed' | 'regressed' | 'no_op';

export interface QaVerdict {
  status: QaStatus;
  /** Highest quality (0-10) the rating may use; null when nothing caps it (clean). */
  cap: number | null;
  reason: string;
  /** The run fixes none of its target tests (feedback.resolution): its score never raises the agent's rating. */
  fixesNothing: boolean;
}

/** A no-op's quality: the change does nothing, so there is nothing to credit (its run score is then 0). */
const NO_OP_QUALITY = 0;

/** The collector's outcome_reason for a no-op (lib/collector/regressions.ts verdictOutcome; a test ties the two). */
const NO_OP_REASON = 'the change does nothing';

/**
 * Why the run is a no-op, or null: the collector called it one (outcome reason, or the composite 0 only its no-op
 * rule gives), or its diff is empty.
 */
export function noOpOf(fb: Feedback): string | null {
  if (fb.outcome_reason.startsWith(NO_OP_REASON)) return fb.outcome_reason;
  if (fb.diff && fb.diff.files_changed === 0) return 'the change does nothing: the diff is empty';
  if (fb.composite === 0) return 'the change does nothing: the collector scored it 0 (its no-op rule)';
  return null;
}

/** "fixes 0 of 2 target tests" when the run is measured and fixes none of its targets; null otherwise. */
export function fixesNothing(fb: Feedback): string | null {
  const r = fb.resolution;
  if (!r || r.basis === 'none' || r.target_total === 0 || r.fixed > 0) return null;
  return r.line || `fixes 0 of ${r.target_total} target tests`;
}

const notPassed = new Set(['failed', 'error']);

/**
 * What the run broke that passed on the base commit, from its checks against the baseline, else from its resolution's
 * count; empty when nothing (or nothing to compare with).
 */
export function regressions(fb: Feedback): string[] {
  const out = regressionsByTests(fb);
  const r = fb.resolution;
  if (out.length === 0 && r && r.broke_count > 0)
    out.push(
      `${plural(r.broke_count, 'test')} that passed on the base commit no longer pass${r.broke_count === 1 ? 'es' : ''} (${r.broke.slice(0, 3).join(', ')}${r.broke.length > 3 ? ', …' : ''})`,
    );
  return out;
}

function regressionsByTests(fb: Feedback): string[] {
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
        `${plural(broken.length, 'test')} that passed on the base commit ${broken.length === 1 ? 'fails' : 'fail'} now (${broken.slice(0, 3).join(', ')}${broken.length > 3 ? ', …' : ''})`,
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
 * The cap by outcome, worst first: no_op (quality 0) > regressed (broke what passed on the base) > unfixed (fixes
 * none of its targets) > failed (agent_failure, timeout, or tests that cannot be trusted) > partial (partial_pass) >
 * unmeasured (no check configured) > clean (full_pass). `fixesNothing` holds whatever the status (scoreCeiling).
 */
export function qaVerdict(fb: Feedback, caps: QaCaps): QaVerdict {
  const v = verdictOf(fb, caps);
  return { ...v, fixesNothing: fixesNothing(fb) !== null };
}

function verdictOf(fb: Feedback, caps: QaCaps): Omit<QaVerdict, 'fixesNothing'> {
  const noOp = noOpOf(fb);
  if (noOp) return { status: 'no_op', cap: NO_OP_QUALITY, reason: noOp };
  const broke = regressions(fb);
  if (broke.length > 0) return { status: 'regressed', cap: caps.regressed, reason: broke.join('; ') };
  const unfixed = fixesNothing(fb);
  if (unfixed) return { status: 'unfixed', cap: caps.failed, reason: `${unfixed} (outcome ${fb.outcome})` };
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

/**
 * The highest run score a run may feed its agent's rating: for a run that fixes nothing, the lowest of the ratings
 * its score moves (the rating; the reasoning rating too for a reasoning discipline) — so the EMA cannot rise; null
 * when nothing holds it (another run, or an agent with no rating yet: its first score starts the rating, the quality
 * already capped).
 */
export function scoreCeiling(
  v: Pick<QaVerdict, 'fixesNothing'>,
  before: { rating: number | null; reasoning_rating: number | null },
  reasoning: boolean,
): number | null {
  if (!v.fixesNothing) return null;
  const held = [before.rating, reasoning ? before.reasoning_rating : null].filter((x): x is number => x !== null);
  return held.length ? Math.min(...held) : null;
}
