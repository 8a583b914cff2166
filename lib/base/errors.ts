// Two kinds of error: a UserError is bad input, usage or configuration (one line, exit 2);
// anything else is a bug or a failure of the work (stack, exit 1).

export class UserError extends Error {
  override readonly name = 'UserError';
  readonly exitCode = 2;
}

/** The work itself failed in a way the user should read about without a stack (exit 1). */
export class WorkError extends Error {
  override readonly name = 'WorkError';
  readonly exitCode = 1;
}

export function isUserError(e: unknown): e is UserError {
  // By name too: a UserError from another bundle (bin/judgeloop imports each command's own) is still one.
  return e instanceof UserError || (e instanceof Error && e.name === 'UserError');
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
