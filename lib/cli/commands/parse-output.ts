import { defineCommand } from '../command.js';

export const PARSE_OUTPUT = defineCommand({
  name: 'parse-output',
  summary:
    "runs the test or lint output parsers on a file or stdin (and a runner's report) and prints the counts as JSON",
  usage: [
    'tests|lint [--runner NAME] [--report FILE [--format junit|jest-json|mocha-json|rspec-json]] [--explain] [FILE|-]',
  ],
  flags: {
    runner: {
      type: 'string',
      placeholder: 'NAME',
      help: 'the test runner or linter (default: recognised from the output)',
    },
    report: {
      type: 'string',
      placeholder: 'FILE',
      help: "tests: a runner's report, reconciled with the console output",
    },
    format: {
      type: 'string',
      placeholder: 'FORMAT',
      choices: ['junit', 'jest-json', 'mocha-json', 'rspec-json'],
      help: "the report's format (default: from its content)",
    },
    explain: { type: 'boolean', help: 'tests: # lines naming the summary used, those passed over, the failure marks' },
  },
  subcommands: [
    {
      name: 'tests',
      args: '[FILE|-]',
      summary: "a test runner's output: passed, failed, skipped, errors, per-test cases",
    },
    { name: 'lint', args: '[FILE|-]', summary: "a linter's output: errors and warnings" },
  ],
  positionals: [
    { name: 'FILE|-', help: 'the output to parse (default: stdin; optional with --report)', optional: true },
  ],
  exit: {
    0: 'counts printed',
    1: 'the output was not recognised (one line on stderr, nothing on stdout)',
    2: 'usage or unreadable input',
  },
  examples: ['npx vitest run 2>&1 | parse-output tests', 'parse-output lint --runner eslint eslint.txt'],
});
