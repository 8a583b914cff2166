// Every file kind in state/: its folder, its schema, and how ids map to files.
// Add a line here (and a schema in schemas/) for a new kind; nothing else writes to state/.

export interface KindSpec {
  dir: string;
  schema: string;
  /** File extension; `.jsonl` kinds are append-only, one validated row per line. */
  ext: '.json' | '.jsonl';
}

export const KINDS = {
  feedback: { dir: 'feedback', schema: 'feedback', ext: '.json' },
  baselines: { dir: 'baselines', schema: 'baseline', ext: '.json' },
  races: { dir: 'races', schema: 'race', ext: '.json' },
  race_choices: { dir: 'race-choices', schema: 'race-choice', ext: '.json' },
} as const satisfies Record<string, KindSpec>;

export type Kind = keyof typeof KINDS;
