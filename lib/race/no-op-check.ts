// IO: does the change from one tree to another do anything? The collector's no-op check, by the race's classifier.
import { git } from '../git/git.js';
import { parseUnifiedDiff } from '../git/diff-parse.js';
import { blob, formattingOnly } from './gather.js';
import { noOpChange } from './substance.js';

/** What kind of nothing the change is, in words, or null when it changes code. */
export async function changeNoOp(worktree: string, from: string, to: string): Promise<string | null> {
  const patch = parseUnifiedDiff(await git(worktree, ['diff', '-M', '--no-ext-diff', '--no-textconv', from, to]));
  const files = await Promise.all(
    patch
      .filter((p) => !p.binary)
      .map(async (p) => ({
        path: p.path,
        head: p.deleted ? null : await blob(worktree, to, p.path),
        base: p.created ? null : await blob(worktree, from, p.oldPath ?? p.path),
      })),
  );
  const edited = patch.filter((p) => !p.binary && !p.created && !p.deleted).map((p) => p.path);
  const formattingOnlyFiles = edited.length ? await formattingOnly(worktree, from, to, edited) : [];
  return noOpChange({ patch, files, formattingOnlyFiles })?.detail ?? null;
}
