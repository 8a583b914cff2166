// Temporary baseline checkouts of killed runs, still registered as worktrees of the agent's repository: swept at the
// next baseline (design: docs/design/store.md "Baseline checkouts").
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { git, repoObjects } from '../git/git.js';
import { abandoned, ownerTag, parseOwnerTag, self } from '../process/owner.js';

/** A checkout of the old naming (no owner in its name) is removed once this old. */
const CHECKOUT_MAX_AGE_MS = 24 * 3600_000;
const BASE_PREFIX = 'judgeloop-base-';

/** mkdtemp prefix of a baseline checkout: the owner in the name lets a later run tell whether it was abandoned. */
export function baselineTempPrefix(): string {
  return join(tmpdir(), `${BASE_PREFIX}${ownerTag()}-`);
}

const ownedFolder = (st: Stats) =>
  st.isDirectory() && (typeof process.getuid !== 'function' || st.uid === process.getuid());

/**
 * Removes `<tmpdir>/judgeloop-base-…/tree` worktrees of dead runs and their registrations. The paths come from the
 * agent's repository: only a real folder of ours directly in tmpdir is removed. Returns what was removed.
 */
export async function sweepBaselineCheckouts(repoDir: string, now = Date.now()): Promise<string[]> {
  const tmp = tmpdir();
  const stale: string[] = [];
  const removed: string[] = [];
  const listed = (await mayHoldOurs(repoDir)) ? await git(repoDir, ['worktree', 'list', '--porcelain', '-z']) : '';
  for (const field of listed.split('\0')) {
    if (!field.startsWith('worktree ')) continue;
    const path = field.slice('worktree '.length);
    const parent = dirname(path);
    const name = basename(parent);
    if (dirname(parent) !== tmp || !name.startsWith(BASE_PREFIX) || basename(path) !== 'tree') continue;
    const owner = parseOwnerTag(name.slice(BASE_PREFIX.length), 'prefix');
    const st = lstatSync(parent, { throwIfNoEntry: false });
    if (!st) {
      // Only the registration is left, unless it is another machine's live checkout (a repository on a shared disk).
      if (owner === null || owner.machine === self().machine) stale.push(path);
      continue;
    }
    if (!ownedFolder(st) || !abandoned(owner, parent, now, CHECKOUT_MAX_AGE_MS)) continue;
    rmSync(parent, { recursive: true, force: true });
    removed.push(path);
    stale.push(path);
  }
  // One registration at a time (its folder is gone: nothing is deleted); `git worktree prune` would also drop the
  // agent's own worktrees whose folders are missing, and another machine's.
  for (const path of stale) await git(repoDir, ['worktree', 'remove', '--force', '--force', path]);
  return [...removed, ...sweepUnregistered(tmp, now)];
}

/**
 * Whether the repository registers a worktree that may be a checkout of ours (the older layout registered them
 * there): false only when every `worktrees/<id>/gitdir` is an absolute path outside `<tmpdir>/judgeloop-base-*`
 * — then the listing is not asked of git (one process fewer per collect). Read as data; unreadable: true.
 */
async function mayHoldOurs(repoDir: string): Promise<boolean> {
  try {
    const common = dirname((await repoObjects(repoDir)).objects);
    const dir = join(common, 'worktrees');
    if (!existsSync(dir)) return false;
    const prefix = join(tmpdir(), BASE_PREFIX);
    for (const id of readdirSync(dir)) {
      // A FIFO or a huge file (the repository is the agent's) is not read: git is asked.
      const st = lstatSync(join(dir, id, 'gitdir'), { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > 4096) return true;
      const gitdir = readFileSync(join(dir, id, 'gitdir'), 'utf8').trim();
      if (!isAbsolute(gitdir) || gitdir.startsWith(prefix) || gitdir.includes(BASE_PREFIX)) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** Checkout folders of dead runs that no agent's repository lists: killed before git registered them, or our view's. */
function sweepUnregistered(tmp: string, now: number): string[] {
  const out: string[] = [];
  for (const name of readdirSync(tmp).filter((n) => n.startsWith(BASE_PREFIX))) {
    const parent = join(tmp, name);
    const owner = parseOwnerTag(name.slice(BASE_PREFIX.length), 'prefix');
    const st = lstatSync(parent, { throwIfNoEntry: false });
    // A tree registered in the agent's repository (the older layout) is swept above; one of our own view is not.
    const registered = existsSync(join(parent, 'tree', '.git')) && !existsSync(join(parent, 'view.git'));
    if (owner === null || !st || !ownedFolder(st) || registered) continue;
    if (!abandoned(owner, parent, now, CHECKOUT_MAX_AGE_MS)) continue;
    rmSync(parent, { recursive: true, force: true });
    out.push(parent);
  }
  return out;
}
