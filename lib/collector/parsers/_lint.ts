// Helpers shared by the linter modules.
import type { LintCounts } from './types.js';

export function lintCounts(linter: string, errors: number, warnings: number, notes: string[] = []): LintCounts {
  const counts: LintCounts = { linter, errors, warnings };
  if (notes.length > 0) counts.notes = notes;
  return counts;
}

/** The tool prints nothing on a clean run: with its name forced, no diagnostics means zero, said in a note. */
export function cleanIfForced(linter: string, forced: boolean): LintCounts | null {
  return forced ? lintCounts(linter, 0, 0, [`no ${linter} diagnostics found in the output`]) : null;
}
