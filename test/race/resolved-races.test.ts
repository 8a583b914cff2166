// Races of a real Python project whose task is one failing test: the real fix wins and is resolved; a race of
// non-fixes (a refactor, a skipped test, a weakened assertion, an empty commit) names no winner; a flagged hack
// scores at most half the fix; every view shows one unit; a counts-only runner states no per-test fact.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { present } from '../../lib/race/present.js';
import { runRace } from '../../lib/race/run-race.js';
import { loadRunRecord } from '../../lib/collector/run-record.js';
import { StateStore } from '../../lib/store/store.js';
import type { Race, RaceSolution } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';
import { makeBranches } from '../helpers/fast-import.js';
import { raceTestConfig } from './_fixture.js';

const now = () => new Date('2026-01-01T12:00:00Z');
const BUGGY = 'UNITS = {"s": 1, "m": 60}\n\n\ndef seconds(text):\n    return int(text[:-1]) * UNITS[text[-1]]\n';
const TESTS = `import unittest

from units import seconds


class SecondsTest(unittest.TestCase):
    def test_seconds(self):
        self.assertEqual(seconds("5s"), 5)

    def test_minutes(self):
        self.assertEqual(seconds("2m"), 120)

    def test_large(self):
        self.assertEqual(seconds("90s"), 90)

    def test_hours(self):
        self.assertEqual(seconds("1h"), 3600)
`;
const T = 'tests/test_units.py';
const SOLUTIONS: Record<string, Record<string, string> | null> = {
  fix: { 'units.py': BUGGY.replace('"m": 60}', '"m": 60, "h": 3600}') },
  // Equivalent code, shaped differently: it fixes nothing.
  refactor: {
    'units.py': BUGGY.replace(
      '    return int(text[:-1]) * UNITS[text[-1]]',
      '    amount, unit = int(text[:-1]), text[-1]\n    return amount * UNITS[unit]',
    ),
  },
  skipped: { [T]: TESTS.replace('    def test_hours', '    @unittest.skip("later")\n    def test_hours') },
  weakened: { [T]: TESTS.replace('self.assertEqual(seconds("1h"), 3600)', 'self.assertTrue(callable(seconds))') },
  empty: null,
  hack: {
    'units.py': BUGGY.replace(
      'def seconds(text):\n',
      'def seconds(text):\n    if text == "1h":\n        return 3600\n',
    ),
  },
  // Fixes the hours and breaks two tests that passed: by counts, one pass fewer than the base.
  breaker: { 'units.py': BUGGY.replace('{"s": 1, "m": 60}', '{"s": 2, "m": 60, "h": 3600}') },
};

const PYTEST = 'python3 -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark -q tests';
/** unittest without -v prints dots and a summary: counts only, no per-test list. */
const UNITTEST_COUNTS = 'python3 -m unittest discover -s tests -t .';

let dir: string;
let store: StateStore;
const records: Record<string, string> = {};
function setUp() {
  dir = tempDir('judgeloop-resolved-race-');
  store = new StateStore(join(dir, 'state'));
  // One fast-import makes main and every branch; each branch is checked out in its own worktree.
  makeBranches(
    dir,
    { 'units.py': BUGGY, [T]: TESTS, 'tests/__init__.py': '', '.gitignore': '__pycache__/\n' },
    SOLUTIONS,
  );
  for (const kind of Object.keys(SOLUTIONS)) {
    for (const [runner, test] of [
      ['pytest', PYTEST],
      ['counts', UNITTEST_COUNTS],
    ] as const) {
      const record = {
        schema_version: '1.0.0',
        bead: `bd-${kind}-${runner}`,
        task: { id: `units-${runner}`, prompt: 'seconds() does not know hours: fix it', type: 'bugfix' },
        agent: { slug: kind },
        template: 'bugfix-v1',
        worktree: `wt-${kind}`,
        base_ref: 'main',
        head_ref: `agent/${kind}`,
        started_at: '2026-01-01T10:00:00Z',
        completed_at: '2026-01-01T10:01:00Z',
        exit_code: 0,
        status: 'completed',
        commands: { build: 'python3 -m py_compile units.py', test, lint: null, typecheck: null },
      };
      records[`${kind}-${runner}`] = join(dir, `${kind}-${runner}.json`);
      writeFileSync(records[`${kind}-${runner}`]!, JSON.stringify(record, null, 2));
    }
  }
}
const raceOf = (id: string, kinds: string[], runner: 'pytest' | 'counts') =>
  runRace(
    kinds.map((k) => loadRunRecord(records[`${k}-${runner}`]!, dir)),
    { store, config: raceTestConfig(), processEnv: process.env, now, raceId: id, concurrency: 4 },
  );
const sol = (r: Race, kind: string): RaceSolution => r.solutions.find((s) => s.id.startsWith(`bd-${kind}-`))!;
const condition = (s: RaceSolution, name: string) => s.gates.conditions.find((c) => c.name === name)!;

let full: Race;
let nonFixes: Race;
let counts: Race;
beforeAll(async () => {
  setUp();
  full = await raceOf('full', ['fix', 'refactor', 'hack', 'empty'], 'pytest');
  nonFixes = await raceOf('non-fixes', ['refactor', 'skipped', 'weakened', 'empty'], 'pytest');
  counts = await raceOf('counts', ['fix', 'refactor', 'breaker'], 'counts');
}, 300_000);

describe('the real fix wins and is resolved', () => {
  it('takes the failing test of a bug fix as the target, and resolves only the fix', () => {
    expect(full.solutions.map((s) => (s.status === 'evaluated' ? s.status : `${s.id}: ${s.failure}`))).toEqual(
      Array(4).fill('evaluated'),
    );
    expect(full.targets).toMatchObject({ source: 'base_failing', count: 1 });
    expect(full.targets.fail_to_pass[0]).toMatch(/test_hours$/);
    expect(sol(full, 'fix').target_tests).toMatchObject({ resolved: true, target_passed: 1 });
    expect(full.ranking).toMatchObject({ winner: 'bd-fix-pytest', outcome: 'winner' });
    expect(full.ranking.order[0]).toBe('bd-fix-pytest');
    const table = present(full, 'table');
    expect(table).toMatch(
      /^Winner: fix \(bd-fix-pytest, branch: agent\/fix\) — resolved \(fixes 1 of 1 target tests\)$/m,
    );
    expect(table).toContain('judgeloop accept full --solution bd-fix-pytest --merge');
  });

  it('a flagged hack: gamed passes are no fix, and its race score is at most half the fix', () => {
    const hack = sol(full, 'hack');
    expect(hack.flags.map((f) => f.kind)).toContain('special_case');
    // The graded run passes the target; the race credits none of it.
    expect(hack.target_tests).toMatchObject({ target_passed: 1, resolved: false });
    expect(condition(hack, 'target_tests_pass')).toMatchObject({ status: 'fail' });
    expect(condition(hack, 'target_tests_pass').detail).toMatch(/^passes gamed: special_case at units\.py:\d+$/);
    expect(hack.evaluation!.gamed).toMatch(/correctness and safety 0, overall halved$/);
    expect(hack.race_score!).toBeLessThanOrEqual(sol(full, 'fix').race_score! / 2);
  });

  it('one unit on every view: the table, the markdown and the JSON print the same 0-100 race score', () => {
    const fix = sol(full, 'fix');
    const shown = fix.race_score!.toFixed(1);
    expect(fix.race_score).toBe(Math.round(fix.score! * 1000) / 10);
    expect(fix.race_score!).toBeGreaterThan(1);
    expect(present(full, 'table')).toMatch(new RegExp(`\\(bd-fix-pytest\\)\\s+race score\\s+${shown} `));
    const md = present(full, 'markdown');
    expect(md).toContain(
      `### Winner: bd-fix-pytest — resolved (fixes 1 of 1 target tests) (race score ${shown} of 100,`,
    );
    expect(md).toMatch(new RegExp(`^\\| \\*\\*Race score\\*\\* \\| \\*\\*${shown.replace('.', '\\.')}\\*\\* \\|`, 'm'));
    const json = JSON.parse(present(full, 'json')) as Race;
    expect(json.solutions.find((s) => s.id === fix.id)!.race_score).toBe(fix.race_score);
  });
});

describe('a race of non-fixes names no winner', () => {
  it('none resolves or fixes the target; the outcome is "no solution fixes the task"', () => {
    expect(nonFixes.solutions.map((s) => s.status)).toEqual(Array(4).fill('evaluated'));
    for (const s of nonFixes.solutions) expect(s.target_tests).toMatchObject({ target_passed: 0, resolved: false });
    // The refactor is safe to merge (it breaks nothing): mergeable keeps meaning that, and still it does not win.
    expect(sol(nonFixes, 'refactor').gates.mergeable).toBe(true);
    expect(nonFixes.ranking).toMatchObject({ winner: null, outcome: 'no_fix' });
  });

  it('prints no accept line and no ✓ target_tests_pass, in the table or the markdown', () => {
    const table = present(nonFixes, 'table');
    const md = present(nonFixes, 'markdown');
    expect(table).toMatch(/^No solution fixes the task: none of the 1 target tests passes in any solution/m);
    expect(md).toMatch(/^### No winner .*No solution fixes the task/m);
    for (const view of [table, md]) {
      expect(view).not.toMatch(/judgeloop accept \S+ --solution/);
      expect(view).not.toContain('✓ target_tests_pass');
    }
    expect(md).not.toMatch(/\| Gate: target_tests_pass \|.*✓/);
    for (const s of nonFixes.solutions) expect(condition(s, 'target_tests_pass').status).toBe('fail');
  });
});

describe('counts only: no per-test fact it cannot know', () => {
  it('decides by the counts and names no test as failing', () => {
    expect(counts.solutions.map((s) => s.target_tests?.basis)).toEqual(['counts', 'counts', 'counts']);
    expect(counts.targets).toMatchObject({ source: 'base_failing', count: 1, fail_to_pass: [] });
    const refactor = sol(counts, 'refactor');
    expect(condition(refactor, 'target_tests_pass')).toMatchObject({
      status: 'fail',
      detail: 'fixes 0 of 1 target test (by counts)',
    });
    expect(refactor.evaluation!.categories.correctness.override).toBe(
      'no credit: fixes 0 of 1 target test (by counts)',
    );
    const text = [present(counts, 'table'), present(counts, 'markdown'), JSON.stringify(counts)].join('\n');
    expect(text).not.toMatch(/does not reach|failing: |left failing/);
    expect(sol(counts, 'fix').target_tests).toMatchObject({ resolved: true });
    expect(counts.ranking.winner).toBe('bd-fix-counts');
  });

  it('fewer passes than the base is a break by counts, with the number', () => {
    const b = sol(counts, 'breaker');
    expect(b.target_tests!.broke).toEqual(['by counts, 2 pass against 3 on the base']);
    expect(condition(b, 'pass_to_pass_kept')).toMatchObject({ status: 'fail' });
    expect(condition(b, 'pass_to_pass_kept').detail).toMatch(/^broke by counts, 2 pass against 3 on the base/);
    expect(b.gates.mergeable).toBe(false);
  });
});
