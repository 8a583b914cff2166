// PHPUnit: `OK (3 tests, 5 assertions)` or `Tests: 7, Assertions: 4, Errors: 1, Failures: 1, Skipped: 1, Incomplete: 1.`
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';

const OK = /^OK \((\d+) tests?, \d+ assertions?\)\s*$/;
const TESTS = /^Tests: (\d+), Assertions: \d+((?:, [A-Z][a-z]+: \d+)*)\.\s*$/;
const PROGRESS = /^([.FESIRWD]+)\s+\d+ \/ \d+ \(\s*\d+%\)\s*$/;
const NONE = /^No tests executed!\s*$/;

interface Summary {
  tests: number;
  w: Map<string, number>;
}

function summaryOf(line: string): Summary | null {
  const ok = OK.exec(line);
  if (ok) return { tests: Number(ok[1]), w: new Map() };
  const t = TESTS.exec(line);
  if (!t) return null;
  const w = new Map<string, number>();
  for (const m of (t[2] ?? '').matchAll(/([A-Z][a-z]+): (\d+)/g)) w.set(m[1] as string, Number(m[2]));
  return { tests: Number(t[1]), w };
}

export const phpunit: TestParser = {
  name: 'phpunit',
  detect: (lines) => lines.some((l) => /^PHPUnit \d+\.\d+/.test(l)),
  explain: {
    summary: /^OK \(\d+ tests?|^Tests: \d+, Assertions|^No tests executed!/,
    marks: /^[.FESIRWD]*[FE][.FESIRWD]*\s+\d+ \/ \d+|^There (?:was|were) \d+ (?:failure|error)s?:|^\d+\) \S/,
  },
  parse(lines) {
    const candidates: Summary[] = [];
    let shownF = 0,
      shownE = 0,
      none = false;
    for (const l of lines) {
      const s = summaryOf(l);
      if (s) candidates.push(s);
      const p = PROGRESS.exec(l);
      if (p)
        for (const ch of p[1] as string) {
          if (ch === 'F') shownF++;
          else if (ch === 'E') shownE++;
        }
      if (NONE.test(l)) none = true;
    }
    const crash = lines.find((l) => /^(?:PHP )?Fatal error: |^Segmentation fault/.test(l));
    if (candidates.length === 0) {
      if (none) return flag(makeCounts('phpunit', { passed: 0 }), { noTests: 'phpunit executed no test' });
      if (!crash && shownF + shownE === 0) return null;
      // Died mid-run: the progress characters are what is known, the test that was running counts as failed.
      const dots = lines.reduce((n, l) => n + ((PROGRESS.exec(l)?.[1] ?? '').match(/\./g)?.length ?? 0), 0);
      return flag(makeCounts('phpunit', { passed: dots, failed: shownF, errors: shownE + 1 }), {
        crashed: `phpunit died before its summary (${crash?.trim() ?? 'no summary line'}): counted as an error`,
      });
    }
    // The progress line marks each failure (F) and error (E): the real summary counts at least as many.
    const { chosen, disputed } = pickSummary(
      candidates,
      (s) => (s.w.get('Failures') ?? 0) >= shownF && (s.w.get('Errors') ?? 0) >= shownE,
      'phpunit summary',
      (s) => {
        const bad = (s.w.get('Failures') ?? 0) + (s.w.get('Errors') ?? 0);
        return favour(s.tests - bad, bad);
      },
    );
    const { tests, w } = chosen as Summary;
    const n = (k: string): number => w.get(k) ?? 0;
    const skipped = n('Skipped') + n('Incomplete');
    const counts = makeCounts('phpunit', {
      passed: Math.max(0, tests - n('Failures') - n('Errors') - skipped),
      failed: n('Failures'),
      skipped,
      errors: n('Errors'),
    });
    return flag(counts, {
      disputed,
      crashed: crash ? `a fatal error after the summary (${crash.trim()})` : null,
      noTests: tests === 0 ? 'phpunit executed no test' : null,
    });
  },
};
