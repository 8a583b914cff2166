// vitest globalSetup (vitest.config.ts), once per run, in the main process:
// 1. dist/ must be built and fresh: tests spawn bin/<cmd> (dist/bundle, dist/scripts, dist/validators). `npm test`
//    builds before vitest; nothing rebuilds during the run (a rebuild under the other files' running processes).
// 2. TMPDIR for the whole run is a new folder, handed to every worker and child process; test/setup.ts gives each
//    test file a folder of its own inside it. At the end the folder must be empty: what is left (a background
//    process still writing after its file ended) is listed and the run fails; the folder is removed either way.
// 3. TEST_RUN_CACHE: a folder for caches the files share (test/helpers/shared-cache.ts), removed at the end.
// 4. PATH: python3's own folder first, version managers' shims out (pythonFirstPath); the original is TEST_ORIGINAL_PATH.
// 5. No NODE_EXTRA_CA_CERTS: node parses the bundle it names at every start (~65 ms of CPU here, ~1,400 starts a run);
//    no test reaches a TLS server (the Messages API server is plain HTTP on 127.0.0.1).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Throws unless every output of `npm run build` is there and was built from the inputs as they are now. */
export function assertFreshBuild(root = ROOT): void {
  // Every scripts/<command>.ts (the dispatcher, judgeloop, among them) is compiled and bundled.
  const commands = readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  const outputs = [join(root, 'dist', 'validators', 'hash.json')];
  for (const c of commands)
    outputs.push(join(root, 'dist', 'scripts', `${c}.js`), join(root, 'dist', 'bundle', `${c}.mjs`));
  const missing = outputs.filter((f) => !existsSync(f));
  if (missing.length)
    throw new Error(
      `dist/ is not built (no ${missing
        .slice(0, 3)
        .map((f) => relative(root, f))
        .join(', ')}${missing.length > 3 ? ', …' : ''}): run \`npm run build\` first (npm test does)`,
    );
  // Current when built from these very inputs (dev/build.mjs's content stamp over lib/, scripts/, schemas/, config/,
  // the build scripts and the lock file), whatever the files' times say.
  if (spawnSync(process.execPath, [join(root, 'dev', 'build.mjs'), '--check'], { cwd: root }).status !== 0)
    throw new Error(
      'dist/ is stale: it was not built from these sources (`node dev/build.mjs --check`): run `npm run build` first (npm test does)',
    );
}

/** Paths under `dir`, two levels deep at most (enough to name a leftover and what holds it). */
export function listLeftovers(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) for (const inner of readdirSync(p).slice(0, 5)) out.push(`  ${join(p, inner)}`);
  }
  return out;
}

/**
 * PATH with python3's own folder first and no version manager's shims: a pyenv shim is a bash script that starts
 * ~40 processes (~0.5 s of CPU) for each python3 and the suite starts hundreds. Same interpreter, same packages.
 */
export function pythonFirstPath(path: string): string {
  const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  return [dirname(exe), ...path.split(':').filter((d) => d && !d.includes('/shims'))].join(':');
}

export default function setup(): () => Promise<void> {
  assertFreshBuild();
  process.env.TEST_ORIGINAL_PATH = process.env.PATH ?? '';
  process.env.PATH = pythonFirstPath(process.env.PATH ?? '');
  delete process.env.NODE_EXTRA_CA_CERTS;
  const run = mkdtempSync(join(tmpdir(), 'judgeloop-suite-'));
  process.env.TMPDIR = run;
  process.env.TEST_RUN_TMPDIR = run;
  // A command run with no judgeloop.json and no JUDGELOOP_STATE_DIR writes to $XDG_STATE_HOME/judgeloop: never the user's.
  const xdg = mkdtempSync(join(tmpdir(), 'judgeloop-suite-xdg-'));
  process.env.XDG_STATE_HOME = xdg;
  const cache = mkdtempSync(join(tmpdir(), 'judgeloop-suite-cache-'));
  process.env.TEST_RUN_CACHE = cache;
  return async () => {
    rmSync(xdg, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true, maxRetries: 3 });
    let left: string[] = [];
    try {
      // A detached child still removing its own folder gets a moment; what is there after it is left behind.
      for (let waited = 0; (left = listLeftovers(run)).length && waited < 3000; waited += 250)
        await new Promise((r) => setTimeout(r, 250));
    } finally {
      rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    }
    if (left.length) {
      // vitest prints an error thrown here but exits 0: the exit code is set as well.
      process.exitCode = 1;
      throw new Error(
        `the test run left ${left.length} path(s) in its TMPDIR ${run} (removed now):\n${left.join('\n')}`,
      );
    }
  };
}
