import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

export { tempDir };

export function sh(cwd: string, cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function gitIn(cwd: string, ...args: string[]): string {
  return sh(cwd, 'git', args).trim();
}

/** Writes an inline file tree under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(root, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A real git repository with one commit of `files` on branch main. */
export function makeRepo(files: Record<string, string>): string {
  return initRepo(tempDir('judgeloop-repo-'), files);
}

/** `git init` in an existing folder, then one commit of `files` on branch main. */
export function initRepo(dir: string, files: Record<string, string>): string {
  gitIn(dir, 'init', '-q', '-b', 'main');
  // What three `git config` calls would write, without their three processes (repos are made by the hundred); no
  // automatic maintenance: a `git maintenance run` process after every commit (17 of a commit's 28 ms of CPU).
  appendFileSync(
    join(dir, '.git', 'config'),
    '[user]\n\temail = test@example.com\n\tname = Test\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n',
  );
  writeTree(dir, files);
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

export function commitAll(dir: string, message: string): string {
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}
