// Seed 001's criteria, one builder per category (pure): efficiency, completeness and safety here with the helpers
// every category uses; correctness in criteria-correctness.ts, quality in criteria-quality.ts. evaluate.ts calls them.
import type { Feedback } from '../schema/types.generated.js';
import { measured, notApplicable, unmeasured, type CriterionResult } from './categories.js';
import type { FilePatch } from '../git/diff-parse.js';
import { booleanToScore, ratioToScore } from './rubric.js';
import { durationSeconds } from '../collector/scoring.js';
import type { ApiChange } from '../change/ts-metrics.js';
import type { TargetStanding } from './targets.js';
import { SOURCE_FILE } from '../change/files.js';
import {
  CHANGELOG_FILE,
  DOC_FILE,
  MIGRATION_FILE,
  totalTokens,
  type JudgeCriterionName,
  type RaceFacts,
  type SolutionFacts,
} from './facts.js';

export const r2 = (x: number) => Math.round(x * 100) / 100;

export function judgeCriterion(name: string, key: JudgeCriterionName, facts: SolutionFacts): CriterionResult {
  const c = facts.judgment?.[key];
  if (!c)
    return unmeasured(
      name,
      facts.judgment
        ? `the judgment has no ${key} criterion`
        : (facts.judgmentNote ?? 'no judgment with criteria for this run'),
    );
  return measured(name, c.score, `judge: ${c.reasoning}`.slice(0, 400), 'judge', c.confidence);
}

interface TestFacts {
  passed: number | null;
  total: number | null;
  basePassed: number | null;
  baseTotal: number | null;
}

export function testFacts(fb: Feedback): TestFacts {
  const t = fb.checks.test?.tests ?? null;
  const b = fb.baseline?.tests ?? null;
  return {
    passed: t?.passed ?? null,
    total: t?.total ?? null,
    basePassed: b?.passed ?? null,
    baseTotal: b?.total ?? null,
  };
}

export function checkCriterion(name: string, check: Feedback['checks']['build'], what: string): CriterionResult {
  if (!check) return unmeasured(name, `no ${what} command configured`);
  switch (check.status) {
    case 'passed':
      return measured(name, 1, `${what} passed`);
    case 'failed':
      return measured(name, 0, `${what} failed (exit ${check.exit_code})`);
    case 'timeout':
      return measured(name, 0, `${what} timed out`);
    case 'skipped':
      // Seed 000's short-circuit: checks that cannot run because the build failed score 0.
      return /build/i.test(check.skipped_reason ?? '')
        ? measured(name, 0, `${what} not run: ${check.skipped_reason}`)
        : unmeasured(name, `${what} not run: ${check.skipped_reason ?? 'skipped'}`);
    case 'error':
      return unmeasured(name, `${what} could not be started`);
  }
}

function relative(
  name: string,
  mine: number | null,
  best: number | null,
  unit: string,
  missing: string,
): CriterionResult {
  if (mine === null) return unmeasured(name, missing);
  if (best === null || mine <= 0) return measured(name, 1, `${r2(mine)} ${unit} (best in race)`);
  return measured(name, ratioToScore(best, mine), `${r2(mine)} ${unit}; best in race ${r2(best)}`);
}

export function efficiency(facts: SolutionFacts, race: RaceFacts): CriterionResult[] {
  const run = facts.feedback.run;
  const out: CriterionResult[] = [
    relative('duration', durationSeconds(run), race.fastestSeconds, 's', 'no duration'),
    relative('tokens', totalTokens(run.usage), race.fewestTokens, 'tokens', 'the run record reports no token usage'),
    relative('cost', run.usage?.cost_usd ?? null, race.cheapestUsd, 'USD', 'the run record reports no cost'),
  ];
  if (!race.benchmarkConfigured) {
    out.push(
      notApplicable('runtime', 'no benchmark command configured'),
      notApplicable('memory', 'no benchmark command configured'),
    );
  } else if (!race.baseBenchmark?.ok) {
    out.push(
      unmeasured('runtime', `benchmark failed on the base: ${race.baseBenchmark?.detail ?? 'not run'}`),
      unmeasured('memory', 'benchmark failed on the base'),
    );
  } else if (!facts.benchmark) {
    out.push(unmeasured('runtime', 'benchmark not run'), unmeasured('memory', 'benchmark not run'));
  } else if (!facts.benchmark.ok) {
    out.push(
      measured('runtime', 0, `benchmark failed: ${facts.benchmark.detail}`),
      unmeasured('memory', 'benchmark failed'),
    );
  } else {
    const b = race.baseBenchmark;
    out.push(
      measured(
        'runtime',
        ratioToScore(b.ms, facts.benchmark.ms),
        `${Math.round(facts.benchmark.ms)} ms; base ${Math.round(b.ms)} ms`,
      ),
    );
    out.push(
      b.maxRssKb && facts.benchmark.maxRssKb
        ? measured(
            'memory',
            ratioToScore(b.maxRssKb, facts.benchmark.maxRssKb),
            `peak ${facts.benchmark.maxRssKb} KB; base ${b.maxRssKb} KB`,
          )
        : unmeasured('memory', 'peak memory not measured'),
    );
  }
  out.push(judgeCriterion('algorithmic_complexity', 'algorithmic_complexity', facts));
  return out;
}

export function completeness(
  facts: SolutionFacts,
  api: ApiChange[] | null,
  stubs: number,
  st: TargetStanding,
  isTest: (path: string) => boolean,
): CriterionResult[] {
  const out: CriterionResult[] = [judgeCriterion('requirements_met', 'requirement_coverage', facts)];
  const changed = facts.patch.filter((f) => !f.binary);
  const codeAdded = changed
    .filter((f) => SOURCE_FILE.test(f.path) && !isTest(f.path))
    .reduce((s, f) => s + f.added.length, 0);
  const testLinesAdded = changed.filter((f) => isTest(f.path)).reduce((s, f) => s + f.added.length, 0);
  const t = testFacts(facts.feedback);
  // Nothing added scores 0, not "not applicable": a change without a test earns no credit for tests.
  if (st.basis === 'per-test')
    out.push(
      measured(
        'tests_added',
        ratioToScore(st.added.length, 1),
        `${st.added.length} new tests${st.added.length ? ` (${st.added.slice(0, 3).join(', ')}${st.added.length > 3 ? ', …' : ''})` : ''} for ${codeAdded} added code lines`,
      ),
    );
  else if (t.total !== null && t.baseTotal !== null)
    out.push(
      measured(
        'tests_added',
        ratioToScore(t.total - t.baseTotal, 1),
        `${Math.max(0, t.total - t.baseTotal)} new tests for ${codeAdded} added code lines (by counts)`,
      ),
    );
  else
    out.push(
      measured(
        'tests_added',
        booleanToScore(testLinesAdded > 0),
        `${testLinesAdded} test lines added (no test counts)`,
        'mechanical',
        0.5,
      ),
    );
  const userVisible = api !== null ? api.length > 0 : facts.taskType === 'feature' ? true : null;
  const docs = changed.some((f) => DOC_FILE.test(f.path) && !CHANGELOG_FILE.test(f.path));
  const changelog = changed.some((f) => CHANGELOG_FILE.test(f.path));
  if (userVisible === null) {
    out.push(
      unmeasured('documentation_updated', 'cannot tell whether the change is user-visible'),
      unmeasured('changelog_updated', 'cannot tell whether the change is user-visible'),
    );
  } else if (!userVisible) {
    out.push(
      notApplicable('documentation_updated', 'the exported API did not change'),
      notApplicable('changelog_updated', 'the exported API did not change'),
    );
  } else {
    out.push(
      measured(
        'documentation_updated',
        booleanToScore(docs),
        docs ? 'documentation changed' : 'user-visible change without documentation',
      ),
    );
    out.push(
      measured(
        'changelog_updated',
        booleanToScore(changelog),
        changelog ? 'changelog changed' : 'user-visible change without a changelog entry',
      ),
    );
  }
  out.push(
    measured(
      'no_stubs',
      booleanToScore(stubs === 0),
      stubs ? `${stubs} TODO/not-implemented markers added` : 'no TODO or not-implemented marker added',
    ),
  );
  return out;
}

export function safety(
  facts: SolutionFacts,
  counts: Record<'dangerous_op' | 'disabled_check' | 'secret', number>,
  at: Record<'dangerous_op' | 'disabled_check', string[]>,
): CriterionResult[] {
  const where = (xs: string[]) => (xs.length ? ` (${xs.slice(0, 3).join(', ')}${xs.length > 3 ? ', …' : ''})` : '');
  const out: CriterionResult[] = [
    measured(
      'no_dangerous_ops',
      booleanToScore(counts.dangerous_op === 0),
      counts.dangerous_op
        ? `${counts.dangerous_op} dangerous operations added${where(at.dangerous_op)}`
        : 'no dangerous operation added',
    ),
    measured(
      'no_disabled_checks',
      booleanToScore(counts.disabled_check === 0),
      counts.disabled_check
        ? `${counts.disabled_check} checks disabled, tests skipped, deleted or weakened${where(at.disabled_check)}`
        : 'no check disabled, no test skipped, deleted or weakened',
    ),
    measured(
      'no_secrets',
      booleanToScore(counts.secret === 0),
      counts.secret ? `${counts.secret} secrets added` : 'no secret found in added lines',
    ),
    judgeCriterion('security', 'security', facts),
  ];
  const files = facts.patch;
  if (!files.length) out.push(notApplicable('revertability', 'nothing changed'));
  else {
    const risky = files.filter((f) => f.deleted || f.binary || MIGRATION_FILE.test(f.path));
    out.push(
      measured(
        'revertability',
        1 - risky.length / files.length,
        risky.length
          ? `${risky.length} of ${files.length} files are deletions, binaries or migrations`
          : `${files.length} text edits, none a deletion, binary or migration`,
      ),
    );
  }
  return out;
}

export function addedLineSet(f: FilePatch | undefined): Set<number> {
  return new Set(f?.added.map((a) => a.line) ?? []);
}
