// Vitest: a `Test Files` line, then `Tests  2 failed | 7 passed | 1 skipped | 1 todo (11)`; files that fail to load are "Failed Suites".
import { favour, flag, get, lastIndex, makeCounts, pickSummary, wordCounts } from './_counts.js';
import type { TestParser } from './_parser.js';
import { plural } from '../../base/plural.js';

const TESTS = /^\s*Tests\s+((?:\d+ [a-z ]+?(?: \| )?)+)\s*\((\d+)\)\s*$/;
const NO_TESTS = /^\s*Tests\s+no tests\s*$/;

export const vitest: TestParser = {
  name: 'vitest',
  explain: {
    summary: /^\s*Tests\s+\d|^\s*Tests\s+no tests|^No test files found/,
    marks: /⎯ Failed (?:Tests|Suites) \d+ ⎯|^ ❯ \S.*\| \d+ failed|Worker exited unexpectedly|Worker \w+ emitted error/,
  },
  detect: (lines) =>
    lastIndex(lines, /^\s*Test Files\s+(\d|no )|^\s*RUN\s+v\d+\.\d+\.\d+ |^No test files found, exiting with code/) >=
    0,
  parse(lines) {
    // Under "Failed Suites": ` FAIL  file [ file ]` is a file that failed to load (an error), ` FAIL  file > suite`
    // a suite whose hook threw (one failure of the suite; its tests are reported skipped).
    let errors = 0,
      suiteFailures = 0,
      inSuites = false;
    for (const line of lines) {
      if (/⎯ Failed Suites \d+ ⎯/.test(line)) {
        inSuites = true;
        continue;
      }
      if (/⎯ (?:Failed Tests|Unhandled Errors?) /.test(line) || /^\s*Test Files\s/.test(line)) inSuites = false;
      if (!inSuites) continue;
      if (/^ FAIL {2}\S+ > /.test(line)) suiteFailures++;
      else if (/^ FAIL {2}\S+/.test(line)) errors++;
    }
    // Unhandled errors outside any test (e.g. a worker that died) are printed as `Errors  N error(s)` in the summary.
    const unhandled = lastIndex(lines, /^\s*Errors\s+\d+ errors?\b/);
    if (unhandled >= 0) errors += Number(/(\d+)/.exec(lines[unhandled] as string)?.[1] ?? 0);
    const candidates: number[] = [];
    let banner = 0,
      fileFailed = 0;
    for (let j = 0; j < lines.length; j++) {
      const l = lines[j] as string;
      if (TESTS.test(l)) candidates.push(j);
      const b = /⎯ Failed Tests (\d+) ⎯/.exec(l);
      if (b) banner = Math.max(banner, Number(b[1]));
      const f = /^ ❯ \S.* \(\d+ tests? \| (\d+) failed/.exec(l);
      if (f) fileFailed += Number(f[1]);
    }
    if (candidates.length === 0) {
      if (lastIndex(lines, NO_TESTS) >= 0 || lastIndex(lines, /^No test files found, exiting with code/) >= 0) {
        return flag(makeCounts('vitest', { passed: 0, errors, notes: ['vitest ran no tests'] }), {
          noTests: 'vitest found no test files or no tests',
        });
      }
      return null;
    }
    // The real block counts at least the failures its own per-file lines and "Failed Tests" banner show.
    const failuresShown = Math.max(banner, fileFailed);
    const words = (j: number) => wordCounts((TESTS.exec(lines[j] as string)?.[1] ?? '').replace(/ \| /g, ', '));
    const { chosen: i, disputed } = pickSummary(
      candidates,
      (j) => get(words(j), 'failed') >= failuresShown,
      'vitest Tests line',
      (j) => favour(get(words(j), 'passed'), get(words(j), 'failed')),
    );
    const m = TESTS.exec(lines[i as number] as string);
    const w = wordCounts((m?.[1] ?? '').replace(/ \| /g, ', '));
    const notes: string[] = [];
    const failed = get(w, 'failed') + suiteFailures;
    if (suiteFailures > 0)
      notes.push(`${plural(suiteFailures, 'suite')} failed in a hook: one failure each, their tests reported skipped`);
    let crashed: string | null = null;
    // A killed worker takes its file's tests with it: vitest's own total still counts them, its outcomes do not.
    if (
      lines.some((l) => /Worker exited unexpectedly|Worker (?:forks|threads|vmForks|vmThreads) emitted error/.test(l))
    ) {
      // vitest reports the death as an unhandled error (already counted); without that line it is one error more.
      if (unhandled < 0) errors++;
      crashed = 'a test worker died: counted as an error, the tests it was running never reported';
    }
    const reported = get(w, 'passed', 'failed', 'skipped', 'todo');
    const announced = Number(m?.[2] ?? reported);
    if (announced > reported)
      notes.push(
        `vitest counted ${announced} tests but reported outcomes for ${reported}: ${announced - reported} never reported`,
      );
    const counts = makeCounts('vitest', {
      passed: get(w, 'passed'),
      failed,
      skipped: get(w, 'skipped', 'todo'),
      errors,
      notes,
    });
    return flag(counts, {
      disputed,
      crashed,
      noTests: counts.total === 0 && errors === 0 ? 'vitest ran no tests' : null,
    });
  },
};
