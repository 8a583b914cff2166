// A command run through the entry its bin calls (`execute` of scripts/<name>.ts's `run`) in this process.
import { readEnv } from '../../lib/base/env.js';
import { execute, type CommandRun } from '../../lib/cli/cli.js';
import { setCommandPrefix } from '../../lib/cli/command.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * What bin/<name> would answer, without its process (node, the bundle, a compiler already loaded in the worker):
 * for cases whose subject is not the CLI. `env` is the whole environment the command sees.
 */
export async function runHere(
  run: CommandRun,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
  prefix?: string,
): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (t: string) => void (stdout += t),
    stderr: (t: string) => void (stderr += t),
    env: readEnv(env),
    processEnv: env,
    cwd,
    color: false,
  };
  // With `prefix`, the command's text names it as bin/judgeloop's dispatcher does (restored after).
  const key = Symbol.for('judgeloop.command-prefix');
  const was = (globalThis as Record<symbol, unknown>)[key];
  if (prefix !== undefined) setCommandPrefix(prefix);
  try {
    const code = await execute(run, args, io);
    return { code, stdout, stderr };
  } finally {
    (globalThis as Record<symbol, unknown>)[key] = was;
  }
}
