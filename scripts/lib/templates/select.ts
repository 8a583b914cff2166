// Phase 4 template selection: mostly the best score, a configured share of exploration. Pure (the draw comes in).

export interface Candidate {
  template: string;
  score: number | null;
  scored_runs: number;
}

export interface Selection {
  mode: 'exploit' | 'explore' | 'only_candidate' | 'cold_start';
  chosen: string;
  draw: number | null;
  reason: string;
}

const describe = (c: Candidate): string =>
  c.score === null ? `${c.template} (no scored runs)` : `${c.template} (score ${c.score.toFixed(3)} over ${c.scored_runs} run(s))`;

/** Best score first; equal scores prefer the one with fewer runs (it has more to tell), then the id. */
function better(a: Candidate, b: Candidate): number {
  return (b.score ?? -1) - (a.score ?? -1) || a.scored_runs - b.scored_runs || (a.template < b.template ? -1 : 1);
}

/**
 * With probability `share` explore: a uniform pick among every candidate but the best (unscored ones included,
 * so new templates get runs); otherwise exploit the best. `random` yields uniform draws in [0, 1).
 */
export function selectTemplate(candidates: Candidate[], share: number, random: () => number): Selection {
  if (candidates.length === 0) throw new Error('selectTemplate: no candidates');
  const sorted = [...candidates].sort(better);
  if (sorted.length === 1) return { mode: 'only_candidate', chosen: sorted[0]!.template, draw: null, reason: `only candidate: ${describe(sorted[0]!)}` };
  if (sorted.every((c) => c.score === null)) {
    const draw = random();
    const pick = sorted[Math.min(sorted.length - 1, Math.floor(draw * sorted.length))]!;
    return { mode: 'cold_start', chosen: pick.template, draw, reason: `no candidate has a score yet: uniform pick among ${sorted.length}` };
  }
  const best = sorted[0]!;
  const draw = random();
  if (draw < share) {
    const others = sorted.slice(1);
    const pick = others[Math.min(others.length - 1, Math.floor(random() * others.length))]!;
    return {
      mode: 'explore',
      chosen: pick.template,
      draw,
      reason: `exploring (draw ${draw.toFixed(4)} < share ${share}): ${describe(pick)} instead of the best, ${describe(best)}`,
    };
  }
  return { mode: 'exploit', chosen: best.template, draw, reason: `best score (draw ${draw.toFixed(4)} >= share ${share}): ${describe(best)}` };
}
