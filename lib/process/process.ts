// The one process primitive: a child in its own process group, a timeout that kills the whole group, a run
// that ends when the child exits (not when every pipe closes: a daemon may hold them), bounded capture.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { onAbort } from '../base/cleanup.js';

/** Output kept from a command: the first and last halves of the cap, with a marker where the middle was cut. */
export interface CapturedOutput {
  text: string;
  bytes: number;
  truncated: boolean;
}

/** Keeps the head and a rolling tail of a byte stream in bounded memory. */
export class HeadTailBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;
  constructor(
    private readonly headCap: number,
    private readonly tailCap: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headLen < this.headCap) {
      const take = Math.min(this.headCap - this.headLen, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.headLen += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    // Drop whole chunks from the front while the rest still covers the tail cap.
    while (this.tail.length > 1 && this.tailLen - this.tail[0]!.length >= this.tailCap) {
      this.tailLen -= this.tail.shift()!.length;
    }
  }

  result(): CapturedOutput {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const truncated = tail.length > this.tailCap;
    if (truncated) tail = tail.subarray(tail.length - this.tailCap);
    const omitted = this.total - head.length - tail.length;
    // Invalid UTF-8 becomes U+FFFD: output is data to parse and show, never bytes to round-trip.
    const decode = (b: Buffer) => new TextDecoder('utf-8', { fatal: false }).decode(b);
    const text =
      omitted > 0
        ? `${decode(head)}\n[... ${omitted} bytes omitted ...]\n${decode(tail)}`
        : decode(Buffer.concat([head, tail]));
    return { text, bytes: this.total, truncated: omitted > 0 };
  }
}

export interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL of the group at the timeout. */
  killGraceMs?: number;
  /** How long to read what is still in the pipes after the child exited; then they are closed. */
  drainMs?: number;
  /** Input for stdin (closed after); default none. */
  input?: string | Buffer;
  onStdout: (chunk: Buffer) => void;
  onStderr: (chunk: Buffer) => void;
  /**
   * Marks the child's environment (JUDGELOOP_RUN_MARK=<our pid>-<random>): what a SIGKILLed judgeloop leaves is
   * found by the next run (sweepOrphans). Off for git (it runs nothing of the agent's).
   */
  mark?: boolean;
  /**
   * With mark: when the child ends, processes carrying its mark that left its group (setsid daemons) are found
   * through /proc and killed. Not needed inside bubblewrap, whose PID namespace dies with the command.
   */
  sweepEscaped?: boolean;
}

export interface SpawnResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The process could not be started (missing program or cwd). */
  spawnError: string | null;
  /** The errno code of spawnError (ENOENT: no such program), when node gave one. */
  spawnCode?: string;
  durationMs: number;
  /** Processes found outside the group after the run (daemons) and killed. */
  escaped: number;
}

const RUN_MARK_VAR = 'JUDGELOOP_RUN_MARK';

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** The process group of a pid (Linux /proc), or null. */
function groupOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

let environBuf = Buffer.allocUnsafe(64 * 1024);

/** `/proc/<pid>/environ` read into one buffer reused by every sweep (a view of it, valid until the next call), or null. */
function readEnviron(pid: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
  } catch {
    return null;
  }
  try {
    let len = 0;
    for (;;) {
      if (len === environBuf.length) {
        const bigger = Buffer.allocUnsafe(environBuf.length * 2);
        environBuf.copy(bigger);
        environBuf = bigger;
      }
      const got = readSync(fd, environBuf, len, environBuf.length - len, null);
      if (got === 0) return environBuf.subarray(0, len);
      len += got;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** `env` (NUL-separated `NAME=value` entries) holds exactly the entry `entry`. */
export function hasEntry(env: Buffer, entry: Buffer): boolean {
  for (let i = env.indexOf(entry); i !== -1; i = env.indexOf(entry, i + 1)) {
    const end = i + entry.length;
    if ((i === 0 || env[i - 1] === 0) && (end === env.length || env[end] === 0)) return true;
  }
  return false;
}

/**
 * Kills every process whose environment carries `VAR=mark` (Linux /proc); returns how many of them were
 * outside the group `pgid` (escaped: setsid daemons and the like).
 */
function killMarked(mark: string, pgid?: number): number {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  const entry = Buffer.from(`${RUN_MARK_VAR}=${mark}`);
  let found = 0;
  for (const n of names) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue;
    const env = readEnviron(n);
    if (!env || !hasEntry(env, entry)) continue;
    if (groupOf(n) !== pgid) found++;
    try {
      process.kill(Number(n), 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/**
 * Kills processes a judgeloop killed with SIGKILL left behind (checks run without the sandbox: with it, the
 * sandbox dies with its parent): those whose JUDGELOOP_RUN_MARK names an owner pid that no longer runs.
 * Returns how many. Linux /proc; elsewhere nothing.
 */
function sweepOrphans(): number {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  const re = new RegExp(String.raw`(?:^|\0)` + RUN_MARK_VAR + String.raw`=(\d+)-[0-9a-f]+(?:\0|$)`);
  let killed = 0;
  const name = Buffer.from(`${RUN_MARK_VAR}=`);
  for (const n of names) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue;
    const env = readEnviron(n);
    // Only an environment holding the name is decoded and matched (most processes: one memchr-like search).
    if (!env || env.indexOf(name) === -1) continue;
    const m = re.exec(env.toString('latin1'));
    if (!m || alive(Number(m[1]))) continue;
    try {
      process.kill(Number(n), 'SIGKILL');
      killed++;
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

let swept = false;

/** sweepOrphans once per process (a batch of records sweeps before the first). */
export function sweepOrphansOnce(): void {
  if (swept) return;
  swept = true;
  sweepOrphans();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `file args` in a new process group; resolves once it exited (and the pipes drained or were cut). */
export function spawnGroup(file: string, args: string[], o: SpawnOptions): Promise<SpawnResult> {
  const started = performance.now();
  // The owner's pid leads the mark: a later run sweeps what a killed judgeloop left (sweepOrphans).
  const mark = o.mark || o.sweepEscaped ? `${process.pid}-${randomBytes(8).toString('hex')}` : null;
  const env = mark ? { ...o.env, [RUN_MARK_VAR]: mark } : o.env;
  return new Promise((resolvePromise) => {
    let timedOut = false;
    let settled = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, args, { cwd: o.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      resolvePromise({
        exitCode: null,
        signal: null,
        timedOut: false,
        spawnError: (e as Error).message,
        ...(code ? { spawnCode: code } : {}),
        durationMs: 0,
        escaped: 0,
      });
      return;
    }
    const pid = child.pid;
    let escaped = 0;
    const sweep = () => {
      if (mark && o.sweepEscaped) escaped += killMarked(mark, pid);
    };
    // judgeloop interrupted: end the group (and its escaped daemons) rather than leave it running.
    const offAbort = onAbort(() => {
      killGroup(pid, 'SIGKILL');
      sweep();
    });
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        killGroup(pid, 'SIGKILL');
        sweep();
      }, o.killGraceMs ?? 2000);
    }, o.timeoutMs);
    const finish = (r: Omit<SpawnResult, 'durationMs' | 'escaped'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      killGroup(pid, 'SIGKILL');
      sweep();
      offAbort();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolvePromise({ ...r, durationMs: performance.now() - started, escaped });
    };
    child.stdout!.on('data', o.onStdout);
    child.stderr!.on('data', o.onStderr);
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(o.input ?? '');
    child.on('error', (e: NodeJS.ErrnoException) =>
      finish({
        exitCode: null,
        signal: null,
        timedOut,
        spawnError: e.message,
        ...(e.code ? { spawnCode: e.code } : {}),
      }),
    );
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const settle = () => {
      if (settled) return;
      const e = exit!;
      finish({ exitCode: timedOut ? null : e.code, signal: e.signal, timedOut, spawnError: null });
    };
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the group left behind (a server a test started) would hold the pipes: end it, and its daemons.
      killGroup(pid, 'SIGKILL');
      // Pipes still open a moment later are held by a daemon that left the group: find it by its mark. (In the
      // common case they close at once and finish() sweeps once.) Whatever still holds them is not waited for.
      setTimeout(() => {
        if (!settled) sweep();
      }, 50).unref();
      // The exit can be seen before the pipes' last bytes (reaped on another child's SIGCHLD); after a stalled loop
      // the timer would run before the poll that reads them: one more poll phase (setImmediate) before cutting.
      drainTimer = setTimeout(() => setImmediate(settle), o.drainMs ?? 1000);
    });
    child.on('close', () => {
      if (exit) settle();
    });
  });
}
