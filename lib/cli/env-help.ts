// What each environment variable of lib/base/env.ts does, for the commands' --help (their definitions name the ones they read).
import type { EnvKey } from '../base/env.js';

export const ENV_HELP: Record<EnvKey, string> = {
  JUDGELOOP_STATE_DIR:
    "the state folder (default: the config file's state_dir, else state/ beside it, else $XDG_STATE_HOME/judgeloop)",
  JUDGELOOP_CONFIG: 'a JSON config file merged over config/defaults.json (--config wins)',
  JUDGE_ENABLED: 'true to call the judge at all (default false)',
  JUDGE_MODEL: 'the judge model: opus, sonnet, haiku or a model id',
  JUDGE_PHASE: 'rollout phase 1-4 (2 merges judgments, 3 blends template scores, 4 drives selection)',
  JUDGE_BACKEND: 'sdk (default) or claude-cli',
  JUDGE_MAX_PER_HOUR: 'judge calls in any sliding hour across processes',
  JUDGE_SAMPLES: 'judge each run this many times (1-5): median verdict with its spread, each sample cached',
  JUDGE_THROTTLE_REDIS:
    'redis://host:port: hold the hourly and concurrency limits in Redis for a fleet without a shared disk',
  JUDGELOOP_REQUIRE_CONFIG: 'true: refuse to run without a judgeloop.json (no per-user state folder)',
  XDG_STATE_HOME: 'the per-user state folder is $XDG_STATE_HOME/judgeloop (default ~/.local/state/judgeloop)',
  HOME: 'for ~/.local/state/judgeloop when XDG_STATE_HOME is unset',
  JUDGELOOP_NOW: 'an ISO time that pins the clock (tests, replays)',
  JUDGELOOP_AGENT: 'the agent slug (--agent wins)',
  JUDGELOOP_MODEL: "the agent's model (--model wins)",
  JUDGELOOP_TEMPLATE: 'the prompt template id (--template wins)',
  JUDGELOOP_TASK: 'the task id (--task wins)',
  JUDGELOOP_PROMPT_FILE: 'a file holding the prompt (--prompt-file wins)',
  JUDGELOOP_BASE_REF: 'the base ref the run started from (--base wins)',
  JUDGELOOP_STARTED_AT: 'when the run started, ISO 8601 (--started-at wins)',
  JUDGELOOP_HIDDEN_TESTS: 'tests the agent never saw: a path outside every worktree, or a ref (--hidden-tests wins)',
  ANTHROPIC_API_KEY: "the sdk backend's key (never passed to checks)",
  ANTHROPIC_BASE_URL: "the sdk backend's endpoint",
  NO_COLOR: 'no colour',
  FORCE_COLOR: 'colour even when stderr is not a terminal',
};
