// Which parts of an `&&` chain of npm setup steps would do nothing in this checkout (no install script to run, no
// such script): those are not started. Pure; `setupFiles` reads what it needs from the checkout.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readTreeFile } from '../git/tree-read.js';

/** What the decision reads from the checkout (lock files as the fetch used them, package.json as checked out). */
export interface SetupFiles {
  /** npm-shrinkwrap.json if present, else package-lock.json; null when neither. */
  lock: string | null;
  packageJson: string | null;
  /** The root has a binding.gyp (npm builds it with node-gyp on rebuild). */
  bindingGyp: boolean;
  /**
   * Each package folder the lock names that is installed, as the fetch left it: whether it has a binding.gyp (npm
   * adds `node-gyp rebuild` at install time, the lock may not say so) and the names of its scripts.
   */
  installed: Record<string, { bindingGyp: boolean; scripts: string[] | null }>;
}

export interface SetupPlan {
  /** What still runs: the parts that may do something, joined by ` && ` as configured; null when none. */
  run: string | null;
  /** The parts not started, each with why it would have done nothing. */
  skipped: { part: string; why: string }[];
}

/** The root's scripts that `npm rebuild` runs (it ran preinstall, install and postinstall in npm 11; prepare kept too). */
const ROOT_BUILD_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'];

function scriptsOf(pkg: string | null): Record<string, unknown> | null {
  if (pkg === null) return null; // npm itself fails without one
  try {
    const s = (JSON.parse(pkg) as { scripts?: unknown }).scripts;
    if (s === undefined) return {};
    return s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Why `npm rebuild` would build nothing here, or null when it might (or the files cannot tell). */
function rebuildIdle(f: SetupFiles): string | null {
  if (f.lock === null || f.bindingGyp) return null;
  const scripts = scriptsOf(f.packageJson);
  if (scripts === null || ROOT_BUILD_SCRIPTS.some((n) => n in scripts)) return null;
  let lock: { lockfileVersion?: unknown; packages?: unknown };
  try {
    lock = JSON.parse(f.lock) as typeof lock;
  } catch {
    return null;
  }
  // v2/v3 record `hasInstallScript` per package (a binding.gyp counts); v1 does not. A linked folder (a workspace)
  // is built from its own package.json, which the lock does not describe.
  if (typeof lock.lockfileVersion !== 'number' || lock.lockfileVersion < 2) return null;
  if (!lock.packages || typeof lock.packages !== 'object' || Array.isArray(lock.packages)) return null;
  for (const [path, entry] of Object.entries(lock.packages as Record<string, unknown>)) {
    if (path === '') continue;
    if (!entry || typeof entry !== 'object') return null;
    const e = entry as { hasInstallScript?: unknown; link?: unknown };
    if (e.hasInstallScript === true || e.link === true) return null;
    const on = f.installed[path];
    if (on && (on.bindingGyp || on.scripts === null || on.scripts.some((n) => DEP_BUILD_SCRIPTS.includes(n))))
      return null;
  }
  return 'no package in the lock file has an install script, nor does package.json';
}

/** A dependency's scripts that `npm rebuild` runs. */
const DEP_BUILD_SCRIPTS = ['preinstall', 'install', 'postinstall'];

const REBUILD = /^npm rebuild(?: --foreground-scripts)?$/;
const RUN_IF_PRESENT = /^npm run(?: --if-present ([\w:.-]+)| ([\w:.-]+) --if-present)$/;

/**
 * The parts of `command` (split on ` && ` only: any other shell syntax runs as configured) that npm would answer
 * by doing nothing: `npm rebuild [--foreground-scripts]` when no package has an install script (lock v2/v3), `npm
 * run X --if-present` when package.json has neither X nor preX nor postX. Skipping one never adds a thing that runs.
 */
export function planSetup(command: string, f: SetupFiles): SetupPlan {
  const parts = command.split(' && ').map((p) => p.trim());
  if (parts.some((p) => p === '' || /[;&|<>`$()\n\\'"]/.test(p))) return { run: command, skipped: [] };
  const scripts = scriptsOf(f.packageJson);
  const keep: string[] = [];
  const skipped: SetupPlan['skipped'] = [];
  for (const part of parts) {
    let why: string | null = null;
    if (REBUILD.test(part)) why = rebuildIdle(f);
    else {
      const m = RUN_IF_PRESENT.exec(part);
      const name = m ? (m[1] ?? m[2])! : null;
      if (name !== null && scripts !== null && ![name, `pre${name}`, `post${name}`].some((n) => n in scripts))
        why = `package.json has no ${name} script`;
    }
    if (why === null) keep.push(part);
    else skipped.push({ part, why });
  }
  return { run: keep.length ? keep.join(' && ') : null, skipped };
}

/** The files `planSetup` reads, from a checkout (as files of the tree: never through a symlink out). */
export function setupFiles(dir: string): SetupFiles {
  const read = (name: string) => {
    const r = readTreeFile(dir, name, 256 * 1024 * 1024);
    return r.ok ? r.text : null;
  };
  const lock = read('npm-shrinkwrap.json') ?? read('package-lock.json');
  const installed: SetupFiles['installed'] = {};
  let packages: unknown = null;
  try {
    packages = lock === null ? null : (JSON.parse(lock) as { packages?: unknown }).packages;
  } catch {}
  if (packages && typeof packages === 'object')
    for (const path of Object.keys(packages)) {
      if (path === '' || !existsSync(join(dir, path))) continue;
      const pkg = read(`${path}/package.json`);
      const scripts = pkg === null ? [] : scriptsOf(pkg);
      installed[path] = {
        bindingGyp: existsSync(join(dir, path, 'binding.gyp')),
        scripts: scripts && Object.keys(scripts),
      };
    }
  return { lock, packageJson: read('package.json'), bindingGyp: existsSync(join(dir, 'binding.gyp')), installed };
}
