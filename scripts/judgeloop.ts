// bin/judgeloop (and its alias jl): `judgeloop <command> …` runs that command's module, imported only then (its
// bundle dist/bundle/<command>.mjs beside this one, or dist/scripts/<command>.js beside the compiled entry).
import { createRequire } from 'node:module';
import { execute, main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { closest, setCommandPrefix, versionLine } from '../lib/cli/command.js';
import { COMMAND_NAMES, isCommandName } from '../lib/cli/commands/names.js';

const SEE = "see 'judgeloop help'";

/** The module of a command, beside this file in the same form (bundle .mjs or compiled .js). */
function commandUrl(name: string): URL {
  const ext = import.meta.url.endsWith('.mjs') ? '.mjs' : '.js';
  return new URL(`./${name}${ext}`, import.meta.url);
}

async function overview(): Promise<string> {
  const { COMMANDS } = await import('../lib/cli/commands/index.js');
  const { JUDGELOOP } = await import('../lib/cli/commands/judgeloop.js');
  const { helpText } = await import('../lib/cli/command.js');
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [helpText(JUDGELOOP), '', 'Commands:', ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)].join(
    '\n',
  );
}

function unknown(word: string): UserError {
  const near = closest(word, COMMAND_NAMES);
  return new UserError(
    `judgeloop: unknown command '${word}'${near.length ? ` (did you mean ${near.map((n) => `'${n}'`).join(' or ')}?)` : ''}; ${SEE}`,
  );
}

export async function run(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(`${await overview()}\n`);
    return 2;
  }
  if (first === '--version' || first === '-V') {
    io.stdout(`${versionLine('judgeloop')}\n`);
    return 0;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout(`${await overview()}\n`);
      return 0;
    }
    if (!isCommandName(topic)) throw unknown(topic);
    return dispatch(topic, ['--help'], io);
  }
  if (first.startsWith('-')) {
    // A misspelt top-level flag (`--hepl`, `--verison`) gets the flag it was meant to be.
    const near = closest(first.replace(/^-+/, ''), ['help', 'version']).map((n) => `'--${n}'`);
    const hint = near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
    throw new UserError(`judgeloop: expected a command before '${first}'${hint}; ${SEE}`);
  }
  if (!isCommandName(first)) throw unknown(first);
  return dispatch(first, rest, io);
}

async function dispatch(name: string, argv: string[], io: Io): Promise<number> {
  setCommandPrefix('judgeloop');
  const url = commandUrl(name);
  // In a bundle, the command's code runs through load.cjs (V8's code cache), as its .mjs stub would run it.
  const mod = (
    url.pathname.endsWith('.mjs') ? createRequire(url)('./load.cjs').load(name, url.href) : await import(url.href)
  ) as { run: (a: string[], io: Io) => Promise<number> };
  return execute(mod.run, argv, io);
}

main(import.meta.url, run);
