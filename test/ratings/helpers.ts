// Test helpers: a temp state dir, a valid feedback record for a bead, and the bin runner.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../../lib/config/config.js';
import { StateStore } from '../../lib/store/store.js';
import type { Config, Feedback } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/temp.js';
import { runHere, type CommandResult } from '../helpers/in-process.js';
import type { CommandRun } from '../../lib/cli/cli.js';
import { run as agents } from '../../scripts/agents.js';
import { run as rate } from '../../scripts/rate.js';
import { run as ratings } from '../../scripts/ratings.js';
import { run as route } from '../../scripts/route.js';
import { run as selectTemplate } from '../../scripts/select-template.js';

export const ROOT = join(import.meta.dirname, '..', '..');

export function tempStore(): StateStore {
  return new StateStore(tempDir('jl-ratings-'));
}

export const config = (): Config => loadConfig({ env: {} });

export interface RunFacts {
  agent?: string;
  complexity?: number | null;
  command?: string;
  discipline?: string;
  durationSeconds?: number;
  iterations?: number;
  tokens?: number;
  costUsd?: number;
  outcome?: Feedback['outcome'];
  status?: Feedback['run']['status'];
  startedAt?: string;
  judgeScore?: number;
  outcomeReason?: string;
  composite?: number | null;
  /** feedback.resolution as the collector writes it (test/helpers/resolution.ts). */
  resolution?: Feedback['resolution'];
}

/** A minimal but schema-valid feedback record: the run block is what rating reads. */
export function feedback(bead: string, f: RunFacts = {}): Feedback {
  const started = f.startedAt ?? '2026-01-01T00:00:00.000Z';
  const completed = new Date(Date.parse(started) + (f.durationSeconds ?? 600) * 1000).toISOString();
  const usage: NonNullable<Feedback['run']['usage']> = {};
  if (f.tokens !== undefined) usage.total_tokens = f.tokens;
  if (f.costUsd !== undefined) usage.cost_usd = f.costUsd;
  return {
    schema_version: '1.0.0',
    bead,
    run: {
      task_id: `task-${bead}`,
      template: 'tpl-a',
      agent: f.agent ?? 'agent-a',
      started_at: started,
      completed_at: completed,
      status: f.status ?? 'completed',
      exit_code: 0,
      job_id: `job-${bead}`,
      ...(f.complexity === null ? {} : { complexity: f.complexity ?? 5 }),
      command: f.command ?? 'work-on-tasks',
      ...(f.discipline ? { discipline: f.discipline } : {}),
      ...(f.iterations !== undefined ? { iterations: f.iterations } : {}),
      ...(Object.keys(usage).length ? { usage } : {}),
    },
    collected_at: completed,
    commands: { build: null, test: null, lint: null, typecheck: null },
    checks: { build: null, test: null, lint: null, typecheck: null },
    baseline: null,
    diff: null,
    scores: { build: null, tests: null, lint: null, diff_size: null, speed: null },
    weights_used: {},
    composite: f.composite ?? null,
    speed: { basis: 'none', duration_seconds: f.durationSeconds ?? 600, reference_seconds: null },
    outcome: f.outcome ?? 'full_pass',
    outcome_reason: f.outcomeReason ?? 'test fixture',
    ...(f.resolution ? { resolution: f.resolution } : {}),
    integrity: {
      tests_not_run: false,
      exit_code_contradicts_counts: false,
      test_count_below_baseline: false,
      notes: [],
    },
    judgment:
      f.judgeScore === undefined
        ? null
        : { verdict: 'pass', score: f.judgeScore, judged_at: completed, model: 'claude-opus-test' },
  };
}

/** Runs a built bin/<cmd> with JUDGELOOP_STATE_DIR pointed at the store. */
export function bin(cmd: string, args: string[], store: StateStore, env: Record<string, string> = {}) {
  const r = spawnSync(join(ROOT, 'bin', cmd), args, {
    encoding: 'utf8',
    env: { ...process.env, JUDGELOOP_STATE_DIR: store.root, NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ENTRIES: Record<string, CommandRun> = { agents, rate, ratings, route, 'select-template': selectTemplate };

/** The same as bin(), through the entry the bin calls, in this process: where the CLI is not the subject. */
export function here(
  cmd: string,
  args: string[],
  store: StateStore,
  env: Record<string, string> = {},
): Promise<CommandResult> {
  return runHere(ENTRIES[cmd]!, args, { ...process.env, JUDGELOOP_STATE_DIR: store.root, NO_COLOR: '1', ...env });
}
