import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The judgeloop checkout this code runs from (works from scripts/ under tsx and from dist/). */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'schemas')) || !existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir)
      throw new Error(
        'cannot find the judgeloop root (schemas/ and package.json) above ' + fileURLToPath(import.meta.url),
      );
    dir = up;
  }
  root = dir;
  return dir;
}

export const schemasDir = (): string => join(projectRoot(), 'schemas');
export const configDir = (): string => join(projectRoot(), 'config');
