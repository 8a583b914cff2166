// python3 without a version manager's shim in front: a pyenv shim is a bash script that starts ~40 processes
// (~0.5 s of CPU) for each python3, and the suite starts hundreds. Same interpreter, same packages.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/** Puts the folder of the interpreter `python3` runs first on this test file's PATH (its children inherit it). */
export function pythonFirstOnPath(): void {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 is needed: apt-get install python3 (${r.stderr})`);
  process.env.PATH = `${dirname(r.stdout.trim())}:${process.env.PATH}`;
}
