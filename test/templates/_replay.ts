// A month of generated daily runs for the trigger replay: steady templates, an improving one, one that collapses
// late and one whose level is low. Seeded, so a failure can be replayed.
import { createRng } from '../../lib/stats/prng.js';
import type { Outcome } from '../../lib/schema/types.generated.js';
import type { RunSpec } from './_fixtures.js';

export const DAYS = 30;
export const RUNS_PER_DAY = 6;
/** The first day (1-based) on which the collapsing template is broken. */
export const COLLAPSE_DAY = 22;
export const ORIGIN = Date.parse('2026-03-01T00:00:00Z');

/** Outcome probabilities of a template on a day: full, partial, agent failure (the rest), timeout. */
type Mix = { full: number; partial: number; timeout: number };
export const TEMPLATES: Record<string, (day: number) => Mix> = {
  'steady-a': () => ({ full: 0.85, partial: 0.1, timeout: 0.0 }),
  'steady-b': () => ({ full: 0.75, partial: 0.15, timeout: 0.03 }),
  improving: (day) => ({ full: 0.55 + (0.4 * (day - 1)) / (DAYS - 1), partial: 0.15, timeout: 0.02 }),
  collapse: (day) =>
    day < COLLAPSE_DAY ? { full: 0.85, partial: 0.1, timeout: 0.0 } : { full: 0.05, partial: 0.05, timeout: 0.1 },
  low: () => ({ full: 0.3, partial: 0.3, timeout: 0.05 }),
};

/** End of a day, ISO: when the daily score-templates runs. */
export const endOfDay = (day: number): string => new Date(ORIGIN + day * 86_400_000 - 60_000).toISOString();

/** Every day's runs of a month, all templates, at random times of their day: one pseudo-random stream per seed. */
export function monthOfRuns(seed: string): RunSpec[][] {
  const rng = createRng(seed);
  // Warm the generator: its first outputs after a seed hash are the least mixed.
  for (let i = 0; i < 16; i++) rng();
  const days: RunSpec[][] = [];
  for (let day = 1; day <= DAYS; day++) {
    const out: RunSpec[] = [];
    for (const [template, mixOf] of Object.entries(TEMPLATES)) {
      const mix = mixOf(day);
      for (let i = 0; i < RUNS_PER_DAY; i++) {
        const u = rng();
        const outcome: Outcome =
          u < mix.full
            ? 'full_pass'
            : u < mix.full + mix.partial
              ? 'partial_pass'
              : u < mix.full + mix.partial + mix.timeout
                ? 'timeout'
                : 'agent_failure';
        const minute = Math.floor(rng() * 1380);
        out.push({
          // Bead ids that do not sort by time: the order must come from completed_at.
          bead: `${template}-${(day * 7919 + i * 104729) % 100003}-${i}`,
          template,
          outcome,
          iterations: rng() < 0.15 ? 1 : 0,
          completed_at: new Date(ORIGIN + (day - 1) * 86_400_000 + minute * 60_000).toISOString(),
        });
      }
    }
    days.push(out);
  }
  return days;
}

const cache = new Map<string, RunSpec[][]>();
/** The runs completed on `day` (1-based) of the seed's month. */
export function runsOfDay(day: number, seed: string): RunSpec[] {
  let m = cache.get(seed);
  if (!m) {
    m = monthOfRuns(seed);
    cache.set(seed, m);
  }
  return m[day - 1]!;
}

/** The first day (1-based) of issue 25's fade: a template at 0.60 full passes falls to 0.15 for the month's last four days. */
export const FADE_DAY = 27;

/**
 * Issue 25's month: about 10 runs a day (8-12) per template; `fade` at 0.60 full passes (10% partial, 2% timeouts)
 * falls to 0.15 from FADE_DAY; `steady-60` stays at 0.60 throughout. One pseudo-random stream per seed.
 */
export function fadeMonth(seed: string): RunSpec[][] {
  const rng = createRng(`fade-${seed}`);
  for (let i = 0; i < 16; i++) rng();
  const days: RunSpec[][] = [];
  for (let day = 1; day <= DAYS; day++) {
    const out: RunSpec[] = [];
    for (const template of ['fade', 'steady-60']) {
      const full = template === 'fade' && day >= FADE_DAY ? 0.15 : 0.6;
      const n = 8 + Math.floor(rng() * 5);
      for (let i = 0; i < n; i++) {
        const u = rng();
        const outcome: Outcome =
          u < full ? 'full_pass' : u < full + 0.1 ? 'partial_pass' : u < full + 0.12 ? 'timeout' : 'agent_failure';
        out.push({
          bead: `${template}-${day}-${i}`,
          template,
          outcome,
          iterations: rng() < 0.15 ? 1 : 0,
          completed_at: new Date(ORIGIN + (day - 1) * 86_400_000 + Math.floor(rng() * 1380) * 60_000).toISOString(),
        });
      }
    }
    days.push(out);
  }
  return days;
}
