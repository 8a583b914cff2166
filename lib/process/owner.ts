// Who left a temporary file, lock or checkout (machine, pid, start time): a dead owner is told from a live one or a
// reused pid at once; on another machine nothing can be told (null).
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

export interface Owner {
  /** 8 hex of sha256(hostname, PID namespace): a pid means nothing across either. */
  machine: string;
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22); null where /proc is absent. */
  start: string | null;
}

/** The state and start time of a process from /proc; null when there is no such process; 'no-proc' without /proc. */
function procStat(pid: number): { state: string; start: string } | null | 'no-proc' {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return 'no-proc';
    try {
      readFileSync('/proc/self/stat');
      return null;
    } catch {
      return 'no-proc';
    }
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '?', start: fields[19] ?? '?' };
}

let selfOwner: Owner | undefined;

/** This process as an owner (computed once). */
export function self(): Owner {
  if (selfOwner) return selfOwner;
  let ns = '';
  try {
    ns = readlinkSync('/proc/self/ns/pid');
  } catch {
    // No /proc: the hostname alone.
  }
  const st = procStat(process.pid);
  const owner: Owner = {
    machine: createHash('sha256').update(`${hostname()}\0${ns}`).digest('hex').slice(0, 8),
    pid: process.pid,
    start: st !== null && st !== 'no-proc' ? st.start : null,
  };
  selfOwner = owner;
  return owner;
}

/** True / false when the owner runs on this machine; null when it belongs to another one (cannot tell). */
export function isAlive(o: Owner): boolean | null {
  if (o.machine !== self().machine) return null;
  const st = procStat(o.pid);
  if (st === 'no-proc') {
    try {
      process.kill(o.pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  if (st === null) return false;
  // A zombie has ended; a different start time means the pid now names another process.
  if (st.state === 'Z' || st.state === 'X') return false;
  return o.start === null || st.start === o.start;
}

/** The owner as it appears inside file names: `<machine>-<pid>-<start or x>`. */
export function ownerTag(o: Owner = self()): string {
  return `${o.machine}-${o.pid}-${o.start ?? 'x'}`;
}

const TAG = '([0-9a-f]{8})-(\\d{1,10})-(\\d{1,20}|x)';
/** `.<name>.<owner tag>.<8 hex>.tmp` (tempName) and `<owner tag>-<mkdtemp suffix>` (baseline checkouts). */
const FORMS = { temp: new RegExp(`\\.${TAG}\\.[0-9a-f]{8}\\.tmp$`), prefix: new RegExp(`^${TAG}-`) };

/** The owner named by an ownerTag() at its place in a temporary file's name or at the start of `name`; null if none. */
export function parseOwnerTag(name: string, form: keyof typeof FORMS): Owner | null {
  const m = FORMS[form].exec(name);
  if (!m) return null;
  return { machine: m[1]!, pid: Number(m[2]), start: m[3] === 'x' ? null : m[3]! };
}

/** A leftover can go: its owner is dead, or nobody can tell and it is older than `maxAgeMs`. */
export function abandoned(owner: Owner | null, path: string, now: number, maxAgeMs: number): boolean {
  const alive = owner ? isAlive(owner) : null;
  if (alive !== null) return !alive;
  const mtime = lstatSync(path, { throwIfNoEntry: false })?.mtimeMs;
  return mtime !== undefined && now - mtime > maxAgeMs;
}
