// The index row's shape check (parseRow, and a first read's rows from a record's head) is the row schema without its
// date formats: every field mutated to each wrong kind of value is refused by both or by neither; dates are left out.
import { describe, expect, it } from 'vitest';
import { parseRow, summarizeFeedback } from '../../lib/store/feedback-index.js';
import { validate } from '../../lib/schema/schema.js';
import { makeFeedback } from '../templates/_fixtures.js';

const base = () => {
  const fb = makeFeedback({ bead: 'bd-1', template: 'A', outcome: 'partial_pass', judge: 0.7 });
  fb.judgment!.issues = [{ severity: 'major', description: 'Left a stub', category: 'stub' }];
  fb.run.record_path = '/runs/bd-1.json';
  fb.run.record_hash = '0123456789abcdef';
  return summarizeFeedback(fb, { size: 10, mtime_ms: 5 }, '2026-02-01T00:00:00.000Z') as unknown as Record<
    string,
    unknown
  >;
};

/** Every path to a value in the row: ['judge', 'issues', 0, 'severity'], … */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return [at];
}

function setAt(row: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(row);
  let o = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete o[last];
  else o[last] = value;
  return copy;
}

// Strings are left out where the schema checks a date format: the one check the shape leaves out.
const FORMATTED = new Set(['completed_at', 'indexed_at']);
const WRONG = [undefined, null, -1, 2, 0.5, 3, true, {}, [], '', 'pass', 'major', 'full_pass'];

describe('index row shape check', () => {
  it('a valid row passes both', () => {
    const row = base();
    expect(validate('feedback-index', row).ok).toBe(true);
    expect(parseRow(JSON.stringify(row))).toEqual(row);
  });

  it('agrees with the schema on every field set to every wrong kind of value', () => {
    const row = base();
    let compared = 0;
    for (const path of paths(row).filter((p) => p.length > 0))
      for (const value of WRONG) {
        if (typeof value === 'string' && FORMATTED.has(String(path[path.length - 1]))) continue;
        const m = setAt(row, path, value);
        const schema = validate('feedback-index', m).ok;
        expect(parseRow(JSON.stringify(m)) !== null, `${path.join('.')} = ${JSON.stringify(value)}`).toBe(schema);
        compared++;
      }
    expect(compared).toBeGreaterThan(200);
  });

  it('leaves out the date formats, nothing else: a key the schema does not know, a bead unsafe as a name, are refused', () => {
    const row = base();
    expect(parseRow(JSON.stringify({ ...row, completed_at: 'yesterday' }))).not.toBeNull();
    expect(validate('feedback-index', { ...row, completed_at: 'yesterday' }).ok).toBe(false);
    expect(parseRow(JSON.stringify({ ...row, extra: 1 }))).toBeNull();
    expect(parseRow(JSON.stringify({ ...row, bead: '../x' }))).toBeNull();
  });
});
