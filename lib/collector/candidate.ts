// Sealing a run: the candidate commit, the trusted test revision, the graded commit and the infra changes found.
import { errorMessage, UserError } from '../base/errors.js';
import { pruneCandidateRefs } from '../git/candidate-refs.js';
import { git } from '../git/git.js';
import { blob, commitTree, gradedTree, lsTree, sealCandidate } from '../git/seal.js';
import { firstDifferentLine, pathMatcher, spliceTestConfig, TEST_CONFIG_FILES } from '../git/test-paths.js';
import type { Config, Feedback, RunRecord } from '../schema/types.generated.js';

type Candidate = NonNullable<Feedback['candidate']>;

export interface Sealed {
  candidate: Candidate;
  /** The commit the baseline runs on: the base, with the task's tests when it names a test revision. */
  gradedBase: string;
  /** Test paths where the candidate differs from the trusted revision (its own tests run apart). */
  ownFiles: string[];
  /** Other runs' candidate refs removed past collector.candidate_ref_max_age_days, or why that failed. */
  pruned: { beads: string[]; error: string | null };
}

const DAY_MS = 86_400_000;

/**
 * Other runs' candidate refs sealed more than collector.candidate_ref_max_age_days before `now`. Nothing when the
 * setting is null, or when this run is itself that old (re-evaluating old work, e.g. a race, keeps its peers' refs).
 */
async function pruneOld(
  repo: string,
  r: RunRecord,
  collector: Config['collector'],
  now: Date,
): Promise<Sealed['pruned']> {
  const days = collector.candidate_ref_max_age_days;
  if (days === null || days === undefined) return { beads: [], error: null };
  const before = now.getTime() - days * DAY_MS;
  if (Date.parse(r.completed_at) < before) return { beads: [], error: null };
  try {
    const gone = await pruneCandidateRefs(repo, { before, keep: [r.bead] });
    return { beads: gone.map((g) => g.bead), error: null };
  } catch (e) {
    return { beads: [], error: errorMessage(e) };
  }
}

async function commitOf(repo: string, ref: string): Promise<string | null> {
  try {
    return (await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim() || null;
  } catch {
    return null;
  }
}

/** Seals the measured tree on `base` and builds the graded commit from the trusted revision's tests. */
export async function sealRun(
  repo: string,
  snap: { tree: string; mergeBase: string },
  r: RunRecord,
  collector: Config['collector'],
  file: string,
  now: Date = new Date(),
): Promise<Sealed> {
  const when = new Date(r.completed_at);
  const commit = await sealCandidate(repo, snap.tree, snap.mergeBase, r.bead, when);
  // Beside the graded tree's git calls: one for-each-ref, and one update-ref when something is that old.
  const prunedP = pruneOld(repo, r, collector, now);
  const testsRef = r.task.tests_ref;
  const trusted = testsRef !== undefined ? await commitOf(repo, testsRef) : snap.mergeBase;
  if (!trusted) throw new UserError(`${file}: /task/tests_ref: ${JSON.stringify(testsRef)} names no commit in ${repo}`);
  const isInfra = pathMatcher(collector.test_infra_paths ?? []);
  const testGlobs = [...(collector.test_paths ?? []), ...(collector.test_infra_paths ?? [])];
  const isTest = pathMatcher(testGlobs);
  const g = await gradedTree(repo, snap.tree, trusted, isTest);
  const gradedCommit = await commitTree(repo, g.tree, snap.mergeBase, `judgeloop graded ${r.bead}`, when);
  let gradedBase = snap.mergeBase;
  if (testsRef !== undefined) {
    const gb = await gradedTree(repo, snap.mergeBase, trusted, isTest);
    // Named by its content alone, so every run on this base and test revision shares one baseline (one run, cached).
    gradedBase = await commitTree(
      repo,
      gb.tree,
      snap.mergeBase,
      'judgeloop graded base',
      new Date('2000-01-01T00:00:00Z'),
    );
  }
  const infra = await infraChanges(repo, snap.tree, snap.mergeBase, isInfra);
  const candidate: Candidate = {
    commit,
    tree: snap.tree,
    parent: snap.mergeBase,
    graded_commit: gradedCommit,
    graded_tree: g.tree,
    tests_from:
      testsRef !== undefined
        ? { source: 'tests_ref', ref: testsRef, commit: trusted }
        : { source: 'base', commit: trusted },
    replaced: g.replaced,
    excluded: g.excluded,
    infra_changed: infra,
  };
  return {
    candidate,
    gradedBase,
    ownFiles: [...new Set([...g.replaced, ...g.excluded, ...g.spliced])].sort(),
    pruned: await prunedP,
  };
}

/** Test infrastructure the agent changed against the base, with the first changed line. */
async function infraChanges(
  repo: string,
  tree: string,
  base: string,
  isInfra: (p: string) => boolean,
): Promise<Candidate['infra_changed']> {
  const [cand, baseTree] = await Promise.all([lsTree(repo, tree), lsTree(repo, base)]);
  const out: NonNullable<Candidate['infra_changed']> = [];
  const paths = new Set([...cand.keys(), ...baseTree.keys()]);
  for (const p of [...paths].sort()) {
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (!isInfra(p) && !TEST_CONFIG_FILES.has(name)) continue;
    const a = baseTree.get(p);
    const b = cand.get(p);
    if (a?.oid === b?.oid) continue;
    if (!b) {
      out.push({ file: p, detail: `${p} deleted` });
      continue;
    }
    const after = await blob(repo, b.oid);
    const before = a ? await blob(repo, a.oid) : '';
    if (TEST_CONFIG_FILES.has(name) && !isInfra(p)) {
      // package.json / pyproject.toml: only their test part is infrastructure.
      if (spliceTestConfig(p, after, a ? before : null) === null) continue;
    }
    const line = firstDifferentLine(before, after) ?? 1;
    out.push({
      file: p,
      line,
      detail: a ? `${p} changed (not applied in the graded run)` : `${p} added (not applied in the graded run)`,
    });
  }
  return out;
}
