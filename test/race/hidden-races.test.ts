// task.hidden_tests in a race of a real Python project (pytest): two special cases pass the visible target and fail
// the held-out tests, so they are not resolved and rank below the real fix; without the hidden tests they would be.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRace } from '../../lib/race/run-race.js';
import { present } from '../../lib/race/present.js';
import { loadRunRecord } from '../../lib/collector/run-record.js';
import { StateStore } from '../../lib/store/store.js';
import type { Race, RaceSolution } from '../../lib/schema/types.generated.js';
import { gitIn, tempDir } from '../helpers/repo.js';
import { makeBranches } from '../helpers/fast-import.js';
import { raceTestConfig } from './_fixture.js';

const now = () => new Date('2026-01-01T12:00:00Z');
const BUGGY = 'UNITS = {"s": 1, "m": 60}\n\n\ndef seconds(text):\n    return int(text[:-1]) * UNITS[text[-1]]\n';
const TESTS = `import unittest

from units import seconds


class SecondsTest(unittest.TestCase):
    def test_seconds(self):
        self.assertEqual(seconds("5s"), 5)

    def test_hours(self):
        self.assertEqual(seconds("1h"), 3600)
`;
const HIDDEN = `import unittest

from units import seconds


class HeldOutTest(unittest.TestCase):
    def test_two_hours_heldout(self):
        self.assertEqual(seconds("2h"), 7200)

    def test_unknown_unit_heldout(self):
        with self.assertRaises(KeyError):
            seconds("3d")
`;
const SOLUTIONS: Record<string, string> = {
  fix: BUGGY.replace('"m": 60}', '"m": 60, "h": 3600}'),
  // Every unit it does not know is an hour: the visible target passes; 2h is wrong and 3d no longer raises.
  sloppy: BUGGY.replace('UNITS[text[-1]]\n', 'UNITS[text[-1]] if text[-1] in UNITS else 60 * 60\n'),
  // An hour whatever the amount: the visible target passes, 2h does not.
  special: BUGGY.replace(
    'def seconds(text):\n',
    'def seconds(text):\n    if text.endswith("h"):\n        return 60 * 60\n',
  ),
};
/** The fix, plus a function whose name has a Greek omicron: it reads as seconds() and is another (plain race only). */
const GLYPH = `${SOLUTIONS.fix}\n\ndef sec\u03BFnds(text):\n    return 0\n`;
const PYTEST = 'python3 -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark -q tests';

let dir: string;
let store: StateStore;
let hiddenDir: string;
function record(kind: string, hidden: boolean): string {
  const file = join(dir, `${kind}-${hidden ? 'hidden' : 'plain'}.json`);
  const task = { id: `units-${hidden}`, prompt: 'seconds() does not know hours: fix it', type: 'bugfix' };
  writeFileSync(
    file,
    JSON.stringify({
      schema_version: '1.0.0',
      bead: `bd-${kind}-${hidden ? 'hidden' : 'plain'}`,
      task: hidden ? { ...task, hidden_tests: hiddenDir } : task,
      agent: { slug: kind },
      template: 'bugfix-v1',
      worktree: `wt-${kind}`,
      base_ref: 'main',
      head_ref: `agent/${kind}`,
      started_at: '2026-01-01T10:00:00Z',
      completed_at: '2026-01-01T10:01:00Z',
      exit_code: 0,
      status: 'completed',
      commands: { build: null, test: PYTEST, lint: null, typecheck: null },
    }),
  );
  return file;
}
const raceOf = (id: string, hidden: boolean, kinds = Object.keys(SOLUTIONS)) =>
  runRace(
    kinds.map((k) => loadRunRecord(record(k, hidden), dir)),
    { store, config: raceTestConfig(), processEnv: process.env, now, raceId: id, concurrency: 2 },
  );
const condition = (s: RaceSolution, name: string) => s.gates.conditions.find((c) => c.name === name)!;
const sol = (r: Race, kind: string): RaceSolution => r.solutions.find((s) => s.id.startsWith(`bd-${kind}-`))!;

let withHidden: Race;
let without: Race;
beforeAll(async () => {
  dir = tempDir('judgeloop-hidden-race-');
  store = new StateStore(join(dir, 'state'));
  hiddenDir = join(dir, 'held-out');
  mkdirSync(join(hiddenDir, 'tests'), { recursive: true });
  writeFileSync(join(hiddenDir, 'tests', 'test_heldout_units.py'), HIDDEN);
  // One fast-import makes main and every branch; each branch is checked out in its own worktree.
  makeBranches(
    dir,
    { 'units.py': BUGGY, 'tests/test_units.py': TESTS, 'tests/__init__.py': '', '.gitignore': '__pycache__/\n' },
    Object.fromEntries(
      Object.entries({ ...SOLUTIONS, glyph: GLYPH }).map(([kind, code]) => [kind, { 'units.py': code }]),
    ),
  );
  without = await raceOf('plain', false, [...Object.keys(SOLUTIONS), 'glyph']);
  withHidden = await raceOf('hidden', true);
}, 300_000);

describe('a homoglyph in a race', () => {
  it('a name mixing scripts is a blocking finding: the solution is not mergeable and ranks below the fix', () => {
    const g = sol(without, 'glyph');
    const f = g.flags.find((x) => x.detail.includes('mixes scripts'));
    expect(f).toMatchObject({ kind: 'special_case', file: 'units.py', line: 8 });
    expect(g.gates.mergeable).toBe(false);
    expect(without.ranking.order.indexOf('bd-fix-plain')).toBeLessThan(without.ranking.order.indexOf('bd-glyph-plain'));
  });
});

describe('hidden tests in a race', () => {
  it('without them, the special cases pass the visible target as the fix does', () => {
    for (const k of Object.keys(SOLUTIONS)) expect(sol(without, k).target_tests?.target_failing, k).toEqual([]);
    expect(sol(without, 'sloppy').target_tests?.resolved).toBe(true);
    expect(sol(without, 'special').target_tests?.resolved).toBe(true);
  });

  it('with them, only the real fix is resolved, and it ranks first', () => {
    expect(withHidden.solutions.map((s) => [s.id, s.status]).sort()).toEqual(
      Object.keys(SOLUTIONS).map((k) => [`bd-${k}-hidden`, 'evaluated']),
    );
    expect(sol(withHidden, 'fix').target_tests?.resolved).toBe(true);
    expect(sol(withHidden, 'fix').target_tests?.hidden?.line).toBe(
      'hidden tests: 2/2 pass; fixes 1 of 1 hidden target',
    );
    expect(sol(withHidden, 'sloppy').target_tests?.resolved).toBe(false);
    expect(sol(withHidden, 'sloppy').target_tests?.hidden?.line).toBe(
      'hidden tests: 0/2 pass; fixes 0 of 1 hidden target; broke 1 hidden test that passed on the base',
    );
    expect(condition(sol(withHidden, 'sloppy'), 'pass_to_pass_kept').status).toBe('fail');
    expect(sol(withHidden, 'sloppy').gates.mergeable).toBe(false);
    expect(sol(withHidden, 'special').target_tests?.resolved).toBe(false);
    expect(condition(sol(withHidden, 'special'), 'target_tests_pass').status).toBe('fail');
    expect(sol(withHidden, 'special').target_tests?.hidden?.line).toBe(
      'hidden tests: 1/2 pass; fixes 0 of 1 hidden target',
    );
    expect(withHidden.ranking.order[0]).toBe('bd-fix-hidden');
    expect(withHidden.ranking.order.slice(1).sort()).toEqual(['bd-sloppy-hidden', 'bd-special-hidden']);
  });

  it("names no hidden test in the race's flags, and shows the hidden line in the text", () => {
    const flags = JSON.stringify(withHidden.solutions.map((s) => s.flags));
    expect(flags).toContain('hidden tests: 0/2 pass');
    expect(flags).not.toMatch(/heldout/);
    const text = present(withHidden, 'table');
    expect(text).toContain('hidden tests: 2/2 pass; fixes 1 of 1 hidden target');
    expect(text).not.toMatch(/heldout/);
  });

  it('never writes the hidden tests into an agent worktree', () => {
    const tracked = gitIn(join(dir, 'wt-fix'), 'status', '--porcelain', '--ignored');
    expect(tracked).not.toMatch(/heldout/);
  });
});
