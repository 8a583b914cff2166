import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const REFS = defineCommand({
  name: 'refs',
  summary: "lists and prunes the sealed candidates (refs/judgeloop/candidates/<bead>) in an agent's repository",
  usage: [
    'list [--repo PATH] [--json]',
    'prune [--repo PATH] [--older-than DAYS | --race ID | --all] [--dry-run] [--json]',
  ],
  description: [
    'A candidate ref keeps the measured tree of a run for `accept --merge`. Each collect removes the refs of other runs completed more than collector.candidate_ref_max_age_days ago (default 30; null: never).',
    "prune with no rule uses that setting; --race prunes the candidates of a race (what accept does after a merge), in each solution's repository.",
  ],
  flags: {
    repo: {
      type: 'string',
      placeholder: 'PATH',
      help: "the agent's repository or a worktree of it (default: the current folder)",
    },
    'older-than': {
      type: 'string',
      placeholder: 'DAYS',
      help: 'prune refs whose run completed more than DAYS days ago',
    },
    race: {
      type: 'string',
      placeholder: 'ID',
      help: "prune the candidates of race ID (state/races/ID.json), in each solution's repository",
    },
    all: { type: 'boolean', help: 'prune every candidate ref of the repository' },
    'dry-run': { type: 'boolean', help: 'list what would be pruned; change nothing' },
    json: { type: 'boolean', help: 'the refs as JSON on stdout' },
    config: CONFIG,
  },
  subcommands: [
    { name: 'list', summary: 'every candidate ref: bead, commit, when its run completed' },
    { name: 'prune', summary: 'delete candidate refs (each only if it still points where it was listed)' },
  ],
  env: [...STATE_ENV],
  exit: { 0: 'done (nothing to prune included)', 1: 'git failed', 2: 'usage, no repository, unknown race' },
  examples: ['refs list', 'refs prune --older-than 14', 'refs prune --race race-clamp --dry-run'],
});
