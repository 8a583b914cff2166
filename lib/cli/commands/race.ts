import { defineCommand } from '../command.js';
import { API_ENV, CONFIG, JUDGE_ENV, STATE_ENV } from './common.js';

export const RACE = defineCommand({
  name: 'race',
  summary:
    'evaluates competing solutions of one task, ranks them, decides auto-accept and writes state/races/<id>.json',
  usage: [
    '[--json | --markdown] [--config FILE] [--id RACE] [--concurrency N] [--target TEST]... [--quiet] [--rate-agents [--rating-strict] [--complexity N]] <run.json>...',
    '--race ID [--json | --markdown]                 show the stored race (nothing re-run)',
    '--race ID --recollect [--target TEST]... [...]  evaluate its runs again and store the result',
  ],
  flags: {
    json: { type: 'boolean', help: 'the race as JSON on stdout' },
    markdown: { type: 'boolean', help: 'the race as Markdown on stdout' },
    config: CONFIG,
    id: { type: 'string', placeholder: 'RACE', help: "the race id (default: the runs' race_id)" },
    race: {
      type: 'string',
      placeholder: 'ID',
      help: 'a stored race: show it (with --recollect: evaluate its runs again)',
    },
    recollect: {
      type: 'boolean',
      help: 'run every check again (a current feedback record is reused otherwise); with --race: evaluate its runs again',
    },
    target: {
      type: 'string',
      multiple: true,
      placeholder: 'TEST',
      help: 'a target test of the task (used when the run records name none in task.target_tests)',
    },
    concurrency: { type: 'string', placeholder: 'N', help: 'solutions evaluated at once' },
    quiet: { type: 'boolean', help: 'no progress on stderr' },
    'rate-agents': { type: 'boolean', help: "then rate each run's agent from its judgment" },
    'rating-strict': { type: 'boolean', help: 'with --rate-agents: exit 1 when a run cannot be rated' },
    complexity: {
      type: 'string',
      placeholder: '1-10',
      help: "with --rate-agents: the task complexity (budget bucket) for runs recorded without one; a run's own wins",
    },
  },
  positionals: [{ name: '<run.json>', help: 'the run records of the solutions', variadic: true }],
  env: [...STATE_ENV, ...JUDGE_ENV, ...API_ENV],
  exit: { 0: 'ranked (or shown)', 1: 'every solution failed evaluation', 2: 'bad input (or no stored race)' },
  examples: ['race runs/a.json runs/b.json runs/c.json', 'race --race r-42 --markdown'],
});
