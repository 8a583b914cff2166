// Seed 000's mechanical scoring, on the document's own 0-100 scale. Pure: data in, numbers out.
// The feedback record stores each score divided by 100 (0-1), see toUnit().
import { normaliseWeights as normaliseOver, weightedMean } from '../stats/weights.js';
import type { TestCounts } from './parsers/types.js';

export const DIMENSIONS = ['build', 'tests', 'lint', 'diff_size', 'speed'] as const;
type Dimension = (typeof DIMENSIONS)[number];

/** A dimension's score 0-100, or null when the dimension is excluded (command not configured, not measurable). */
export type Scores = Record<Dimension, number | null>;
export type Weights = Record<Dimension, number>;

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** Build: exit 0 → 100, anything else (non-zero, killed, timed out) → 0. */
export function scoreBuild(passed: boolean): number {
  return passed ? 100 : 0;
}

export interface TestTally {
  passed: number;
  /** Tests counted in all (the denominator of the pass rate). */
  total: number;
}

/**
 * Tests: pass_rate×100 + new-test bonus − regression penalty, clamped to 0-100.
 * bonus = (agent.total − baseline.total)/agent.total × 10 when the agent has more tests;
 * penalty = (baseline.passed − agent.passed)/baseline.passed × 50 when fewer pass.
 * No baseline: no bonus and no penalty (nothing to compare with). Zero tests: pass rate 0 (no evidence).
 */
export function scoreTests(agent: TestTally, baseline: TestTally | null): number {
  const passRate = agent.total > 0 ? agent.passed / agent.total : 0;
  let bonus = 0;
  let penalty = 0;
  if (baseline) {
    if (agent.total > baseline.total) bonus = ((agent.total - baseline.total) / agent.total) * 10;
    // baseline.passed 0 ⇒ agent.passed ≥ 0 always holds, so the division below never sees 0.
    if (agent.passed < baseline.passed) penalty = ((baseline.passed - agent.passed) / baseline.passed) * 50;
  }
  return clamp(passRate * 100 + bonus - penalty, 0, 100);
}

/**
 * Tests against the base, when the task has target tests: 100 × share of targets fixed × share of the base's
 * passing tests kept. A run that fixes no target scores 0 whatever its pass rate (issue 34: the fix, not the rate).
 */
export function scoreTestsResolved(r: {
  fixed: number;
  targets: number;
  broke: number;
  basePassing: number | null;
}): number {
  const fixed = r.targets > 0 ? Math.min(1, r.fixed / r.targets) : 1;
  const kept = r.basePassing ? Math.max(0, 1 - r.broke / r.basePassing) : r.broke > 0 ? 0 : 1;
  return clamp(100 * fixed * kept, 0, 100);
}

/** Tests when the output gave no counts: the exit code alone (seed 000's fallback). */
export function scoreTestsByExitCode(exitCode: number | null): number {
  return exitCode === 0 ? 100 : 0;
}

export interface LintTally {
  errors: number;
  warnings: number;
}

/**
 * Lint: 100 − 10×new errors − 2×new warnings + 1×resolved issues, clamped to 0-100.
 * No baseline: compared with a clean base (every issue counts as new); the caller notes it.
 */
export function scoreLint(agent: LintTally, baseline: LintTally | null): number {
  const base = baseline ?? { errors: 0, warnings: 0 };
  const newErrors = Math.max(0, agent.errors - base.errors);
  const newWarnings = Math.max(0, agent.warnings - base.warnings);
  const resolved = Math.max(0, base.errors + base.warnings - (agent.errors + agent.warnings));
  return clamp(100 - newErrors * 10 - newWarnings * 2 + resolved, 0, 100);
}

/** Churn part of the diff score: 100 up to 100 lines, linear to 60 at 500, then −40 per 1000 lines, floor 20. */
export function churnScore(churn: number): number {
  if (churn <= 100) return 100;
  if (churn <= 500) return 100 - ((churn - 100) / 400) * 40;
  return Math.max(20, 60 - ((churn - 500) / 1000) * 40);
}

/** File part: 100 up to 5 files, linear to 70 at 15, then −40 per 20 files, floor 30. */
export function fileScore(files: number): number {
  if (files <= 5) return 100;
  if (files <= 15) return 100 - ((files - 5) / 10) * 30;
  return Math.max(30, 70 - ((files - 15) / 20) * 40);
}

export interface DiffTally {
  linesAdded: number;
  linesRemoved: number;
  filesChanged: number;
}

/** Diff size: 0.6 × churn score + 0.4 × file score. */
export function scoreDiffSize(d: DiffTally): number {
  return churnScore(d.linesAdded + d.linesRemoved) * 0.6 + fileScore(d.filesChanged) * 0.4;
}

/**
 * Speed: reference/duration × 100, capped at 100. The reference is the fastest run of the race,
 * or the time budget for a lone run (a run within the budget scores 100). Duration 0 scores 100.
 */
export function scoreSpeed(durationSeconds: number, referenceSeconds: number): number {
  if (durationSeconds <= 0) return 100;
  return clamp((referenceSeconds / durationSeconds) * 100, 0, 100);
}

/** Weights over the dimensions that have a score, re-normalised to sum to 1; {} when none has weight. */
export function normaliseWeights(weights: Weights, scores: Scores): Partial<Weights> {
  return normaliseOver(
    weights,
    DIMENSIONS.filter((d) => scores[d] !== null),
  );
}

/**
 * Composite 0-100: Σ score×weight / Σ weight over the dimensions present (null scores drop out and
 * the rest re-normalise); null when no dimension with weight is present. Summed with the raw weights
 * so that integer inputs give exact results (9125/100 = 91.25, not 91.24999…).
 */
export function compositeScore(scores: Scores, weights: Weights): number | null {
  return weightedMean(DIMENSIONS.filter((d) => scores[d] !== null).map((d) => [scores[d]!, weights[d]] as const));
}

/** 0-100 → the 0-1 of state files; null stays null. */
export function toUnit(score: number | null): number | null {
  return score === null ? null : score / 100;
}

/** The parsed counts the tests formula needs: the parsers' own TestCounts. */
export type ParsedTests = Omit<TestCounts, 'runner' | 'notes'>;

export function tallyTests(c: ParsedTests): TestTally | null {
  if (c.passed === null) return null;
  const total = (c.total ?? c.passed + c.failed + c.skipped) + c.errors;
  const passed = Math.min(total, c.passed + (c.xfailed ?? 0) + (c.xpassed ?? 0));
  return { passed, total };
}

/** Wall time of an agent run, seconds: completed_at − started_at (never negative). */
export function durationSeconds(run: { started_at: string; completed_at: string }): number {
  return Math.max(0, (Date.parse(run.completed_at) - Date.parse(run.started_at)) / 1000);
}
