// Repositories and branches made by one `git fast-import` instead of an add and a commit per tree (fewer processes).
// Every file given is committed as given: no .gitignore applies, as it would to `git add -A`.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn, tempDir } from './repo.js';

export type Tree = Record<string, string>;

export interface ImportCommit {
  /** The branch the commit lands on (refs/heads/<ref>). */
  ref: string;
  message: string;
  /** Files written over the parent's tree. */
  files: Tree;
  /** Paths removed after the files are written. */
  remove?: string[];
  /** Index of the parent in the same call (its tree is the start); none: a root commit. */
  parent?: number;
}

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;

/** Writes `commits` into `repo` in one `git fast-import`, as the repository's own user, now. */
export function fastImport(repo: string, commits: ImportCommit[]): void {
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const stream = commits
    .map((c, i) => {
      const head = `commit refs/heads/${c.ref}\nmark :${i + 1}\ncommitter Test <test@example.com> ${when}\n`;
      const from = c.parent === undefined ? '' : `from :${c.parent + 1}\n`;
      const files = Object.entries(c.files).map(([path, text]) => `M 100644 inline ${path}\n${data(text)}`);
      return head + data(`${c.message}\n`) + from + files.join('') + (c.remove ?? []).map((p) => `D ${p}\n`).join('');
    })
    .join('\n');
  // Kept as a pack, however few the objects: below git's unpackLimit (100) fast-import starts `git unpack-objects`.
  execFileSync('git', ['-c', 'fastimport.unpackLimit=1', 'fast-import', '--quiet'], {
    cwd: repo,
    input: stream,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** An empty repository on branch main with the test identity (as makeRepo's). */
export function emptyRepo(): string {
  const repo = tempDir('judgeloop-repo-');
  gitIn(repo, 'init', '-q', '-b', 'main');
  appendFileSync(
    join(repo, '.git', 'config'),
    '[user]\n\temail = test@example.com\n\tname = Test\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n',
  );
  return repo;
}

/**
 * A repository whose main holds `base`, and per solution a branch agent/<name> with one commit (`agent <name>`) of
 * its files on top (null: an empty commit), checked out in the worktree `<dir>/wt-<name>`. Returns the repository.
 */
export function makeBranches(dir: string, base: Tree, solutions: Record<string, Tree | null>): string {
  const repo = emptyRepo();
  fastImport(repo, [
    { ref: 'main', message: 'base', files: base },
    ...Object.entries(solutions).map(([name, files]) => ({
      ref: `agent/${name}`,
      message: `agent ${name}`,
      files: files ?? {},
      parent: 0,
    })),
  ]);
  gitIn(repo, 'reset', '-q', '--hard');
  for (const name of Object.keys(solutions))
    gitIn(repo, 'worktree', 'add', '-q', join(dir, `wt-${name}`), `agent/${name}`);
  return repo;
}
