// Bundles every command (each scripts/<command>.ts, the dispatcher scripts/judgeloop.ts among them) into one file from its compiled
// entry dist/scripts/<command>.js: a start reads one file instead of resolving and reading ~60 modules. Run by
// `npm run build`, after tsc and gen-validators. Optional: without esbuild (e.g. `npm ci --omit=dev`) the build
// removes dist/bundle and the bin/ shims run dist/scripts/<command>.js.
//
// Each command is a CommonJS body dist/bundle/<command>.cjs (import.meta.url passed in, import() as require), its V8
// code cache <command>.cache (sha256-sealed; warmed by dev/build-code-cache.mjs), and dist/bundle/<command>.mjs, an ES
// module that runs the body through dist/bundle/load.cjs (dev/bundle-loader.cjs) and re-exports its exports.
//
// What stays outside the bundle, found at run time from the checkout (lib/base/paths.ts walks up from the
// bundle's own import.meta.url to the folder holding schemas/ and package.json): config/, schemas/, the
// precompiled validators dist/validators/*.cjs, ajv (required only when those are stale), typescript (a
// 9 MB compiler already in one file, imported only by the race's code metrics), and bottleneck + ioredis
// (CommonJS that requires node built-ins, imported only for JUDGE_THROTTLE_REDIS).
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

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
const options = {
  entryPoints: Object.fromEntries(commands.map((c) => [c, join(root, 'dist', 'scripts', `${c}.js`)])),
  outdir: out,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['typescript', 'bottleneck', 'ioredis'],
  logLevel: 'error',
};
// The ES module build only names each command's exports (not written); the code is written as a CommonJS body.
const names = await esbuild
  .build({ ...options, format: 'esm', outExtension: { '.js': '.mjs' }, write: false, metafile: true })
  .catch((e) => skip(`esbuild failed: ${e instanceof Error ? e.message : String(e)}`));
await esbuild
  .build({
    ...options,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    define: { 'import.meta.url': '__jl_url' },
    supported: { 'dynamic-import': false }, // import('x') → require('x'): a vm.Script has no import() of its own
  })
  .catch((e) => skip(`esbuild failed: ${e instanceof Error ? e.message : String(e)}`));
copyFileSync(join(root, 'dev', 'bundle-loader.cjs'), join(out, 'load.cjs'));
const { wrap, sealCache } = createRequire(import.meta.url)('./bundle-loader.cjs');
for (const c of commands) {
  const output = Object.values(names.metafile.outputs).find((o) => o.entryPoint?.endsWith(`scripts/${c}.js`));
  const exported = output?.exports ?? [];
  writeFileSync(
    join(out, `${c}.mjs`),
    [
      `// ${c}: its code is ${c}.cjs, run by load.cjs with V8's code cache ${c}.cache (dev/build-bundles.mjs).`,
      "import { createRequire } from 'node:module';",
      `const m = createRequire(import.meta.url)('./load.cjs').load(${JSON.stringify(c)}, import.meta.url);`,
      exported.length ? `export const { ${exported.join(', ')} } = m;` : '',
      '',
    ].join('\n'),
  );
  // The cache of the compiled script alone (no function run yet); dev/build-code-cache.mjs warms the hot commands'.
  const source = readFileSync(join(out, `${c}.cjs`));
  const data = new Script(wrap(source), { filename: join(out, `${c}.cjs`) }).createCachedData();
  writeFileSync(join(out, `${c}.cache`), sealCache(source, data));
}

console.log(`build-bundles: dist/bundle/{${commands.join(',')}}.{mjs,cjs,cache}`);
