// Issue 37, item 9: several state folders read as one (a folder per machine) give the same template table as one
// folder holding every run; --state-dir repeated or the config's state_dirs; a bead in two folders is refused.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../scripts/score-templates.js';
import { loadConfig } from '../../lib/config/config.js';
import { gatherReport } from '../../lib/view/gather.js';
import type { TemplateScores } from '../../lib/schema/types.generated.js';
import { tempDir, removeTempDir } from '../helpers/temp.js';
import { captureIo } from './_io.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';

const OUTCOMES = ['full_pass', 'partial_pass', 'agent_failure', 'full_pass', 'timeout'] as const;
/** Runs of templates A and B on machine `m`, at times that interleave with the other machine's. */
const runs = (m: number, n: number): RunSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    bead: `m${m}-${i}`,
    template: i % 3 === 0 ? 'B' : 'A',
    outcome: OUTCOMES[(i * m) % OUTCOMES.length]!,
    completed_at: at(i * 10 + m),
    composite: ((i * 7 + m * 3) % 10) / 10,
    judge: i % 2 ? null : ((i * 3 + m) % 10) / 10,
  }));

describe('score-templates over several state folders', () => {
  let one: TempState;
  let two: TempState;
  let both: TempState;
  beforeEach(async () => {
    [one, two, both] = [tempState(), tempState(), tempState()];
    await writeRuns(one.store, runs(1, 14));
    await writeRuns(two.store, runs(2, 11));
    await writeRuns(both.store, [...runs(1, 14), ...runs(2, 11)]);
  });
  afterEach(() => {
    for (const s of [one, two, both]) s.cleanup();
  });

  const score = async (root: string, args: string[], env: Record<string, string> = {}) => {
    const io = captureIo({
      JUDGELOOP_STATE_DIR: root,
      JUDGELOOP_NOW: '2026-03-01T00:00:00Z',
      JUDGE_PHASE: '3',
      ...env,
    });
    expect(await run(args, io)).toBe(0);
    return io.out();
  };

  it('two folders read as one (--state-dir) give the same table and scores as one folder holding both', async () => {
    const merged = await score(one.root, ['--state-dir', two.root]);
    const single = await score(both.root, []);
    expect(merged).toBe(single);
    expect(merged).toMatch(/^A\s+\d+/m);
    const mj = JSON.parse(await score(one.root, ['--json', '--state-dir', two.root])) as TemplateScores;
    const sj = JSON.parse(await score(both.root, ['--json'])) as TemplateScores;
    expect(mj.templates).toEqual(sj.templates);
    expect(mj.templates.reduce((n, t) => n + t.runs, 0)).toBe(25);
    expect(mj.sources.feedback_files).toBe(25);
    // The folder alone holds only its machine's runs.
    const alone = JSON.parse(await score(one.root, ['--json'])) as TemplateScores;
    expect(alone.templates.reduce((n, t) => n + t.runs, 0)).toBe(14);
    // The same folder named twice (or the state folder itself) is read once.
    const twice = JSON.parse(await score(one.root, ['--json', '--state-dir', two.root, '--state-dir', one.root]));
    expect(twice.templates).toEqual(sj.templates);
  });

  it("the config's state_dirs (relative to the config file) does the same; --state-dir replaces it", async () => {
    const cfgDir = tempDir('jl-cfg-');
    try {
      const file = join(cfgDir, 'judgeloop.json');
      writeFileSync(file, JSON.stringify({ state_dirs: [relative(cfgDir, two.root)] }));
      const env = { JUDGELOOP_CONFIG: file };
      expect(await score(one.root, [], env)).toBe(await score(both.root, []));
      // --state-dir names the folders instead: one's own runs only when it names the state folder itself.
      const own = JSON.parse(await score(one.root, ['--json', '--state-dir', one.root], env)) as TemplateScores;
      expect(own.templates.reduce((n, t) => n + t.runs, 0)).toBe(14);
    } finally {
      removeTempDir(cfgDir);
    }
  });

  it('a bead in two folders is refused, naming both folders', async () => {
    await writeRuns(two.store, [{ bead: 'm1-3', template: 'A', outcome: 'full_pass' }]);
    const io = captureIo({ JUDGELOOP_STATE_DIR: one.root, JUDGELOOP_NOW: '2026-03-01T00:00:00Z' });
    await expect(run(['--state-dir', two.root], io)).rejects.toThrow(
      new RegExp(`bead m1-3 is in two state folders \\(${one.root} and ${two.root}\\)`),
    );
  });

  it("the report's templates section reads them as one too", async () => {
    const config = loadConfig({ env: {} });
    const filters = { since: null, template: null, race: null, agent: null };
    const now = '2026-03-01T00:00:00Z';
    const merged = await gatherReport({ store: one.store, others: [two.store], config, filters, now });
    const single = await gatherReport({ store: both.store, config, filters, now });
    expect(merged.templates.list).toEqual(single.templates.list);
    expect([...merged.templates.days.entries()]).toEqual([...single.templates.days.entries()]);
  });
});
