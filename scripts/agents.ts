// bin/agents: register and update agents (state/agents/<slug>.json); rating fields change only through the log.
import { assertSafeId } from '../lib/store/bead.js';
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { fmtRating, openState, parseNumber, parseFlagsSigned } from '../lib/ratings/_cli.js';
import { textTable as table } from '../lib/report/table.js';
import { nowIso } from '../lib/base/clock.js';
import { loadAllAgents } from '../lib/ratings/agent-log.js';
import { rebuildAgent, registerAgent, updateAgent, type AgentFields, type RatingFields } from '../lib/ratings/agents-io.js';

const USAGE = `usage: bin/agents add SLUG [--max-complexity 1-10] [--rating 0-10] [--reasoning-rating 0-10] [--cost-per-million USD] [--best-usage TEXT] [--commands a,b] [--disabled]
       bin/agents set SLUG [same flags] [--enabled|--disabled] [--reason TEXT]
       bin/agents enable SLUG | disable SLUG   (routable or not; an agent first seen in a rated run starts disabled)
       bin/agents list [--json]
       bin/agents rebuild SLUG          (rewrite the profile from state/ratings/SLUG.jsonl)
       all take [--config FILE]`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlagsSigned(argv, {
    'max-complexity': { type: 'string' },
    rating: { type: 'string' },
    'reasoning-rating': { type: 'string' },
    'cost-per-million': { type: 'string' },
    'best-usage': { type: 'string' },
    commands: { type: 'string' },
    enabled: { type: 'boolean' },
    disabled: { type: 'boolean' },
    reason: { type: 'string' },
    json: { type: 'boolean' },
    config: { type: 'string' },
  }, USAGE);
  const [sub, slug, ...extra] = positionals;
  if (!sub || !['add', 'set', 'enable', 'disable', 'list', 'rebuild'].includes(sub)) throw new UserError(`expected add, set, enable, disable, list or rebuild\n${USAGE}`);
  if (extra.length) throw new UserError(`unexpected argument ${JSON.stringify(extra[0])}\n${USAGE}`);
  if (values.enabled && values.disabled) throw new UserError('--enabled and --disabled contradict each other');
  const { store, config } = openState(io, values.config);
  const now = nowIso(io.env);

  if (sub === 'list') {
    const agents = loadAllAgents(store, config, now);
    for (const a of agents) for (const p of a.problems) io.stderr(`warning: ${p}\n`);
    const rows = agents.filter((a) => a.registration).map((a) => ({ ...a.registration!, ...a.state }));
    if (values.json) io.stdout(JSON.stringify(rows, null, 2) + '\n');
    else io.stdout(table(['agent', 'enabled', 'rating', 'n', 'max_cx', 'cost/M', 'commands', 'best_usage'], rows.map((r) => [
      r.slug, r.enabled ? 'yes' : 'no', fmtRating(r.rating), String(r.rating_samples), String(r.max_complexity),
      r.cost_per_million === null ? '—' : `$${r.cost_per_million}`, r.commands.join(',') || '(all)', r.best_usage ?? '',
    ])));
    return 0;
  }
  if (!slug) throw new UserError(`${sub} needs an agent slug\n${USAGE}`);
  assertSafeId(slug, 'agent slug');
  if (sub === 'rebuild') {
    const { profile, problems } = await rebuildAgent(store, config, slug, now);
    for (const p of problems) io.stderr(`warning: ${p}\n`);
    io.stderr(`${slug}: profile rebuilt from ${profile.rating_samples} rated run(s): rating ${fmtRating(profile.rating)}, max_complexity ${profile.max_complexity}\n`);
    if (values.json) io.stdout(JSON.stringify(profile, null, 2) + '\n');
    return 0;
  }
  if (sub === 'enable' || sub === 'disable') {
    const { profile, problems } = await updateAgent(store, config, slug, { enabled: sub === 'enable' }, now);
    for (const p of problems) io.stderr(`warning: ${p}\n`);
    io.stderr(`${slug}: ${profile.enabled ? 'enabled: routable' : 'disabled: never routed'} (rating ${fmtRating(profile.rating)}, max_complexity ${profile.max_complexity})\n`);
    if (values.json) io.stdout(JSON.stringify(profile, null, 2) + '\n');
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
  if (values.commands !== undefined) fields.commands = values.commands.split(',').map((c) => c.trim()).filter(Boolean);
  if (values.enabled) fields.enabled = true;
  if (values.disabled) fields.enabled = false;
  if (values.reason !== undefined) fields.reason = values.reason;
  if (sub === 'add') {
    const profile = await registerAgent(store, config, slug, fields, now);
    io.stderr(`${slug}: registered (max_complexity ${profile.max_complexity}, rating ${fmtRating(profile.rating)})\n`);
    if (values.json) io.stdout(JSON.stringify(profile, null, 2) + '\n');
    return 0;
  }
  const { profile, problems } = await updateAgent(store, config, slug, fields, now);
  for (const p of problems) io.stderr(`warning: ${p}\n`);
  io.stderr(`${slug}: updated (max_complexity ${profile.max_complexity}, rating ${fmtRating(profile.rating)})\n`);
  if (values.json) io.stdout(JSON.stringify(profile, null, 2) + '\n');
  return 0;
}

main(import.meta.url, run);
