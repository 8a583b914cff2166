import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readEnv, unknownVariableWarnings, type EnvSettings } from '../base/env.js';
import { errorMessage, isUserError } from '../base/errors.js';

/** What a command touches of the outside world; tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: EnvSettings;
  /** The full environment, for child processes (scrubbed by the runner). */
  processEnv: NodeJS.ProcessEnv;
  cwd: string;
  /** stderr is a terminal and colour is allowed. */
  color: boolean;
  /** stderr is a terminal (progress is redrawn in place there; lib/report/progress.ts). */
  tty?: boolean;
  /** stderr's width in columns when it is a terminal. */
  columns?: number;
}

function defaultIo(): Io {
  const env = readEnv();
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env,
    processEnv: process.env,
    cwd: process.cwd(),
    color: Boolean(process.stderr.isTTY) && env.NO_COLOR === undefined,
    tty: Boolean(process.stderr.isTTY),
    ...(process.stderr.isTTY ? { columns: process.stderr.columns } : {}),
  };
}

export type CommandRun = (argv: string[], io: Io) => Promise<number>;

/** An answer printed on stdout with exit 0 (`--help`, `--version`): thrown by parse() (lib/cli/command.ts), printed by execute(). */
export class HelpRequest extends Error {
  override readonly name = 'HelpRequest';
  constructor(readonly usage: string) {
    super(usage);
  }
}

/** Runs a command's `run` and maps what escapes it to an exit code: UserError → 2, anything else → 1 with its stack. */
export async function execute(run: CommandRun, argv: string[], io: Io = defaultIo()): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    // By name too: a command run by bin/judgeloop throws the classes of its own bundle.
    if (e instanceof HelpRequest || (e as Error)?.name === 'HelpRequest') {
      io.stdout(`${(e as HelpRequest).usage}\n`);
      return 0;
    }
    if (isUserError(e)) {
      io.stderr(`${e.message}\n`);
      return 2;
    }
    const withCode = e as { exitCode?: number; name?: string };
    if (withCode?.name === 'WorkError') {
      io.stderr(`${errorMessage(e)}\n`);
      return 1;
    }
    io.stderr(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}

/** True when the module at `url` is the script node was started with (so importing runs nothing). */
export function isMain(url: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(url));
  } catch {
    return false;
  }
}

/** The entry used at the bottom of every script: sets process.exitCode, never calls process.exit. */
export function main(url: string, run: CommandRun): void {
  if (!isMain(url)) return;
  // A reader that stopped early (`| head`, `| true`): end quietly as a command in a pipe does, not with a stack.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  for (const w of unknownVariableWarnings()) process.stderr.write(`${w}\n`);
  void execute(run, process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
