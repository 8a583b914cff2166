// An npm project installable offline: package-lock.json resolves vitest and its dependencies to tarballs of
// judgeloop's own node_modules vendored in the project (`npm ci` reads them from the checkout).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MODULES = join(import.meta.dirname, '..', '..', 'node_modules');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [k: string]: unknown;
}

/** package.json and package-lock.json of a package whose devDependency is `dep`; the tarballs written to <repo>/vendor. */
export function offlinePackage(
  repo: string,
  dep: string,
  pkg: Record<string, unknown>,
): { 'package.json': string; 'package-lock.json': string } {
  const lock = JSON.parse(readFileSync(join(MODULES, '..', 'package-lock.json'), 'utf8')).packages as Record<
    string,
    LockEntry
  >;
  const find = (name: string, from: string): string | null => {
    for (let dir = from; ; ) {
      const k = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock[k]) return k;
      if (!dir) return null;
      const i = dir.lastIndexOf('/node_modules/');
      dir = i < 0 ? '' : dir.slice(0, i);
    }
  };
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    for (const d of Object.keys({ ...lock[k]!.dependencies, ...lock[k]!.optionalDependencies })) {
      const r = find(d, k);
      if (r) walk(r);
    }
  };
  walk(`node_modules/${dep}`);
  const tarballs = join(repo, 'vendor');
  mkdirSync(tarballs, { recursive: true });
  const packages: Record<string, LockEntry> = {};
  for (const k of [...seen].sort()) {
    const entry: LockEntry = { ...lock[k]!, dev: true };
    // A platform package not installed here stays as locked: npm skips it on this platform without fetching it.
    if (existsSync(join(MODULES, '..', k))) {
      const name = `${k.replace(/\//g, '+')}.tgz`;
      // gzip -1: the default level cost ~2.5 s of CPU for these 40 MB, -1 ~1 s (the file 12% larger).
      execFileSync('tar', [
        '-I',
        'gzip -1',
        '-cf',
        join(tarballs, name),
        '-C',
        join(MODULES, '..', k),
        '--transform',
        's,^\\.,package,',
        '.',
      ]);
      entry.resolved = `file:vendor/${name}`;
      delete entry.integrity;
    }
    packages[k] = entry;
  }
  const version = lock[`node_modules/${dep}`]!.version!;
  const full = { ...pkg, devDependencies: { [dep]: version } };
  const root = { name: pkg.name, version: pkg.version, devDependencies: full.devDependencies };
  return {
    'package.json': `${JSON.stringify(full, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages: { '': root, ...packages } }, null, 2)}\n`,
  };
}
