import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const RATE = defineCommand({
  name: 'rate',
  summary: "rates agent runs from their feedback records, with a reviewer's quality or the judge's",
  description: [
    "The quality used is capped by the run's checks (ratings.qa_caps): a run that failed or broke tests never rates",
    "like a clean one; a no-op rates 0; a run that fixes none of its target tests never raises its agent's rating.",
    'The line names each penalty (cost, time, retries) and the budget it was measured against. A run recorded',
    'without a task complexity is rated with --complexity (nothing is collected or judged again).',
    'An agent not registered is added disabled for routing (agents enable SLUG).',
  ],
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    quality: { type: 'string', placeholder: '0-10', help: "the reviewer's quality (default: the stored judgment's)" },
    reviewer: { type: 'string', placeholder: 'NAME', help: 'who gave --quality' },
    complexity: {
      type: 'string',
      placeholder: '1-10',
      help: "the task complexity (budget bucket) for runs recorded without one; a run's own wins",
    },
    strict: { type: 'boolean', help: 'a run without a quality is an error' },
    'rating-strict': { type: 'boolean', help: 'the same as --strict' },
    json: { type: 'boolean', help: 'the results as JSON on stdout' },
    config: CONFIG,
  },
  positionals: [{ name: '<bead>', help: 'the runs to rate (their feedback records)', variadic: true }],
  env: [...STATE_ENV],
  exit: { 0: 'rated, already rated or not rated', 1: '--strict and a run without a quality', 2: 'bad input' },
  examples: ['rate bd-1 --quality 8 --reviewer alice', 'rate bd-1 bd-2 --json', 'rate bd-3 --complexity 3'],
});
