// Assertions over a whole state directory: every file of every kind validates, and no temporary file is left.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS, type Kind } from '../../lib/store/kinds.js';
import { StateStore } from '../../lib/store/store.js';

/** Problems of every state file of every kind (corrupt files, bad .jsonl lines); [] when all validate. */
export function invalidStateFiles(root: string): string[] {
  const store = new StateStore(root);
  const problems: string[] = [];
  for (const kind of Object.keys(KINDS) as Kind[]) {
    if (KINDS[kind].ext === '.jsonl') {
      for (const id of store.list(kind)) {
        for (const b of store.readLines(kind, id).bad)
          problems.push(`${store.path(kind, id)} line ${b.line}: ${b.problems.join('; ')}`);
      }
    } else {
      for (const r of store.readAll(kind)) if ('error' in r) problems.push(r.error.message);
    }
  }
  return problems;
}

/** Paths under `dir` (recursively) whose name ends in `.tmp`: temporary files or folders left behind. */
export function tempsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.name.endsWith('.tmp') && e.name !== '.tmp') out.push(p);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}
