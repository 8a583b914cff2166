import { UserError } from '../base/errors.js';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True when `id` is safe as a file name: no separators, no leading dot (so never `..`). */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}

export function assertSafeId(id: string, what = 'bead'): string {
  if (!isSafeId(id)) {
    throw new UserError(
      `${what} ${JSON.stringify(id)} is not safe as a file name (letters, digits, '.', '_', '-'; no leading dot)`,
    );
  }
  return id;
}
