// Sealing a run: the candidate commit, the trusted test revision, the graded commit and the infra changes found.
import { errorMessage, UserError } from '../base/errors.js';
import { pruneCandidateRefs } from '../git/candidate-refs.js';
import { git, isAnswered } from '../git/git.js';
import { blob, commitTree, gradedTree, lsTree, prefetchListings, sealCandidate } from '../git/seal.js';
import { scriptChain, trustedPathRule, type ScriptChain } from '../git/runner-infra.js';
import { doctestExamples, rustTestModules } from '../git/test-parts.js';
import { firstDifferentLine, hasTestPart, pathMatcher, spliceTestConfig } from '../git/test-paths.js';
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

/** The test command's chain as the trusted revision has it (runner-infra.ts), read from its tree. */
async function trustedChain(repo: string, trusted: string, command: string | null): Promise<ScriptChain> {
  const tree = await lsTree(repo, trusted);
  return scriptChain(command ?? '', async (p) => {
    const e = tree.get(p);
    return e?.type === 'blob' ? blob(repo, e.oid) : null;
  });
}

/**
 * Seals the measured tree on `base` and builds the graded commit from the trusted revision: its tests and what
 * decides how they run (trustedPathRule, with the chain behind `testCommand`).
 */
export async function sealRun(
  repo: string,
  snap: { tree: string; mergeBase: string },
  r: RunRecord,
  collector: Config['collector'],
  file: string,
  now: Date = new Date(),
  testCommand: string | null = null,
): Promise<Sealed> {
  const when = new Date(r.completed_at);
  const testsRef = r.task.tests_ref;
  // The base's listing and the candidate's in one git process, beside the seal (when the base's tree is known).
  const baseTree = ['rev-parse', `${snap.mergeBase}^{tree}`];
  const listedP =
    testsRef === undefined && isAnswered(repo, baseTree)
      ? git(repo, baseTree)
          .then((t) =>
            prefetchListings(repo, [
              [snap.mergeBase, t.trim()],
              [snap.tree, snap.tree],
            ]),
          )
          .catch(() => undefined) // then each is listed by ls-tree, as before
      : undefined;
  const commit = await sealCandidate(repo, snap.tree, snap.mergeBase, r.bead, when);
  await listedP;
  // Beside the graded tree's git calls: one for-each-ref, and one update-ref when something is that old.
  const prunedP = pruneOld(repo, r, collector, now);
  const trusted = testsRef !== undefined ? await commitOf(repo, testsRef) : snap.mergeBase;
  if (!trusted) throw new UserError(`${file}: /task/tests_ref: ${JSON.stringify(testsRef)} names no commit in ${repo}`);
  const chain = await trustedChain(repo, trusted, testCommand);
  const isInfra = trustedPathRule(pathMatcher(collector.test_infra_paths ?? []), chain);
  const testGlobs = [...(collector.test_paths ?? []), ...(collector.test_infra_paths ?? [])];
  const isTest = trustedPathRule(pathMatcher(testGlobs), chain);
  const g = await gradedTree(repo, snap.tree, trusted, isTest, chain.scripts);
  // Nothing taken from the trusted side: the graded commit is the candidate itself (same tree, parent and time).
  const gradedCommit =
    g.tree === snap.tree ? commit : await commitTree(repo, g.tree, snap.mergeBase, `judgeloop graded ${r.bead}`, when);
  let gradedBase = snap.mergeBase;
  if (testsRef !== undefined) {
    const gb = await gradedTree(repo, snap.mergeBase, trusted, isTest, chain.scripts);
    // Named by its content alone, so every run on this base and test revision shares one baseline (one run, cached).
    gradedBase = await commitTree(
      repo,
      gb.tree,
      snap.mergeBase,
      'judgeloop graded base',
      new Date('2000-01-01T00:00:00Z'),
    );
  }
  const doctests = /doctest/.test(testCommand ?? '') || [...chain.files].some((f) => /doctest/.test(f));
  const infra = await infraChanges(
    repo,
    snap.tree,
    snap.mergeBase,
    isInfra,
    chain,
    doctests || (await doctestConfig(repo, trusted)),
  );
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

/** Whether the trusted revision's root pytest configuration collects doctests (`--doctest-modules`, `doctest_*`). */
async function doctestConfig(repo: string, trusted: string): Promise<boolean> {
  const tree = await lsTree(repo, trusted);
  for (const f of ['pytest.ini', '.pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml']) {
    const e = tree.get(f);
    if (e?.type === 'blob' && /--doctest-(modules|glob)|\bdoctest_/.test(await blob(repo, e.oid))) return true;
  }
  return false;
}

/**
 * Test infrastructure the agent changed against the base, with the first changed line: whole infra files, the test
 * part of a mixed file, and (when the graded run collects doctests) a code file's doctest examples.
 */
async function infraChanges(
  repo: string,
  tree: string,
  base: string,
  isInfra: (p: string) => boolean,
  chain: ScriptChain,
  doctests: boolean,
): Promise<Candidate['infra_changed']> {
  const [cand, baseTree] = await Promise.all([lsTree(repo, tree), lsTree(repo, base)]);
  const out: NonNullable<Candidate['infra_changed']> = [];
  const paths = new Set([...cand.keys(), ...baseTree.keys()]);
  for (const p of [...paths].sort()) {
    const py = doctests && p.endsWith('.py');
    if (!isInfra(p) && !hasTestPart(p) && !py) continue;
    const a = baseTree.get(p);
    const b = cand.get(p);
    if (a?.oid === b?.oid) continue;
    const after = b ? await blob(repo, b.oid) : '';
    const before = a ? await blob(repo, a.oid) : '';
    if (!b) {
      // A mixed file deleted counts when its base version had a test part (a Rust test module, doctests).
      const part =
        isInfra(p) ||
        (p.endsWith('.rs') ? rustTestModules(before).length > 0 : py ? doctestExamples(before).length > 0 : true);
      if (part) out.push({ file: p, detail: `${p} deleted` });
      continue;
    }
    if (!isInfra(p) && py && !hasTestPart(p)) {
      // Doctest examples are tests inside code: the graded run would run the candidate's (so they are a finding).
      if (doctestExamples(after).join('\n') === doctestExamples(before).join('\n')) continue;
      out.push({ file: p, line: firstDifferentLine(before, after) ?? 1, detail: `${p}: doctest examples changed` });
      continue;
    }
    if (!isInfra(p)) {
      // package.json, pyproject.toml, Cargo.toml, go.mod, Rust source: only their test part is infrastructure.
      if (spliceTestConfig(p, after, a ? before : null, chain.scripts) === null) continue;
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
