// bin/select-template: picks the prompt template for the next run (seed 003 phase 4), logging why.
import { randomBytes } from 'node:crypto';
import { main, parseFlags, type Io } from './lib/cli.js';
import { loadConfig } from './lib/config.js';
import { UserError } from './lib/errors.js';
import { scanFeedback } from './lib/feedback-index.js';
import { StateStore } from './lib/store.js';
import { TemplateAggregator } from './lib/templates/aggregate.js';
import { createRng as seededRandom } from './lib/prng.js';
import { selectTemplate, type Candidate } from './lib/templates/select.js';
import { nowIso } from './lib/clock.js';
import { scoreSettings, templatesConfig } from './lib/templates/settings.js';
import type { SelectionLogRow } from './lib/types.generated.js';

const USAGE = `usage: select-template [--task-type T] [--candidates a,b,...] [--seed S] [--exploration-share X] [--json] [--dry-run] [--config FILE]
  Prints the template for the next run: the best score (blended from phase 4 with the judge enabled, else
  mechanical) over runs of task type T, or with probability X another candidate. Candidates: --candidates
  (new templates allowed), else every template with runs of type T. Same seed and scores, same choice.
  Every decision is appended to state/selections/log.jsonl (not with --dry-run).
Exit: 0 chosen; 1 state could not be read or written; 2 usage, config, or no candidate.`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      'task-type': { type: 'string' },
      candidates: { type: 'string' },
      seed: { type: 'string' },
      'exploration-share': { type: 'string' },
      json: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  if (values.help) {
    io.stdout(USAGE + '\n');
    return 0;
  }
  if (positionals.length) throw new UserError(`unexpected argument ${JSON.stringify(positionals[0])}\n${USAGE}`);
  let share: number | undefined;
  if (values['exploration-share'] !== undefined) {
    share = Number(values['exploration-share']);
    if (!/^\d*\.?\d+$/.test(values['exploration-share']) || share > 1) {
      throw new UserError(`--exploration-share ${JSON.stringify(values['exploration-share'])}: expected a number from 0 to 1`);
    }
  }
  const cfg = loadConfig({ env: io.env, configFile: values.config, cwd: io.cwd, overrides: share !== undefined ? { templates: { exploration_share: share } } : undefined });
  const tcfg = templatesConfig(cfg);
  const settings = scoreSettings(cfg, 4);
  const store = StateStore.fromEnv(io.env, io.cwd, values.config);
  const now = nowIso(io.env);
  const taskType = values['task-type'] ?? null;
  const named = values.candidates?.split(',').map((s) => s.trim()).filter(Boolean);
  if (values.candidates !== undefined && !named?.length) throw new UserError('--candidates: expected a comma-separated list of template ids');

  const agg = new TemplateAggregator(settings);
  const scan = await scanFeedback(store, (row) => {
    if (taskType === null || row.task_type === taskType) agg.add(row);
  }, { now });
  for (const s of scan.skipped) io.stderr(`select-template: skipped ${s.file}: ${s.problem}\n`);

  const scored = new Map(agg.finish().map((t) => [t.template, t]));
  const ids = named ? [...new Set(named)] : [...scored.keys()];
  if (ids.length === 0) {
    throw new UserError(`no template has runs${taskType !== null ? ` of task type ${JSON.stringify(taskType)}` : ''}: name the candidates with --candidates`);
  }
  const candidates: Candidate[] = ids.map((id) => {
    const t = scored.get(id);
    return { template: id, score: t?.score ?? null, scored_runs: t?.scored_runs ?? 0 };
  });
  const seed = values.seed ?? randomBytes(8).toString('hex');
  const choice = selectTemplate(candidates, tcfg.exploration_share, seededRandom(seed));
  const row: SelectionLogRow = {
    at: now,
    task_type: taskType,
    seed,
    draw: choice.draw,
    exploration_share: tcfg.exploration_share,
    mode: choice.mode,
    chosen: choice.chosen,
    reason: choice.reason,
    basis: settings.blend ? 'blended' : 'mechanical',
    candidates,
  };
  if (!values['dry-run']) await store.withLock('selections', () => store.appendLine('selections', 'log', row));
  if (values.json) io.stdout(JSON.stringify(row, null, 2) + '\n');
  else {
    io.stdout(choice.chosen + '\n');
    io.stderr(`select-template: ${choice.reason} (seed ${seed})\n`);
  }
  return 0;
}

main(import.meta.url, run);
