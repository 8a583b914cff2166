// The commands `judgeloop <command>` runs; a new command is one line here (test/cli/bins.test.ts keeps scripts/,
// bin/ and ./index.ts in step). No imports: the dispatcher reads this list at every start.
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
  'baselines',
  'refs',
  'calibrate',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

export const isCommandName = (s: string): s is CommandName => (COMMAND_NAMES as readonly string[]).includes(s);
