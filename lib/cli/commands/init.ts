import { defineCommand } from '../command.js';

export const INIT = defineCommand({
  name: 'init',
  summary: 'writes a starting judgeloop.json in the current folder (from flags; questions on a terminal)',
  description: [
    "Put it in the folder ABOVE the agents' worktrees: one inside a worktree being measured is refused.",
    'Without a judgeloop.json, commands keep state in $XDG_STATE_HOME/judgeloop (default ~/.local/state/judgeloop).',
  ],
  flags: {
    agent: { type: 'string', placeholder: 'SLUG', help: 'record.agent: the agent slug of runs recorded here' },
    template: { type: 'string', placeholder: 'ID', help: 'record.template: the prompt template id' },
    base: { type: 'string', placeholder: 'REF', help: 'record.base_ref: the branch agents start from' },
    build: { type: 'string', placeholder: 'CMD', help: 'collector.commands.build' },
    test: { type: 'string', placeholder: 'CMD', help: 'collector.commands.test' },
    lint: { type: 'string', placeholder: 'CMD', help: 'collector.commands.lint' },
    judge: { type: 'boolean', help: 'judge.enabled: call the judge (needs ANTHROPIC_API_KEY)' },
    'state-dir': {
      type: 'string',
      placeholder: 'DIR',
      help: 'state_dir, relative to the file (default state/ beside it)',
    },
    force: { type: 'boolean', help: 'overwrite an existing judgeloop.json' },
  },
  exit: { 0: 'written', 2: 'a judgeloop.json is there already (--force), or a bad value' },
  examples: ['judgeloop init --agent claude-code --base main --test "npm test" --lint "npm run lint"'],
});
