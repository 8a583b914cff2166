// `npm run build`, after the bundles: warms the code cache of `collect`, the `judgeloop` dispatcher and the validators
// they use by two collects of a `true` run in a temporary repository. A failure keeps the cold caches (or none).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  console.log(
    'build-code-cache: dist/bundle/{judgeloop,collect}.cache and the validators they ran warmed by two collects',
  );
} catch (e) {
  console.error(`build-code-cache: warm-up failed, cold cache kept (${e instanceof Error ? e.message : String(e)})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
