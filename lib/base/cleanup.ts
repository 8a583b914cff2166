// Work to undo when a command is interrupted (SIGINT/SIGTERM/SIGHUP): kill running checks' process groups,
// remove temporary checkouts. Commands install the handlers; library code only registers tasks.

const tasks = new Set<() => void>();

/** Registers `fn` to run if the process is interrupted; call the returned function once the work is done. */
export function onAbort(fn: () => void): () => void {
  tasks.add(fn);
  return () => {
    tasks.delete(fn);
  };
}

/** Runs the registered tasks (newest first), then lets the signal end the process as it would have. */
export function installAbortHandlers(): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      for (const t of [...tasks].reverse()) {
        try {
          t();
        } catch {
          // Best effort: the next task still runs.
        }
      }
      process.kill(process.pid, sig);
    });
  }
}
