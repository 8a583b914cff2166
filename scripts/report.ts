// bin/report: one self-contained HTML page (chart library and data inlined) of templates, races, agents and the
// judge, built from state/ alone; prints the file's path.
import { resolve } from 'node:path';
import { main, type Io } from '../lib/cli/cli.js';
import { parse } from '../lib/cli/command.js';
import { REPORT } from '../lib/cli/commands/report.js';
import { openState } from '../lib/cli/command-helpers.js';
import { UserError } from '../lib/base/errors.js';
import { nowIso } from '../lib/base/clock.js';
import { assertSafeId } from '../lib/store/bead.js';
import { writeFileAtomic } from '../lib/store/state-write.js';
import { chartAssets } from '../lib/view/assets.js';
import { gatherReport } from '../lib/view/gather.js';
import { stateSet } from '../lib/store/state-set.js';
import { otherStateDirs } from '../lib/config/state-dirs.js';
import { renderHtml } from '../lib/view/html.js';
import { buildModel } from '../lib/view/model.js';

/** --since as an ISO time: a date is its UTC midnight. */
export function parseSince(s: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : Date.parse(s);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s) || Number.isNaN(ms))
    throw new UserError(`--since ${JSON.stringify(s)}: expected a date (2026-01-31) or an ISO time`);
  return new Date(ms).toISOString();
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(REPORT, argv);
  if (values.race !== undefined) assertSafeId(values.race, '--race');
  if (values.agent !== undefined) assertSafeId(values.agent, '--agent');
  const filters = {
    since: values.since === undefined ? null : parseSince(values.since),
    template: values.template ?? null,
    race: values.race ?? null,
    agent: values.agent ?? null,
  };
  const { store, config } = openState(io, values.config);
  const assets = chartAssets();
  const others = otherStateDirs(values['state-dir'], config, { env: io.env, cwd: io.cwd, configFile: values.config });
  const input = await gatherReport({
    store,
    others: stateSet(store, others).slice(1),
    config,
    filters,
    now: nowIso(io.env),
  });
  for (const p of input.problems) io.stderr(`report: ${p}\n`);
  const out = resolve(io.cwd, values.out);
  writeFileAtomic(out, renderHtml(buildModel(input), assets));
  io.stdout(`${out}\n`);
  return 0;
}

main(import.meta.url, run);
