// bin/route: picks an agent for a task (seed 002 §7): max_complexity filter, N−1 fallback, epsilon-greedy.
import { randomBytes } from 'node:crypto';
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { parse, usage } from '../lib/cli/command.js';
import { ROUTE } from '../lib/cli/commands/route.js';
import { openState, parseNumber, withStateDir } from '../lib/cli/command-helpers.js';
import { nowIso } from '../lib/base/clock.js';
import { createRng } from '../lib/stats/prng.js';
import { routeTask } from '../lib/ratings/routing.js';
import { ratingsConfig } from '../lib/ratings/agent-log.js';
import { loadAgentsOf } from '../lib/ratings/fleet.js';
import { otherStateDirs } from '../lib/config/state-dirs.js';
import { logRouting } from '../lib/ratings/agents-io.js';
import type { RoutingDecision } from '../lib/schema/types.generated.js';

const USAGE = usage(ROUTE);

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(ROUTE, argv);
  if (!values.command) throw new UserError(`--command is required\n${USAGE}`);
  const complexity = parseNumber('complexity', values.complexity, 1, 10, true);
  if (complexity === undefined) throw new UserError(`--complexity is required\n${USAGE}`);
  const { store, config } = openState(io, values.config, { quiet: values.quiet });
  const rc = ratingsConfig(config);
  const now = nowIso(io.env);
  // Every folder's agents and ratings logs as one; the decision is logged in this machine's state folder.
  const others = otherStateDirs(values['state-dir'], config, { env: io.env, cwd: io.cwd, configFile: values.config });
  const agents = loadAgentsOf(store, others, config, now);
  for (const a of agents) for (const p of a.problems) io.stderr(`warning: ${p}\n`);
  const seed = values.seed ?? randomBytes(8).toString('hex');
  const discipline = values.discipline ?? null;
  const d = routeTask({
    agents: agents.filter((a) => a.registration).map((a) => ({ ...a.registration!, ...a.state })),
    command: values.command,
    complexity,
    useReasoning: discipline !== null && rc.reasoning_disciplines.includes(discipline),
    params: rc.routing,
    rng: createRng(seed),
  });
  const row: RoutingDecision = {
    schema_version: '1.0.0',
    decided_at: now,
    ...(values['task-id'] !== undefined ? { task_id: values['task-id'] } : {}),
    command: values.command,
    complexity,
    discipline,
    seed,
    draw: d.draw,
    epsilon: rc.routing.epsilon,
    mode: d.mode,
    exploration: d.exploration,
    agent: d.agent,
    reason: d.reason,
    fallback: d.fallback,
    warning: d.warning,
    candidates: d.candidates,
  };
  await logRouting(store, row);
  if (d.warning) io.stderr(`warning: ${d.warning}\n`);
  io.stderr(`${d.mode}${d.exploration ? ` (${d.exploration})` : ''}: ${d.reason}\n`);
  if (values.json) io.stdout(JSON.stringify(withStateDir(store, row), null, 2) + '\n');
  else if (d.agent) io.stdout(d.agent + '\n');
  return d.agent ? 0 : 1;
}

main(import.meta.url, run);
