// Every file kind in state/: its folder, its schema, and how ids map to files.
// Add a line here (and a schema in schemas/) for a new kind; nothing else writes to state/.

interface KindSpec {
  dir: string;
  schema: string;
  /** File extension; `.jsonl` kinds are append-only, one validated row per line. */
  ext: '.json' | '.jsonl';
}

export const KINDS = {
  runs: { dir: 'runs', schema: 'run-record', ext: '.json' },
  feedback: { dir: 'feedback', schema: 'feedback', ext: '.json' },
  baselines: { dir: 'baselines', schema: 'baseline', ext: '.json' },
  'race-runs': { dir: 'race-runs', schema: 'race-run', ext: '.jsonl' },
  judgments: { dir: 'judgments', schema: 'judgment', ext: '.json' },
  queue: { dir: 'queue', schema: 'judge-queue', ext: '.json' },
  batches: { dir: 'batches', schema: 'judge-batch', ext: '.json' },
  'judge-compare': { dir: 'compare', schema: 'judge-compare', ext: '.json' },
  'judge-ledger': { dir: 'ledger', schema: 'judge-ledger', ext: '.jsonl' },
  'feedback-index': { dir: 'index', schema: 'feedback-index', ext: '.jsonl' },
  scores: { dir: 'scores', schema: 'template-scores', ext: '.json' },
  triggers: { dir: 'triggers', schema: 'trigger', ext: '.json' },
  selections: { dir: 'selections', schema: 'selection-log', ext: '.jsonl' },
  agents: { dir: 'agents', schema: 'agent-profile', ext: '.json' },
  ratings: { dir: 'ratings', schema: 'agent-run-rating', ext: '.jsonl' },
  'rating-jobs': { dir: 'ratings/jobs', schema: 'rating', ext: '.json' },
  routing: { dir: 'routing', schema: 'routing-log', ext: '.jsonl' },
  races: { dir: 'races', schema: 'race', ext: '.json' },
  race_choices: { dir: 'race-choices', schema: 'race-choice', ext: '.json' },
  user_verdicts: { dir: 'user-verdicts', schema: 'user-verdict', ext: '.json' },
} as const satisfies Record<string, KindSpec>;

export type Kind = keyof typeof KINDS;
