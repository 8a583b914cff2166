// Biome: `Found N errors.` / `Found N warnings.` summaries, the JSON reporter's summary, else the severity of each diagnostic.
import { cleanIfForced, lintCounts } from './_lint.js';
import type { LintParser } from './_parser.js';

const FOUND = /^Found (\d+) (errors?|warnings?|infos?)\.\s*$/;
const HEADER = /^\S+:\d+:\d+ [a-z]+\/\S+/;
// --reporter=github: GitHub Actions workflow commands, one per diagnostic.
const GITHUB = /^::(error|warning|notice) title=lint\//;

export const biome: LintParser = {
  name: 'biome',
  detect: (lines) =>
    lines.some((l) => /^Checked \d+ files? in /.test(l) || l.startsWith('{"summary":{"changed":') || GITHUB.test(l)),
  parse(lines, forced) {
    if (lines.some((l) => GITHUB.test(l))) {
      let e = 0,
        w = 0;
      for (const l of lines) {
        const m = GITHUB.exec(l);
        if (m) {
          if (m[1] === 'error') e++;
          else if (m[1] === 'warning') w++;
        }
      }
      return lintCounts('biome', e, w);
    }
    const json = lines.find((l) => l.startsWith('{"summary":'));
    if (json) {
      try {
        const s = (JSON.parse(json) as { summary: { errors?: number; warnings?: number } }).summary;
        return lintCounts('biome', s.errors ?? 0, s.warnings ?? 0);
      } catch {
        /* fall through to the text reporter */
      }
    }
    let errors = 0,
      warnings = 0,
      found = false;
    for (const line of lines) {
      const m = FOUND.exec(line);
      if (!m) continue;
      found = true;
      if (m[2]?.startsWith('error')) errors = Number(m[1]);
      else if (m[2]?.startsWith('warning')) warnings = Number(m[1]);
    }
    if (found) return lintCounts('biome', errors, warnings);
    // Older output without the summary: the first marker under a diagnostic header is its severity (× error, ! warning).
    for (let i = 0; i < lines.length; i++) {
      if (!HEADER.test(lines[i] as string)) continue;
      for (let j = i + 1; j < lines.length && j < i + 4; j++) {
        const s = /^\s+([×!i]) /.exec(lines[j] as string);
        if (s) {
          if (s[1] === '×') errors++;
          else if (s[1] === '!') warnings++;
          break;
        }
      }
    }
    if (errors + warnings > 0) return lintCounts('biome', errors, warnings);
    return lines.some((l) => /^Checked \d+ files? in /.test(l))
      ? lintCounts('biome', 0, 0)
      : cleanIfForced('biome', forced);
  },
};
