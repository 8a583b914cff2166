// ESLint: stylish (`✖ 7 problems (4 errors, 3 warnings)`, else one line per message) and the JSON formatter.
import { lastIndex } from './_counts.js';
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const SUMMARY = /^✖ \d+ problems? \((\d+) errors?, (\d+) warnings?\)/;
const MESSAGE = /^\s+\d+:\d+\s+(error|warning)\s+/;

export const eslint: LintParser = {
  name: 'eslint',
  detect: (lines) => lastIndex(lines, SUMMARY) >= 0 || lines.some((l) => l.startsWith('[{"filePath":')),
  parse(lines, forced) {
    const json = lines.find((l) => l.startsWith('[{"filePath":') || l === '[]');
    if (json) {
      try {
        const files = JSON.parse(json) as Array<{
          errorCount?: number;
          fatalErrorCount?: number;
          warningCount?: number;
        }>;
        let errors = 0,
          warnings = 0;
        for (const f of files) {
          errors += f.errorCount ?? 0;
          warnings += f.warningCount ?? 0;
        }
        return lintCounts('eslint', errors, warnings);
      } catch {
        /* not JSON after all: read it as text */
      }
    }
    const i = lastIndex(lines, SUMMARY);
    if (i >= 0) {
      const m = SUMMARY.exec(lines[i] as string);
      return lintCounts('eslint', Number(m?.[1]), Number(m?.[2]));
    }
    let errors = 0,
      warnings = 0;
    for (const line of lines) {
      const m = MESSAGE.exec(line);
      if (m) {
        if (m[1] === 'error') errors++;
        else warnings++;
      }
    }
    return errors + warnings > 0 ? lintCounts('eslint', errors, warnings) : cleanIfForced('eslint', forced);
  },
};
