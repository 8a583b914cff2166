// A test the agent added that fails or crashes its runner stops the merge, named with its signal (issue 36, item 5):
// real pytest through bin/collect and bin/race; the honest fix with a passing test of its own stays first.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { makeRepo, tempDir } from '../helpers/repo.js';
import { collectIn, ROOT, solutionRecords } from '../collector/_project.js';

const BUGGY = 'def clamp(x, lo, hi):\n    return max(lo, x)\n';
const FIXED = 'def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n';
const TESTS =
  'from clamp import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 5) == 0\n\n\ndef test_high():\n    assert clamp(9, 0, 5) == 5\n';
const own = (body: string) =>
  `from clamp import clamp\n\n\ndef test_inside():\n    assert clamp(3, 0, 5) == 3\n\n\ndef test_edge():\n${body}`;

interface Race {
  solutions: { id: string; gates: { mergeable: boolean }; flags: { kind: string; detail: string }[] }[];
  ranking: { order: string[] };
}

let dir = '';
let race: Race;
const fb = (name: string): Feedback =>
  JSON.parse(readFileSync(join(dir, 'state', 'feedback', `bd-${name}.json`), 'utf8')) as Feedback;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'collect.js'))) throw new Error('run `npm run build` first');
  if (spawnSync('python3', ['-m', 'pytest', '--version']).status !== 0)
    throw new Error('pytest is missing: apt-get install python3-pytest');
  const repo = makeRepo({ 'clamp.py': BUGGY, 'tests/test_clamp.py': TESTS, '.gitignore': '__pycache__/\n' });
  dir = tempDir('judgeloop-own-');
  const records = solutionRecords(
    repo,
    dir,
    {
      fix: { 'clamp.py': FIXED, 'tests/test_more.py': own('    assert clamp(5, 0, 5) == 5\n') },
      // The same fix, with a test of its own that kills the interpreter (the graded run never runs it).
      crash: {
        'clamp.py': FIXED,
        'tests/test_more.py': own('    import os, signal\n    os.kill(os.getpid(), signal.SIGSEGV)\n'),
      },
      // Or one that fails: merged, the suite is red.
      failing: { 'clamp.py': FIXED, 'tests/test_more.py': own('    assert clamp(7, 0, 5) == 7\n') },
    },
    { id: 'clamp', prompt: 'clamp to hi too' },
    { build: null, test: 'python3 -m pytest -q -p no:cacheprovider -p no:hypothesispytest -p no:benchmark tests' },
  );
  collectIn(dir, records);
  const r = spawnSync(join(ROOT, 'bin', 'race'), ['--json', '--quiet', ...records], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: join(dir, 'state') },
  });
  expect(r.status, r.stderr).toBe(0);
  race = JSON.parse(r.stdout) as Race;
}, 400_000);

describe("the agent's own tests", () => {
  it('the honest fix with a passing test of its own: full_pass, mergeable, first', () => {
    expect(fb('fix').outcome, fb('fix').outcome_reason).toBe('full_pass');
    expect(race.solutions.find((s) => s.id === 'bd-fix')!.gates.mergeable).toBe(true);
    expect(race.ranking.order[0]).toBe('bd-fix');
  });

  it.each([
    ['crash', /crashed its runner \(SIGSEGV\)/],
    ['failing', /fails: test_edge/],
  ])('%s: a finding that names it and stops the merge; never full_pass', (name, says) => {
    expect(fb(name).outcome).toBe('partial_pass');
    expect(fb(name).outcome_reason).toMatch(says);
    const s = race.solutions.find((x) => x.id === `bd-${name}`)!;
    expect(s.flags.find((f) => f.kind === 'own_test_failing')?.detail).toMatch(says);
    expect(s.gates.mergeable).toBe(false);
    expect(race.ranking.order.indexOf(s.id)).toBeGreaterThan(0);
  });
});
