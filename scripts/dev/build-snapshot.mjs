// Builds V8 start-up snapshots of the commands whose start-up time matters (bin/collect runs from every
// agent's end-of-run hook): dist/snapshot/<command>.blob holds the heap after the command's modules — its
// lazily imported ones and the validators it uses included — were loaded, so a start deserialises them
// instead of reading, compiling and evaluating ~60 modules. Run by `npm run build`, after tsc and
// gen-validators. Optional: without esbuild (e.g. `npm ci --omit=dev`), or when node cannot build the
// snapshot, the blobs are removed and the bin/ shims run dist/scripts/<command>.js as before.
//
// A blob only loads in the node binary that built it, with the same V8 flags (node exits 14 otherwise), so
// beside it goes node.stamp, a file whose mtime is set to that binary's: the shim uses the blob only while the
// `node` on PATH has exactly that mtime (sh's test -nt / -ot, no extra process) and NODE_OPTIONS is empty.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const out = join(dist, 'snapshot');

/**
 * Per command: its compiled entry (exporting `run`), the modules it imports lazily (evaluated into the snapshot
 * too) and the validators of the files it reads and writes. Every module reachable is bundled, so none is read
 * from disk at run time; proper-lockfile is bundled but not evaluated while building: loading it installs
 * signal handlers (signal-exit), which a snapshot cannot hold.
 */
const COMMANDS = {
  collect: {
    entry: 'scripts/collect.js',
    // Not proper-lockfile's dependencies either: graceful-fs replaces process.cwd with a caching one, which would
    // keep the build's directory if anything asked for it while building.
    modules: ['scripts/lib/collect.js', 'scripts/lib/baseline.js', 'scripts/lib/parsers/index.js', 'scripts/lib/feedback-index.js'],
    validators: ['run-record', 'config', 'baseline', 'feedback', 'feedback-index', 'race-run', 'judgment'],
  },
};

function skip(why) {
  rmSync(out, { recursive: true, force: true });
  console.error(`build-snapshot: skipped (${why}); bin/ shims run the plain modules`);
  process.exit(0);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  skip('esbuild is not installed');
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const { schemasHash } = JSON.parse(readFileSync(join(dist, 'validators', 'hash.json'), 'utf8'));

/**
 * Real files of each kind, to validate while building (see the entry): what the plain bin/collect writes for a
 * run in a throwaway repository, the example run records and a judgment fixture when the checkout has them.
 */
function collectSamples() {
  const tmp = mkdtempSync(join(tmpdir(), 'judgeloop-snapshot-'));
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_CONFIG_NOSYSTEM: '1', JUDGELOOP_STATE_DIR: join(tmp, 'state') };
    const git = (cwd, ...args) => {
      const r = spawnSync('git', ['-c', 'user.email=build@judgeloop', '-c', 'user.name=build', '-c', 'commit.gpgsign=false', ...args], { cwd, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr || r.error?.message}`);
    };
    git(tmp, 'init', '-q', '-b', 'main', 'repo');
    const repo = join(tmp, 'repo');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent', join(tmp, 'wt'));
    writeFileSync(join(tmp, 'wt', 'b.txt'), 'b\n');
    const record = {
      schema_version: '1.0.0', bead: 'warm-up', task: { id: 't', prompt: 'p', complexity: 3 }, agent: { slug: 'a', model: 'm' }, template: 'tpl', race_id: 'warm-up',
      worktree: 'wt', base_ref: 'main', started_at: '2026-01-01T00:00:00Z', completed_at: '2026-01-01T00:01:00Z', exit_code: 0, status: 'completed',
      commands: { build: 'true', test: 'true', lint: 'true', typecheck: 'true' },
    };
    writeFileSync(join(tmp, 'run.json'), JSON.stringify(record));
    const r = spawnSync(process.execPath, [join(dist, 'scripts', 'collect.js'), '--json', '--quiet', 'run.json'], { cwd: tmp, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`collect: ${r.stderr || r.error?.message}`);
    const jsonFiles = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8'))) : []);
    const jsonLines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
    const state = join(tmp, 'state');
    return {
      'run-record': [record, ...jsonFiles(join(root, 'examples', 'runs'))],
      baseline: jsonFiles(join(state, 'baselines')),
      feedback: [JSON.parse(r.stdout)],
      'feedback-index': jsonLines(join(state, 'index', 'feedback.jsonl')),
      'race-run': jsonLines(join(state, 'race-runs', 'warm-up.jsonl')),
      judgment: existsSync(join(root, 'test', 'fixtures', 'judgment.json')) ? [JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'judgment.json'), 'utf8'))] : [],
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

let samplesFile;
try {
  samplesFile = join(out, 'samples.json');
  writeFileSync(samplesFile, JSON.stringify(collectSamples()));
} catch (e) {
  // A snapshot without warm-up is still correct, only its first validations compile at run time.
  console.error(`build-snapshot: no warm-up samples (${e instanceof Error ? e.message : String(e)})`);
  samplesFile = undefined;
}

for (const [name, spec] of Object.entries(COMMANDS)) {
  const rel = (p) => (p.startsWith('scripts/') ? `../${p}` : p);
  const entry = join(out, `${name}.entry.mjs`);
  const lines = [
    `// Generated by scripts/dev/build-snapshot.mjs: the snapshot entry of bin/${name}. Do not edit.`,
    "import { mkdtempSync, readFileSync, rmSync } from 'node:fs';",
    "import { tmpdir } from 'node:os';",
    "import { join } from 'node:path';",
    "import { parseArgs } from 'node:util';",
    "import { startupSnapshot } from 'node:v8';",
    `import { run } from '${rel(spec.entry)}';`,
    "import { snapshotMain } from '../scripts/lib/snapshot.js';",
    "import { registerBundledValidators } from '../scripts/lib/schema.js';",
    ...spec.modules.map((m) => `import '${rel(m)}';`),
    ...spec.validators.map((v, i) => `import validator${i} from '../validators/${v}.cjs';`),
    `const validators = { ${spec.validators.map((v, i) => `${JSON.stringify(v)}: validator${i}`).join(', ')} };`,
    `registerBundledValidators(${JSON.stringify(schemasHash)}, validators);`,
    '// Warm-up: validating real samples compiles each validator now; the snapshot keeps the compiled code.',
    "const samples = process.env.JUDGELOOP_SNAPSHOT_SAMPLES ? JSON.parse(readFileSync(process.env.JUDGELOOP_SNAPSHOT_SAMPLES, 'utf8')) : {};",
    'for (const [kind, list] of Object.entries(samples)) for (const sample of list) validators[kind]?.(sample);',
    "// Node's own lazily loaded internals that every run reaches: util.parseArgs, and fs's recursive removal.",
    'void parseArgs;',
    "rmSync(mkdtempSync(join(tmpdir(), 'judgeloop-snapshot-')), { recursive: true, force: true });",
    'startupSnapshot.setDeserializeMainFunction(() => snapshotMain(run));',
    '',
  ];
  writeFileSync(entry, lines.join('\n'));
  const bundle = join(out, `${name}.cjs`);
  try {
    await esbuild.build({
      entryPoints: [entry],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'error',
      // The code is loaded at build time: import.meta.url must name no real module (so isMain() is false and
      // nothing runs while building); the checkout is set at start from the blob's path (scripts/lib/snapshot.ts).
      define: { 'import.meta.url': JSON.stringify('file:///judgeloop-snapshot/not-a-module.js') },
    });
  } catch (e) {
    skip(`esbuild failed for ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const blob = join(out, `${name}.blob`);
  // Built without NODE_OPTIONS: V8 flags are part of what a blob must match, and the shim uses it only when
  // NODE_OPTIONS is empty.
  const { NODE_OPTIONS: _, ...inherited } = process.env;
  const env = { ...inherited, ...(samplesFile ? { JUDGELOOP_SNAPSHOT_SAMPLES: samplesFile } : {}) };
  const r = spawnSync(process.execPath, ['--no-warnings', '--snapshot-blob', blob, '--build-snapshot', bundle], { cwd: out, env, encoding: 'utf8' });
  if (r.status !== 0) skip(`node --build-snapshot failed for ${name}: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`);
  rmSync(entry);
}

if (samplesFile) rmSync(samplesFile, { force: true });
const stamp = join(out, 'node.stamp');
writeFileSync(stamp, `${process.execPath} ${process.version} ${process.arch}\n`);
// touch -r copies the mtime to the nanosecond (utimes from JavaScript would round it).
const t = spawnSync('touch', ['-r', process.execPath, stamp], { encoding: 'utf8' });
if (t.status !== 0) skip(`touch -r ${process.execPath} failed: ${(t.stderr || t.error?.message || '').trim()}`);
