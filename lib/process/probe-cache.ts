// The bubblewrap probe's success kept between processes (issue 35, start-up): the same binary, boot, kernel, user
// and namespaces, and user-namespace settings need no probe process per collect. A failure is never kept.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { release, version } from 'node:os';
import { dirname, join } from 'node:path';

/** What decides whether bubblewrap can create its namespaces here (any change: probe again). */
export interface ProbeFacts {
  /** The binary: real path, device, inode, size, mode (setuid), mtime and ctime. */
  bwrap: string;
  kernel: string;
  /** /proc/sys/kernel/random/boot_id: a reboot probes again. */
  boot: string;
  uid: number;
  /** The namespaces judgeloop runs in (/proc/self/ns/*): another container probes again. */
  namespaces: string;
  /** The sysctls that allow or forbid unprivileged user namespaces, and seccomp/no_new_privs of this process. */
  settings: string;
}

/** The cache key of a probe's answer (pure). */
export function probeKey(f: ProbeFacts): string {
  const parts = [f.bwrap, f.kernel, f.boot, String(f.uid), f.namespaces, f.settings];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

const SETTINGS = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/user/max_pid_namespaces',
  '/proc/sys/user/max_net_namespaces',
];

const readOr = (f: string, fallback: string): string => {
  try {
    return readFileSync(f, 'utf8').trim();
  } catch {
    return fallback;
  }
};

/** The facts about `bwrapPath` on this machine now, or null when they cannot be read (then: probe, keep nothing). */
function probeFacts(bwrapPath: string): ProbeFacts | null {
  try {
    const real = realpathSync(bwrapPath);
    const st = statSync(real);
    const ns = ['user', 'pid', 'net', 'mnt'].map(nsLink).join(' ');
    const status = readOr('/proc/self/status', '')
      .split('\n')
      .filter((l) => /^(Seccomp|NoNewPrivs|CapEff|CapBnd):/.test(l))
      .join(' ');
    return {
      bwrap: [real, st.dev, st.ino, st.size, st.mode, st.mtimeMs, st.ctimeMs].join(' '),
      kernel: `${release()} ${version()}`,
      boot: readOr('/proc/sys/kernel/random/boot_id', ''),
      uid: process.getuid?.() ?? -1,
      namespaces: ns,
      settings: [...SETTINGS.map((f) => readOr(f, '-')), status].join(' '),
    };
  } catch {
    return null;
  }
}

function nsLink(n: string): string {
  try {
    return readlinkSync(`/proc/self/ns/${n}`);
  } catch {
    return '-';
  }
}

/** Whether `file` holds a success of the probe for `bwrapPath` with the facts of now. */
export function probeKnownOk(file: string, bwrapPath: string): boolean {
  const facts = probeFacts(bwrapPath);
  if (!facts) return false;
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown };
    return kept.key === probeKey(facts);
  } catch {
    return false;
  }
}

/** Keeps a successful probe of `bwrapPath` in `file` (temp file + rename; a failure to write is only a cache miss). */
export function keepProbeOk(file: string, bwrapPath: string): void {
  const facts = probeFacts(bwrapPath);
  if (!facts) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = join(dirname(file), `.sandbox-probe-${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(tmp, `${JSON.stringify({ key: probeKey(facts), bwrap: bwrapPath })}\n`);
    renameSync(tmp, file);
  } catch {
    /* a cache: the next collect probes again */
  }
}
