// ruff check: every diagnostic is an error (ruff has no severities); `Found N errors.`, else one line/header per diagnostic.
import { lastIndex } from './_counts.js';
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const FOUND = /^Found (\d+) errors?\b/;
const CONCISE = /^\S.*:\d+:\d+: [A-Z]+\d+ /;
const FULL_HEADER = /^[A-Z]+\d+ (?:\[\*\] )?\S/;

export const ruff: LintParser = {
  name: 'ruff',
  // "Found N errors." alone is also Biome's wording: ruff's needs its diagnostics or its fix hint beside it.
  detect: (lines) =>
    lines.some((l) => l === 'All checks passed!' || /^\[\*\] \d+ fixable with the `--fix` option/.test(l)) ||
    (lastIndex(lines, FOUND) >= 0 && lines.some((l) => CONCISE.test(l) || /^\s*-->\s\S+:\d+:\d+$/.test(l))),
  parse(lines, forced) {
    const i = lastIndex(lines, FOUND);
    if (i >= 0) return lintCounts('ruff', Number(FOUND.exec(lines[i] as string)?.[1]), 0);
    if (lines.some((l) => l === 'All checks passed!')) return lintCounts('ruff', 0, 0);
    let errors = 0;
    for (let j = 0; j < lines.length; j++) {
      const l = lines[j] as string;
      if (CONCISE.test(l) || (FULL_HEADER.test(l) && /^\s*-->/.test(lines[j + 1] ?? ''))) errors++;
    }
    return errors > 0 ? lintCounts('ruff', errors, 0) : cleanIfForced('ruff', forced);
  },
};
