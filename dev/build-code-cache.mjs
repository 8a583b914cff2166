// `npm run build`, after the bundles: warms the code caches of `collect`, the `judgeloop` dispatcher and their validators
// (two collects of a `true` run), and the TypeScript compiler's (dist/v8/). A failure keeps the cold caches (or none).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'bundle');
if (!existsSync(join(bundle, 'load.cjs'))) process.exit(0); // no bundles (no esbuild): nothing to warm

const dir = mkdtempSync(join(tmpdir(), 'judgeloop-code-cache-'));
try {
  const git = (cwd, ...a) =>
    execFileSync('git', ['-c', 'user.email=b@e', '-c', 'user.name=b', '-c', 'commit.gpgsign=false', ...a], {
      cwd,
      stdio: 'ignore',
    });
  git(dir, 'init', '-q', '-b', 'main', 'repo');
  const repo = join(dir, 'repo');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent', join(dir, 'wt'));
  writeFileSync(join(dir, 'wt', 'b.txt'), 'b\n');
  const record = join(dir, 'run.json');
  const commands = { build: 'true', test: 'true', lint: 'true', typecheck: 'true' };
  const run = { schema_version: '1.0.0', bead: 'warm-1', task: { id: 't', prompt: 'p' }, agent: { slug: 'a' } };
  // Dated now, as a user's run is (a recent run also sweeps old candidate refs: the same code warmed).
  const now = Date.now();
  const times = { started_at: new Date(now - 60_000).toISOString(), completed_at: new Date(now).toISOString() };
  const rest = { template: 'tpl', worktree: 'wt', base_ref: 'main', exit_code: 0, status: 'completed', commands };
  writeFileSync(record, JSON.stringify({ ...run, ...rest, ...times }));
  const env = { PATH: process.env.PATH, HOME: dir, JUDGELOOP_STATE_DIR: join(dir, 'state') };
  const hook = ['--require', join(root, 'dev', 'code-cache-hook.cjs')];
  const opts = { cwd: dir, env, stdio: 'ignore' };
  // The first computes the baseline (through the dispatcher); the second is a collect with it cached.
  execFileSync(process.execPath, [...hook, join(bundle, 'judgeloop.mjs'), 'collect', '--quiet', record], opts);
  execFileSync(process.execPath, [...hook, join(bundle, 'collect.mjs'), '--quiet', record], opts);
  // The compiler as a race reads a change with it: its metrics, API, tokens and comments of a small module.
  const v8 = join(root, 'dist', 'v8');
  rmSync(v8, { recursive: true, force: true });
  mkdirSync(v8);
  const lib = (f) => JSON.stringify(join(root, 'dist', 'lib', 'change', f));
  const sample = JSON.stringify(
    'export interface P { x: number }\nexport class C { m(a: P): number { return a.x > 1 ? a.x : -a.x; } }\n' +
      '// a comment\nexport const f = (v: number[]) => v.map((x) => (x && x > 0) || x < -1 ? x : 0);\n' +
      'export function g(s: string): string { for (const c of s) { if (c === "a") return c; } return s.trim(); }\n',
  );
  const warm = [
    `import { functionMetrics, compareApi } from ${lib('ts-metrics.js')};`,
    `import { tokenize } from ${lib('clones.js')};`,
    `import { commentRanges } from ${lib('comments.js')};`,
    `const s = ${sample};`,
    "for (const p of ['a.ts', 'a.js']) { functionMetrics(p, s); compareApi(p, s, s.replace('x: number', 'y: string')); tokenize(p, s); commentRanges(p, s); }",
  ].join('\n');
  execFileSync(process.execPath, [...hook, '--input-type=module', '-e', warm], opts);
  console.log(
    'build-code-cache: dist/bundle/{judgeloop,collect}.cache and the validators they ran warmed by two collects; dist/v8/ the compiler',
  );
} catch (e) {
  console.error(`build-code-cache: warm-up failed, cold cache kept (${e instanceof Error ? e.message : String(e)})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
