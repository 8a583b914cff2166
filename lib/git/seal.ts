// The sealed candidate (the measured tree as a commit on the base) and the graded tree (its code, the trusted
// revision's tests). Objects only: nothing here reads or writes a worktree.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { CANDIDATE_REFS } from './candidate-refs.js';
import { git, identityEnv, isAnswered, knowListing, type Identity } from './git.js';
import { emptyTree, parseTreeListings } from './tree-listings.js';
import { hasTestPart, spliceTestConfig, type PathMatcher } from './test-paths.js';

export interface Entry {
  mode: string;
  type: string;
  oid: string;
}

/** Every blob, link and submodule of a tree-ish, by path. */
export async function lsTree(repo: string, treeish: string): Promise<Map<string, Entry>> {
  const out = await git(repo, ['ls-tree', '-r', '-z', '--full-tree', treeish]);
  const map = new Map<string, Entry>();
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, oid] = rec.slice(0, tab).split(' ') as [string, string, string];
    map.set(rec.slice(tab + 1), { mode, type, oid });
  }
  return map;
}

/**
 * Lists several tree-ish at once (`[treeish, its tree]` pairs): one `diff-tree --stdin` of the empty tree against
 * each tree not already listed, kept as their `ls-tree` answers; lsTree then starts no process for them.
 */
export async function prefetchListings(repo: string, pairs: [string, string][]): Promise<void> {
  const ls = (t: string) => ['ls-tree', '-r', '-z', '--full-tree', t];
  const todo = pairs.filter(([treeish]) => !isAnswered(repo, ls(treeish)));
  if (todo.length < 2) return; // one listing: ls-tree itself, as before
  const trees = [...new Set(todo.map(([, tree]) => tree))];
  const input = trees.map((t) => `${emptyTree(t)} ${t}\n`).join('');
  const out = await git(
    repo,
    [
      'diff-tree',
      '-r',
      '-z',
      '--no-renames',
      '--no-abbrev',
      // The agent's config cannot hide a submodule (`submodule.<name>.ignore`) nor reorder the listing.
      '--ignore-submodules=none',
      '-O/dev/null',
      '--stdin',
    ],
    { input },
  );
  const listings = parseTreeListings(out);
  if (!listings) return;
  for (const [treeish, tree] of todo) {
    const text = listings.get(tree);
    if (text !== undefined) knowListing(repo, treeish, text);
  }
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'judgeloop',
  GIT_AUTHOR_EMAIL: 'judgeloop@localhost',
  GIT_COMMITTER_NAME: 'judgeloop',
  GIT_COMMITTER_EMAIL: 'judgeloop@localhost',
};

/**
 * A commit of `tree` on `parent` dated `when`, by judgeloop's fixed identity unless `who` names the author and the
 * committer: the same inputs commit to the same id.
 */
export async function commitTree(
  repo: string,
  tree: string,
  parent: string,
  message: string,
  when: Date,
  who?: { author: Identity; committer: Identity },
) {
  const date = `${Math.floor(when.getTime() / 1000)} +0000`;
  const env = who
    ? { ...identityEnv('AUTHOR', who.author, date), ...identityEnv('COMMITTER', who.committer, date) }
    : { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  return (await git(repo, ['commit-tree', tree, '-p', parent, '-m', message], { env })).trim();
}

/** Seals the snapshot as refs/judgeloop/candidates/<bead> (kept from gc: bin/accept merges it later; candidate-refs.ts prunes it). */
export async function sealCandidate(repo: string, tree: string, parent: string, bead: string, when: Date) {
  const commit = await commitTree(repo, tree, parent, `judgeloop candidate ${bead}`, when);
  await git(repo, ['update-ref', `${CANDIDATE_REFS}${bead}`, commit]);
  return commit;
}

export interface GradedTree {
  tree: string;
  /** Test paths the candidate changed or deleted: the trusted version is in the graded tree. */
  replaced: string[];
  /** Test paths only the candidate has: left out. */
  excluded: string[];
  /**
   * Files whose test part (package.json's test scripts and their chain, pyproject's pytest tables, Cargo.toml's dev
   * tables, go.mod's replaces, a Rust file's `#[cfg(test)]` modules) was taken from the trusted side.
   */
  spliced: string[];
}

/**
 * The candidate's tree with every test path as the trusted commit has it (absent there: absent here), and each file's
 * test part spliced in. `scripts`: the package.json scripts the test command's chain runs (runner-infra.ts).
 */
export async function gradedTree(
  repo: string,
  candidate: string,
  trusted: string,
  isTest: PathMatcher,
  scripts: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<GradedTree> {
  const [cand, trust] = await Promise.all([lsTree(repo, candidate), lsTree(repo, trusted)]);
  const out = new Map<string, Entry>();
  const replaced: string[] = [];
  const excluded: string[] = [];
  const spliced: string[] = [];
  for (const [p, e] of cand) {
    if (!isTest(p)) out.set(p, e);
    else if (!trust.has(p)) excluded.push(p);
  }
  for (const [p, e] of trust) {
    if (!isTest(p)) continue;
    out.set(p, e);
    if (cand.get(p)?.oid !== e.oid) replaced.push(p);
  }
  for (const [p, e] of out) {
    const t = trust.get(p);
    if (!hasTestPart(p) || t?.oid === e.oid || e.type !== 'blob') continue;
    // One only the candidate has is spliced too: its test part (a pytest table, a test script) is the agent's.
    const merged = spliceTestConfig(p, await blob(repo, e.oid), t ? await blob(repo, t.oid) : null, scripts);
    if (merged === null) continue;
    out.set(p, { ...e, oid: await writeBlob(repo, merged) });
    spliced.push(p);
  }
  // Nothing taken from the trusted side (same test entries, modes too; nothing spliced): the candidate's own tree.
  const same =
    !replaced.length &&
    !excluded.length &&
    !spliced.length &&
    [...trust].every(([p, e]) => !isTest(p) || cand.get(p)?.mode === e.mode);
  const tree = same
    ? (await git(repo, ['rev-parse', '--verify', `${candidate}^{tree}`])).trim()
    : await writeTree(repo, out);
  return { tree, replaced: replaced.sort(), excluded: excluded.sort(), spliced };
}

export const blob = (repo: string, oid: string): Promise<string> => git(repo, ['cat-file', 'blob', oid]);

async function writeBlob(repo: string, text: string): Promise<string> {
  return (await git(repo, ['hash-object', '-w', '--stdin'], { input: text })).trim();
}

/** A tree object from a path → entry map, through a throwaway index. */
async function writeTree(repo: string, entries: Map<string, Entry>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-index-'));
  const off = onAbort(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    const input = [...entries].map(([p, e]) => `${e.mode} ${e.oid}\t${p}\0`).join('');
    await git(repo, ['update-index', '--add', '-z', '--index-info'], { env, input });
    return (await git(repo, ['write-tree'], { env })).trim();
  } finally {
    off();
    rmSync(dir, { recursive: true, force: true });
  }
}
