// Hand-built state directories: feedback records written through the real StateStore (so they are schema-valid).
import { orderFeedback } from '../../lib/collector/record-order.js';
import { indexFeedback } from '../../lib/store/feedback-index.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, JudgmentSummary, Outcome } from '../../lib/schema/types.generated.js';
import { removeTempDir, tempDir } from '../helpers/temp.js';

export interface RunSpec {
  bead: string;
  template: string;
  outcome: Outcome;
  completed_at?: string;
  task_type?: string;
  iterations?: number;
  composite?: number | null;
  judge?: number | null;
  issues?: { description: string; category?: string; severity?: 'major' | 'minor' }[];
  /** feedback.resolution as the collector writes it (test/helpers/resolution.ts); absent: a record from before it. */
  resolution?: Feedback['resolution'];
}

export function makeFeedback(s: RunSpec): Feedback {
  const completed = s.completed_at ?? '2026-01-01T12:00:00Z';
  const judgment: JudgmentSummary | null =
    s.judge === undefined || s.judge === null
      ? null
      : {
          verdict: s.judge >= 0.7 ? 'pass' : s.judge >= 0.4 ? 'partial' : 'fail',
          score: s.judge,
          issues: (s.issues ?? []).map((i) => ({
            severity: i.severity ?? 'major',
            description: i.description,
            ...(i.category ? { category: i.category } : {}),
          })),
          model: 'claude-opus-4',
          judged_at: completed,
        };
  const infra = s.outcome === 'infra_failure';
  return {
    schema_version: '1.0.0',
    bead: s.bead,
    run: {
      task_id: `task-${s.bead}`,
      ...(s.task_type !== undefined ? { task_type: s.task_type } : {}),
      template: s.template,
      agent: 'claude',
      started_at: new Date(Date.parse(completed) - 60_000).toISOString(),
      completed_at: completed,
      status: infra
        ? 'infra_failure'
        : s.outcome === 'timeout'
          ? 'timeout'
          : s.outcome === 'agent_failure'
            ? 'failed'
            : 'completed',
      exit_code: infra ? null : 0,
      ...(s.iterations !== undefined ? { iterations: s.iterations } : {}),
    },
    collected_at: completed,
    commands: { build: null, test: 'npm test', lint: null, typecheck: null },
    checks: { build: null, test: null, lint: null, typecheck: null },
    baseline: null,
    diff: null,
    scores: { build: null, tests: null, lint: null, diff_size: null, speed: null },
    weights_used: {},
    composite: s.composite === undefined ? (infra ? null : 0.5) : s.composite,
    speed: { basis: 'none', duration_seconds: 60, reference_seconds: null },
    outcome: s.outcome,
    outcome_reason: `fixture ${s.outcome}`,
    ...(s.resolution ? { resolution: s.resolution } : {}),
    integrity: {
      tests_not_run: false,
      exit_code_contradicts_counts: false,
      test_count_below_baseline: false,
      notes: [],
    },
    judgment,
  };
}

export interface TempState {
  root: string;
  store: StateStore;
  cleanup: () => void;
}

export function tempState(): TempState {
  const root = tempDir('jl-templates-');
  return { root, store: new StateStore(root), cleanup: () => removeTempDir(root) };
}

/** Writes feedback files as the collector does; `index` also appends their index rows (the collector's call). */
export async function writeRuns(store: StateStore, runs: RunSpec[], index = true): Promise<void> {
  for (const r of runs) {
    const fb = orderFeedback(makeFeedback(r)); // the collector's layout: summary first (lib/collector/record-order.ts)
    store.write('feedback', r.bead, fb);
    if (index) await indexFeedback(store, fb, '2026-02-01T00:00:00.000Z');
  }
}

/** An ISO time `minutes` after a fixed origin. */
export const at = (minutes: number): string =>
  new Date(Date.parse('2026-01-01T00:00:00Z') + minutes * 60_000).toISOString();
