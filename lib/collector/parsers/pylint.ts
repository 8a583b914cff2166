// pylint: E/F messages are errors, W warnings; C (convention) and R (refactor) are style advice: not counted, reported in notes.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

// Default/colorized `path:6:14: C0303: msg (symbol)` and parseable `path:6: [C0303(trailing-whitespace), ] msg`.
const MSG = /^\S.*?:\d+:(?:\d+:)? (?:\[)?([CRWEFI])\d{4}\b/;

export const pylint: LintParser = {
  name: 'pylint',
  detect: (lines) => lines.some((l) => /^\*{13} Module \S+/.test(l) || /^Your code has been rated at /.test(l)),
  parse(lines, forced) {
    const n: Record<string, number> = { C: 0, R: 0, W: 0, E: 0, F: 0, I: 0 };
    let any = false;
    for (const line of lines) {
      const m = MSG.exec(line);
      if (m) {
        n[m[1] as string] = (n[m[1] as string] ?? 0) + 1;
        any = true;
      }
    }
    const notes: string[] = [];
    if ((n.C ?? 0) + (n.R ?? 0) > 0) notes.push(`${n.C} convention (C) and ${n.R} refactor (R) messages not counted`);
    if (!any && !lines.some((l) => /^Your code has been rated at /.test(l))) return cleanIfForced('pylint', forced);
    return lintCounts('pylint', (n.E ?? 0) + (n.F ?? 0), n.W ?? 0, notes);
  },
};
