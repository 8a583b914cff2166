// A race reuses a solution's current feedback instead of running its checks again (bin/race without --recollect):
// the same run record, candidate tree, trusted revisions (merge base, test revision), commands and configuration.
import { snapshotTree } from '../git/snapshot.js';
import { mergeBase, resolveCommit, worktreeInfo } from '../git/worktree.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { Config } from '../config/config.js';
import { readFeedback } from '../store/feedback-read.js';
import { collectorConfigHash, feedbackIsCurrent } from '../evidence/currency.js';
import type { StateStore } from '../store/store.js';
import type { Feedback } from '../schema/types.generated.js';
import { resolveCommands } from './collector-adapter.js';

/** Why stored feedback cannot stand for a fresh collect, from the record alone (pure); null: only the tree is left to compare. */
function reuseProblem(fb: Feedback, run: LoadedRunRecord, collector: Config['collector']): string | null {
  if (fb.run.record_hash === undefined || !feedbackIsCurrent(fb, run.record)) return 'the run record changed';
  if (!fb.candidate || !fb.diff || !fb.head) return 'not measured';
  if (fb.collector_config_hash !== collectorConfigHash(collector)) return 'the collector configuration changed';
  if (JSON.stringify(fb.commands) !== JSON.stringify(resolveCommands(run.record, collector)))
    return 'the commands changed';
  return null;
}

/** The stored feedback when it is current for this run (the worktree's tree and trusted revisions unchanged), else null. */
export async function currentFeedback(
  store: StateStore,
  run: LoadedRunRecord,
  collector: Config['collector'],
): Promise<Feedback | null> {
  const r = readFeedback(store, run.record.bead);
  if (r.status !== 'ok' || reuseProblem(r.feedback, run, collector) !== null) return null;
  const info = await worktreeInfo(run.worktree);
  if (!info || !(await sameTrustedRevisions(r.feedback.candidate!, run, info.headCommit))) return null;
  const tree = await snapshotTree(run.worktree, info.indexFile, info.excludeFile).catch(() => null);
  return tree === r.feedback.candidate!.tree ? r.feedback : null;
}

/**
 * A fresh collect would grade against the same commits: the merge base with the base (a ref may have moved, e.g.
 * onto this very work once merged) and the task's test revision (a ref too).
 */
async function sameTrustedRevisions(
  c: NonNullable<Feedback['candidate']>,
  run: LoadedRunRecord,
  head: string,
): Promise<boolean> {
  const { worktree, record } = run;
  const base = record.base_commit ?? (await resolveCommit(worktree, record.base_ref));
  if (!base || (await mergeBase(worktree, base, head)) !== c.parent) return false;
  const ref = record.task.tests_ref;
  return (
    c.tests_from.source !== 'tests_ref' ||
    (ref !== undefined && (await resolveCommit(worktree, ref)) === c.tests_from.commit)
  );
}
