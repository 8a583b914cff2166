// bin/score-templates: per-template scores from every feedback record, the A/B report, refinement triggers.
import { main, type Io } from '../lib/cli/cli.js';
import { parse } from '../lib/cli/command.js';
import { announceState, withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { SCORE_TEMPLATES } from '../lib/cli/commands/score-templates.js';
import { loadConfig } from '../lib/config/config.js';
import { UserError } from '../lib/base/errors.js';
import { scanFeedbackAll, stateSet } from '../lib/store/state-set.js';
import { otherStateDirs } from '../lib/config/state-dirs.js';
import { abReport } from '../lib/templates/ab.js';
import { TemplateAggregator } from '../lib/templates/aggregate.js';
import { nowIso } from '../lib/base/clock.js';
import { scoreSettings, templatesConfig } from '../lib/templates/settings.js';
import { renderScores } from '../lib/templates/table.js';
import { Progress } from '../lib/report/progress.js';
import { decideTriggers } from '../lib/templates/triggers.js';
import type { TemplateScores, Trigger } from '../lib/schema/types.generated.js';
import { plural } from '../lib/base/plural.js';

/** More records than this (or a read longer than a second) show progress on stderr. */
const PROGRESS_AFTER = 2000;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(SCORE_TEMPLATES, argv);
  let phase: number | undefined;
  if (values.phase !== undefined) {
    if (!/^[1-4]$/.test(values.phase))
      throw new UserError(`--phase ${JSON.stringify(values.phase)}: expected 1, 2, 3 or 4`);
    phase = Number(values.phase);
  }
  const cfg = loadConfig({
    env: io.env,
    configFile: values.config,
    cwd: io.cwd,
    overrides: phase ? { judge: { phase } } : undefined,
  });
  const tcfg = templatesConfig(cfg);
  const settings = scoreSettings(cfg, 3);
  const store = storeFromEnv(io.env, io.cwd, values.config);
  announceState(io, store, values.quiet);
  const now = nowIso(io.env);
  const taskType = values['task-type'];

  const agg = new TemplateAggregator(settings);
  // Progress only for a long read (more than PROGRESS_AFTER records or a second): a live count on a terminal,
  // a line per 10,000 files read elsewhere and one at the end; none with --json.
  const progress = Progress.for('score-templates', io, { json: values.json });
  const t0 = performance.now();
  let rows = 0;
  let files = 0;
  const long = (n: number) => n > PROGRESS_AFTER || performance.now() - t0 > 1000;
  // Stale feedback (its run record changed since) is left out by the scan, named in `skipped`.
  const others = otherStateDirs(values['state-dir'], cfg, { env: io.env, cwd: io.cwd, configFile: values.config });
  const scan = await scanFeedbackAll(
    stateSet(store, others),
    (row) => {
      if (taskType === undefined || row.task_type === taskType) agg.add(row);
      if (++rows % 256 === 0 && long(rows)) progress.count('feedback', 'records scored', rows);
    },
    {
      rebuild: values.rebuild,
      verify: values.verify,
      now,
      onFileRead: () => {
        if (++files % 256 !== 0 || !long(files)) return;
        if (files % 10_000 === 0) progress.update('feedback', 'files read (no index row)', { done: files });
        else progress.count('feedback', 'files read (no index row)', files);
      },
    },
  );
  if (long(Math.max(rows, files)))
    progress.finish(
      'feedback',
      `${rows} records scored (${scan.fromIndex} from the index, ${scan.readNow} read from their files)`,
    );
  progress.end();
  for (const s of scan.skipped) io.stderr(`score-templates: skipped ${s.file}: ${s.problem}\n`);
  if (scan.badIndexLines)
    io.stderr(
      `score-templates: ${plural(scan.badIndexLines, 'unreadable line')} in ${store.path('feedback-index', 'feedback')}; their feedback files were re-read\n`,
    );

  const templates = agg.finish();
  const scores: TemplateScores = {
    schema_version: '1.0.0',
    generated_at: now,
    phase: cfg.judge.phase,
    judge_enabled: cfg.judge.enabled,
    blend_active: settings.blend,
    ...(taskType !== undefined ? { task_type: taskType } : {}),
    settings: { weights: tcfg.weights, mechanical: tcfg.mechanical, trend_window: tcfg.trend_window, confidence: 0.95 },
    sources: {
      feedback_files: scan.feedbackFiles,
      from_index: scan.fromIndex,
      read_now: scan.readNow,
      skipped: scan.skipped,
    },
    templates,
    ab: settings.blend ? abReport(templates) : null,
  };

  let fired: Trigger[] = [];
  const closed: Trigger[] = [];
  if (taskType === undefined) {
    store.write('scores', 'templates', scores);
    if (cfg.judge.phase >= 4) {
      fired = await store.withLock('triggers', () => {
        const open: Trigger[] = [];
        const dropClosed = new Map<string, string>();
        for (const r of store.readAll<Trigger>('triggers')) {
          if ('error' in r) io.stderr(`score-templates: ignoring ${r.file}: ${r.error.problems.join('; ')}\n`);
          else if (r.value.cleared_at === null) open.push(r.value);
          else if (r.value.kind === 'score_drop') {
            const t = r.value;
            const last = dropClosed.get(t.template);
            if (!last || Date.parse(t.cleared_at!) > Date.parse(last)) dropClosed.set(t.template, t.cleared_at!);
          }
        }
        const d = decideTriggers({
          templates,
          recent: (t) => agg.recent(t),
          recentJudged: (t) => (cfg.judge.enabled ? agg.recentJudged(t) : []),
          open,
          lastDropClosed: (t) => dropClosed.get(t) ?? null,
          settings: tcfg.triggers,
          blend: settings.blend ? tcfg.weights : null,
          now,
        });
        for (const t of d.fire) store.write('triggers', t.id, t);
        for (const id of d.keep) {
          const t = open.find((x) => x.id === id)!;
          store.write('triggers', id, { ...t, checked_at: now });
        }
        for (const c of d.close) {
          const o = open.find((x) => x.id === c.id)!;
          const t = c.recovery ? { ...o, evidence: { ...o.evidence, recovery: c.recovery } } : o;
          store.write('triggers', c.id, { ...t, checked_at: now, cleared_at: now, closed_reason: c.reason });
          closed.push({ ...t, cleared_at: now, closed_reason: c.reason });
        }
        return d.fire;
      });
      for (const t of fired) io.stderr(`score-templates: trigger ${store.path('triggers', t.id)}: ${t.summary}\n`);
      for (const t of closed)
        io.stderr(`score-templates: closed ${store.path('triggers', t.id)}: ${t.closed_reason}\n`);
    }
  }

  if (values.json)
    io.stdout(
      JSON.stringify(
        withStateDir(store, {
          ...scores,
          triggers_fired: fired.map((t) => t.id),
          triggers_closed: closed.map((t) => t.id),
        }),
        null,
        2,
      ) + '\n',
    );
  else io.stdout(renderScores(scores, fired, closed));
  return scan.skipped.length ? 1 : 0;
}

main(import.meta.url, run);
