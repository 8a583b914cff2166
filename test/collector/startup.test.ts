// bin/collect's start-up snapshot (dist/snapshot/collect.blob, scripts/dev/build-snapshot.mjs): the shim uses it
// only with the node that built it, the result is the same as from the plain modules, and a copied checkout
// runs from its own files. Needs `npm run build` first, as `npm test` does.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootOfBlob, snapshotBlob } from '../../scripts/lib/snapshot.js';
import { tempDir } from '../helpers/repo.js';
import { agentWorktree, BIN, makeProject, readJson, ROOT, runRecord, writeRecord } from './_project.js';

const BLOB = join(ROOT, 'dist', 'snapshot', 'collect.blob');

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

function run(bin: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? env(), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The parts of a checkout bin/collect needs, copied with their timestamps (cp -a); node_modules linked. A space in the path, as users' checkouts may have. */
function copyCheckout(): string {
  const dir = join(tempDir('judgeloop-copy-'), 'judge loop');
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('cp', ['-a', join(ROOT, 'bin'), join(ROOT, 'dist'), join(ROOT, 'schemas'), join(ROOT, 'config'), join(ROOT, 'package.json'), dir]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Feedback without what differs between two collections of the same run: check durations and the captured output (node --test prints timings); the counts parsed from it stay. */
function stable(fb: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(fb), (k, v: unknown) => (k === 'duration_ms' || k === 'output' ? undefined : v));
}

describe('start-up snapshot', () => {
  it('is built by npm run build and used by the shim; JUDGELOOP_NO_SNAPSHOT=1 runs the plain modules', () => {
    expect(existsSync(BLOB), 'npm run build made no dist/snapshot/collect.blob (see its build-snapshot message)').toBe(true);
    expect(run(BIN, ['--version']).stdout).toBe(`collect ${readJson(join(ROOT, 'package.json')).version} (start-up snapshot ${BLOB})\n`);
    expect(run(BIN, ['--version'], { env: env({ JUDGELOOP_NO_SNAPSHOT: '1' }) }).stdout).toMatch(/\(modules\)\n$/);
  });

  it('writes to a file and reads a redirected stdin as well as through pipes (the build saw only pipes)', () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = spawnSync('sh', ['-c', `"${BIN}" --json --quiet - < run.json > out.json 2> err.txt`], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readFileSync(join(p.dir, 'err.txt'), 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(join(p.dir, 'out.json'), 'utf8')).bead).toBe('bd-1');
  });

  it('found through PATH and through a symlink, the shim still finds its checkout', () => {
    const dir = tempDir('judgeloop-link-');
    symlinkSync(BIN, join(dir, 'collect'));
    expect(run(join(dir, 'collect'), ['--version']).stdout).toContain(`start-up snapshot ${BLOB}`);
    const viaPath = spawnSync('sh', ['-c', 'collect --version'], { cwd: dir, env: { ...env(), PATH: `${dir}:${process.env.PATH}` }, encoding: 'utf8' });
    expect(viaPath.stdout).toContain(`start-up snapshot ${BLOB}`);
  });

  it('the same run collected from the snapshot and from the modules gives the same feedback', () => {
    const p = makeProject();
    agentWorktree(p, 'a', { commit: { 'src/add.mjs': 'export function add(a, b) {\n  console.log(a);\n  return a + b;\n}\n' } });
    const rec = writeRecord(p, 'run', runRecord());
    const modes: Record<string, string>[] = [{}, { JUDGELOOP_NO_SNAPSHOT: '1' }];
    const both = modes.map((extra) => {
      const r = run(BIN, ['--json', '--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state, JUDGELOOP_NOW: '2026-02-01T00:00:00Z', ...extra }) });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    });
    expect((both[0] as { scores: { lint: number } }).scores.lint).toBeLessThan(1); // the run was really measured
    expect(stable(both[0]!)).toEqual(stable(both[1]!));
  });

  it('relative paths resolve against the directory it runs in, not the one the snapshot was built in', () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    writeFileSync(join(p.dir, 'cfg.json'), JSON.stringify({ collector: { time_budget_seconds: 777 } }));
    const r = run(BIN, ['--json', '--quiet', '--config', 'cfg.json', 'run.json'], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: 'state' }) });
    expect(r.stderr).toBe('');
    const fb = JSON.parse(r.stdout);
    expect(fb.run.record_path).toBe(join(p.dir, 'run.json'));
    expect(fb.run.worktree).toBe(join(p.dir, 'wt-a'));
    expect(fb.speed.reference_seconds).toBe(777);
    expect(existsSync(join(p.dir, 'state', 'feedback', 'bd-1.json'))).toBe(true);
  });

  it('a copied checkout runs from its own files (config, schemas), not from where the snapshot was built', () => {
    const copy = copyCheckout();
    const bin = join(copy, 'bin', 'collect');
    expect(run(bin, ['--version']).stdout).toContain(`start-up snapshot ${join(copy, 'dist', 'snapshot', 'collect.blob')}`);
    const defaults = readJson(join(copy, 'config', 'defaults.json'));
    defaults.collector.time_budget_seconds = 1234;
    writeFileSync(join(copy, 'config', 'defaults.json'), JSON.stringify(defaults));
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = run(bin, ['--json', '--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).speed.reference_seconds).toBe(1234);
    // Reached through a symlinked bin directory: `bin/..` is the checkout (the link's target's parent), not the link's.
    const links = tempDir('judgeloop-links-');
    symlinkSync(join(copy, 'bin'), join(links, 'tools'));
    expect(run(join(links, 'tools', 'collect'), ['--version']).stdout).toContain(`start-up snapshot ${join(copy, 'dist', 'snapshot', 'collect.blob')}`);
    const viaLink = run(join(links, 'tools', 'collect'), ['--json', '--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) });
    expect(viaLink.stderr).toBe('');
    expect(JSON.parse(viaLink.stdout).speed.reference_seconds).toBe(1234);
    const plainViaLink = run(join(links, 'tools', 'collect'), ['--json', '--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state, JUDGELOOP_NO_SNAPSHOT: '1' }) });
    expect(plainViaLink.stderr).toBe('');
    expect(JSON.parse(plainViaLink.stdout).speed.reference_seconds).toBe(1234);
  });

  it('a node other than the one that built it (another mtime) gets the plain modules, and the run still works', () => {
    const copy = copyCheckout();
    const stamp = join(copy, 'dist', 'snapshot', 'node.stamp');
    utimesSync(stamp, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    const bin = join(copy, 'bin', 'collect');
    expect(run(bin, ['--version']).stdout).toMatch(/\(modules\)\n$/);
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    expect(run(bin, ['--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) }).code).toBe(0);
    expect(readJson(join(p.state, 'feedback', 'bd-1.json')).bead).toBe('bd-1');
  });

  it('dist/scripts compiled again after the snapshot was built (tsc alone): the plain modules, not the stale blob', () => {
    const copy = copyCheckout();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy, 'dist', 'scripts', 'collect.js'), later, later);
    expect(run(join(copy, 'bin', 'collect'), ['--version']).stdout).toMatch(/\(modules\)\n$/);
  });

  it('with NODE_OPTIONS set (V8 flags would make node refuse the blob, exit 14) the shim runs the plain modules', () => {
    const r = run(BIN, ['--version'], { env: env({ NODE_OPTIONS: '--max-old-space-size=512' }) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\(modules\)\n$/);
    expect(r.code).toBe(0);
  });

  it('with no blob the shim runs the plain modules', () => {
    const copy = copyCheckout();
    execFileSync('rm', ['-r', join(copy, 'dist', 'snapshot')]);
    expect(run(join(copy, 'bin', 'collect'), ['--version']).stdout).toMatch(/\(modules\)\n$/);
  });

  it('a blob whose schemas changed since the build validates with the current schemas, not its bundled validators', () => {
    const copy = copyCheckout();
    // Narrow one field of the run record: a record the build's validators accept must now be refused.
    const file = join(copy, 'schemas', 'run-record.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.properties.template.maxLength = 3;
    writeFileSync(file, JSON.stringify(schema, null, 2));
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = run(join(copy, 'bin', 'collect'), ['--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) });
    expect(r.stderr).toMatch(/\/template: .*3/);
    expect(r.code).toBe(2);
  });

  it('finds the blob and the checkout from node options', () => {
    expect(snapshotBlob(['--snapshot-blob', 'dist/snapshot/collect.blob'], '/x/y')).toBe('/x/y/dist/snapshot/collect.blob');
    expect(snapshotBlob(['--snapshot-blob', '/l/bin/../dist/snapshot/collect.blob'], '/')).toBe('/l/bin/../dist/snapshot/collect.blob');
    expect(snapshotBlob(['--max-old-space-size=100', '--snapshot-blob=/a/dist/snapshot/c.blob'], '/')).toBe('/a/dist/snapshot/c.blob');
    expect(snapshotBlob(['--no-warnings'], '/')).toBeNull();
    expect(rootOfBlob('/a/b/dist/snapshot/collect.blob')).toBe('/a/b');
  });
});
