// A race reuses a solution's current feedback instead of running its checks again (bin/race without --recollect):
// the same run record, base commit, candidate tree, commands and collector configuration.
import { snapshotTree } from '../git/snapshot.js';
import { resolveCommit, worktreeInfo } from '../git/worktree.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { Config } from '../config/config.js';
import { readFeedback } from '../store/feedback-read.js';
import { collectorConfigHash, feedbackIsCurrent } from '../store/record-hash.js';
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

/** The stored feedback when it is current for this run (the same base, and the worktree's tree is still the candidate's), else null. */
export async function currentFeedback(
  store: StateStore,
  run: LoadedRunRecord,
  collector: Config['collector'],
): Promise<Feedback | null> {
  const r = readFeedback(store, run.record.bead);
  if (r.status !== 'ok' || reuseProblem(r.feedback, run, collector) !== null) return null;
  // A record without base_commit names its base by a ref, which may have moved since the feedback was measured.
  const base = run.record.base_commit ?? (await resolveCommit(run.worktree, run.record.base_ref));
  if (base !== r.feedback.base?.commit) return null;
  const info = await worktreeInfo(run.worktree);
  if (!info) return null;
  const tree = await snapshotTree(run.worktree, info.indexFile, info.excludeFile).catch(() => null);
  return tree === r.feedback.candidate!.tree ? r.feedback : null;
}
