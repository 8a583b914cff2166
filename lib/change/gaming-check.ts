// IO: does a single run's code game the graded tests? The race's special-case and tamper rules over the change from
// the graded base to the graded commit, for the collector (bin/collect, bin/judge), which has no race to gate it.
import { git } from '../git/git.js';
import { parseUnifiedDiff } from '../git/diff-parse.js';
import type { Config } from '../config/config.js';
import { changedTexts, testFileTexts } from './texts.js';
import { specialCaseFindings, testLiterals } from './special-case.js';
import { tamperFindings } from './tamper.js';
import { gradedPaths } from './test-findings.js';

/** One line per finding (`special_case at src/x.py:3: holds "1h", the input of test …`); empty when none. */
export async function gamingFindings(
  worktree: string,
  from: string,
  to: string,
  collector: Config['collector'],
): Promise<string[]> {
  const patch = parseUnifiedDiff(await git(worktree, ['diff', '-M', '--no-ext-diff', '--no-textconv', from, to]));
  if (!patch.some((p) => !p.binary && p.added.length)) return [];
  const files = await changedTexts(worktree, from, to, patch);
  const { isTest, isTrusted } = gradedPaths(collector.test_paths ?? [], collector.test_infra_paths ?? []);
  // The graded commit's tests are the trusted revision's: their literals are what a special case would aim at.
  const literals = testLiterals(await testFileTexts(worktree, to, isTest));
  return [...specialCaseFindings(patch, files, literals, isTest), ...tamperFindings(patch, files, isTrusted)].map(
    (f) => `${f.kind} at ${f.file}:${f.line}: ${f.name}`,
  );
}
