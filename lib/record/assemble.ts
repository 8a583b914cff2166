// The run record from the facts gathered, or one line per required fact that is missing (pure).
import type { RunRecord } from '../schema/types.generated.js';

/** Every fact bin/record may know; a required one left undefined is reported, never defaulted. */
export interface RecordFacts {
  bead: string;
  worktree: string;
  base_ref?: string | undefined;
  base_commit?: string | undefined;
  head_ref?: string | undefined;
  agent?: string | undefined;
  model?: string | undefined;
  template?: string | undefined;
  task_id?: string | undefined;
  task_type?: string | undefined;
  target_tests?: string[] | undefined;
  hidden_tests?: string | undefined;
  complexity?: number | undefined;
  prompt?: string | undefined;
  started_at?: string | undefined;
  completed_at: string;
  exit_code: number | null;
  status?: RunRecord['status'] | undefined;
  failure_reason?: string | undefined;
  usage?: RunRecord['usage'] | undefined;
  iterations?: number | undefined;
  race_id?: string | undefined;
  job_id?: string | undefined;
}

/** How to give each required fact, in the order they are checked. */
export const MISSING: Record<'agent' | 'template' | 'task_id' | 'prompt' | 'base_ref' | 'started_at', string> = {
  agent: 'no agent: give --agent SLUG, JUDGELOOP_AGENT, or "record": {"agent": …} in judgeloop.json',
  template: 'no template: give --template ID, JUDGELOOP_TEMPLATE, or "record": {"template": …} in judgeloop.json',
  task_id:
    'no task id: give --task ID or JUDGELOOP_TASK (--from-commit takes the branch name, --claude-hook the session id)',
  prompt:
    'no task prompt: give --prompt TEXT, --prompt-file FILE (- for stdin) or JUDGELOOP_PROMPT_FILE (--from-commit takes the commit message, --claude-hook the first prompt of the transcript)',
  base_ref:
    'no base to measure against: give --base REF, JUDGELOOP_BASE_REF, or "record": {"base_ref": "main"} in judgeloop.json (--from-commit takes the parent commit)',
  started_at:
    "no start time: give --started-at TIME (ISO 8601) or JUDGELOOP_STARTED_AT (--from-commit takes the parent commit's time, --claude-hook the transcript's first entry)",
};

export type AssembleResult = { ok: true; record: RunRecord } | { ok: false; missing: string[] };

export function assembleRunRecord(f: RecordFacts): AssembleResult {
  const missing = (Object.keys(MISSING) as (keyof typeof MISSING)[])
    .filter((k) => f[k] === undefined || f[k] === '')
    .map((k) => MISSING[k]);
  if (missing.length > 0) return { ok: false, missing };
  const status = f.status ?? (f.exit_code === 0 ? 'completed' : 'failed');
  const record: RunRecord = {
    schema_version: '1.0.0',
    bead: f.bead,
    task: {
      id: f.task_id!,
      prompt: f.prompt!,
      ...(f.task_type ? { type: f.task_type } : {}),
      ...(f.complexity !== undefined ? { complexity: f.complexity } : {}),
      ...(f.target_tests?.length ? { target_tests: [...new Set(f.target_tests)] } : {}),
      ...(f.hidden_tests ? { hidden_tests: f.hidden_tests } : {}),
    },
    agent: { slug: f.agent!, ...(f.model ? { model: f.model } : {}) },
    template: f.template!,
    ...(f.race_id ? { race_id: f.race_id } : {}),
    ...(f.job_id ? { job_id: f.job_id } : {}),
    worktree: f.worktree,
    base_ref: f.base_ref!,
    ...(f.base_commit ? { base_commit: f.base_commit } : {}),
    ...(f.head_ref ? { head_ref: f.head_ref } : {}),
    started_at: f.started_at!,
    completed_at: f.completed_at,
    exit_code: f.exit_code,
    status,
    ...(f.failure_reason ? { failure_reason: f.failure_reason } : {}),
    ...(f.usage && Object.keys(f.usage).length > 0 ? { usage: f.usage } : {}),
    ...(f.iterations !== undefined ? { iterations: f.iterations } : {}),
  };
  return { ok: true, record };
}

/** A bead id from free text: unsafe characters become '-', at most 128, starting with a letter or digit. */
export function beadFrom(...parts: string[]): string {
  const s = parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  return s === '' ? 'run' : s;
}
