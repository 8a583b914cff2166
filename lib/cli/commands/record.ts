import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';
import { RECORD_ENV_KEYS } from '../../base/env.js';

const num = (placeholder: string, help: string) => ({ type: 'string', placeholder, help }) as const;

export const RECORD = defineCommand({
  name: 'record',
  summary: 'writes a run record from the worktree, a commit or a Claude Code hook, plus flags; prints its path',
  usage: [
    '[--worktree DIR] [--bead ID] [--base REF] [--agent SLUG] [--model ID] [--template ID]',
    ' [--task ID] [--task-type T] [--target TEST]... [--hidden-tests PATH|REF] [--complexity 1-10] [--prompt TEXT | --prompt-file FILE|-]',
    ' [--started-at TIME] [--completed-at TIME] [--exit-code N] [--status S] [--failure-reason TEXT]',
    ' [--input-tokens N] [--output-tokens N] [--cost-usd X] [--iterations N] [--race-id ID] [--job-id ID]',
    ' [--from-commit | --claude-hook] [--out FILE] [--collect | --judge [--background]]',
    ' [--config FILE] [--json] [--quiet]',
  ],
  description: [
    'Writes <state>/runs/<bead>.json (or --out) and prints its path. Missing required facts: one line each, exit 2.',
    'Flags win over JUDGELOOP_* variables, which win over the config\'s "record" section.',
  ],
  flags: {
    worktree: num('DIR', "the worktree of the run (default: the current folder, or the hook's cwd)"),
    bead: num('ID', "the run id (default: from the worktree and HEAD, or the hook's session)"),
    base: num('REF', 'the base the run started from'),
    agent: num('SLUG', 'the agent'),
    model: num('ID', "the agent's model"),
    template: num('ID', 'the prompt template'),
    task: num('ID', 'the task id'),
    'task-type': num(
      'T',
      'the task type (bugfix, feature, refactor, …: a feature or refactor has no targets by default)',
    ),
    target: {
      type: 'string',
      placeholder: 'TEST',
      multiple: true,
      help: "a target test of the task (fail-to-pass), by the runner's id (path::name); repeatable",
    },
    'hidden-tests': num(
      'PATH|REF',
      'tests the agent never saw: a folder or file outside every worktree, or a commit or ref (task.hidden_tests)',
    ),
    complexity: num('1-10', "the task's complexity"),
    prompt: num('TEXT', 'the prompt'),
    'prompt-file': num('FILE|-', 'a file holding the prompt (- for stdin)'),
    'started-at': num('TIME', 'when the run started (ISO 8601)'),
    'completed-at': num('TIME', 'when it ended (default: now)'),
    'exit-code': num('N', "the agent's exit code, or signal"),
    status: {
      type: 'string',
      placeholder: 'S',
      choices: ['completed', 'failed', 'timeout', 'infra_failure'],
      help: "the run's status",
    },
    'failure-reason': num('TEXT', 'why it failed'),
    'input-tokens': num('N', 'input tokens used'),
    'output-tokens': num('N', 'output tokens used'),
    'cost-usd': num('X', 'what the run cost, US dollars'),
    iterations: num('N', 'agent iterations'),
    'race-id': num('ID', 'the race it is part of'),
    'job-id': num('ID', 'the job id'),
    'from-commit': {
      type: 'boolean',
      help: "the run is HEAD's commit: base = its parent, task = the branch, prompt = the message\n(a git post-commit hook)",
    },
    'claude-hook': {
      type: 'boolean',
      help: "read a Claude Code hook's JSON on stdin: worktree, bead, prompt, model, tokens\nand times from the session and its transcript",
    },
    out: num('FILE', 'write the record there instead'),
    collect: { type: 'boolean', help: 'then run collect on it' },
    judge: { type: 'boolean', help: 'then run judge on it (which collects first)' },
    background: { type: 'boolean', help: 'hand on in the background (log: state/logs/record.log)' },
    config: CONFIG,
    json: { type: 'boolean', help: 'print the record as JSON instead of its path' },
    quiet: { type: 'boolean', help: 'no messages on stderr' },
  },
  env: [...STATE_ENV, ...RECORD_ENV_KEYS],
  exit: {
    0: 'written (and handed on)',
    2: 'one line per missing fact, a config or state inside the worktree, bad values',
    other: "with --collect or --judge in the foreground: the hand-off's code",
  },
  examples: [
    'record --from-commit --collect --background   (a git post-commit hook)',
    'record --agent codex --template v2 --prompt-file prompt.md --judge',
  ],
});
