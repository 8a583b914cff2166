// The worktree as it is on disk, as a tree (fresh temporary index), and the diffs measured from it.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { git, GitError, isAnswered, knowListing, repoConfigAt, repoObjects } from './git.js';
import { indexListing } from './index-listing.js';
import { writeView } from './view.js';
import { mergeBase, type WorktreeInfo } from './worktree.js';
/**
 * The worktree on disk (committed, uncommitted, untracked) as a tree, built in a throwaway index: the agent's
 * skip-worktree/assume-unchanged bits and stat cache could hide an edit. Sparse entries absent on disk keep HEAD's.
 */
export async function snapshotTree(
  worktree: string,
  indexFile?: string,
  excludeFile?: string,
  knownHead?: string,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-index-'));
  // Interrupted (SIGINT/TERM/HUP) mid-snapshot: the throwaway index goes too.
  const offAbort = onAbort(() => rmSync(dir, { recursive: true, force: true }));
  try {
    // HEAD as the caller just read it (worktreeInfo: one question fewer), else asked.
    const head = knownHead ?? (await git(worktree, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    const sparse = (await repoConfigAt(worktree)).sparse;
    const { objects, objectFormat } = await repoObjects(worktree);
    // Indexed in judgeloop's own repository (view.ts) writing into the agent's objects: no attribute or info/ of the
    // shared .git (another solution may have written it) converts what is on disk on its way into the tree.
    const view = writeView(join(dir, 'view.git'), objects, objectFormat);
    const env = {
      GIT_INDEX_FILE: join(dir, 'index'),
      GIT_DIR: view,
      GIT_WORK_TREE: worktree,
      GIT_OBJECT_DIRECTORY: objects,
      ...(sparse ? { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.sparseCheckout', GIT_CONFIG_VALUE_0: 'true' } : {}),
    };
    await git(worktree, ['read-tree', head], { env });
    // What git wrote is HEAD's listing, and after `add -A` the snapshot tree's (index-listing.ts): not asked again.
    const listed = (): string | null => {
      try {
        return indexListing(readFileSync(env.GIT_INDEX_FILE), objectFormat === 'sha256' ? 32 : 20);
      } catch {
        return null;
      }
    };
    const headListing = listed();
    if (headListing !== null) knowListing(worktree, head, headListing);
    if (indexFile && existsSync(indexFile) && sparse) {
      const listed = await git(worktree, ['ls-files', '-t', '-z'], { env: { GIT_INDEX_FILE: indexFile } });
      const absent = listed
        .split('\0')
        .filter((e) => e.startsWith('S ') && !existsSync(join(worktree, e.slice(2))))
        .map((e) => e.slice(2));
      if (absent.length)
        await git(worktree, ['update-index', '--skip-worktree', '-z', '--stdin'], {
          env,
          input: absent.join('\0') + '\0',
        });
    }
    await addAll(worktree, env);
    // Untracked files hidden by .git/info/exclude (core.excludesFile is off): asked only when it has a pattern.
    const hidden = !mayExclude(excludeFile)
      ? []
      : (await git(worktree, ['ls-files', '-z', '--others', '--exclude-per-directory=.gitignore'], { env }))
          .split('\0')
          .filter((p) => p && !p.endsWith('/') && indexable(join(worktree, p)));
    if (hidden.length)
      await git(worktree, ['update-index', '--add', '-z', '--stdin'], { env, input: hidden.join('\0') + '\0' });
    const treeListing = listed();
    const tree = (await git(worktree, ['write-tree'], { env })).trim();
    if (treeListing !== null) knowListing(worktree, tree, treeListing);
    return tree;
  } finally {
    offAbort();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `git add -A` into the temporary index. A tracked path the agent replaced with something git cannot index (a
 * FIFO, socket or device) fails the whole add: it is dropped from the index (measured as deleted) and the add
 * runs again without it.
 */
async function addAll(worktree: string, env: NodeJS.ProcessEnv): Promise<void> {
  const skipped: string[] = [];
  for (;;) {
    try {
      await git(worktree, ['add', '-A', '--', '.', ...skipped.map((p) => `:(exclude,literal)${p}`)], { env });
      return;
    } catch (e) {
      const m = e instanceof GitError ? /error: (.+): can only add regular files/.exec(e.stderr) : null;
      if (!m || skipped.includes(m[1]!) || skipped.length >= 1000) throw e;
      skipped.push(m[1]!);
      await git(worktree, ['update-index', '--force-remove', '--', m[1]!], { env });
    }
  }
}

/** A regular file or symlink (git cannot index a FIFO, socket or device; asking it would fail the whole snapshot). */
function indexable(file: string): boolean {
  try {
    const st = lstatSync(file);
    return st.isFile() || st.isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether .git/info/exclude may exclude anything: unknown (no path), not a small regular file, or a pattern in it. */
function mayExclude(file: string | undefined): boolean {
  if (!file) return true;
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > 1 << 20) return true;
    return readFileSync(file, 'utf8')
      .split('\n')
      .some((l) => l.trim() !== '' && !l.startsWith('#'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

export interface NumstatEntry {
  path: string;
  oldPath?: string;
  added: number;
  removed: number;
  binary: boolean;
}

/** Parses `git diff --numstat -z` (rename entries carry old and new paths as separate fields). */
export function parseNumstatZ(out: string): NumstatEntry[] {
  const parts = out.split('\0');
  const entries: NumstatEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i];
    if (!head) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(head);
    if (!m) continue;
    const binary = m[1] === '-';
    const base = { added: binary ? 0 : Number(m[1]), removed: binary ? 0 : Number(m[2]), binary };
    if (m[3] === '') {
      const oldPath = parts[++i] ?? '';
      const path = parts[++i] ?? '';
      entries.push({ path, oldPath, ...base });
    } else {
      entries.push({ path: m[3]!, ...base });
    }
  }
  return entries;
}

async function diffNumstat(cwd: string, from: string, to: string): Promise<NumstatEntry[]> {
  return parseNumstatZ(await git(cwd, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', from, to]));
}

/** Paths that differ between two trees-ish (names only). */
async function changedPaths(cwd: string, from: string, to: string): Promise<Set<string>> {
  const out = await git(cwd, ['diff', '--name-only', '-z', '--no-renames', from, to]);
  return new Set(out.split('\0').filter(Boolean));
}

/** Unified diff text between two tree-ish, optionally limited to paths. */
export async function diffPatch(cwd: string, from: string, to: string, paths: string[] = []): Promise<string> {
  return git(cwd, [
    'diff',
    '-M',
    '--no-ext-diff',
    '--no-textconv',
    from,
    to,
    ...(paths.length ? ['--', ...paths] : []),
  ]);
}

export interface WorkingDiff {
  baseCommit: string;
  headCommit: string;
  mergeBase: string;
  /** Tree of the worktree on disk. */
  tree: string;
  files: (NumstatEntry & { untracked: boolean })[];
}

export interface WorkingSnapshot {
  baseCommit: string;
  headCommit: string;
  mergeBase: string;
  /** Tree of the worktree on disk at the time of the snapshot. */
  tree: string;
}

/** Phase 1 of workingDiff: fixes the on-disk state as a tree (after this, the worktree may change freely). */
export async function snapshotWorking(
  worktree: string,
  baseCommit: string,
  info?: WorktreeInfo & { mergeBase?: string },
  onMergeBase?: (mergeBase: string) => void,
): Promise<WorkingSnapshot> {
  const headCommit = info?.headCommit ?? (await git(worktree, ['rev-parse', 'HEAD'])).trim();
  // The merge base is known before the tree is written: `onMergeBase` lets the caller start on it. It comes
  // from worktreeInfoWithRef when that call found exactly one (for this base commit), else from git merge-base.
  const known =
    info?.mergeBase !== undefined && (info as { refCommit?: string }).refCommit === baseCommit
      ? info.mergeBase
      : undefined;
  const mbP = (known !== undefined ? Promise.resolve(known) : mergeBase(worktree, baseCommit, headCommit)).then(
    (mb) => {
      const m = mb ?? baseCommit;
      onMergeBase?.(m);
      return m;
    },
  );
  const [mb, tree] = await Promise.all([
    mbP,
    snapshotTree(worktree, info?.indexFile, info?.excludeFile, info?.headCommit),
  ]);
  return { baseCommit, headCommit, mergeBase: mb, tree };
}

/** Phase 2: the per-file numbers, from objects only (no worktree reads). */
export async function diffSnapshot(worktree: string, snap: WorkingSnapshot, info?: WorktreeInfo): Promise<WorkingDiff> {
  // Nothing uncommitted (the snapshot is HEAD's own tree): no need to ask git which paths differ from HEAD.
  const clean = info?.headTree !== undefined && info.headTree === snap.tree;
  // Nothing committed since the merge base: both diffs would compare the same two trees, so every changed
  // path (a rename's new path included) is uncommitted; no second git call.
  const allUncommitted = !clean && snap.headCommit === snap.mergeBase;
  const [files, uncommitted] = await Promise.all([
    diffNumstat(worktree, snap.mergeBase, snap.tree),
    clean || allUncommitted ? new Set<string>() : changedPaths(worktree, snap.headCommit, snap.tree),
  ]);
  return { ...snap, files: files.map((f) => ({ ...f, untracked: allUncommitted || uncommitted.has(f.path) })) };
}

/**
 * Everything the agent changed since it left `baseCommit`: merge base of base and HEAD to the on-disk tree.
 * `untracked` marks files whose change is not (or not fully) committed.
 */
export async function workingDiff(worktree: string, baseCommit: string, info?: WorktreeInfo): Promise<WorkingDiff> {
  return diffSnapshot(worktree, await snapshotWorking(worktree, baseCommit, info), info);
}

/**
 * The tree and merge base the collector measured (feedback.head.tree / diff.merge_base) when the record is for
 * this base and the tree object still exists; else a fresh snapshot by the same function the collector uses.
 */
export async function measuredOrFreshDiff(
  worktree: string,
  baseCommit: string,
  measured: { base?: { commit: string }; head?: { tree?: string }; diff?: { merge_base: string } | null } | null,
): Promise<{ mergeBase: string; tree: string }> {
  const tree = measured?.head?.tree;
  const mb = measured?.diff?.merge_base;
  if (tree && mb && measured?.base?.commit === baseCommit) {
    try {
      // Known to exist when this process has read or written it (measurableWithRef, the collect's write-tree).
      if (!isAnswered(worktree, ['rev-parse', `${tree}^{tree}`]))
        await git(worktree, ['cat-file', '-e', `${tree}^{tree}`]);
      return { mergeBase: mb, tree };
    } catch {
      // Pruned since: snapshot again.
    }
  }
  const wd = await snapshotWorking(worktree, baseCommit);
  return { mergeBase: wd.mergeBase, tree: wd.tree };
}
