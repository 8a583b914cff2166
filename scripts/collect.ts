// bin/collect <run.json|->…: measures each agent run and writes state/feedback/<bead>.json.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { installAbortHandlers } from '../lib/base/cleanup.js';
import { isMain, main, type Io } from '../lib/cli/cli.js';
import { packageVersion, parse, usage } from '../lib/cli/command.js';
import { announceState, withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { COLLECT } from '../lib/cli/commands/collect.js';
import { clockFromEnv } from '../lib/base/clock.js';
import { loadConfig } from '../lib/config/config.js';
import { errorMessage, isUserError, UserError, WorkError } from '../lib/base/errors.js';
import { loadRunRecord, parseRunRecord, type LoadedRunRecord } from '../lib/collector/run-record.js';
import type { RacePeer } from '../lib/collector/context.js';
import { durationSeconds } from '../lib/collector/scoring.js';
import { brokenTests, verdictLine } from '../lib/collector/regressions.js';
import type { Feedback } from '../lib/schema/types.generated.js';

const USAGE = usage(COLLECT);

export interface CollectIo extends Io {
  /** Reads all of stdin (for the `-` argument). */
  readStdin?: () => string;
}

function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? '--' : (x * 100).toFixed(1);
}

/** One line per run for people: outcome, composite and the five dimensions on 0-100, then what it broke, that it does nothing, or the infrastructure's fault. */
export function formatLine(fb: Feedback): string {
  const s = fb.scores;
  const why =
    fb.outcome === 'infra_failure'
      ? `infra: ${fb.outcome_reason}`
      : verdictLine(brokenTests(fb.baseline?.tests, fb.checks.test?.tests), fb.outcome_reason, fb.resolution);
  const hidden = fb.hidden ? `  ${fb.hidden.line}` : '';
  return `${fb.bead}  ${fb.outcome.padEnd(13)} ${pct(fb.composite).padStart(5)}/100  [BUILD ${pct(s.build)}] [TESTS ${pct(s.tests)}] [LINT ${pct(s.lint)}] [DIFF ${pct(s.diff_size)}] [SPEED ${pct(s.speed)}]${why ? `  ${why}` : ''}${hidden}`;
}

/** One line of every step's duration, seconds (printed on a terminal): where a collection spent its time. */
export function formatSteps(bead: string, st: NonNullable<Feedback['steps']>): string {
  const s = (ms: number | undefined) => (ms === undefined ? null : `${(ms / 1000).toFixed(2)}`);
  const parts: [string, number | undefined, string?][] = [
    ['inputs', st.inputs_ms],
    ['seal', st.seal_ms],
    [
      'baseline',
      st.baseline_ms,
      st.baseline_cached === true ? ' (cached)' : st.baseline_cached === false ? ' (computed)' : '',
    ],
    ['fetch', st.fetch_ms],
    ['setup', st.setup_ms],
    ['checks', st.checks_ms],
    ['own tests', st.own_tests_ms],
    ['rest', st.rest_ms],
  ];
  const shown = parts.filter(([, ms]) => ms !== undefined).map(([n, ms, x]) => `${n} ${s(ms)}${x ?? ''}`);
  return `${bead}: ${s(st.total_ms)} s: ${shown.join(' · ')}`;
}

export async function run(argv: string[], io: CollectIo): Promise<number> {
  const { values, positionals } = parse(COLLECT, argv);
  if (positionals.length === 0) {
    io.stderr(`no run record given\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig({ env: io.env, configFile: values.config, cwd: io.cwd });
  const store = storeFromEnv(io.env, io.cwd, values.config);
  announceState(io, store, values.quiet);
  const now = clockFromEnv(io.env);
  const log = values.quiet ? undefined : (m: string) => io.stderr(`collect: ${m}\n`);
  let code = 0;
  let stdinUsed = false;
  // A run is never its own peer: with one record there is nothing to read twice.
  const racePeers = positionals.length > 1 ? peersOf(positionals, io.cwd) : [];
  for (const arg of positionals) {
    let loaded: LoadedRunRecord;
    try {
      if (arg === '-') {
        if (stdinUsed) throw new UserError('stdin (-) can be given only once');
        stdinUsed = true;
        const text = (io.readStdin ?? (() => readFileSync(0, 'utf8')))();
        loaded = parseRunRecord(text, '<stdin>');
        loaded.worktree = resolve(io.cwd, loaded.record.worktree);
      } else {
        loaded = loadRunRecord(arg, io.cwd);
      }
      const fb = await (await import('../lib/collector/collect.js')).collectRun(loaded, {
        store,
        config,
        processEnv: io.processEnv,
        now,
        log,
        version: packageVersion(),
        racePeers,
      });
      // On a terminal, where the time went (the same figures are in the record's `steps`).
      if (log && io.tty && fb.steps) log(formatSteps(fb.bead, fb.steps));
      if (values.json) io.stdout(`${JSON.stringify(withStateDir(store, fb))}\n`);
      else io.stdout(`${formatLine(fb)}\n`);
      if (fb.outcome === 'infra_failure' && fb.run.status !== 'infra_failure')
        io.stderr(`${arg}: recorded infra_failure: ${fb.outcome_reason}\n`);
      if (fb.outcome === 'unmeasured') io.stderr(`${arg}: warning: recorded unmeasured: ${fb.outcome_reason}\n`);
    } catch (e) {
      if (isUserError(e)) {
        io.stderr(`${e.message}\n`);
        code = Math.max(code, 2);
      } else {
        // A WorkError (e.g. state that cannot be written) is one line; anything else is a bug: its stack.
        io.stderr(
          `${arg}: ${e instanceof WorkError ? e.message : e instanceof Error ? (e.stack ?? e.message) : errorMessage(e)}\n`,
        );
        code = code === 2 ? 2 : 1;
      }
    }
  }
  return code;
}

/** Runs of a race given together are scored against the fastest of them, whichever is collected first. */
function peersOf(args: string[], cwd: string): RacePeer[] {
  const peers: RacePeer[] = [];
  for (const arg of args) {
    if (arg === '-') continue;
    try {
      const { record } = loadRunRecord(arg, cwd);
      if (record.race_id !== undefined && record.status !== 'infra_failure')
        peers.push({ raceId: record.race_id, bead: record.bead, seconds: durationSeconds(record) });
    } catch {
      // Reported when the record itself is collected.
    }
  }
  return peers;
}

if (isMain(import.meta.url)) installAbortHandlers();
main(import.meta.url, run);
