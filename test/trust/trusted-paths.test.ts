// Which files the graded run takes from the trusted revision by default: the places real projects keep tests and
// their expectations, beyond test_*.py and *.test.ts — a Django app's tests.py, jest/vitest/syrupy snapshots,
// approval files, fixtures, jest's manual mocks. An agent that rewrites them to fit its code is graded on the base's.
import { describe, expect, it } from 'vitest';
import { gradedTree } from '../../lib/git/seal.js';
import { pathMatcher } from '../../lib/git/test-paths.js';
import { loadConfig } from '../../lib/config/config.js';
import { commitAll, gitIn, makeRepo, writeTree } from '../helpers/repo.js';

const collector = loadConfig({ env: {} }).collector;
const isTrusted = pathMatcher([...(collector.test_paths ?? []), ...(collector.test_infra_paths ?? [])]);

const EXPECTATIONS = [
  'shop/tests.py',
  'src/__snapshots__/format.test.ts.snap',
  'tests_snapshots/__snapshots__/test_format.ambr',
  'src/__fixtures__/order.json',
  'approvals/format.approved.txt',
  '__mocks__/fs.js',
  'src/__mocks__/clock.js',
  // A top-level unittest.py shadows the runner itself for `python -m unittest` (it printed "OK" for a failing suite).
  'unittest.py',
];

describe('the trusted revision holds every expectation', () => {
  it('each file an agent rewrote to fit its code is the base version in the graded tree; the code is the agent’s', async () => {
    const files = Object.fromEntries([...EXPECTATIONS, 'shop/views.py'].map((p) => [p, `base ${p}\n`]));
    const repo = makeRepo(files);
    const base = gitIn(repo, 'rev-parse', 'HEAD');
    writeTree(repo, Object.fromEntries(Object.keys(files).map((p) => [p, `agent ${p}\n`])));
    commitAll(repo, 'agent');
    const g = await gradedTree(repo, gitIn(repo, 'rev-parse', 'HEAD^{tree}'), base, isTrusted);
    expect(g.replaced.sort()).toEqual([...EXPECTATIONS].sort());
    for (const p of EXPECTATIONS) expect(gitIn(repo, 'cat-file', 'blob', `${g.tree}:${p}`), p).toBe(`base ${p}`);
    expect(gitIn(repo, 'cat-file', 'blob', `${g.tree}:shop/views.py`)).toBe('agent shop/views.py');
  });

  it('code that only looks like them is not taken: a module named testing_utils.py, a snapshot.py helper', () => {
    for (const p of ['shop/testing_utils.py', 'src/snapshot.py', 'src/approved.py', 'src/mocks.js'])
      expect(isTrusted(p), p).toBe(false);
  });
});
