// The dependency cache: what collector.fetch_command created in a checkout, kept once per lockfile, fetch command,
// toolchain and platform in <state>/cache/deps/<key>/ and copied into each later checkout instead of fetching again.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { spawnGroup } from '../process/process.js';
import { readTreeFile } from '../git/tree-read.js';

/** Files at a checkout's root that decide what a fetch downloads: lockfiles, manifests, package-manager config. */
const LOCK_FILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'package.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  'uv.lock',
  'poetry.lock',
  'pdm.lock',
  'Pipfile.lock',
  'requirements.txt',
  'requirements-dev.txt',
  'pyproject.toml',
  'pip.conf',
  'uv.toml',
  'go.mod',
  'go.sum',
  'Cargo.lock',
  'Cargo.toml',
  '.cargo/config.toml',
] as const;

/** package.json's fields that change what `npm ci` installs (its scripts do not: they never run in the fetch). */
const NPM_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'resolutions',
  'workspaces',
  'packageManager',
  'engines',
];

/** Programs whose version changes what a fetch produces. */
const TOOLS = ['node', 'npm', 'yarn', 'pnpm', 'python3', 'pip', 'uv', 'go', 'cargo'];

export interface KeyMaterial {
  /** Lock file name → its text (absent files left out); package.json reduced to NPM_FIELDS. */
  files: Record<string, string>;
  fetch: string;
  /** Tool name → what identifies the program found on PATH (real path, size, mtime). */
  toolchain: Record<string, string>;
  platform: string;
}

/** package.json as far as it changes an install: its dependency fields only (unparsable: the whole text). Pure. */
export function npmManifestPart(text: string): string {
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(NPM_FIELDS.map((f) => [f, pkg[f] ?? null]));
  } catch {
    return text;
  }
}

/** The cache key of one fetch: sha-256 over the material, sorted. Pure. */
export function depCacheKey(m: KeyMaterial): string {
  const sorted = (r: Record<string, string>) =>
    Object.keys(r)
      .sort()
      .map((k) => [k, r[k]]);
  const text = JSON.stringify({ files: sorted(m.files), fetch: m.fetch, tools: sorted(m.toolchain), os: m.platform });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The programs of `tools` found on the check environment's PATH, each as `path size mtime` (no process started). */
export function toolchainOf(env: NodeJS.ProcessEnv, tools: readonly string[] = TOOLS): Record<string, string> {
  const out: Record<string, string> = {};
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d));
  for (const tool of tools)
    for (const d of dirs) {
      const st = statSync(join(d, tool), { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      out[tool] = `${join(d, tool)} ${st.size} ${Math.round(st.mtimeMs)}`;
      break;
    }
  return out;
}

/** The key material of a fresh checkout (its lock files read as files of the tree: never through a symlink out). */
export function keyMaterial(dir: string, fetch: string, env: NodeJS.ProcessEnv): KeyMaterial | null {
  const files: Record<string, string> = {};
  for (const name of LOCK_FILES) {
    const r = readTreeFile(dir, name, 256 * 1024 * 1024);
    if (r.ok) files[name] = name === 'package.json' ? npmManifestPart(r.text) : r.text;
  }
  // No lockfile: a fetch resolves versions anew each time (`npm install`), nothing to key it on.
  if (!Object.keys(files).some((f) => !['package.json', '.npmrc', 'pyproject.toml', 'Cargo.toml'].includes(f)))
    return null;
  return { files, fetch, toolchain: toolchainOf(env), platform: `${process.platform}-${process.arch}` };
}

/** A Python virtual environment records its own path (scripts' #! lines, pyvenv.cfg): it cannot move. */
const movable = (dir: string): boolean => !existsSync(join(dir, 'pyvenv.cfg'));

/** The top-level entries of a checkout (before the fetch: what git checked out). */
export const topLevel = (dir: string): Set<string> => new Set(readdirSync(dir));

/** Folders the fetch created at the checkout's top level that can be kept (real folders, not virtual environments). */
export function fetchedDirs(dir: string, before: ReadonlySet<string>): string[] {
  return [...topLevel(dir)]
    .filter((n) => !before.has(n) && n !== '.git')
    .filter((n) => lstatSync(join(dir, n)).isDirectory() && movable(join(dir, n)))
    .sort();
}

/** `cp -a` (copy-on-write where the filesystem has it): a private copy, so nothing written to it reaches the source. */
export async function copyTree(from: string, to: string): Promise<void> {
  let err = '';
  const r = await spawnGroup('cp', ['-a', '--reflink=auto', '--', from, to], {
    cwd: '/',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C' },
    timeoutMs: 600_000,
    onStdout: () => {},
    onStderr: (c) => {
      err += c.toString();
    },
  });
  if (r.exitCode !== 0) throw new Error(`cp ${from} ${to}: ${r.spawnError ?? err.trim().split('\n')[0]}`);
}

/** The entry of `key` under `root`, with the folders it holds; null when not built (or half-built by a dead writer). */
export function entryDirs(root: string, key: string): string[] | null {
  const entry = join(root, key);
  if (!existsSync(join(entry, 'complete'))) return null;
  return readdirSync(join(entry, 'tree')).sort();
}

/** Copies the entry's folders into a checkout (each a private copy: setup and checks write only to theirs). */
export async function restoreEntry(root: string, key: string, dir: string, dirs: string[]): Promise<void> {
  for (const d of dirs) await copyTree(join(root, key, 'tree', d), join(dir, d));
}

/**
 * Keeps what the fetch created in a checkout as the entry of `key`: copied to a temporary folder beside it, then
 * renamed into place (a reader sees a whole entry or none), marked `complete` last.
 */
export async function storeEntry(root: string, key: string, dir: string, dirs: string[]): Promise<void> {
  if (!dirs.length || existsSync(join(root, key, 'complete'))) return;
  const tmp = join(root, `.${key}-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(tmp, 'tree'), { recursive: true });
  try {
    for (const d of dirs) await copyTree(join(dir, d), join(tmp, 'tree', d));
    writeFileSync(join(tmp, 'complete'), `${new Date().toISOString()}\n`);
    rmSync(join(root, key), { recursive: true, force: true });
    renameSync(tmp, join(root, key));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
