// IO: does the change from one tree to another do anything? The collector's no-op check, by the race's classifier.
import { git } from '../git/git.js';
import { parseUnifiedDiff, type FilePatch } from '../git/diff-parse.js';
import { SOURCE_FILE } from './files.js';
import type { IsTest } from './test-findings.js';

/** A line that is plainly code (not blank, not a comment or docstring line): the change is something. */
const CODE_LINE = /^\s*(?!#|\/\/|\/\*|\*|"""|'''|$)\S/;

/** Cheap answer first: an added line of plain code in a non-test source file means the change does something. */
function plainlyCode(patch: FilePatch[], isTest: IsTest): boolean {
  return patch.some(
    (p) => !p.binary && SOURCE_FILE.test(p.path) && !isTest(p.path) && p.added.some((a) => CODE_LINE.test(a.text)),
  );
}

/** What kind of nothing the change is, in words, or null when it changes code. */
export async function changeNoOp(worktree: string, from: string, to: string, isTest: IsTest): Promise<string | null> {
  const patch = parseUnifiedDiff(await git(worktree, ['diff', '-M', '--no-ext-diff', '--no-textconv', from, to]));
  if (plainlyCode(patch, isTest)) return null;
  // The classifier reads TS/JS through the compiler's scanner: loaded only when the cheap answer was not enough.
  const [{ changedTexts, formattingOnly }, { noOpChange }] = await Promise.all([
    import('./texts.js'),
    import('./substance.js'),
  ]);
  const files = await changedTexts(worktree, from, to, patch);
  const edited = patch.filter((p) => !p.binary && !p.created && !p.deleted).map((p) => p.path);
  const formattingOnlyFiles = edited.length ? await formattingOnly(worktree, from, to, edited) : [];
  return noOpChange({ patch, files, formattingOnlyFiles, isTest })?.detail ?? null;
}
