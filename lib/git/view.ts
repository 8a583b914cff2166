// judgeloop's own view of an agent's repository (docs/design/threat-model.md): a bare repository of ours that reads
// the agent's objects through alternates, with our config, no hooks, and attributes that undo every attribute.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `$GIT_DIR/info/attributes` wins over any `.gitattributes` the agent committed. Diffs tell text by content alone
 * (`!diff`: no driver, textconv or `-diff` of the agent's; a NUL byte makes a file binary), and a checkout writes
 * each blob's bytes as they are (no eol, encoding, ident or filter conversion): what the checks read is what runs.
 * `!merge`: a merge in a view (bin/accept) is git's own text merge, never a driver the agent's config names.
 */
const VIEW_ATTRIBUTES =
  '* !diff -text -eol -ident -filter -working-tree-encoding !merge -export-ignore -export-subst -crlf\n';

/**
 * Writes a judgeloop-owned bare repository at `dir` whose objects are `objectsDir`'s (read through alternates;
 * objects it writes stay in `dir`), with an unborn HEAD (so no attributes from a HEAD tree), no hooks folder
 * and VIEW_ATTRIBUTES. `objectFormat` is the agent's (`sha1` or `sha256`).
 */
export function writeView(dir: string, objectsDir: string, objectFormat = 'sha1'): string {
  // What git needs to take it for a repository (objects/, refs/, HEAD), and the two files; each folder more costs
  // a creation and a removal per view. No hooks folder: none runs (and git's recipe points core.hooksPath away).
  for (const d of ['objects/info', 'refs', 'info']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/judgeloop-view\n');
  writeFileSync(
    join(dir, 'config'),
    objectFormat === 'sha1'
      ? '[core]\n\trepositoryformatversion = 0\n\tbare = true\n'
      : `[core]\n\trepositoryformatversion = 1\n\tbare = true\n[extensions]\n\tobjectformat = ${objectFormat}\n`,
  );
  writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${objectsDir}\n`);
  writeFileSync(join(dir, 'info', 'attributes'), VIEW_ATTRIBUTES);
  return dir;
}

/** A view in a new temporary folder; `done` removes it. */
export function tempView(objectsDir: string, objectFormat?: string): { dir: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'judgeloop-view-'));
  return {
    dir: writeView(join(root, 'view.git'), objectsDir, objectFormat),
    done: () => rmSync(root, { recursive: true, force: true }),
  };
}
