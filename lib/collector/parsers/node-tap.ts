// node-tap (the `tap` package): its closing `# { total: 11, pass: 7, fail: 2, todo: 1, skip: 1 }` line.
import { favour, flag, lastIndex, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import { plural } from '../../base/plural.js';

const SUMMARY = /^# \{ (total: \d+(?:, [a-z]+: \d+)*) \}\s*$/;

/** Top-level file test points that failed without a single test in them: the file crashed before it ran anything. */
function filesThatNeverRan(lines: readonly string[]): number {
  let count = 0;
  let emptyPlan = false;
  for (const line of lines) {
    if (/^\s+1\.\.0 # no tests found/.test(line)) emptyPlan = true;
    else if (/^not ok \d+ - /.test(line)) {
      if (emptyPlan) count++;
      emptyPlan = false;
    } else if (/^ok \d+ - /.test(line)) emptyPlan = false;
  }
  return count;
}

export const nodeTap: TestParser = {
  name: 'node-tap',
  explain: { summary: SUMMARY, marks: /^not ok \d+ / },
  detect: (lines) => lastIndex(lines, SUMMARY) >= 0,
  parse(lines) {
    const candidates: number[] = [];
    let notOk = 0;
    for (let j = 0; j < lines.length; j++) {
      if (SUMMARY.test(lines[j] as string)) candidates.push(j);
      if (/^not ok \d+ /.test(lines[j] as string)) notOk++;
    }
    const failOf = (j: number): number => Number(/fail: (\d+)/.exec(lines[j] as string)?.[1] ?? 0);
    const { chosen, disputed } = pickSummary(
      candidates,
      (j) => failOf(j) >= notOk,
      'tap summary',
      (j) => favour(Number(/pass: (\d+)/.exec(lines[j] as string)?.[1] ?? 0), failOf(j)),
    );
    const i = chosen ?? -1;
    if (i < 0) return null;
    const map = new Map<string, number>();
    for (const m of (SUMMARY.exec(lines[i] as string)?.[1] ?? '').matchAll(/([a-z]+): (\d+)/g))
      map.set(m[1] as string, Number(m[2]));
    const crashed = filesThatNeverRan(lines);
    const notes =
      crashed > 0 ? [`${plural(crashed, 'test file')} failed before running any test: counted as errors`] : [];
    const counts = makeCounts('node-tap', {
      passed: map.get('pass') ?? 0,
      failed: Math.max(0, (map.get('fail') ?? 0) - crashed),
      skipped: (map.get('skip') ?? 0) + (map.get('todo') ?? 0),
      errors: crashed,
      notes,
    });
    const died = crashed > 0 ? `${plural(crashed, 'test file')} died before running a test` : null;
    return flag(counts, {
      disputed,
      crashed: died,
      noTests: (map.get('total') ?? 0) === 0 ? 'tap ran no tests' : null,
    });
  },
};
