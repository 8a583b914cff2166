// Seed 002 §6.1: a budget per command and complexity bucket — config defaults first, then empirical medians.
import { median } from '../stats/stats.js';
import type { RunBudget } from './score.js';

type BudgetTable = Record<string, Partial<RunBudget>>;

export interface BudgetConfig {
  /** Bucket ("1".."10") → budget, for every command. */
  default: Record<string, RunBudget>;
  /** Command → bucket → the dimensions that differ from the default. */
  by_command?: Record<string, BudgetTable>;
  empirical: { min_runs: number; multiplier: number };
}

/** A past rated run of the same command and complexity, as far as budgets need it. */
export interface BudgetSample {
  total_cost: number | null;
  duration_seconds: number | null;
  iterations: number | null;
}

type BudgetSource = 'config' | 'empirical';

export interface ResolvedBudget extends RunBudget {
  source: { cost_usd: BudgetSource; duration_seconds: BudgetSource; iterations: BudgetSource };
  /** Past runs of this command and bucket that each empirical figure rests on. */
  samples: { cost_usd: number; duration_seconds: number; iterations: number };
}

/** The configured budget: the command's bucket entry over the default bucket. */
export function configBudget(cfg: BudgetConfig, command: string | null, complexity: number): RunBudget {
  const bucket = String(complexity);
  const base = cfg.default[bucket];
  if (!base) throw new RangeError(`ratings.budgets.default has no bucket ${bucket}`);
  const over = (command !== null ? cfg.by_command?.[command]?.[bucket] : undefined) ?? {};
  return { ...base, ...over };
}

/**
 * Each dimension switches to multiplier × median once at least min_runs past runs measured it
 * (so a typical run costs half the penalty at multiplier 2); a median of 0 keeps the configured figure.
 */
export function resolveBudget(
  cfg: BudgetConfig,
  command: string | null,
  complexity: number,
  history: readonly BudgetSample[],
): ResolvedBudget {
  const fixed = configBudget(cfg, command, complexity);
  const out: ResolvedBudget = {
    ...fixed,
    source: { cost_usd: 'config', duration_seconds: 'config', iterations: 'config' },
    samples: { cost_usd: 0, duration_seconds: 0, iterations: 0 },
  };
  const dims = [
    ['cost_usd', (s: BudgetSample) => s.total_cost],
    ['duration_seconds', (s: BudgetSample) => s.duration_seconds],
    ['iterations', (s: BudgetSample) => s.iterations],
  ] as const;
  for (const [dim, get] of dims) {
    const values = history.map(get).filter((v): v is number => v !== null);
    out.samples[dim] = values.length;
    if (values.length < cfg.empirical.min_runs) continue;
    const m = median(values)!;
    if (m <= 0) continue;
    out[dim] = cfg.empirical.multiplier * m;
    out.source[dim] = 'empirical';
  }
  return out;
}
