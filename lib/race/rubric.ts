// Seed 001's scoring rubrics ("Automated Scoring"): each criterion is turned into 0-1 by one of these.

export function booleanToScore(value: boolean): number {
  return value ? 1 : 0;
}

/** min(1, actual / target); a target of 0 means any amount meets it. */
export function ratioToScore(actual: number, target: number): number {
  if (target <= 0) return 1;
  return Math.max(0, Math.min(1, actual / target));
}

/** Lower is better: 1 at or below `baseline`, 0 at or above `worst`, linear between. */
export function inverseScore(value: number, baseline: number, worst: number): number {
  if (value <= baseline) return 1;
  if (value >= worst) return 0;
  return 1 - (value - baseline) / (worst - baseline);
}
