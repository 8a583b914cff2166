// bin/record handing its record on to bin/collect or bin/judge: judgeloop's own shims, not agent code, so a plain
// spawn (spawnGroup would kill them at this process's exit, which the background hand-off must outlive).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectRoot } from '../base/paths.js';

/** The caller's environment without what a git hook sets (GIT_DIR, GIT_INDEX_FILE, …): judgeloop finds its repositories itself. */
function handOnEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('GIT_')));
}

function shimPath(command: 'collect' | 'judge'): string {
  return join(projectRoot(), 'bin', command);
}

/** Runs the command in the foreground, its output passed through; resolves with its exit code. */
export function handOnForeground(
  command: 'collect' | 'judge',
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(shimPath(command), args, { cwd, env: handOnEnv(env), stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Starts the command detached (its own session, stdin closed, output appended to `log`) and returns its pid at once:
 * a git hook returns without waiting for the collection or the judge.
 */
export function handOnBackground(
  command: 'collect' | 'judge',
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  log: string,
): number {
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, 'a');
  try {
    const child = spawn(shimPath(command), args, {
      cwd,
      env: handOnEnv(env),
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    child.unref();
    return child.pid ?? 0;
  } finally {
    closeSync(fd);
  }
}
