// What collectRun reads before it measures anything: the base commit, the stored record, the race's fastest run, the
// judgment.
import { existsSync } from 'node:fs';
import { UserError } from '../base/errors.js';
import { git } from '../git/git.js';
import { resolveCommit } from '../git/worktree.js';
import { readFeedback } from '../store/feedback-read.js';
import { readStoredJudgment } from '../store/judgment.js';
import type { StateStore } from '../store/store.js';
import type { CommandsUsed, Feedback, RaceRun, RunRecord } from '../schema/types.generated.js';
import { CHECK_NAMES } from './checks.js';
import type { RacePeer } from './context.js';
import { summarizeJudgment, type Stamp } from './feedback-parts.js';

/** The base commit: the one the record stored, else what base_ref names now. */
export async function recordedBase(wt: string, r: RunRecord, resolved: string | null, file: string): Promise<string> {
  if (r.base_commit !== undefined) {
    try {
      await git(wt, ['cat-file', '-e', `${r.base_commit}^{commit}`]);
      return r.base_commit;
    } catch {
      throw new UserError(`${file}: /base_commit: ${r.base_commit} is not a commit in ${wt}`);
    }
  }
  const commit = resolved ?? (await resolveCommit(wt, r.base_ref));
  if (!commit) throw new UserError(`${file}: /base_ref: ${JSON.stringify(r.base_ref)} does not name a commit in ${wt}`);
  return commit;
}

/** No check configured or reported: the run can only be recorded unmeasured (or worse). */
export function nothingToMeasure(r: RunRecord, commands: CommandsUsed): boolean {
  return CHECK_NAMES.every((k) => commands[k] === null && r.checks?.[k] === undefined);
}

/** The stored record's outcome; a file that exists but does not parse counts as measured (never overwritten here). */
export function storedOutcome(store: StateStore, bead: string): Pick<Feedback, 'outcome'> | null {
  const r = readFeedback(store, bead);
  return r.status === 'ok' ? r.feedback : r.status === 'missing' ? null : { outcome: 'partial_pass' };
}

/**
 * The fastest known duration among the other runs of the race: the race's run log (last row per bead,
 * infra failures left out) and the peers of this call. Reads one small file, not every feedback record.
 */
export function fastestInRace(store: StateStore, raceId: string, bead: string, peers: RacePeer[] = []): number | null {
  const byBead = new Map<string, number | null>();
  for (const row of store.readLines<RaceRun>('race-runs', raceId).rows)
    byBead.set(row.bead, row.outcome === 'infra_failure' ? null : row.duration_seconds);
  for (const p of peers) if (p.raceId === raceId && !byBead.has(p.bead)) byBead.set(p.bead, p.seconds);
  byBead.delete(bead);
  const known = [...byBead.values()].filter((d): d is number => d !== null);
  return known.length ? Math.min(...known) : null;
}

/** A stored judgment as the collector may carry it: its summary, why it cannot be used, the tree it judged. */
export type CarriedJudgment = NonNullable<Stamp['judgment']> & { headTree?: string | undefined };

/**
 * The judge's verdict from state/judgments/<bead>.json (validated), read at phase >= 2, or when the stored record
 * already carries a merged verdict (a judge at phase >= 2 merged it: a plain collect keeps it). A failed or corrupt
 * judgment is not carried. Null when nothing is read.
 */
export function readJudgment(store: StateStore, bead: string, phase: number): CarriedJudgment | null {
  if (phase < 2 && !storedHasJudgment(store, bead)) return null;
  const { judgment, note } = readStoredJudgment(store, bead);
  return { summary: judgment ? summarizeJudgment(judgment) : null, note, headTree: judgment?.run.head_tree };
}

function storedHasJudgment(store: StateStore, bead: string): boolean {
  if (!existsSync(store.path('judgments', bead))) return false;
  const r = readFeedback(store, bead);
  return r.status === 'ok' && r.feedback.judgment !== null;
}

/** The carried verdict, unless it judged another tree than the one measured now (the work changed: judge again). */
export function judgmentOfTree(j: CarriedJudgment | null, tree: string | null): Stamp['judgment'] {
  if (!j) return null;
  if (j.summary && j.headTree && tree && j.headTree !== tree)
    return {
      summary: null,
      note: `judgment not carried: it judged tree ${j.headTree.slice(0, 12)}, the run now measures ${tree.slice(0, 12)} (judge it again)`,
    };
  return { summary: j.summary, note: j.note };
}
