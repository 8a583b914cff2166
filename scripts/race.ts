// judgeloop race <run.json>… | --race ID: evaluates competing solutions of one task, ranks them, decides auto-accept,
// writes state/races/<id>.json and prints seed 000's "Race Results" (or --markdown, or --json).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { announceState, parseNumber, withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { RACE } from '../lib/cli/commands/race.js';
import { clockFromEnv } from '../lib/base/clock.js';
import { loadConfig, type Config } from '../lib/config/config.js';
import { errorMessage, UserError } from '../lib/base/errors.js';
import { assertSafeId } from '../lib/store/bead.js';
import { present } from '../lib/race/present.js';
import { raceMerged } from '../lib/race/merge.js';
import { tallyLine, tallyOutcomes, type OutcomeLine } from '../lib/judge/tally.js';
import { Progress } from '../lib/report/progress.js';
import { plural } from '../lib/base/plural.js';
import { runRace } from '../lib/race/run-race.js';
import { loadRunRecord, type LoadedRunRecord } from '../lib/collector/run-record.js';
import type { StateStore } from '../lib/store/store.js';
import type { Feedback, Race, RaceChoice } from '../lib/schema/types.generated.js';

const USAGE = usage(RACE);

/** Run records of a race: from its earlier result, from feedback tagged with the race id, and from state/runs/. */
export function findRaceRuns(store: StateStore, raceId: string, cwd: string): LoadedRunRecord[] {
  const paths = new Set<string>();
  const earlier = store.read<Race>('races', raceId);
  for (const s of earlier?.solutions ?? []) paths.add(s.run_record);
  for (const r of store.readAll<Feedback>('feedback')) {
    if ('value' in r && r.value.run.race_id === raceId && r.value.run.record_path) paths.add(r.value.run.record_path);
  }
  const runsDir = join(store.root, 'runs');
  if (existsSync(runsDir)) {
    for (const f of readdirSync(runsDir).filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      try {
        const loaded = loadRunRecord(join(runsDir, f), cwd);
        if (loaded.record.race_id === raceId) paths.add(loaded.file);
      } catch {
        // A run record that does not load is not part of any race.
      }
    }
  }
  if (!paths.size)
    throw new UserError(
      `--race ${raceId}: no run records with race_id ${JSON.stringify(raceId)} in ${store.root}/races, feedback or runs`,
    );
  const byBead = new Map<string, LoadedRunRecord>();
  for (const p of [...paths].sort()) {
    const loaded = loadRunRecord(p, cwd);
    if (!byBead.has(loaded.record.bead)) byBead.set(loaded.record.bead, loaded);
  }
  return [...byBead.values()];
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(RACE, argv);
  if (values.race && positionals.length) throw new UserError(`give run records or --race, not both\n${USAGE}`);
  if (!values.race && !positionals.length) throw new UserError(`no run record given\n${USAGE}`);
  if (values.json && values.markdown) throw new UserError('--json and --markdown exclude each other');
  const format = values.json ? 'json' : values.markdown ? 'markdown' : 'table';
  // Showing a stored race runs nothing and writes nothing: the measured results stay as they were measured.
  if (values.race && !values.recollect) {
    for (const [flag, set] of [
      ['--target', values.target],
      ['--concurrency', values.concurrency],
      ['--id', values.id],
      ['--rate-agents', values['rate-agents']],
    ] as const) {
      if (set !== undefined && set !== false)
        throw new UserError(
          `${flag} re-evaluates: add --recollect (judgeloop race --race ${values.race} --recollect ${flag} …)`,
        );
    }
    assertSafeId(values.race, '--race');
    let stored: Race | null;
    const shown = storeFromEnv(io.env, io.cwd, values.config);
    try {
      stored = shown.read<Race>('races', values.race);
    } catch (e) {
      // A race stored by an older judgeloop (or edited by hand) does not fit the schema: say how to get a fresh one.
      throw new UserError(
        `--race ${values.race}: the stored race cannot be read (${errorMessage(e).split('\n')[0]}); evaluate it again with judgeloop race --race ${values.race} --recollect`,
      );
    }
    if (!stored) throw new UserError(noStoredRace(shown, values.race, io.cwd));
    io.stdout(present(stored, format, format === 'json' ? null : await mergedOf(shown, stored)));
    return 0;
  }
  let concurrency: number | undefined;
  if (values.concurrency !== undefined) {
    if (!/^[1-9]\d*$/.test(values.concurrency))
      throw new UserError(`--concurrency ${JSON.stringify(values.concurrency)}: expected a whole number ≥ 1`);
    concurrency = Number(values.concurrency);
  }
  const now = clockFromEnv(io.env);
  const config = loadConfig({ env: io.env, configFile: values.config, cwd: io.cwd });
  const store = storeFromEnv(io.env, io.cwd, values.config);
  announceState(io, store, values.quiet);
  const runs = values.race
    ? findRaceRuns(store, values.race, io.cwd)
    : positionals.map((p) => loadRunRecord(p, io.cwd));
  if ((values['rating-strict'] || values.complexity) && !values['rate-agents'])
    throw new UserError('--rating-strict and --complexity go with --rate-agents');
  const complexity = parseNumber('complexity', values.complexity, 1, 10, true);
  const raceId = values.id ?? values.race;
  // Per solution on stderr: a live line each on a terminal, one labelled line per event elsewhere; none with --json.
  const progress = Progress.for('race', io, { json: values.json, quiet: values.quiet });
  let ended = 0;
  const solutions = new Set(runs.map((r) => r.record.bead));
  const onProgress = (id: string, phase: string, end?: 'done' | 'failed') => {
    if (!end) return progress.update(id, phase);
    if (solutions.has(id)) ended++;
    progress.finish(id, phase, solutions.has(id) ? { done: ended, total: solutions.size } : {});
  };
  const outcomes: OutcomeLine[] = [];
  const judge = config.judge.enabled
    ? await raceJudge(io, store, config, now, values.quiet ? null : progress, outcomes)
    : undefined;
  const ask = config.judge.enabled
    ? (await import('../lib/judge/compare.js')).judgeAsker({
        store,
        config,
        env: io.env,
        processEnv: io.processEnv,
        now,
        log: (m: string) => progress.message(`race: judge: ${m}`),
      })
    : undefined;
  const race = await runRace(runs, {
    store,
    config,
    processEnv: io.processEnv,
    now,
    ...(judge ? { judge } : {}),
    ...(ask ? { ask } : {}),
    ...(progress.enabled ? { progress: onProgress } : {}),
    ...(values.quiet ? {} : { log: (m: string) => progress.message(`race: ${m}`) }),
    ...(concurrency ? { concurrency } : {}),
    ...(raceId ? { raceId } : {}),
    ...(values.recollect ? { recollect: true } : {}),
    ...(values.target?.length ? { targets: values.target } : {}),
  });
  progress.end();
  // What the judge did (deferred over the hourly limit, reused, failed): the ranking above may lack its criteria.
  const tally = judge ? tallyOutcomes(outcomes) : null;
  const line = tally ? tallyLine(tally, race.race_id) : null;
  if (format === 'json')
    io.stdout(`${JSON.stringify({ ...withStateDir(store, race), ...(tally ? { judge: tally } : {}) })}\n`);
  else io.stdout(present(race, format, await mergedOf(store, race)) + (line ? `\n${line}\n` : ''));
  for (const s of race.solutions)
    if (s.status === 'failed') io.stderr(`race: ${s.id}: evaluation failed: ${s.failure}\n`);
  let code = race.solutions.every((s) => s.status === 'failed') ? 1 : 0;
  if (values['rate-agents']) {
    const { rateFromStoredJudgment } = await import('../lib/ratings/rate-stored.js');
    for (const r of runs)
      code = Math.max(
        code,
        await rateFromStoredJudgment(io, { store, config, now: () => now().toISOString() }, r.record.bead, {
          strict: Boolean(values['rating-strict']),
          complexity,
        }),
      );
  }
  return code;
}

/** Advice that works for a race id with no stored race: evaluate its runs when there are some, else the ids there are. */
function noStoredRace(store: StateStore, raceId: string, cwd: string): string {
  const head = `--race ${raceId}: no stored race (${join(store.root, 'races', `${raceId}.json`)})`;
  let runs = 0;
  try {
    runs = findRaceRuns(store, raceId, cwd).length;
  } catch {
    // No run records carry this race id: the advice below names the races there are.
  }
  if (runs) return `${head}; evaluate its ${plural(runs, 'run')} with: judgeloop race --race ${raceId} --recollect`;
  const known = store.list('races');
  const shown = known.slice(0, 10).join(', ') + (known.length > 10 ? `, … (${known.length})` : '');
  return `${head}, and no run record has race_id ${JSON.stringify(raceId)}; ${
    known.length ? `stored races: ${shown}` : 'no race is stored yet'
  }. Race run records with: judgeloop race <run.json>… [--id ${raceId}]`;
}

/** The solution `accept --merge` merged (the race's latest recorded choice), when it is still in its base. */
function mergedOf(store: StateStore, race: Race) {
  return raceMerged(race, store.read<RaceChoice>('race_choices', race.race_id));
}

/** With JUDGE_ENABLED=true every solution is judged (throttled, cached) before its judge criteria are read. */
async function raceJudge(
  io: Io,
  store: StateStore,
  config: Config,
  now: () => Date,
  progress: Progress | null,
  outcomes: OutcomeLine[],
): Promise<(run: LoadedRunRecord) => Promise<void>> {
  const { judgeRun } = await import('../lib/judge/judge-run.js');
  // --quiet: the judge's lines too (its tally is on stdout); without it, each judged run on stderr.
  const log = (m: string) => progress?.message(`race: judge: ${m}`);
  return async (run) => {
    const o = await judgeRun(run, { store, config, env: io.env, processEnv: io.processEnv, now, log });
    log(`${o.bead}: ${o.status}: ${o.message}`);
    outcomes.push({ bead: o.bead, status: o.status, message: o.message });
  };
}

main(import.meta.url, run);
