import { defineCommand } from '../command.js';

export const INIT = defineCommand({
  name: 'init',
  summary: 'writes a starting judgeloop.json in the current folder (from flags; questions on a terminal)',
  description: [
    "Put it in the folder ABOVE the agents' worktrees: one inside a worktree being measured is refused.",
    'Without a judgeloop.json, commands keep state in $XDG_STATE_HOME/judgeloop (default ~/.local/state/judgeloop).',
    'It detects the project in --project (default: here) as its CI would set it up: package-lock.json, yarn.lock or',
    'pnpm-lock.yaml; requirements.txt, pyproject.toml, setup.py or uv.lock; go.mod; Cargo.toml. It writes the fetch',
    '(network, no project code: npm ci --ignore-scripts, pip download, go mod download, cargo fetch), the setup (no',
    "network: the install scripts, the project's prepare) and the checks package.json's scripts or the toolchain",
    'give; a flag wins over what was detected, and an empty flag ("") writes none.',
  ],
  flags: {
    agent: { type: 'string', placeholder: 'SLUG', help: 'record.agent: the agent slug of runs recorded here' },
    template: { type: 'string', placeholder: 'ID', help: 'record.template: the prompt template id' },
    base: { type: 'string', placeholder: 'REF', help: 'record.base_ref: the branch agents start from' },
    build: { type: 'string', placeholder: 'CMD', help: 'collector.commands.build' },
    test: { type: 'string', placeholder: 'CMD', help: 'collector.commands.test' },
    lint: { type: 'string', placeholder: 'CMD', help: 'collector.commands.lint' },
    fetch: {
      type: 'string',
      placeholder: 'CMD',
      help: 'collector.fetch_command: downloads dependencies, with network, running no project code',
    },
    setup: {
      type: 'string',
      placeholder: 'CMD',
      help: 'collector.setup_command: installs in each clean checkout before the checks, without network',
    },
    project: { type: 'string', placeholder: 'DIR', help: 'the project detected (default: the current folder)' },
    judge: { type: 'boolean', help: 'judge.enabled: call the judge (needs ANTHROPIC_API_KEY)' },
    'state-dir': {
      type: 'string',
      placeholder: 'DIR',
      help: 'state_dir, relative to the file (default state/ beside it)',
    },
    force: { type: 'boolean', help: 'overwrite an existing judgeloop.json' },
  },
  exit: { 0: 'written', 2: 'a judgeloop.json is there already (--force), or a bad value' },
  examples: [
    'judgeloop init --agent claude-code --base main --project ../repo',
    'judgeloop init --test "npm test" --lint "npm run lint" --setup "npm rebuild" --fetch "npm ci --ignore-scripts"',
  ],
});
