// The one module that reads the environment: callers pass `env` so tests can pass their own.
import { closest } from './closest.js';

/** bin/record's facts, for a wrapper that knows them (flags win; judgeloop.json "record" is the fallback). */
export const RECORD_ENV_KEYS = [
  'JUDGELOOP_AGENT',
  'JUDGELOOP_MODEL',
  'JUDGELOOP_TEMPLATE',
  'JUDGELOOP_TASK',
  'JUDGELOOP_PROMPT_FILE',
  'JUDGELOOP_BASE_REF',
  'JUDGELOOP_STARTED_AT',
  'JUDGELOOP_HIDDEN_TESTS',
] as const;

export const ENV_KEYS = [
  'JUDGELOOP_STATE_DIR',
  'JUDGELOOP_CONFIG',
  'JUDGE_ENABLED',
  'JUDGE_MODEL',
  'JUDGE_PHASE',
  'JUDGE_BACKEND',
  'JUDGE_MAX_PER_HOUR',
  'JUDGE_SAMPLES',
  'JUDGE_THROTTLE_REDIS',
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

/** Set by judgeloop for its own children, never read as settings. */
const INTERNAL_KEYS = ['JUDGELOOP_RUN_MARK', 'JUDGELOOP_BENCH'];

/** A warning per JUDGE_* / JUDGELOOP_* variable judgeloop does not know (a typo is otherwise ignored silently). */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  const known: readonly string[] = [...ENV_KEYS, ...INTERNAL_KEYS];
  const ours = ENV_KEYS.filter((k) => k.startsWith('JUDGE'));
  return Object.keys(env)
    .filter((k) => /^JUDGE(LOOP)?_/.test(k) && !known.includes(k))
    .sort()
    .map((k) => {
      const near = closest(
        k.toLowerCase(),
        ours.map((o) => o.toLowerCase()),
      ).map((n) => n.toUpperCase());
      return `warning: ${k} is not a judgeloop variable${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; ignored`;
    });
}

/** Picks the allow-listed variables; empty strings count as unset. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): EnvSettings {
  const out: EnvSettings = {};
  for (const key of ENV_KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
