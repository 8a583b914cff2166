// What runs when a command starts from a V8 start-up snapshot (dist/snapshot/<command>.blob, built by
// scripts/dev/build-snapshot.mjs, used by the bin/ shim): the code and its modules are already loaded, so
// only the parts that depend on this start are done here.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { installAbortHandlers } from './cleanup.js';
import { execute, type CommandRun } from './cli.js';
import { setProjectRoot } from './paths.js';
import { resetSchemaCache } from './schema.js';

/**
 * The blob this process started from, from node's `--snapshot-blob` option, made absolute but not normalised
 * (`bin/../dist` must go through the file system: bin may be a symlinked directory); null when none.
 */
export function snapshotBlob(execArgv: readonly string[], cwd: string): string | null {
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    const blob = a === '--snapshot-blob' ? execArgv[i + 1] : a.startsWith('--snapshot-blob=') ? a.slice('--snapshot-blob='.length) : undefined;
    if (blob) return isAbsolute(blob) ? blob : `${cwd}/${blob}`;
  }
  return null;
}

/** The blob's real path: `..` resolved by the kernel, after symlinks (realpath(3), not path.resolve). */
export function realBlob(blob: string): string {
  return realpathSync.native(blob);
}

/** The checkout a blob belongs to: `<root>/dist/snapshot/<command>.blob`. */
export function rootOfBlob(blob: string): string {
  return resolve(dirname(blob), '..', '..');
}

/**
 * The deserialize-main function of a command's snapshot. The checkout is found from the blob's path (the code
 * was loaded at build time, where import.meta.url pointed), caches filled while building are dropped, and the
 * arguments are those after node's `--` (a snapshot has no script argument).
 */
export function snapshotMain(run: CommandRun): void {
  const blob = snapshotBlob(process.execArgv, process.cwd());
  if (blob === null) {
    process.stderr.write('judgeloop: started from a snapshot without --snapshot-blob in the node options; use the bin/ shim\n');
    process.exitCode = 2;
    return;
  }
  // Physically: the shim's path may run through a symlinked directory, and `dir/..` is its target's parent.
  setProjectRoot(rootOfBlob(realBlob(blob)));
  resetSchemaCache();
  installAbortHandlers();
  void execute(run, process.argv.slice(1)).then((code) => {
    process.exitCode = code;
  });
}
