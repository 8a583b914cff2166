// The judge collects a run before judging it: the collector's verdict, or a note when collecting failed.
import { collectRun } from '../collector/collect.js';
import type { CollectContext } from '../collector/context.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { Feedback } from '../schema/types.generated.js';

export type CollectCtx = Pick<CollectContext, 'store' | 'config' | 'processEnv' | 'now'>;

export type CollectOutcome = { feedback: Feedback; note: string } | { feedback: null; note: string };

/** Runs the collector for a run; its UserErrors (bad input) propagate, other failures become a note. */
export async function collectFirst(loaded: LoadedRunRecord, ctx: CollectCtx): Promise<CollectOutcome> {
  try {
    return { feedback: await collectRun(loaded, ctx), note: 'feedback collected before judging' };
  } catch (e) {
    if ((e as Error)?.name === 'UserError') throw e;
    return {
      feedback: null,
      note: `collecting failed (${(e as Error)?.message ?? String(e)}): judged without mechanical feedback`,
    };
  }
}
