// Several state folders read as one (issue 37, item 9: a fleet with a folder per machine). Bead ids must be unique
// across them: a bead found in two folders is refused, naming both (record each machine's runs with its own prefix).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../base/errors.js';
import type { FeedbackIndexRow } from '../schema/types.generated.js';
import { scanFeedback, type ScanOptions, type ScanResult } from './feedback-index.js';
import { StateStore } from './store.js';

const real = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
};

/** The store first, then one read-side store per other folder (the same folder twice, by real path, once). */
export function stateSet(store: StateStore, others: readonly string[]): StateStore[] {
  const seen = new Set([real(store.root)]);
  const out = [store];
  for (const d of others) {
    const r = real(d);
    if (seen.has(r)) continue;
    seen.add(r);
    out.push(new StateStore(resolve(d)));
  }
  return out;
}

/** scanFeedback over every folder, in order, as one; a bead in two folders is a UserError naming both. */
export async function scanFeedbackAll(
  stores: readonly StateStore[],
  onRow: (row: FeedbackIndexRow) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const where = new Map<string, string>();
  const total: ScanResult = {
    feedbackFiles: 0,
    fromIndex: 0,
    readNow: 0,
    skipped: [],
    badIndexLines: 0,
    reconciled: false,
  };
  for (const store of stores) {
    const r = await scanFeedback(
      store,
      (row) => {
        const first = where.get(row.bead);
        if (first !== undefined && first !== store.root)
          throw new UserError(
            `bead ${row.bead} is in two state folders (${first} and ${store.root}): bead ids must be unique across the folders read as one; record each machine's runs with its own prefix (judgeloop record --bead <machine>-…)`,
          );
        where.set(row.bead, store.root);
        onRow(row);
      },
      opts,
    );
    total.feedbackFiles += r.feedbackFiles;
    total.fromIndex += r.fromIndex;
    total.readNow += r.readNow;
    total.skipped.push(...r.skipped);
    total.badIndexLines += r.badIndexLines;
    total.reconciled ||= r.reconciled;
  }
  return total;
}
