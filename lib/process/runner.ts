import { constants } from 'node:os';
import { HeadTailBuffer, spawnGroup, type CapturedOutput } from './process.js';
import { sandboxed, sandboxReady, type Isolation, type SandboxPolicy } from './sandbox.js';

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The command could not be started at all (e.g. cwd missing). */
  spawnError: string | null;
  durationMs: number;
  output: CapturedOutput;
  /** The sandbox it ran in. */
  isolation: Isolation;
  /** Processes that escaped its group (setsid daemons) and were killed when it ended. */
  escaped: number;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL of the whole process group. */
  killGraceMs?: number;
  /** Bytes kept in all (half head, half tail). */
  capBytes: number;
  /** Input for the command's stdin (closed after), default none. */
  input?: string;
  /** The sandbox to run in; absent: none (only for commands judgeloop itself chose, never the agent's). */
  sandbox?: SandboxPolicy;
  /** Folders writable besides cwd (e.g. a report folder outside the worktree). */
  writableDirs?: string[];
  /** Network for this command, overriding the policy's. */
  network?: boolean;
}

export { HeadTailBuffer };

/**
 * Runs `sh -c command` in its own process group (inside the sandbox when a policy is given), stdout and
 * stderr captured together in order of arrival, kept within capBytes. It ends when the command ends: at the
 * timeout the whole group gets SIGTERM, then SIGKILL after the grace time; when the command exits, whatever
 * it left running (its group, daemons that escaped it) is killed and pipes still held open are cut.
 */
export async function runCommand(command: string, opts: RunOptions): Promise<RunResult> {
  const buf = new HeadTailBuffer(Math.floor(opts.capBytes / 2), Math.ceil(opts.capBytes / 2));
  const push = (c: Buffer) => buf.push(c);
  await sandboxReady();
  const cmd = sandboxed(
    {
      command,
      cwd: opts.cwd,
      writable: [opts.cwd, ...(opts.writableDirs ?? [])],
      env: opts.env,
      network: opts.network,
    },
    opts.sandbox,
  );
  const r = await spawnGroup(cmd.file, cmd.args, {
    cwd: opts.cwd,
    env: cmd.env,
    timeoutMs: opts.timeoutMs,
    killGraceMs: opts.killGraceMs,
    input: opts.input,
    onStdout: push,
    onStderr: push,
    mark: true,
    // Inside bubblewrap the PID namespace ends with the command: no /proc scan needed.
    sweepEscaped: cmd.isolation.sandbox === 'none',
  });
  let { exitCode, signal } = r;
  // bubblewrap reports a command killed by signal N as exit 128+N (as sh does): read it back as the signal.
  const sig =
    cmd.isolation.sandbox === 'bubblewrap' && exitCode !== null && exitCode > 128 ? signalName(exitCode - 128) : null;
  if (sig) [exitCode, signal] = [null, sig];
  return {
    exitCode,
    signal,
    timedOut: r.timedOut,
    spawnError: r.spawnError,
    durationMs: r.durationMs,
    output: buf.result(),
    isolation: cmd.isolation,
    escaped: r.escaped,
  };
}

function signalName(n: number): string | null {
  for (const [name, num] of Object.entries(constants.signals)) if (num === n) return name;
  return null;
}
