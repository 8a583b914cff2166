// A valid mechanical feedback record for a run (what the collector writes), and an in-process Io.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../../../lib/cli/cli.js';
import { StateStore } from '../../../lib/store/store.js';
import type { EnvSettings } from '../../../lib/base/env.js';
import type { Feedback, RunRecord } from '../../../lib/schema/types.generated.js';
import { makeRun, scratchDir, type RunFixture } from './fixtures.js';

export function feedbackFor(r: RunRecord, over: Partial<Feedback> = {}): Feedback {
  const check = (text: string) => ({
    status: 'passed' as const,
    exit_code: 0,
    duration_ms: 12,
    source: 'collector' as const,
    output: { text, bytes: text.length, truncated: false },
  });
  return {
    schema_version: '1.0.0',
    bead: r.bead,
    run: {
      task_id: r.task.id,
      template: r.template,
      agent: r.agent.slug,
      started_at: r.started_at,
      completed_at: r.completed_at,
      status: r.status,
      exit_code: r.exit_code,
    },
    collected_at: '2025-06-01T10:06:00.000Z',
    commands: { build: null, test: 'npx vitest run', lint: 'npx eslint .', typecheck: null },
    checks: {
      build: null,
      test: {
        ...check(' ✓ test/sub.test.ts (1 test)\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n'),
        tests: { runner: 'vitest', passed: 1, failed: 0, skipped: 0, errors: 0, total: 1 },
      },
      lint: { ...check('✔ no problems\n'), lint: { linter: 'eslint', errors: 0, warnings: 0 } },
      typecheck: null,
    },
    baseline: null,
    diff: null,
    scores: { build: null, tests: 1, lint: 1, diff_size: 1, speed: 1 },
    weights_used: { tests: 0.4, lint: 0.2, diff_size: 0.2, speed: 0.2 },
    composite: 1,
    speed: { basis: 'budget', duration_seconds: 300, reference_seconds: 600 },
    outcome: 'full_pass',
    outcome_reason: 'all checks passed',
    integrity: {
      tests_not_run: false,
      exit_code_contradicts_counts: false,
      test_count_below_baseline: false,
      notes: [],
    },
    judgment: null,
    ...over,
  };
}

export interface CapturedIo extends Io {
  out: string[];
  err: string[];
}

export function captureIo(env: EnvSettings, processEnv: NodeJS.ProcessEnv = process.env): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env,
    processEnv,
    cwd: process.cwd(),
    color: false,
  };
}

/** A config file overriding judge keys (short timeouts for tests). */
export function judgeConfigFile(judge: Record<string, unknown>): string {
  const file = join(scratchDir('judgeloop-cfg-'), 'config.json');
  writeFileSync(file, JSON.stringify({ judge }));
  return file;
}

/** A run (makeRun) whose mechanical feedback is already stored, and its store. */
export function runWithFeedback(): { fx: RunFixture; store: StateStore } {
  const fx = makeRun();
  const store = new StateStore(fx.stateDir);
  store.write('feedback', fx.record.bead, feedbackFor(fx.record));
  return { fx, store };
}
