// Flags and environment names several command definitions share.
export const CONFIG = {
  type: 'string',
  placeholder: 'FILE',
  help: 'the config file (else JUDGELOOP_CONFIG, else judgeloop.json or .judgeloop.json upwards)',
} as const;
export const STATE_ENV = ['JUDGELOOP_STATE_DIR', 'JUDGELOOP_CONFIG', 'JUDGELOOP_NOW'] as const;
export const JUDGE_ENV = [
  'JUDGE_ENABLED',
  'JUDGE_MODEL',
  'JUDGE_PHASE',
  'JUDGE_BACKEND',
  'JUDGE_MAX_PER_HOUR',
  'JUDGE_SAMPLES',
] as const;
export const API_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] as const;
export const OTHER_STATE_DIRS = {
  type: 'string',
  multiple: true,
  placeholder: 'DIR',
  help: "another machine's state folder read as one with this one (replaces the config's state_dirs)",
} as const;
