import { defineCommand } from '../command.js';
import { API_ENV, CONFIG, JUDGE_ENV, STATE_ENV } from './common.js';

export const JUDGE = defineCommand({
  name: 'judge',
  summary: 'collects if needed, judges each run with the model and writes state/judgments/<bead>.json',
  usage: [
    '[--json] [--dry-run [--show-request]] [--config FILE] [--rate-agents [--rating-agent MODEL] [--rating-strict] [--complexity N]] <run.json>...',
    '--drain [--batch] [--json] [--config FILE]',
    '--spend [--json]',
  ],
  description: [
    'Over the hourly limit a run is queued (--drain judges the queue); JUDGE_ENABLED=true turns the judge on.',
  ],
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    drain: { type: 'boolean', help: 'judge queued runs oldest first while the hour has room' },
    batch: {
      type: 'boolean',
      help: 'with --drain: send the queue as one Message Batch (half price), collect it (a later drain collects a batch already sent)',
    },
    'dry-run': { type: 'boolean', help: 'show the context and the cost estimate; call and write nothing' },
    'show-request': { type: 'boolean', help: 'with --dry-run: the exact (redacted) request instead' },
    json: { type: 'boolean', help: 'one JSON object per run on stdout' },
    background: {
      type: 'boolean',
      help: 'run by a hook (record --background): each stderr line starts with the time and the bead, and a run that fails for any reason is queued for --drain with the failure recorded',
    },
    spend: { type: 'boolean', help: 'spend per day and model from the ledger' },
    config: CONFIG,
    'rate-agents': { type: 'boolean', help: "then rate each run's agent from its judgment" },
    'rating-agent': {
      type: 'string',
      placeholder: 'MODEL',
      help: 'with --rate-agents: the judge model whose verdict is rated',
    },
    'rating-strict': { type: 'boolean', help: 'with --rate-agents: exit 1 when a run cannot be rated' },
    complexity: {
      type: 'string',
      placeholder: '1-10',
      help: "with --rate-agents: the task complexity (budget bucket) for runs recorded without one; a run's own wins",
    },
  },
  positionals: [{ name: '<run.json>', help: 'run records to judge', variadic: true }],
  env: [...STATE_ENV, ...JUDGE_ENV, 'JUDGE_THROTTLE_REDIS', ...API_ENV],
  exit: {
    0: 'judged, failed-and-recorded, skipped, deferred, cached, dry run',
    1: 'failure (or --rating-strict with nothing to rate)',
    2: 'bad input or config, credentials refused (401/403)',
  },
  examples: [
    'JUDGE_ENABLED=true judge state/runs/bd-1.json',
    'judge --dry-run --show-request state/runs/bd-1.json',
    'judge --spend',
  ],
});
