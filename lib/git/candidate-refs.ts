// The sealed candidates kept as refs/judgeloop/candidates/<bead> in the agent's repository: listed and pruned (after
// accept, past collector.candidate_ref_max_age_days, by `judgeloop refs prune`). One git call to list, one to delete.
import { existsSync } from 'node:fs';
import { git } from './git.js';

export const CANDIDATE_REFS = 'refs/judgeloop/candidates/';

export interface CandidateRef {
  bead: string;
  ref: string;
  commit: string;
  /** The sealed commit's date (the run's completion), ms since the epoch. */
  sealedAt: number;
}

/** Every candidate ref of the repository, oldest first. */
export async function listCandidateRefs(repo: string): Promise<CandidateRef[]> {
  const out = await git(repo, [
    'for-each-ref',
    '--format=%(refname)%00%(objectname)%00%(committerdate:unix)',
    CANDIDATE_REFS,
  ]);
  const refs: CandidateRef[] = [];
  for (const line of out.split('\n')) {
    const [ref, commit, date] = line.split('\0');
    if (!ref || !commit || !ref.startsWith(CANDIDATE_REFS)) continue;
    refs.push({ bead: ref.slice(CANDIDATE_REFS.length), ref, commit, sealedAt: Number(date || 0) * 1000 });
  }
  return refs.sort((a, b) => a.sealedAt - b.sealedAt || a.bead.localeCompare(b.bead));
}

export interface PruneRule {
  /** These beads' refs (a race's candidates once one is merged). */
  beads?: readonly string[];
  /** Refs sealed before this time (ms since the epoch). */
  before?: number;
  /** Every ref. */
  all?: boolean;
  /** Never these beads' refs (the run being collected now). */
  keep?: readonly string[];
}

/** Which refs a rule removes. Pure. */
export function refsToPrune(refs: readonly CandidateRef[], rule: PruneRule): CandidateRef[] {
  const named = new Set(rule.beads ?? []);
  const keep = new Set(rule.keep ?? []);
  return refs.filter(
    (r) =>
      !keep.has(r.bead) &&
      (rule.all === true || named.has(r.bead) || (rule.before !== undefined && r.sealedAt < rule.before)),
  );
}

/**
 * Deletes the candidate refs the rule names, each only if it still points where it was listed (a ref sealed again
 * meanwhile stays), in one transaction; `dryRun` lists them only. Returns the refs removed (or that would be).
 */
export async function pruneCandidateRefs(
  repo: string,
  rule: PruneRule,
  opts: { dryRun?: boolean } = {},
): Promise<CandidateRef[]> {
  const gone = refsToPrune(await listCandidateRefs(repo), rule);
  if (!gone.length || opts.dryRun) return gone;
  const input = gone.map((r) => `delete ${r.ref}\0${r.commit}\0`).join('');
  await git(repo, ['update-ref', '--stdin', '-z'], { input });
  return gone;
}

/**
 * The candidate refs of these runs, each in its repository (a race's solutions once one is merged: `accept`);
 * a repository that is gone is skipped and named. Worktrees of one repository share its refs.
 */
export async function pruneRunCandidates(
  runs: readonly { repo: string; bead: string }[],
  opts: { dryRun?: boolean } = {},
): Promise<{ pruned: CandidateRef[]; missing: string[] }> {
  const beads = [...new Set(runs.map((r) => r.bead))];
  const pruned: CandidateRef[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const repo of new Set(runs.map((r) => r.repo))) {
    if (!existsSync(repo)) {
      missing.push(repo);
      continue;
    }
    const gone = await pruneCandidateRefs(repo, { beads }, opts);
    // A dry run lists a shared ref once per worktree: once is enough.
    for (const g of gone) {
      if (seen.has(g.ref)) continue;
      seen.add(g.ref);
      pruned.push(g);
    }
  }
  return { pruned, missing };
}
