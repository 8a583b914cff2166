// Every documented example run record validates, and the infra_failure one collects without a worktree.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/collect.js';
import { parseRunRecord } from '../../lib/collector/run-record.js';
import { validate } from '../../lib/schema/schema.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { makeIo, makeProject, readJson, ROOT } from './_project.js';

const DIR = join(ROOT, 'examples', 'runs');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('examples/runs', () => {
  it('has the documented examples', () => {
    expect(files).toEqual(['full.json', 'infra-failure.json', 'minimal.json', 'timeout.json', 'with-checks.json']);
    const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
    for (const f of files) expect(readme).toContain(`\`${f}\``);
  });

  it.each(files)('%s validates against the run record schema', (f) => {
    const text = readFileSync(join(DIR, f), 'utf8');
    const v = validate('run-record', JSON.parse(text));
    expect(v.ok ? [] : v.errors).toEqual([]);
    expect(() => parseRunRecord(text, join(DIR, f))).not.toThrow();
  });

  it('infra-failure.json is recorded as infra_failure without a worktree', async () => {
    const p = makeProject();
    copyFileSync(join(DIR, 'infra-failure.json'), join(p.dir, 'infra.json'));
    const { io } = makeIo(p);
    expect(await run(['--quiet', 'infra.json'], io)).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-104.json'));
    expect(validate('feedback', fb).ok).toBe(true);
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toContain('registry timeout');
  });
});
