// The PATH a test gives judgeloop when its checks run python3: the interpreter's own folder first.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * PATH with python3's own folder first and no version manager's shims (pyenv's need their HOME, which a test may
 * replace, and cost ~0.5 s of CPU in bash per start).
 */
export function pythonPath(): string {
  const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  const rest = (process.env.PATH ?? '').split(':').filter((d) => !d.includes('/shims'));
  return [dirname(exe), ...rest].join(':');
}
