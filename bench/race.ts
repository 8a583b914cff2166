// npm run bench -- race: wall time of a race of 4 solutions whose checks take a known time (build, test and lint
// each `sleep 1`), beside the sum of the same 4 evaluated one by one. Baseline computed once in both.
import { join } from 'node:path';
import { loadRunRecord } from '../lib/collector/run-record.js';
import { runRace } from '../lib/race/run-race.js';
import { StateStore } from '../lib/store/store.js';
import { addSolution, makeRaceProject, raceTestConfig, SOLUTIONS } from '../test/race/_fixture.js';

const SLEEP = { build: 'sleep 1', test: 'sleep 1', lint: 'sleep 1', typecheck: null };

export async function main(): Promise<void> {
  const p = makeRaceProject();
  const names = ['clean', 'reformat', 'secret', 'stub'];
  const files = names.map((n) => addSolution(p, n, SOLUTIONS[n]!, { commands: SLEEP }));
  const runs = files.map((f) => loadRunRecord(f, p.dir));
  const config = raceTestConfig();
  const now = () => new Date();

  const oneByOne = new StateStore(join(p.dir, 'state-one-by-one'));
  let sum = 0;
  for (const r of runs) {
    const t = performance.now();
    await runRace([r], { store: oneByOne, config, processEnv: process.env, now, raceId: `single-${r.record.bead}` });
    sum += performance.now() - t;
  }
  const results: string[] = [];
  const configured = config.race!.concurrency;
  for (const concurrency of [...new Set([2, 4, configured])].sort()) {
    const t = performance.now();
    const race = await runRace(runs, {
      store: new StateStore(join(p.dir, `state-par-${concurrency}`)),
      config,
      processEnv: process.env,
      now,
      concurrency,
    });
    const wall = performance.now() - t;
    const ratio = wall / sum;
    const mark =
      concurrency === configured
        ? ` — the configured concurrency: ${ratio <= 0.55 ? 'within' : 'OVER'} the 0.55 target`
        : '';
    results.push(
      `race of 4, concurrency ${concurrency}: ${(wall / 1000).toFixed(2)} s wall = ${ratio.toFixed(2)}× one by one (speed-up ×${(sum / wall).toFixed(2)}; ${race.solutions.filter((s) => s.status === 'evaluated').length}/4 evaluated)${mark}`,
    );
  }
  console.log(
    'checks per solution: build, test, lint = sleep 1 each (3 s); baseline 3 s, once (before the solutions: 5 jobs of 3 s, so concurrency 2 cannot go below 3/5 = 0.6×)',
  );
  console.log(`4 solutions one by one (sum of 4 single races): ${(sum / 1000).toFixed(2)} s`);
  for (const line of results) console.log(line);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
