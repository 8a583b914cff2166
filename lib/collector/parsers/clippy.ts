// cargo clippy: one count per diagnostic header; cargo's "generated N warnings" and "could not compile" summaries are skipped.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

// Human format, or --message-format=short: `src/lib.rs:5:5: warning: …`.
const HEADER = /^(?:\S+:\d+:\d+: )?(warning|error)(?:\[\S+\])?: (.*)$/;
const SUMMARY =
  /^`[^`]+` \(.*\) generated \d+ warnings?|^could not compile |^aborting due to |^build failed|^\d+ warnings? emitted|^unused manifest key|^no such command/;

export const clippy: LintParser = {
  name: 'clippy',
  detect: (lines) => lines.some((l) => /^\s+= (?:note|help): .*clippy/.test(l) || /^\s+Checking \S+ v\d/.test(l)),
  parse(lines, forced) {
    let errors = 0,
      warnings = 0;
    for (const line of lines) {
      const m = HEADER.exec(line);
      if (!m || SUMMARY.test(m[2] as string)) continue;
      if (m[1] === 'error') errors++;
      else warnings++;
    }
    if (errors + warnings > 0) return lintCounts('clippy', errors, warnings);
    return lines.some((l) => /^\s+Finished /.test(l)) ? lintCounts('clippy', 0, 0) : cleanIfForced('clippy', forced);
  },
};
