// A repository whose objects or index are broken (by accident or on purpose) ends bin/collect with one line naming
// the repository and git's words (a WorkError, exit 1) or a recorded infra_failure: never a JavaScript stack.
// Real corrupted repositories through the real bin/collect. Needs `npm run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir } from '../helpers/repo.js';
import { runRecord } from '../collector/_project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

const FILES = { 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n' };

/** A source repository with two commits and a clone of it in a fresh folder (`wt`), HEAD~1 as the base. */
function cloned(cloneArgs: string[] = []): { dir: string; wt: string } {
  const src = makeRepo(FILES);
  writeFileSync(join(src, 'a.txt'), 'one, changed\n');
  gitIn(src, 'commit', '-qam', 'second');
  gitIn(src, 'config', 'uploadpack.allowFilter', 'true');
  const dir = tempDir('judgeloop-objects-');
  temps.push(src, dir);
  const wt = join(dir, 'wt');
  gitIn(dir, 'clone', '-q', '--no-local', ...cloneArgs, `file://${src}`, wt);
  return { dir, wt };
}

/** bin/collect on a record for `wt`: its exit code, stderr and the feedback written (if any). */
function collect(dir: string, wt: string): { code: number | null; stderr: string; fb: Feedback | null } {
  const rec = join(dir, 'run.json');
  const commands = { build: 'true', test: null, lint: null, typecheck: null };
  writeFileSync(rec, JSON.stringify(runRecord({ worktree: wt, base_ref: 'HEAD~1', commands })));
  const state = join(dir, 'state');
  writeFileSync(join(dir, 'judgeloop.json'), '{}');
  const r = spawnSync(join(ROOT, 'bin', 'collect'), ['--quiet', rec], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      JUDGELOOP_STATE_DIR: state,
      JUDGELOOP_CONFIG: join(dir, 'judgeloop.json'),
    },
  });
  const file = join(state, 'feedback', 'bd-1.json');
  return {
    code: r.status,
    stderr: r.stderr,
    fb: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Feedback) : null,
  };
}

/** Flips bits through the middle of a file (git's zlib streams no longer inflate). */
function corrupt(file: string): void {
  const b = readFileSync(file);
  for (let i = Math.min(40, b.length >> 2); i < b.length - 4; i += 7) b[i]! ^= 0x55;
  rmSync(file, { force: true });
  writeFileSync(file, b);
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe('a hostile repository ends bin/collect with one line', () => {
  it('missing objects (a promisor remote, lazy fetch off): a WorkError naming the repository and git', () => {
    const { dir, wt } = cloned(['--filter=blob:none']);
    expect(gitIn(wt, 'rev-list', '--all', '--objects', '--missing=print')).toMatch(/^\?[0-9a-f]{40}$/m);
    writeFileSync(join(wt, 'b.txt'), 'two, by the agent\n');
    const r = collect(dir, wt);
    noStack(r.stderr);
    expect(r.code).toBe(1);
    const line = r.stderr.trim().split('\n').pop()!;
    expect(line).toContain(`in ${wt} failed`);
    expect(line).toMatch(/could not fetch [0-9a-f]{40} from promisor remote|unable to read [0-9a-f]{40}/);
    expect(r.fb).toBeNull();
  });

  it('a broken index: measured all the same (the snapshot never reads the agent index)', () => {
    const { dir, wt } = cloned();
    writeFileSync(join(wt, 'b.txt'), 'two, by the agent\n');
    writeFileSync(join(wt, '.git', 'index'), 'garbage that is no index at all');
    const status = spawnSync('git', ['status'], { cwd: wt, encoding: 'utf8' });
    expect(status.status).not.toBe(0);
    expect(status.stderr).toMatch(/index/);
    const r = collect(dir, wt);
    noStack(r.stderr);
    expect(r.code).toBe(0);
    expect(r.fb!.diff!.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
  });

  it('a corrupt pack holding HEAD: a recorded infra_failure with git words', () => {
    const { dir, wt } = cloned();
    const pack = join(wt, '.git', 'objects', 'pack');
    corrupt(join(pack, readdirSync(pack).find((f) => f.endsWith('.pack'))!));
    const r = collect(dir, wt);
    noStack(r.stderr);
    expect(r.code).toBe(0);
    expect(r.fb!.outcome, r.stderr).toBe('infra_failure');
    expect(r.fb!.outcome_reason).toMatch(/has no commit \(HEAD\): .*(corrupt|inflate|does not match index|bad object)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an unreadable pack (a folder where the pack file was): a recorded infra_failure', () => {
    const { dir, wt } = cloned();
    const pack = join(wt, '.git', 'objects', 'pack');
    const file = join(pack, readdirSync(pack).find((f) => f.endsWith('.pack'))!);
    rmSync(file);
    mkdirSync(file);
    const r = collect(dir, wt);
    noStack(r.stderr);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(0);
    expect(r.fb!.outcome).toBe('infra_failure');
    expect(r.fb!.outcome_reason).toContain(wt);
  });

  it("a corrupt blob of the base commit: one line naming the repository and git's words", () => {
    const { dir, wt } = cloned();
    // Loose objects: the pack moved out and unpacked, then the blob the diff must read (a.txt at the base) broken.
    const pack = join(wt, '.git', 'objects', 'pack');
    for (const p of readdirSync(pack).filter((f) => f.endsWith('.pack'))) {
      renameSync(join(pack, p), join(dir, p));
      rmSync(join(pack, p.replace(/\.pack$/, '.idx')));
      execFileSync('git', ['unpack-objects', '-q'], { cwd: wt, input: readFileSync(join(dir, p)) });
    }
    const blob = gitIn(wt, 'rev-parse', 'HEAD~1:a.txt');
    const loose = join(wt, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    expect(existsSync(loose)).toBe(true);
    corrupt(loose);
    writeFileSync(join(wt, 'c.txt'), 'three, by the agent\n');
    const r = collect(dir, wt);
    noStack(r.stderr);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(r.code).toBe(1);
    expect(lines[0]).toContain(`in ${wt} failed`);
    expect(lines[0]).toMatch(/inflate|corrupt|unable to read/);
  });
});
