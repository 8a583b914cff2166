// The runs of one race: refused when they cannot race together, the race id, and the pool that runs them.
import { createHash } from 'node:crypto';
import { UserError } from '../base/errors.js';
import type { LoadedRunRecord } from '../collector/run-record.js';

/** Refuses runs that cannot form one race: duplicates, different tasks, different race ids. */
export function checkRaceInput(runs: LoadedRunRecord[]): void {
  if (!runs.length) throw new UserError('no run records given: judgeloop race <run.json>… or --race ID');
  const beads = new Map<string, string>();
  for (const r of runs) {
    const prev = beads.get(r.record.bead);
    if (prev)
      throw new UserError(
        `${r.file}: /bead: ${JSON.stringify(r.record.bead)} is also the bead of ${prev}; each solution needs its own bead`,
      );
    beads.set(r.record.bead, r.file);
  }
  const task = runs[0]!.record.task.id;
  for (const r of runs.slice(1)) {
    if (r.record.task.id !== task)
      throw new UserError(
        `${r.file}: /task/id: ${JSON.stringify(r.record.task.id)} differs from ${JSON.stringify(task)} in ${runs[0]!.file}; a race compares runs of one task`,
      );
  }
  const ids = new Set(runs.map((r) => r.record.race_id).filter((x): x is string => x !== undefined));
  if (ids.size > 1) throw new UserError(`/race_id: the runs name different races (${[...ids].join(', ')})`);
}

export function deriveRaceId(runs: LoadedRunRecord[]): string {
  const shared = runs[0]!.record.race_id;
  if (shared && runs.every((r) => r.record.race_id === shared)) return shared;
  const task =
    runs[0]!.record.task.id
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 60) || 'race';
  const hash = createHash('sha256')
    .update(
      runs
        .map((r) => r.record.bead)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 8);
  return `${task}-${hash}`;
}

/** Runs `fn` over `items`, at most `limit` at once, results in input order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
