// Bundles every command (each scripts/<command>.ts, the dispatcher scripts/judgeloop.ts among them) into one ESM file, dist/bundle/<command>.mjs, from its compiled
// entry dist/scripts/<command>.js: a start reads one file instead of resolving and reading ~60 modules. Run by
// `npm run build`, after tsc and gen-validators. Optional: without esbuild (e.g. `npm ci --omit=dev`) the build
// removes dist/bundle and the bin/ shims run dist/scripts/<command>.js.
//
// What stays outside the bundle, found at run time from the checkout (lib/base/paths.ts walks up from the
// bundle's own import.meta.url to the folder holding schemas/ and package.json): config/, schemas/, the
// precompiled validators dist/validators/*.cjs, ajv (required only when those are stale), typescript (a
// 9 MB compiler already in one file, imported only by the race's code metrics), and bottleneck + ioredis
// (CommonJS that requires node built-ins, imported only for JUDGE_THROTTLE_REDIS).
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');

function skip(why) {
  rmSync(out, { recursive: true, force: true });
  console.error(`build-bundles: skipped (${why}); the bin/ shims run dist/scripts/<command>.js`);
  process.exit(0);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  skip('esbuild is not installed');
}

// Every compiled script is a command; bin/judgeloop imports the others' bundles beside its own at run time.
const commands = readdirSync(join(root, 'dist', 'scripts'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.slice(0, -3));
rmSync(out, { recursive: true, force: true });
await esbuild
  .build({
    entryPoints: Object.fromEntries(commands.map((c) => [c, join(root, 'dist', 'scripts', `${c}.js`)])),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['typescript', 'bottleneck', 'ioredis'],
    logLevel: 'error',
  })
  .catch((e) => skip(`esbuild failed: ${e instanceof Error ? e.message : String(e)}`));

console.log(`build-bundles: dist/bundle/{${commands.join(',')}}.mjs`);
