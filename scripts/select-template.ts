// bin/select-template: picks the prompt template for the next run (seed 003 phase 4), logging why.
import { randomBytes } from 'node:crypto';
import { main, type Io } from '../lib/cli/cli.js';
import { parse } from '../lib/cli/command.js';
import { announceState, withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { SELECT_TEMPLATE } from '../lib/cli/commands/select-template.js';
import { loadConfig } from '../lib/config/config.js';
import { UserError } from '../lib/base/errors.js';
import { scanFeedback } from '../lib/store/feedback-index.js';
import { TemplateAggregator } from '../lib/templates/aggregate.js';
import { createRng as seededRandom } from '../lib/stats/prng.js';
import { selectTemplate, type Candidate } from '../lib/templates/select.js';
import { nowIso } from '../lib/base/clock.js';
import { scoreSettings, templatesConfig } from '../lib/templates/settings.js';
import type { SelectionLogRow } from '../lib/schema/types.generated.js';

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(SELECT_TEMPLATE, argv);
  let share: number | undefined;
  if (values['exploration-share'] !== undefined) {
    share = Number(values['exploration-share']);
    if (!/^\d*\.?\d+$/.test(values['exploration-share']) || share > 1) {
      throw new UserError(
        `--exploration-share ${JSON.stringify(values['exploration-share'])}: expected a number from 0 to 1`,
      );
    }
  }
  const cfg = loadConfig({
    env: io.env,
    configFile: values.config,
    cwd: io.cwd,
    overrides: share !== undefined ? { templates: { exploration_share: share } } : undefined,
  });
  const tcfg = templatesConfig(cfg);
  const settings = scoreSettings(cfg, 4);
  const store = storeFromEnv(io.env, io.cwd, values.config);
  announceState(io, store, values.quiet);
  const now = nowIso(io.env);
  const taskType = values['task-type'] ?? null;
  const named = values.candidates
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.candidates !== undefined && !named?.length)
    throw new UserError('--candidates: expected a comma-separated list of template ids');

  const agg = new TemplateAggregator(settings);
  // Stale feedback (its run record changed since) is left out by the scan, named in `skipped`.
  const scan = await scanFeedback(
    store,
    (row) => {
      if (taskType === null || row.task_type === taskType) agg.add(row);
    },
    { now },
  );
  for (const s of scan.skipped) io.stderr(`select-template: skipped ${s.file}: ${s.problem}\n`);

  const scored = new Map(agg.finish().map((t) => [t.template, t]));
  const ids = named ? [...new Set(named)] : [...scored.keys()];
  if (ids.length === 0) {
    throw new UserError(
      `no template has runs${taskType !== null ? ` of task type ${JSON.stringify(taskType)}` : ''}: name the candidates with --candidates`,
    );
  }
  const candidates: Candidate[] = ids.map((id) => {
    const t = scored.get(id);
    const interval = t ? (t.basis === 'blended' ? t.blended.interval : t.mechanical.interval) : null;
    return { template: id, score: t?.score ?? null, scored_runs: t?.scored_runs ?? 0, interval };
  });
  // The incumbent: the last choice by score (exploration does not change it) for this task type.
  const log = store.readLines<SelectionLogRow>('selections', 'log');
  for (const b of log.bad)
    io.stderr(`select-template: ${store.path('selections', 'log')} line ${b.line} skipped: ${b.problems.join('; ')}\n`);
  const incumbent =
    [...log.rows].reverse().find((r) => r.task_type === taskType && r.mode !== 'explore')?.chosen ?? null;
  const seed = values.seed ?? randomBytes(8).toString('hex');
  const choice = selectTemplate(candidates, tcfg.exploration_share, seededRandom(seed), {
    settings: tcfg.selection,
    incumbent,
  });
  const row: SelectionLogRow = {
    at: now,
    task_type: taskType,
    seed,
    draw: choice.draw,
    exploration_share: tcfg.exploration_share,
    mode: choice.mode,
    chosen: choice.chosen,
    reason: choice.reason,
    incumbent,
    margin: choice.margin,
    basis: settings.blend ? 'blended' : 'mechanical',
    candidates: candidates.map((c) => ({ ...c, interval: c.interval ?? null })),
  };
  if (!values['dry-run']) await store.withLock('selections', () => store.appendLine('selections', 'log', row));
  if (values.json) io.stdout(JSON.stringify(withStateDir(store, row), null, 2) + '\n');
  else {
    io.stdout(choice.chosen + '\n');
    io.stderr(`select-template: ${choice.reason} (seed ${seed})\n`);
  }
  return 0;
}

main(import.meta.url, run);
