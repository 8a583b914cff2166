// Leftovers of killed runs, swept at the next start of a writing command: temporary files and locks of dead
// writers, and baseline checkouts still registered as worktrees of an agent's repository.
import { existsSync, lstatSync, readdirSync, rmSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { git } from '../git/git.js';
import { takeOverIfDead } from './lock.js';
import { isAlive, machineTag, ownerTag, parseOwnerTag, type Owner } from './owner.js';

/** A temporary file with no live owner that can be told is removed once this old (no write takes an hour). */
const TEMP_MAX_AGE_MS = 3600_000;
/** A baseline checkout of the old naming (no owner in its name) is removed once this old. */
const CHECKOUT_MAX_AGE_MS = 24 * 3600_000;
const BASE_PREFIX = 'judgeloop-base-';

function ageMs(path: string, now: number): number | null {
  try {
    return now - lstatSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Whether a leftover named `name` at `path` can go: its owner is dead, or it is old and nobody can tell. */
function abandoned(owner: Owner | null, path: string, now: number, maxAge: number): boolean {
  const alive = owner ? isAlive(owner) : null;
  if (alive !== null) return !alive;
  const age = ageMs(path, now);
  return age !== null && age > maxAge;
}

interface SweepResult {
  removed: string[];
  locksTakenOver: string[];
}

/** Removes abandoned `.…tmp` files and folders of state/.tmp and state/.locks, and locks whose holder is dead. */
export function sweepTemps(root: string, now = Date.now()): SweepResult {
  const res: SweepResult = { removed: [], locksTakenOver: [] };
  for (const dir of [join(root, '.tmp'), join(root, '.locks')]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const path = join(dir, n);
      if (n.startsWith('.') && n.endsWith('.tmp')) {
        if (abandoned(parseOwnerTag(n, 'temp'), path, now, TEMP_MAX_AGE_MS)) {
          rmSync(path, { recursive: true, force: true });
          res.removed.push(path);
        }
      } else if (n.endsWith('.lock') && takeOverIfDead(path)) {
        res.locksTakenOver.push(path);
      }
    }
  }
  return res;
}

/** mkdtemp prefix of a baseline checkout: the owner in the name lets a later run tell whether it was abandoned. */
export function baselineTempPrefix(): string {
  return join(tmpdir(), `${BASE_PREFIX}${ownerTag()}-`);
}

/** Registered worktree paths of the repository around `repoDir` (`git worktree list --porcelain -z`). */
async function worktreePaths(repoDir: string): Promise<string[]> {
  const out = await git(repoDir, ['worktree', 'list', '--porcelain', '-z']);
  return out
    .split('\0')
    .filter((f) => f.startsWith('worktree '))
    .map((f) => f.slice('worktree '.length));
}

/**
 * Removes temporary baseline checkouts of killed runs still registered in the repository: a worktree at
 * `<tmpdir>/judgeloop-base-…/tree` whose folder is gone, or whose owner is dead (old names: older than a day),
 * and its registration. Only a real folder directly in tmpdir is removed (the paths come from the
 * agent's repository: a symlink or any other path is left alone). Returns the checkouts removed.
 */
export async function sweepBaselineCheckouts(repoDir: string, now = Date.now()): Promise<string[]> {
  const tmp = tmpdir();
  const stale: string[] = [];
  const removed: string[] = [];
  for (const path of await worktreePaths(repoDir)) {
    const parent = dirname(path);
    const name = basename(parent);
    if (dirname(parent) !== tmp || !name.startsWith(BASE_PREFIX) || basename(path) !== 'tree') continue;
    const owner = parseOwnerTag(name.slice(BASE_PREFIX.length), 'prefix');
    let st: Stats;
    try {
      st = lstatSync(parent);
    } catch {
      // The folder is gone here: only the registration is left — unless it is another machine's live checkout
      // (a repository on a shared disk), whose folder is in that machine's tmpdir.
      if (owner === null || owner.machine === machineTag()) stale.push(path);
      continue;
    }
    if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) continue;
    if (!abandoned(owner, parent, now, CHECKOUT_MAX_AGE_MS)) continue;
    rmSync(parent, { recursive: true, force: true });
    removed.push(path);
    stale.push(path);
  }
  // Each registration on its own (its folder is gone by now, so nothing is deleted): `git worktree prune` would
  // also drop the agent's own worktrees whose folders are missing, and another machine's.
  for (const path of stale) await git(repoDir, ['worktree', 'remove', '--force', '--force', path]);
  removed.push(...sweepUnregistered(tmp, now));
  return removed;
}

/** Checkout folders of dead runs killed before git registered them (so no repository lists them). */
function sweepUnregistered(tmp: string, now: number): string[] {
  const out: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(BASE_PREFIX));
  } catch {
    return out;
  }
  for (const name of names) {
    const parent = join(tmp, name);
    const owner = parseOwnerTag(name.slice(BASE_PREFIX.length), 'prefix');
    if (owner === null) continue;
    try {
      const st = lstatSync(parent);
      if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) continue;
      if (existsSync(join(parent, 'tree', '.git'))) continue; // registered: the loop above decides
    } catch {
      continue;
    }
    if (!abandoned(owner, parent, now, CHECKOUT_MAX_AGE_MS)) continue;
    rmSync(parent, { recursive: true, force: true });
    out.push(parent);
  }
  return out;
}
