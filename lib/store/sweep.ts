// Leftovers of killed writers, swept at the next start of a writing command: temporary files and locks.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { abandoned, parseOwnerTag } from '../process/owner.js';
import { takeOverIfAbandoned } from './lock.js';

/** A temporary file whose owner cannot be told (another machine) is removed once this old: no write takes an hour. */
const TEMP_MAX_AGE_MS = 3600_000;

/** Removes abandoned `.…tmp` files and folders of state/.tmp and state/.locks, and abandoned locks. */
export function sweepTemps(root: string, now = Date.now()): void {
  for (const dir of [join(root, '.tmp'), join(root, '.locks')]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const path = join(dir, n);
      if (n.startsWith('.') && n.endsWith('.tmp')) {
        if (abandoned(parseOwnerTag(n, 'temp'), path, now, TEMP_MAX_AGE_MS))
          rmSync(path, { recursive: true, force: true });
      } else if (n.endsWith('.lock')) takeOverIfAbandoned(path);
    }
  }
}
