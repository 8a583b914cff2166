// The one place the judge reaches the collector: a dynamic import (a literal one, so esbuild puts the collector
// in bin/judge's bundle), so the judge works (with less context) where the collector module is absent.
import type { Config } from '../config/config.js';
import type { LoadedRunRecord } from '../collector/run-record.js';
import type { StateStore } from '../store/store.js';
import type { Feedback } from '../schema/types.generated.js';

export interface CollectCtx {
  store: StateStore;
  config: Config;
  processEnv: NodeJS.ProcessEnv;
  now?: () => Date;
}

type CollectRun = (loaded: LoadedRunRecord, ctx: CollectCtx) => Promise<Feedback>;

export type CollectOutcome = { feedback: Feedback; note: string } | { feedback: null; note: string };

async function loadCollector(): Promise<CollectRun | null> {
  try {
    const mod = (await import('../collector/collect.js')) as { collectRun?: CollectRun };
    return typeof mod.collectRun === 'function' ? mod.collectRun : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw e;
  }
}

/** Runs the collector for a run; its UserErrors (bad input) propagate, other failures become a note. */
export async function collectFirst(loaded: LoadedRunRecord, ctx: CollectCtx): Promise<CollectOutcome> {
  const collectRun = await loadCollector();
  if (!collectRun)
    return { feedback: null, note: 'the collector is not installed: judged without mechanical feedback' };
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
