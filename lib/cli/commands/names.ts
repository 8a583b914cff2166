// The commands `judgeloop <command>` runs, each scripts/<name>.ts with a bin/<name> shim and a definition in
// ./index.ts (test/cli/bins.test.ts keeps the three in step). A new command is one line here. No imports: the
// dispatcher reads this list at every start.
export const COMMAND_NAMES = [
  'record',
  'collect',
  'judge',
  'race',
  'accept',
  'score-templates',
  'select-template',
  'rate',
  'ratings',
  'route',
  'agents',
  'parse-output',
  'config',
  'report',
  'doctor',
  'init',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommandName = (s: string): s is CommandName => (COMMAND_NAMES as readonly string[]).includes(s);
