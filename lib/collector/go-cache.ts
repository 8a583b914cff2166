// The Go build cache kept per toolchain in <state>/cache/go-build/<key>/: written only by the base's checks (the
// trusted revision); every other checkout's checks get a private copy as GOCACHE, never the kept folder itself.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { onAbort } from '../base/cleanup.js';
import { baselineTempPrefix } from './checkout-sweep.js';
import { copyTree, toolchainOf } from './dep-cache.js';

/** Where the kept caches live, and whether this run may write its copy back (the base's checks only). */
export interface GoCacheSpec {
  root: string;
  keep: boolean;
}

/** One checks run's private cache: GOCACHE for its commands, a folder they may write, removed by dispose. */
export interface GoCacheRun {
  key: string;
  dir: string;
  /** Whether the copy came from a kept cache (false: started empty). */
  warm: boolean;
  dispose: () => void;
}

/** A kept cache larger than this is not written back (the next base run starts it again from empty). */
export const GO_CACHE_MAX_BYTES = 2 * 1024 ** 3;

/** The key of a kept cache: the go program found on PATH (path, size, mtime), GOROOT and the platform. Pure. */
export function goCacheKey(program: string, goroot: string | undefined, platform: string): string {
  const text = JSON.stringify({ program, goroot: goroot ?? null, platform });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export interface GoCacheInputs {
  /** A regular go.mod at the checkout's root. */
  goMod: boolean;
  /** The check commands that will run. */
  commands: string[];
  /** The checks' environment (the allow-listed one). */
  env: NodeJS.ProcessEnv;
  /** The go program on the checks' PATH (undefined: none). */
  program: string | undefined;
}

/** A `go` command word in a shell command line (`go test ./...`, `cd x && go vet ./...`). */
const RUNS_GO = /(^|[\s;&|(])go\s/;

/**
 * Whether the checks get a private Go build cache: go is on PATH, the project is Go (a go.mod at the root, or a
 * command that runs `go`), and the user chose no cache of their own (GOCACHE in the environment or a command). Pure.
 */
export function wantsGoCache(i: GoCacheInputs): boolean {
  if (!i.program || i.env.GOCACHE !== undefined) return false;
  if (i.commands.some((c) => c.includes('GOCACHE'))) return false;
  return i.goMod || i.commands.some((c) => RUNS_GO.test(c));
}

/** Total bytes of the regular files under `dir` (no symlink followed). */
function treeBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += treeBytes(p);
    else if (e.isFile()) n += lstatSync(p).size;
  }
  return n;
}

/**
 * The private cache for one checks run in `cwd`, or null when not wanted: a fresh folder beside the checkouts (the
 * sweep removes a dead run's), holding a `cp -a` copy of the kept cache when there is one, else empty.
 */
export async function openGoCache(
  spec: GoCacheSpec,
  cwd: string,
  commands: string[],
  env: NodeJS.ProcessEnv,
): Promise<GoCacheRun | null> {
  const goMod = lstatSync(join(cwd, 'go.mod'), { throwIfNoEntry: false })?.isFile() ?? false;
  // Not a Go project: nothing more is looked at (no PATH walk, no folder made).
  if (!wantsGoCache({ goMod, commands, env, program: 'go' })) return null;
  const program = toolchainOf(env, ['go']).go;
  if (!program) return null;
  const key = goCacheKey(program, env.GOROOT, `${process.platform}-${process.arch}`);
  const parent = mkdtempSync(`${baselineTempPrefix()}gocache-`);
  const off = onAbort(() => rmSync(parent, { recursive: true, force: true }));
  const dir = join(parent, 'go-build');
  let warm = false;
  const kept = join(spec.root, key);
  if (existsSync(kept))
    try {
      await copyTree(kept, dir);
      warm = true;
    } catch {
      // Replaced while copied (a base run wrote it back): start empty, go fills it.
      rmSync(dir, { recursive: true, force: true });
    }
  if (!warm) mkdirSync(dir);
  return {
    key,
    dir,
    warm,
    dispose: () => {
      off();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/**
 * Writes a base run's cache back as the kept one: copied beside it, then renamed into place (a reader copies a whole
 * cache or finds none); one over GO_CACHE_MAX_BYTES replaces nothing and drops the old (go trims unused entries
 * after 5 days itself, this caps what it keeps meanwhile). Leftovers of a killed writer are removed.
 */
export async function keepGoCache(root: string, run: GoCacheRun): Promise<void> {
  mkdirSync(root, { recursive: true });
  const dest = join(root, run.key);
  const id = randomBytes(4).toString('hex');
  const tmp = join(root, `.${run.key}-${id}`);
  const old = join(root, `.${run.key}-old-${id}`);
  for (const n of readdirSync(root))
    if (n.startsWith('.') && Date.now() - lstatSync(join(root, n)).mtimeMs > 3600_000)
      rmSync(join(root, n), { recursive: true, force: true });
  try {
    const big = treeBytes(run.dir) > GO_CACHE_MAX_BYTES;
    if (!big) await copyTree(run.dir, tmp);
    if (existsSync(dest)) renameSync(dest, old);
    if (!big) renameSync(tmp, dest);
  } catch {
    // Another base run placed its cache first: it stays.
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}
