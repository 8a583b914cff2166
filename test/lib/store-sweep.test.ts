// Leftovers of killed runs, with real processes: a lock whose holder was SIGKILLed is taken over at once (a
// live holder's never), temporary files of dead writers and baseline checkouts of dead runs are swept.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLockOwner } from '../../lib/store/lock.js';
import { ownerTag, self } from '../../lib/process/owner.js';
import { StateStore } from '../../lib/store/store.js';
import { baselineTempPrefix, sweepBaselineCheckouts } from '../../lib/collector/checkout-sweep.js';
import { gitIn, makeRepo, tempDir } from '../helpers/repo.js';

const CHILD = join(import.meta.dirname, '_lock-child.mjs');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = (prefix?: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

// The children run the built store (the suite's set-up checks dist/ is fresh) with plain node: tsx would compile
// the sources again in every process.
const DIST = (rel: string) => JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'lib', rel));

/** Starts a real process holding lock `name` in `root`; resolves once it holds it. */
function holder(root: string, name: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, [CHILD, 'hold-lock', root, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(c);
  return new Promise((resolve, reject) => {
    c.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve(c));
    c.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
}

const taker = (root: string, name: string, waitSeconds: number) =>
  spawnSync(process.execPath, [CHILD, 'take-lock', root, name, String(waitSeconds)], {
    encoding: 'utf8',
  });

const killed = (c: ChildProcess) => new Promise<void>((r) => (c.once('exit', () => r()), c.kill('SIGKILL')));

/** A pid no process has any more. */
function deadPid(): number {
  const r = spawnSync('true');
  return r.pid!;
}

describe('locks', () => {
  it('a lock whose holder was SIGKILLed is taken over well within the 20 s stale time; the holder is named in it', async () => {
    const root = temp();
    const c = await holder(root, 'work');
    const owner = readLockOwner(join(root, '.locks', 'work.lock'));
    expect(owner).toMatchObject({ pid: c.pid, machine: self().machine });
    await killed(c);
    const r = taker(root, 'work', 3);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(join(root, '.locks'))).toEqual([]);
  });

  it('a live holder keeps its lock: the waiter gives up at its wait limit', async () => {
    const root = temp();
    const c = await holder(root, 'work');
    const r = taker(root, 'work', 1);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/already being held/);
    expect(readLockOwner(join(root, '.locks', 'work.lock'))?.pid).toBe(c.pid);
    await killed(c);
  });

  it('a holder on another machine is not judged by its pid (only the mtime rule applies); a reused pid is dead', () => {
    const root = temp();
    const lock = join(root, '.locks', 'work.lock');
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'owner'), JSON.stringify({ machine: '00000000', pid: deadPid(), start: '1', token: 'a' }));
    expect(taker(root, 'work', 1).status).toBe(1);
    // This very process, with another start time: the pid was reused, the holder is gone.
    writeFileSync(join(lock, 'owner'), JSON.stringify({ ...self(), start: '1', token: 'b' }));
    expect(taker(root, 'work', 1).status).toBe(0);
  });
});

describe('temporary files', () => {
  it('the first write of a process removes temporary files of dead writers and old ones nobody can vouch for', () => {
    const root = temp();
    const tmp = join(root, '.tmp');
    mkdirSync(tmp, { recursive: true });
    const me = self();
    const names = {
      dead: `.bd-1.json.${ownerTag({ ...me, pid: deadPid() })}.0123abcd.tmp`,
      deadSortDir: `.sort.${ownerTag({ ...me, pid: deadPid() })}.0123abcd.tmp`,
      live: `.bd-2.json.${ownerTag(me)}.0123abcd.tmp`,
      otherMachineFresh: `.bd-3.json.00000000-1-1.0123abcd.tmp`,
      otherMachineOld: `.bd-4.json.00000000-1-1.0123abcd.tmp`,
      oldFormatOld: `.bd-5.json.4242.0123abcd.tmp`,
      // A bead id that looks like an owner tag does not make a live temp look dead.
      trickyLive: `.deadbeef-1-1.json.${ownerTag(me)}.0123abcd.tmp`,
    };
    for (const [k, n] of Object.entries(names)) {
      if (k === 'deadSortDir') mkdirSync(join(tmp, n, 'run-0'), { recursive: true });
      else writeFileSync(join(tmp, n), 'x');
    }
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(tmp, names.otherMachineOld), old, old);
    utimesSync(join(tmp, names.oldFormatOld), old, old);
    new StateStore(root).appendLine('judge-ledger', 'judge', {
      type: 'slot',
      at: '2026-01-01T00:00:00.000Z',
      bead: 'bd-1',
    });
    expect(readdirSync(tmp).sort()).toEqual([names.live, names.otherMachineFresh, names.trickyLive].sort());
  });

  it('a writer SIGKILLed mid-write leaves its temporary file, which the next writer removes', async () => {
    const root = temp();
    // A real writer that dies after creating its temporary file: killed while it holds a lock, temp in place.
    const c = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { writeSync } from 'node:fs';
      import { writeFileAtomic } from ${DIST('store/state-write.js')};
      function* chunks() {
        yield '{"half":';
        writeSync(1, 'written\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600000);
      }
      writeFileAtomic(${JSON.stringify(join(root, 'scores', 'templates.json'))}, chunks(), { tmpDir: ${JSON.stringify(join(root, '.tmp'))} });
    `,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(c);
    await new Promise<void>((r) => c.stdout!.on('data', () => r()));
    await killed(c);
    expect(readdirSync(join(root, '.tmp'))).toHaveLength(1);
    expect(existsSync(join(root, 'scores', 'templates.json'))).toBe(false);
    new StateStore(root).appendLine('judge-ledger', 'judge', {
      type: 'slot',
      at: '2026-01-01T00:00:00.000Z',
      bead: 'bd-1',
    });
    expect(readdirSync(join(root, '.tmp'))).toEqual([]);
  });
});

describe('baseline checkouts', () => {
  it("registered checkouts of dead runs are removed and pruned; a live run's, another machine's, the agent's own worktrees and a symlink are left alone", async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    dirs.push(repo);
    const me = self();
    const add = (parent: string) => {
      dirs.push(parent);
      gitIn(repo, 'worktree', 'add', '--detach', '-q', join(parent, 'tree'), 'HEAD');
      return join(parent, 'tree');
    };
    const dead = add(mkdtempSync(join(tmpdir(), `judgeloop-base-${ownerTag({ ...me, pid: deadPid() })}-`)));
    const live = add(mkdtempSync(baselineTempPrefix()));
    const gone = add(mkdtempSync(join(tmpdir(), `judgeloop-base-${ownerTag({ ...me, pid: deadPid() })}-`)));
    rmSync(join(gone, '..'), { recursive: true, force: true });
    // Another machine's checkout (the repository is on a shared disk): its folder is not here, it is not pruned.
    const elsewhere = add(mkdtempSync(join(tmpdir(), 'judgeloop-base-00000000-1-1-')));
    rmSync(join(elsewhere, '..'), { recursive: true, force: true });
    const foreign = add(temp('not-judgeloop-'));
    // The agent's own worktree whose folder is missing is the agent's business: no global `git worktree prune`.
    const foreignGone = add(temp('not-judgeloop-'));
    rmSync(join(foreignGone, '..'), { recursive: true, force: true });
    // The agent's repository may register anything: a symlinked "checkout" pointing at a folder worth keeping.
    const precious = temp('precious-');
    writeFileSync(join(precious, 'keep.txt'), 'keep\n');
    const link = join(tmpdir(), `judgeloop-base-${ownerTag({ ...me, pid: deadPid() })}-link${process.pid}`);
    symlinkSync(precious, link);
    dirs.push(link);
    gitIn(repo, 'worktree', 'add', '--detach', '-q', join(precious, 'tree'), 'HEAD');
    // git records real paths; a hostile repository writes the symlinked path into the registration itself.
    writeFileSync(
      join(gitIn(join(precious, 'tree'), 'rev-parse', '--absolute-git-dir'), 'gitdir'),
      `${join(link, 'tree', '.git')}\n`,
    );

    const removed = await sweepBaselineCheckouts(repo);
    expect(removed).toEqual([dead]);
    const registered = gitIn(repo, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice(9));
    expect(registered.sort()).toEqual([repo, live, foreign, foreignGone, join(link, 'tree'), elsewhere].sort());
    expect(existsSync(join(dead, '..'))).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(join(precious, 'keep.txt'))).toBe(true);
    expect(existsSync(join(precious, 'tree'))).toBe(true);
  });
});
