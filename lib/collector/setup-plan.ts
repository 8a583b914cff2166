// Which parts of an `&&` chain of setup steps would do nothing in this checkout (npm: no install script to run, no
// such script; pip: a requirements file with no requirement): those are not started. Pure but for `setupFiles`.
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
  /** REQUIREMENTS files at the root as checked out (absent: not a key). */
  requirements?: Record<string, string>;
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

/** Requirement files `pip install -r` may name that `setupFiles` reads. */
const REQUIREMENTS = ['requirements.txt', 'requirements-dev.txt'];

/** `<venv python> [-I] -m pip install` with only flags that add no requirement, then `-r <file>`. */
const PIP_R =
  /^[\w./-]*python3?(?: -I)? -m pip install(?: (?:-q|--quiet|--no-index|--no-deps|--disable-pip-version-check|--find-links [\w./-]+))* -r ([\w.-]+)$/;

/** A requirements file with no requirement, option or include: every line blank or a comment. */
const noRequirement = (text: string): boolean => text.split('\n').every((l) => /^\s*(?:#.*)?$/.test(l));

/** Why a pip part installs nothing here, or null. */
function pipIdle(part: string, f: SetupFiles): string | null {
  const m = PIP_R.exec(part);
  const text = m ? f.requirements?.[m[1]!] : undefined;
  return text !== undefined && noRequirement(text) ? `${m![1]} names no requirement` : null;
}

/**
 * `command` split on its ` && ` outside quotes, braces and parentheses; null when anything else joins parts at that
 * level (`;`, `|`, `&`, a redirection, a backquote, a comment, a newline, a backslash) or a quote or bracket is open.
 */
function andChain(command: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') {
      if (depth === 0) return null;
      i++;
    } else if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') {
      if (--depth < 0) return null;
    } else if (depth === 0 && command.startsWith(' && ', i)) {
      parts.push(command.slice(start, i).trim());
      start = i + 4;
      i += 3;
    } else if (depth === 0 && /[;&|<>`#\n]/.test(c)) return null;
  }
  if (quote || depth) return null;
  parts.push(command.slice(start).trim());
  return parts;
}

/** A part after which a skipped part's files or meaning could differ: a directory change or a variable set. */
const CHANGES_SHELL = /(^|[\s;&|{(])(cd|pushd|popd|export|source|set|unset|alias|\.)(\s|$)|=/;

const REBUILD = /^npm rebuild(?: --foreground-scripts)?$/;
const RUN_IF_PRESENT = /^npm run(?: --if-present ([\w:.-]+)| ([\w:.-]+) --if-present)$/;

/**
 * The parts of `command` (split on ` && ` only: any other shell syntax runs as configured) that npm would answer
 * by doing nothing: `npm rebuild [--foreground-scripts]` when no package has an install script (lock v2/v3), `npm
 * run X --if-present` when package.json has neither X nor preX nor postX. Skipping one never adds a thing that runs.
 */
export function planSetup(command: string, f: SetupFiles): SetupPlan {
  const parts = andChain(command);
  if (!parts || parts.some((p) => p === '')) return { run: command, skipped: [] };
  const scripts = scriptsOf(f.packageJson);
  const keep: string[] = [];
  const skipped: SetupPlan['skipped'] = [];
  for (const part of parts) {
    let why: string | null = null;
    // Once a kept part may change the directory or a variable, what follows runs as configured.
    if (keep.some((k) => CHANGES_SHELL.test(k))) why = null;
    else if (REBUILD.test(part)) why = rebuildIdle(f);
    else if (PIP_R.test(part)) why = pipIdle(part, f);
    else {
      const m = RUN_IF_PRESENT.exec(part);
      const name = m ? (m[1] ?? m[2])! : null;
      if (name !== null && scripts !== null && ![name, `pre${name}`, `post${name}`].some((n) => n in scripts))
        why = `package.json has no ${name} script`;
    }
    if (why === null) keep.push(part);
    else skipped.push({ part, why });
  }
  // Nothing dropped: the command exactly as configured.
  if (!skipped.length) return { run: command, skipped };
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
  const requirements: Record<string, string> = {};
  for (const name of REQUIREMENTS) {
    const text = read(name);
    if (text !== null) requirements[name] = text;
  }
  return {
    lock,
    packageJson: read('package.json'),
    bindingGyp: existsSync(join(dir, 'binding.gyp')),
    installed,
    requirements,
  };
}
