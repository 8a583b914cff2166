// bin/collect as real processes: 20 at once on one task, memory under a 200 MB flood, stdin, exit codes.
// Needs `npm run build` (dist/) first, as `npm test` does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../lib/schema/schema.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, tempDir } from '../helpers/repo.js';
import {
  agentWorktree,
  BIN,
  makeProject,
  readJson,
  ROOT,
  runBin,
  runRecord,
  snapshot,
  writeRecord,
} from './_project.js';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'collect.js')))
    throw new Error('run `npm run build` first: these tests spawn bin/collect');
});

function envFor(state: string): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: state };
}

describe('bin/collect processes', () => {
  it('20 processes started at once on 20 runs of one task: one baseline computation, 20 valid feedback files', async () => {
    const p = makeProject();
    const counterDir = tempDir();
    const counter = join(counterDir, 'baseline-runs.txt');
    // The checks run in the sandbox: the counter's folder is made writable there, as a user would for a shared cache.
    const cfg = join(p.dir, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ collector: { sandbox_writable: [counterDir] } }));
    // Only the baseline's temporary checkout (judgeloop-base-*, not a sealed candidate's) appends to the counter; the sleep lets the crowd pile up on the lock.
    const test = `case "$PWD" in *-sealed-*) ;; */judgeloop-base-*) echo "$$" >> ${counter}; sleep 1;; esac; node --test test/`;
    const files: string[] = [];
    for (let i = 0; i < 20; i++) {
      agentWorktree(p, `r${i}`, i % 2 ? { uncommitted: { [`src/extra${i}.mjs`]: `export const x = ${i};\n` } } : {});
      files.push(
        writeRecord(
          p,
          `r${i}`,
          runRecord({
            bead: `bd-r${i}`,
            worktree: `wt-r${i}`,
            race_id: 'race-20',
            commands: { build: null, test, lint: null, typecheck: null },
            completed_at: `2026-01-01T00:01:${String(10 + i).padStart(2, '0')}Z`,
          }),
        ),
      );
    }
    const results = await Promise.all(
      files.map(
        (f) =>
          new Promise<{ code: number | null; err: string }>((res) => {
            const c = spawn(BIN, ['--quiet', '--config', cfg, f], {
              cwd: p.dir,
              env: envFor(p.state) as NodeJS.ProcessEnv,
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let err = '';
            c.stderr.on('data', (d: Buffer) => (err += d.toString()));
            c.on('close', (code) => res({ code, err }));
          }),
      ),
    );
    expect(results.filter((r) => r.code !== 0)).toEqual([]);
    console.log(results.map((r) => r.err).join('\n---\n'));
    expect(readFileSync(counter, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readdirSync(join(p.state, 'baselines'))).toHaveLength(1);
    const names = readdirSync(join(p.state, 'feedback')).sort();
    expect(names).toHaveLength(20);
    for (const n of names) {
      const fb = readJson<Feedback>(join(p.state, 'feedback', n));
      expect(validate('feedback', fb).ok).toBe(true);
      expect(fb.outcome).toBe('full_pass');
      expect(fb.baseline?.tests).toMatchObject({ passed: 2, total: 2 });
    }
    // Every temporary baseline checkout was removed from the repository.
    const listed = gitIn(p.repo, 'worktree', 'list').split('\n');
    expect(listed.filter((l) => l.includes('judgeloop-base-'))).toEqual([]);
    expect(listed).toHaveLength(21);
  });

  it('interrupted while computing the baseline: the check process group is killed and the temporary checkout removed', async () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const scratch = tempDir();
    const tmp = join(scratch, 'tmp');
    mkdirSync(tmp);
    const started = join(scratch, 'started');
    const marker = join(scratch, 'survived');
    const test = `case "$PWD" in */judgeloop-base-*) touch ${started}; sleep 2; touch ${marker};; esac; node --test test/`;
    const rec = writeRecord(p, 'a', runRecord({ commands: { build: null, test, lint: null, typecheck: null } }));
    const cfg = join(p.dir, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ collector: { sandbox_writable: [scratch] } }));
    const child = spawn(BIN, ['--quiet', '--config', cfg, rec], {
      cwd: p.dir,
      env: { ...envFor(p.state), TMPDIR: tmp } as NodeJS.ProcessEnv,
      stdio: 'ignore',
    });
    const exited = new Promise<string | null>((res) => child.on('exit', (_code, signal) => res(signal)));
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(readdirSync(tmp)).toEqual([]);
    expect(gitIn(p.repo, 'worktree', 'list').split('\n')).toHaveLength(2);
    expect(existsSync(join(p.state, 'feedback', 'bd-1.json'))).toBe(false);
    expect(existsSync(join(p.state, 'baselines'))).toBe(false);
    // Past the sleep: the killed group never reached `touch`.
    await new Promise((r) => setTimeout(r, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it('a command printing 200 MB: output capped, the collector stays within bounded memory', () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const cfg = join(p.dir, 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ collector: { output_cap_bytes: 65536 } }));
    const rec = writeRecord(
      p,
      'a',
      runRecord({
        commands: {
          build: 'echo FIRST; head -c 200000000 /dev/zero | tr "\\0" y; echo; echo LAST',
          test: null,
          lint: null,
          typecheck: null,
        },
      }),
    );
    const r = spawnSync('/usr/bin/time', ['-v', BIN, '--quiet', '--config', cfg, rec], {
      cwd: p.dir,
      env: envFor(p.state) as NodeJS.ProcessEnv,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
    console.log(`collector peak RSS with a 200 MB flood: ${(rssKb / 1024).toFixed(1)} MB`);
    // Twice a bare node start-up is far below the 200 MB printed; keeping it all would need > 400 MB as a JS string.
    expect(rssKb).toBeGreaterThan(0);
    expect(rssKb).toBeLessThan(150 * 1024);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    const out = fb.checks.build!.output!;
    expect(out.bytes).toBeGreaterThan(200_000_000);
    expect(out.truncated).toBe(true);
    expect(out.text.startsWith('FIRST\n')).toBe(true);
    expect(out.text.trimEnd().endsWith('LAST')).toBe(true);
    expect(out.text.length).toBeLessThan(65536 + 100);
  });

  it('reads a record from stdin (-), prints JSON lines with --json, exit codes 0/2', () => {
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = JSON.stringify(runRecord({ commands: {} }));
    const ok = runBin(['--json', '--quiet', '-'], { cwd: p.dir, env: envFor(p.state), input: rec });
    expect(ok.code).toBe(0);
    const printed = JSON.parse(ok.stdout.trim()) as Feedback;
    expect(printed.bead).toBe('bd-1');
    // --json carries the state folder it wrote to beside the record as stored.
    const { state_dir, ...stored } = printed as Feedback & { state_dir?: string };
    expect(state_dir).toBe(p.state);
    expect(stored).toEqual(readJson(join(p.state, 'feedback', 'bd-1.json')));
    const before = snapshot(p.state);
    const bad = runBin(['-'], { cwd: p.dir, env: envFor(p.state), input: '{"bead":' });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^<stdin>: not valid JSON/);
    expect(runBin([], { cwd: p.dir, env: envFor(p.state) }).code).toBe(2);
    expect(runBin(['--no-such-flag', 'x.json'], { cwd: p.dir, env: envFor(p.state) }).code).toBe(2);
    expect(snapshot(p.state)).toEqual(before);
  });
});
