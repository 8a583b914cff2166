// What the race knows about one solution and about the race (the IO layer gathers it, the evaluation reads it),
// and the file classes the criteria use. Pure.
import type { Feedback, RaceCategoryWeights } from '../schema/types.generated.js';
import type { FilePatch } from '../git/diff-parse.js';
import type { RaceTargets } from './targets.js';
import type { FileText } from '../change/texts.js';

/** The judge's optional per-criterion assessments (state/judgments/<bead>.json `criteria`), each 0-1. */
interface JudgeCriterion {
  score: number;
  confidence: number;
  reasoning: string;
}
export const JUDGE_CRITERIA = [
  'requirement_coverage',
  'edge_cases',
  'naming',
  'pattern_adherence',
  'error_handling',
  'security',
  'algorithmic_complexity',
] as const;
export type JudgeCriterionName = (typeof JUDGE_CRITERIA)[number];
export type JudgeCriteria = Partial<Record<JudgeCriterionName, JudgeCriterion>>;

export interface BenchmarkResult {
  ok: boolean;
  ms: number;
  maxRssKb: number | null;
  detail: string;
}

/** What the IO layer gathered about one solution. */
export interface SolutionFacts {
  feedback: Feedback;
  judgment: JudgeCriteria | null;
  /** Why there is no judgment with criteria, when there is none. */
  judgmentNote?: string;
  patch: FilePatch[];
  /** Changed text files, both versions. */
  files: FileText[];
  /** Other files of the solution's tree given to the clone detector as context (path and text). */
  cloneContext: { path: string; text: string }[];
  /** Changed files whose change vanishes when whitespace is ignored. */
  formattingOnlyFiles: string[];
  benchmark: BenchmarkResult | null;
  taskType?: string;
  /** The graded test files of the trusted revision (the base), path and text: special-casing is checked against their literals. */
  testTexts: { path: string; text: string }[];
  /** sha256 (hex) of the diff text: the ranking's last tie-break. */
  contentHash?: string;
}

/** Figures across the race that some criteria are relative to. */
export interface RaceFacts {
  fastestSeconds: number | null;
  fewestTokens: number | null;
  cheapestUsd: number | null;
  baseBenchmark: BenchmarkResult | null;
  benchmarkConfigured: boolean;
  /** The race's target tests. */
  targets: RaceTargets;
}

export interface EvaluateOptions {
  weights: RaceCategoryWeights;
  cloneMinTokens: number;
  /** Comment lines per added code line that earns comment coverage its full score (race.comment_target_ratio). */
  commentTargetRatio: number;
  /** Finding kinds that fail the gate (race.gate.blocking_findings). */
  blockingFindings: readonly string[];
  /** Weight of target_tests within correctness (race.target_weight); the other criteria weigh 1. */
  targetWeight: number;
  /** Globs of test infrastructure (collector.test_infra_paths): the graded tree's list, read by the findings too. */
  testInfraPaths: readonly string[];
  /** Globs of test files (collector.test_paths): what the graded run takes from the trusted revision; the rest is code. */
  testPaths: readonly string[];
}

export const CHANGELOG_FILE = /(^|\/)(CHANGELOG|CHANGES|HISTORY|NEWS)(\.[A-Za-z]+)?$/i;
export const DOC_FILE = /(^|\/)(docs?\/|README)|\.(md|mdx|rst|adoc|txt)$/i;
export const MIGRATION_FILE = /(^|\/)migrat|\.sql$/i;

export function totalTokens(usage: Feedback['run']['usage']): number | null {
  if (!usage) return null;
  if (usage.total_tokens !== undefined) return usage.total_tokens;
  if (usage.input_tokens !== undefined && usage.output_tokens !== undefined)
    return usage.input_tokens + usage.output_tokens;
  return null;
}
