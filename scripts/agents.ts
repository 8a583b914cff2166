// bin/agents: register and update agents (state/agents/<slug>.json); rating fields change only through the log.
import { assertSafeId } from '../lib/store/bead.js';
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { parse, usage } from '../lib/cli/command.js';
import { AGENTS } from '../lib/cli/commands/agents.js';
import { fmtRating, openState, parseNumber, withStateDir } from '../lib/cli/command-helpers.js';
import { textTable as table } from '../lib/report/table.js';
import { nowIso } from '../lib/base/clock.js';
import { loadAllAgents } from '../lib/ratings/agent-log.js';
import {
  rebuildAgent,
  registerAgent,
  updateAgent,
  type AgentFields,
  type RatingFields,
} from '../lib/ratings/agents-io.js';
import { plural } from '../lib/base/plural.js';

const USAGE = usage(AGENTS);

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(AGENTS, argv);
  const [sub, slug, ...extra] = positionals;
  if (extra.length) throw new UserError(`unexpected argument ${JSON.stringify(extra[0])}\n${USAGE}`);
  if (values.enabled && values.disabled) throw new UserError('--enabled and --disabled contradict each other');
  const { store, config } = openState(io, values.config, sub === 'list' ? undefined : { quiet: values.quiet });
  const now = nowIso(io.env);

  if (sub === 'list') {
    const agents = loadAllAgents(store, config, now);
    for (const a of agents) for (const p of a.problems) io.stderr(`warning: ${p}\n`);
    const rows = agents.filter((a) => a.registration).map((a) => ({ ...a.registration!, ...a.state }));
    if (values.json) io.stdout(JSON.stringify(rows, null, 2) + '\n');
    else
      io.stdout(
        table(
          ['agent', 'enabled', 'rating', 'n', 'max_cx', 'cost/M', 'commands', 'best_usage'],
          rows.map((r) => [
            r.slug,
            r.enabled ? 'yes' : 'no',
            fmtRating(r.rating),
            String(r.rating_samples),
            String(r.max_complexity),
            r.cost_per_million === null ? '—' : `$${r.cost_per_million}`,
            r.commands.join(',') || '(all)',
            r.best_usage ?? '',
          ]),
        ),
      );
    return 0;
  }
  if (!slug) throw new UserError(`${sub} needs an agent slug\n${USAGE}`);
  assertSafeId(slug, 'agent slug');
  if (sub === 'rebuild') {
    const { profile, problems } = await rebuildAgent(store, config, slug, now);
    for (const p of problems) io.stderr(`warning: ${p}\n`);
    io.stderr(
      `${slug}: profile rebuilt from ${plural(profile.rating_samples, 'rated run')}: rating ${fmtRating(profile.rating)}, max_complexity ${profile.max_complexity}\n`,
    );
    if (values.json) io.stdout(JSON.stringify(withStateDir(store, profile), null, 2) + '\n');
    return 0;
  }
  if (sub === 'enable' || sub === 'disable') {
    const { profile, problems } = await updateAgent(store, config, slug, { enabled: sub === 'enable' }, now);
    for (const p of problems) io.stderr(`warning: ${p}\n`);
    io.stderr(
      `${slug}: ${profile.enabled ? 'enabled: routable' : 'disabled: never routed'} (rating ${fmtRating(profile.rating)}, max_complexity ${profile.max_complexity})\n`,
    );
    if (values.json) io.stdout(JSON.stringify(withStateDir(store, profile), null, 2) + '\n');
    return 0;
  }
  const fields: AgentFields & RatingFields & { reason?: string } = {};
  const mc = parseNumber('max-complexity', values['max-complexity'], 1, 10, true);
  if (mc !== undefined) fields.max_complexity = mc;
  const r = parseNumber('rating', values.rating, 0, 10);
  if (r !== undefined) fields.rating = r;
  const rr = parseNumber('reasoning-rating', values['reasoning-rating'], 0, 10);
  if (rr !== undefined) fields.reasoning_rating = rr;
  const cpm = parseNumber('cost-per-million', values['cost-per-million'], 0, Number.MAX_SAFE_INTEGER);
  if (cpm !== undefined) fields.cost_per_million = cpm;
  if (values['best-usage'] !== undefined) fields.best_usage = values['best-usage'];
  if (values.commands !== undefined)
    fields.commands = values.commands
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  if (values.enabled) fields.enabled = true;
  if (values.disabled) fields.enabled = false;
  if (values.reason !== undefined) fields.reason = values.reason;
  if (sub === 'add') {
    const profile = await registerAgent(store, config, slug, fields, now);
    io.stderr(`${slug}: registered (max_complexity ${profile.max_complexity}, rating ${fmtRating(profile.rating)})\n`);
    if (values.json) io.stdout(JSON.stringify(withStateDir(store, profile), null, 2) + '\n');
    return 0;
  }
  const { profile, problems } = await updateAgent(store, config, slug, fields, now);
  for (const p of problems) io.stderr(`warning: ${p}\n`);
  io.stderr(`${slug}: updated (max_complexity ${profile.max_complexity}, rating ${fmtRating(profile.rating)})\n`);
  if (values.json) io.stdout(JSON.stringify(withStateDir(store, profile), null, 2) + '\n');
  return 0;
}

main(import.meta.url, run);
