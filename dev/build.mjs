// `npm run build`: compile, validators, assets, bundles — skipped when dist/ was built from these very inputs
// (a content stamp in dist/), so `npm ci` then `npm test` build once. `--force` always builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const STAMP = join(ROOT, 'dist', '.build-stamp');
const STEPS = [
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
  ['dev/gen-validators.mjs'],
  ['dev/build-assets.mjs'],
  ['dev/build-bundles.mjs'],
  ['dev/build-code-cache.mjs'],
];

/** Every file the build reads from this repository (dependencies through the lock file), sorted. */
export function buildInputs(root = ROOT) {
  const under = (dir, keep) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && keep(e.name))
          .map((e) => relative(root, join(e.parentPath, e.name)))
      : [];
  return [
    ...under('lib', (n) => n.endsWith('.ts')),
    ...under('scripts', (n) => n.endsWith('.ts')),
    ...under('schemas', (n) => n.endsWith('.json')),
    ...under('config', (n) => n.endsWith('.json')),
    ...['build.mjs', 'gen-validators.mjs', 'build-assets.mjs', 'build-bundles.mjs', 'build-code-cache.mjs'].map(
      (f) => `dev/${f}`,
    ),
    'dev/bundle-loader.cjs',
    'dev/code-cache-hook.cjs',
    'tsconfig.build.json',
    'package.json',
    'package-lock.json',
  ]
    .filter((f) => existsSync(join(root, f)))
    .sort();
}

/** The inputs' content hash: what dist/ was built from. */
export function inputsHash(root = ROOT) {
  const h = createHash('sha256');
  for (const f of buildInputs(root))
    h.update(`${f}\0`)
      .update(readFileSync(join(root, f)))
      .update('\0');
  return h.digest('hex');
}

/** Whether dist/ holds a build of exactly these inputs (its stamp matches and every command's bundle is there). */
export function buildIsCurrent(root = ROOT) {
  const stamp = join(root, 'dist', '.build-stamp');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== inputsHash(root)) return false;
  const commands = readdirSync(join(root, 'scripts')).filter((f) => f.endsWith('.ts'));
  return commands.every(
    (c) =>
      existsSync(join(root, 'dist', 'bundle', c.replace(/\.ts$/, '.mjs'))) &&
      existsSync(join(root, 'dist', 'scripts', c.replace(/\.ts$/, '.js'))),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.includes('--check')) {
    const current = buildIsCurrent();
    console.log(current ? 'dist/ is current' : 'dist/ needs a build');
    process.exit(current ? 0 : 1);
  }
  if (!args.includes('--force') && buildIsCurrent()) {
    console.error('dist/ is current (built from these inputs): build skipped (`npm run build -- --force` rebuilds)');
    process.exit(0);
  }
  const hash = inputsHash();
  for (const [file, ...rest] of STEPS)
    execFileSync(process.execPath, [join(ROOT, file), ...rest], { cwd: ROOT, stdio: 'inherit' });
  writeFileSync(STAMP, `${hash}\n`);
}
