// Every captured fixture parses to the counts in expected.json, and detection names its tool.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  LINTERS,
  TEST_RUNNERS,
  detectLinter,
  detectTestRunner,
  parseLintOutput,
  parseTestOutput,
} from '../../lib/collector/parsers/index.js';

const root = fileURLToPath(new URL('../fixtures/output/', import.meta.url));

interface Entry {
  kind: 'tests' | 'lint';
  name?: string;
  expected: Record<string, unknown> | null;
  notes?: boolean;
  derived: string;
}
const { files } = JSON.parse(readFileSync(`${root}expected.json`, 'utf8')) as { files: Record<string, Entry> };

describe('captured fixtures', () => {
  test('the corpus is large and covers every runner and linter', () => {
    const keys = Object.keys(files);
    expect(keys.length).toBeGreaterThanOrEqual(60);
    const dirs = new Set(keys.map((k) => k.split('/')[0]));
    for (const name of [...TEST_RUNNERS, ...LINTERS]) expect(dirs, name).toContain(name);
  });

  test.each(Object.entries(files))('%s', (file, entry) => {
    const text = readFileSync(`${root}${file}`, 'utf8');
    const opts = entry.name ? { name: entry.name } : {};
    const counts = entry.kind === 'tests' ? parseTestOutput(text, opts) : parseLintOutput(text, opts);
    if (entry.expected === null) {
      expect(counts).toBeNull();
      return;
    }
    expect(counts).not.toBeNull();
    const {
      notes,
      cases,
      cases_complete: _complete,
      source: _source,
      ...rest
    } = counts as unknown as Record<string, unknown>;
    expect(rest).toEqual(entry.expected);
    expect(Array.isArray(notes) && notes.length > 0, 'notes present').toBe(entry.notes === true);
    if (rest.passed === null || rest.total === null) expect(notes, 'a null count is explained').toBeDefined();
    // Per-test cases, when the output lists them, are stable ids (no duplicates).
    if (Array.isArray(cases)) expect(new Set(cases.map((c: { id: string }) => c.id)).size).toBe(cases.length);
    if (!entry.name) {
      const detected = entry.kind === 'tests' ? detectTestRunner(text) : detectLinter(text);
      expect(detected).toBe(entry.expected[entry.kind === 'tests' ? 'runner' : 'linter']);
    }
  });
});
