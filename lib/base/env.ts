// The one module that reads the environment: callers pass `env` so tests can pass their own.

/** bin/record's facts, for a wrapper that knows them (flags win; judgeloop.json "record" is the fallback). */
export const RECORD_ENV_KEYS = [
  'JUDGELOOP_AGENT',
  'JUDGELOOP_MODEL',
  'JUDGELOOP_TEMPLATE',
  'JUDGELOOP_TASK',
  'JUDGELOOP_PROMPT_FILE',
  'JUDGELOOP_BASE_REF',
  'JUDGELOOP_STARTED_AT',
] as const;

export const ENV_KEYS = [
  'JUDGELOOP_STATE_DIR',
  'JUDGELOOP_CONFIG',
  'JUDGE_ENABLED',
  'JUDGE_MODEL',
  'JUDGE_PHASE',
  'JUDGE_BACKEND',
  'JUDGE_MAX_PER_HOUR',
  'JUDGELOOP_NOW',
  'JUDGELOOP_REQUIRE_CONFIG',
  ...RECORD_ENV_KEYS,
  'XDG_STATE_HOME',
  'HOME',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'NO_COLOR',
  'FORCE_COLOR',
] as const;

export type EnvKey = (typeof ENV_KEYS)[number];
export type EnvSettings = Partial<Record<EnvKey, string>>;

/** Picks the allow-listed variables; empty strings count as unset. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): EnvSettings {
  const out: EnvSettings = {};
  for (const key of ENV_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** The full process environment, for spawning children (the runner scrubs it). */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}
