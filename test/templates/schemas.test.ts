import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/schema/schema.js';

const schema = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schemas', `${name}.schema.json`), 'utf8'));

describe('template schemas', () => {
  it('inline copies of the outcome enum and bead pattern stay equal to their sources', () => {
    const outcome = schema('feedback').definitions.outcome.enum;
    const bead = schema('run-record').definitions.bead.pattern;
    const index = schema('feedback-index');
    expect(index.properties.outcome.enum).toEqual(outcome);
    expect(index.properties.bead.pattern).toBe(bead);
    expect(schema('template-scores').definitions.trend.properties.runs.items.properties.outcome.enum).toEqual(outcome);
  });
  it('an index row with a wrong field is rejected with its JSON path', () => {
    const row = {
      bead: 'a',
      template: 't',
      task_type: null,
      completed_at: '2026-01-01T00:00:00Z',
      outcome: 'won',
      retries: -1,
      composite: null,
      judge: null,
      file: { size: 1, mtime_ms: 1 },
      indexed_at: '2026-01-01T00:00:00Z',
    };
    const v = validate('feedback-index', row);
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors).toEqual(
        expect.arrayContaining([
          '/outcome: must be one of "full_pass", "partial_pass", "agent_failure", "infra_failure", "timeout", "unmeasured"',
          '/retries: must be >= 0',
        ]),
      );
  });
});
