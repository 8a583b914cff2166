// Is a feedback record still evidence about its run: hashes of the run record's fields and of the collector settings
// it was measured under; a run record re-written since (agent, template, task, base, times…) makes it stale.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Feedback, FeedbackIndexRow, RunRecord } from '../schema/types.generated.js';

/** sha256 (16 hex digits) of the fields, in a fixed order; a field absent hashes as null. */
export function runRecordHash(r: RunRecord): string {
  const facts = [
    r.agent.slug,
    r.agent.model ?? null,
    r.template,
    r.task.id,
    r.task.type ?? null,
    r.task.complexity ?? null,
    r.base_ref,
    r.head_ref ?? null,
    r.worktree,
    r.started_at,
    r.completed_at,
  ];
  // The sealed candidate's inputs: only when set, so records without them keep their hash.
  const sealed = [r.base_commit ?? null, r.task.tests_ref ?? null, r.task.target_tests ?? null];
  if (sealed.some((x) => x !== null)) facts.push(JSON.stringify(sealed));
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16);
}

/** sha256 (16 hex digits) of the collector configuration (checks, timeouts, sandbox, paths) a record was measured under. */
export function collectorConfigHash(collector: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(measuring(collector), sortedKeys))
    .digest('hex')
    .slice(0, 16);
}

/** The collector settings that change what a collect measures: how long candidate refs are kept does not. */
function measuring(collector: unknown): unknown {
  if (collector === null || typeof collector !== 'object' || !('candidate_ref_max_age_days' in collector))
    return collector;
  const { candidate_ref_max_age_days: _kept, ...rest } = collector as Record<string, unknown>;
  return rest;
}

/** JSON.stringify replacer: object keys sorted, so the same settings in another key order hash alike. */
function sortedKeys(_k: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

/** Feedback still describes this run record: the same hash (or, for an older record without one, the same times). */
export function feedbackIsCurrent(fb: Feedback, r: RunRecord): boolean {
  if (fb.run.record_hash !== undefined) return fb.run.record_hash === runRecordHash(r);
  return fb.run.completed_at === r.completed_at && fb.run.started_at === r.started_at;
}

/** The hash of the run record at `path`, or null when it is gone, unreadable or not a run record. */
function hashOfFile(path: string): string | null {
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
    return r?.agent && r.task ? runRecordHash(r) : null;
  } catch {
    return null;
  }
}

/** The one line a stale record gets (its run record now hashes differently), naming the command that measures it again. */
function staleAgainst(bead: string, path: string, hash: string): string | null {
  const now = hashOfFile(path);
  if (now === null || now === hash) return null;
  return `${bead}: the feedback is stale (its run record ${path} changed since it was measured); run: judgeloop collect ${path}`;
}

/** Why a feedback record is stale, reading its run record (`run.record_path`); null when current or nothing to compare. */
export function staleness(fb: Feedback): string | null {
  const { record_path: path, record_hash: hash } = fb.run;
  return path && hash !== undefined ? staleAgainst(fb.bead, path, hash) : null;
}

/** `staleness` for an index row: a run record last written before its feedback file is current without being read. */
export function rowStaleness(row: FeedbackIndexRow): string | null {
  if (!row.record) return null;
  const st = statSync(row.record.path, { throwIfNoEntry: false });
  return !st || st.mtimeMs < row.file.mtime_ms ? null : staleAgainst(row.bead, row.record.path, row.record.hash);
}
