// The layout of a feedback record as written (pure): summary first (outcome, composite, scores, judgment), the bulk
// last, floats to 4 places; the index reads a record's head alone when it is in this layout.
import type { Feedback } from '../schema/types.generated.js';

/** Top-level keys in the order written; keys not listed (none today) follow them. */
export const FEEDBACK_KEY_ORDER = [
  'schema_version',
  'bead',
  'outcome',
  'outcome_reason',
  'resolution',
  'composite',
  'scores',
  'weights_used',
  'judgment',
  'integrity',
  'speed',
  'run',
  'collected_at',
  'collector_version',
  'collector_config_hash',
  'base',
  'head',
  'candidate',
  'commands',
  'changed_expectations',
  'baseline',
  'diff',
  'checks',
  'own_tests',
  'hidden',
  'setup',
  'steps',
] as const satisfies readonly (keyof Feedback)[];

/** Inside any object: these keys (raw output, per-test lists, notes, file lists) go after the others. */
const LAST = ['notes', 'cases', 'files', 'output'];

/** x rounded to 4 decimal places; integers and non-finite numbers unchanged. */
export function round4(x: number): number {
  if (Number.isInteger(x) || !Number.isFinite(x)) return x;
  const r = Math.round(x * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
}

function tidy(v: unknown): unknown {
  if (typeof v === 'number') return round4(v);
  if (Array.isArray(v)) return v.map(tidy);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (!LAST.includes(k)) out[k] = tidy(o[k]);
  for (const k of LAST) if (k in o) out[k] = tidy(o[k]);
  return out;
}

/** The record with its keys in the written order and its floats rounded to 4 places (a new object). */
export function orderFeedback(fb: Feedback): Feedback {
  const src = fb as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of FEEDBACK_KEY_ORDER) if (k in src) out[k] = tidy(src[k]);
  for (const k of Object.keys(src)) if (!(k in out)) out[k] = tidy(src[k]);
  return out as unknown as Feedback;
}
