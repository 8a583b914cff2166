// The race's configuration section and stored choices, kept light (no parser, no collector) for bin/accept.
import type { Config } from '../config/config.js';
import { UserError } from '../base/errors.js';
import type { StateStore } from '../store/store.js';
import type { RaceCategory, RaceChoice, RaceEvaluation } from '../schema/types.generated.js';
import { CATEGORIES } from './categories.js';
import { learnAdjustments } from './learning.js';

export type RaceConfig = NonNullable<Config['race']>;

export function raceConfig(cfg: Config): RaceConfig {
  if (!cfg.race) throw new UserError('configuration: /race: is required (config/defaults.json has it)');
  return cfg.race;
}

/** Learned weight adjustments from the stored choices (always computed, so they can be shown). */
export function learnedAdjustments(store: StateStore, rc: RaceConfig) {
  const choices = store.readAll<RaceChoice>('race_choices').flatMap((r) => ('value' in r ? [r.value] : []));
  return learnAdjustments(choices, { rate: rc.learning.rate, maxAdjustment: rc.learning.max_adjustment });
}

export function categoryScores(e: RaceEvaluation): Record<RaceCategory, number | null> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, e.categories[c].overall])) as Record<RaceCategory, number | null>;
}
