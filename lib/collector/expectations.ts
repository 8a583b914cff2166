// Changed expectations: a base test the agent edited that fails graded and passes in the agent's version.
import { blob, lsTree } from '../git/seal.js';
import type { Check, Feedback } from '../schema/types.generated.js';
import type { Sealed } from './candidate.js';

const failed = (s: string | undefined) => s === 'failed' || s === 'error';
const passed = (s: string | undefined) => s === 'passed' || s === 'xpass';
const testFile = (id: string): string => id.split('::')[0]!;

/** Tests failing in the graded run and passing in the agent's, in a test file the agent edited (pure). */
export function changedExpectations(graded: Check | null, own: Check | null, replaced: string[]): string[] {
  const mine = new Map((own?.tests?.cases ?? []).map((c) => [c.id, c.status]));
  const edited = new Set(replaced);
  return (graded?.tests?.cases ?? [])
    .filter((c) => failed(c.status) && passed(mine.get(c.id)) && edited.has(testFile(c.id)))
    .map((c) => c.id)
    .sort();
}

/** Where a test is defined and its first assertion, in one version of its file (pure). */
function locateTest(text: string, id: string): { line: number; assertion: string } | null {
  const name = (id.split('::').pop() ?? id).replace(/\[.*$/, '').split(' > ').pop()!.trim();
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(name) && /\b(def|func|fn|test|it)\b|\(/.test(l));
  if (at < 0) return null;
  const a = lines.slice(at + 1, at + 40).find((l) => /\bassert|expect\(|\.equal|should|t\.(Error|Fatal)/.test(l));
  return { line: at + 1, assertion: (a ?? lines[at]!).trim().slice(0, 160) };
}

/** Both versions' assertions, with lines, for each changed expectation. */
export async function describeChanged(
  repo: string,
  sealed: Sealed,
  ids: string[],
): Promise<NonNullable<Feedback['changed_expectations']>> {
  const [mine, theirs] = await Promise.all([
    lsTree(repo, sealed.candidate.tree),
    lsTree(repo, sealed.candidate.tests_from.commit),
  ]);
  const out: NonNullable<Feedback['changed_expectations']> = [];
  for (const id of ids) {
    const file = testFile(id);
    const a = theirs.get(file);
    const b = mine.get(file);
    const before = a ? locateTest(await blob(repo, a.oid), id) : null;
    const after = b ? locateTest(await blob(repo, b.oid), id) : null;
    out.push({
      test: id,
      file,
      ...(after ? { line: after.line } : {}),
      ...(before ? { base_line: before.line } : {}),
      detail: `fails as the trusted revision tests it (${before?.assertion ?? '?'}) and passes as the agent rewrote it (${after?.assertion ?? '?'})`,
    });
  }
  return out;
}
