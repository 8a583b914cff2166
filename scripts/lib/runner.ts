import { spawn } from 'node:child_process';
import { onAbort } from './cleanup.js';
import { loadSecretTable } from './secrets/load.js';
import { isSecretName, isSecretValue } from './secrets/match.js';

/** Output kept from a command: the first and last halves of the cap, with a marker where the middle was cut. */
export interface CapturedOutput {
  text: string;
  bytes: number;
  truncated: boolean;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The command could not be started at all (e.g. cwd missing). */
  spawnError: string | null;
  durationMs: number;
  output: CapturedOutput;
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
}

/** Keeps the head and a rolling tail of a byte stream in bounded memory. */
export class HeadTailBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;
  constructor(private readonly headCap: number, private readonly tailCap: number) {}

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
    const text = omitted > 0 ? `${decode(head)}\n[... ${omitted} bytes omitted ...]\n${decode(tail)}` : decode(Buffer.concat([head, tail]));
    return { text, bytes: this.total, truncated: omitted > 0 };
  }
}

/** Environment variable names matching any pattern (case-insensitive) are dropped. */
export function scrubEnv(env: NodeJS.ProcessEnv, patterns: string[]): NodeJS.ProcessEnv {
  // Dropped: names the config patterns match, names the secret table calls secret-looking, and values in a
  // known token format or holding key material, whatever their name (one matcher: scripts/lib/secrets).
  const res = patterns.map((p) => new RegExp(p, 'i'));
  const table = loadSecretTable();
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || res.some((r) => r.test(k)) || isSecretName(k, table) || isSecretValue(v, table)) continue;
    out[k] = v;
  }
  return out;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Runs `sh -c command` in its own process group, stdout and stderr captured together in order of arrival,
 * kept within capBytes. At the timeout the whole group gets SIGTERM, then SIGKILL after the grace time.
 */
export function runCommand(command: string, opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const buf = new HeadTailBuffer(Math.floor(opts.capBytes / 2), Math.ceil(opts.capBytes / 2));
  return new Promise((resolvePromise) => {
    let timedOut = false;
    let settled = false;
    let child;
    try {
      child = spawn('sh', ['-c', command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      resolvePromise({ exitCode: null, signal: null, timedOut: false, spawnError: (e as Error).message, durationMs: 0, output: buf.result() });
      return;
    }
    // The group is detached from ours: if judgeloop is interrupted, end it too rather than leave it running.
    const pid = child.pid;
    const offAbort = onAbort(() => killGroup(pid, 'SIGKILL'));
    const finish = (r: Omit<RunResult, 'durationMs' | 'output'>) => {
      if (settled) return;
      settled = true;
      offAbort();
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolvePromise({ ...r, durationMs: performance.now() - started, output: buf.result() });
    };
    child.stdout.on('data', (c: Buffer) => buf.push(c));
    child.stderr.on('data', (c: Buffer) => buf.push(c));
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), opts.killGraceMs ?? 2000);
    }, opts.timeoutMs);
    child.on('error', (e) => finish({ exitCode: null, signal: null, timedOut, spawnError: e.message }));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Children left behind (a server a test started) would hold the pipes open: end the group.
      killGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (code, signal) => {
      const e = exit ?? { code, signal };
      finish({ exitCode: timedOut ? null : e.code, signal: e.signal, timedOut, spawnError: null });
    });
  });
}
