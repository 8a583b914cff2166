// Nothing in the agent's tree can hang judgeloop: a daemon holding the check's stdout, a check past its timeout,
// a git config that includes a FIFO, a FIFO in place of a tracked file. Each run finishes within its timeout plus
// a few seconds, with nothing left running. Needs `npm run build` (real bin/ processes).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn } from '../helpers/repo.js';
import { removeLeftTemps, tempEntries } from '../helpers/temp.js';
import {
  agentWorktree,
  makeProject,
  PROJECT,
  type Project,
  readJson,
  runRecord,
  writeRecord,
} from '../collector/_project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function project(): Project {
  const p = makeProject();
  temps.push(p.repo, p.dir);
  return p;
}

function collect(
  p: Project,
  rec: string,
  config: Record<string, unknown>,
): { code: number | null; seconds: number; stderr: string } {
  const cfg = join(p.dir, `cfg-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(cfg, JSON.stringify(config));
  const t0 = Date.now();
  const r = spawnSync(join(ROOT, 'bin', 'collect'), ['--quiet', '--config', cfg, rec], {
    cwd: p.dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state },
  });
  return { code: r.status, seconds: (Date.now() - t0) / 1000, stderr: r.stderr };
}

/** Processes whose command line holds `token` (e.g. a sleep with a unique duration). */
function running(token: string): number[] {
  const out: number[] = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const cmd = readFileSync(`/proc/${n}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(token) && !cmd.includes('vitest')) out.push(Number(n));
    } catch {
      // Gone.
    }
  }
  return out;
}

/** A process as a failing assertion shows it: pid, state, parent and command line. */
function described(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${pid} ${state} ppid ${ppid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()}`;
  } catch {
    return `${pid} gone`;
  }
}

const cmds = (build: string) => ({ build, test: null, lint: null, typecheck: null });

describe.each(['auto', 'off'] as const)('checks end when their process ends (sandbox %s)', (sandbox) => {
  it('a daemon in its own session holding stdout: the check ends when its shell does, the daemon is killed', () => {
    const p = project();
    agentWorktree(p, 'a');
    const token = sandbox === 'auto' ? '4241' : '4242';
    // setsid: another session and process group, so a group kill alone would miss it; it keeps the stdout pipe.
    const rec = writeRecord(
      p,
      'a',
      runRecord({ commands: cmds(`setsid sh -c 'trap "" TERM HUP; sleep ${token}' & echo started`) }),
    );
    const r = collect(p, rec, {
      collector: { sandbox, timeouts_seconds: { build: 30, test: 30, lint: 30, typecheck: 30 } },
    });
    expect(r.code).toBe(0);
    const build = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json')).checks.build!;
    expect(build.status).toBe('passed');
    expect(build.output!.text).toContain('started');
    // The check's own time, far from the 30 s timeout: it did not wait for the pipe the daemon held (the collect's
    // wall time, with its base checkout and baseline, depends on the machine's load; this does not).
    expect(build.duration_ms!).toBeLessThan(20_000);
    expect(running(`sleep ${token}`)).toEqual([]);
    expect(build.isolation?.sandbox).toBe(sandbox === 'auto' ? 'bubblewrap' : 'none');
  });

  it('a check past its timeout: killed with everything it started, recorded as timeout', () => {
    const p = project();
    agentWorktree(p, 'a');
    const token = sandbox === 'auto' ? '4243' : '4244';
    const rec = writeRecord(p, 'a', runRecord({ commands: cmds(`(setsid sleep ${token} &); sleep ${token}`) }));
    const r = collect(p, rec, {
      collector: { sandbox, kill_grace_seconds: 1, timeouts_seconds: { build: 2, test: 2, lint: 2, typecheck: 2 } },
    });
    expect(r.code).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.checks.build!.status).toBe('timeout');
    expect(fb.outcome).toBe('timeout');
    // Killed at its 2 s timeout (+1 s grace), not when `sleep 4243` ends: the check's own time, not the collect's.
    expect(fb.checks.build!.duration_ms!).toBeLessThan(60_000);
    expect(running(`sleep ${token}`)).toEqual([]);
  });

  it('a check that exits on its own is never recorded as timeout', () => {
    const p = project();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'a', runRecord({ commands: cmds('sleep 1; exit 3') }));
    collect(p, rec, { collector: { sandbox, timeouts_seconds: { build: 20, test: 20, lint: 20, typecheck: 20 } } });
    const build = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json')).checks.build!;
    expect(build.status).toBe('failed');
    expect(build.exit_code).toBe(3);
  });
});

describe('a collector killed with SIGKILL mid-check leaves nothing running', () => {
  it.each(['auto', 'off'] as const)(
    'sandbox %s: the check dies with it (bubblewrap) or is swept by the next run',
    async (sandbox) => {
      const p = project();
      agentWorktree(p, 'a');
      const token = sandbox === 'auto' ? '4251' : '4252';
      const cfg = join(p.dir, 'cfg.json');
      writeFileSync(cfg, JSON.stringify({ collector: { sandbox } }));
      const rec = writeRecord(p, 'a', runRecord({ commands: cmds(`setsid sleep ${token} & sleep ${token}1`) }));
      const before = tempEntries();
      const child = spawn(join(ROOT, 'bin', 'collect'), ['--quiet', '--config', cfg, rec], {
        cwd: p.dir,
        stdio: 'ignore',
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state },
      });
      // A failed wait below must not leave the collector running: it would write its state into the project's
      // folder after the file's cleanup (the run's TMPDIR then holds file-*/judgeloop-runs-*).
      onTestFinished(() => void child.kill('SIGKILL'));
      // Up to 30 s for the check to start: the base's checkout and baseline come first, slow beside other files.
      for (let i = 0; i < 600 && running(`sleep ${token}1`).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(running(`sleep ${token}1`).length).toBeGreaterThan(0);
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await exited;
      const gone = async () => {
        // Up to 10 s: under a loaded machine the namespace's teardown after the SIGKILL is not instant.
        for (let i = 0; i < 200 && running(`sleep ${token}`).length > 0; i++)
          await new Promise((r) => setTimeout(r, 50));
        return running(`sleep ${token}`).length === 0;
      };
      // Without the sandbox nothing of this run cleans up after SIGKILL: the check and its daemon run until a
      // judgeloop's orphan sweep, the next run's here (or another file's collector's, beside it on the machine: the
      // sweep is machine-wide, so "still running now" cannot be asserted). Only a sweep kills them.
      // With bubblewrap they die with the collector; under load its --die-with-parent has been seen to miss (the
      // namespace's init outlived the SIGKILLed collector, its parent gone): then the next run sweeps them by their mark.
      if (sandbox === 'off' || !(await gone())) {
        const next = writeRecord(p, 'b', runRecord({ bead: 'bd-2', commands: cmds('true') }));
        const n = spawnSync(join(ROOT, 'bin', 'collect'), ['--quiet', '--config', cfg, next], {
          cwd: p.dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state },
        });
        expect(n.status).toBe(0);
      }
      await gone();
      expect(running(`sleep ${token}`).map(described)).toEqual([]);
      // The killed run's temporary folders (its baseline checkout, report folder; with sandbox off the next run has
      // swept the checkout already): a SIGKILL runs no cleanup, so the test that killed it removes them.
      removeLeftTemps(before);
    },
  );
});

describe('git on a repository that would hang it', () => {
  it('a config include of a FIFO: every git call times out, the run is recorded as not measurable, nothing left', () => {
    const p = project();
    const wt = agentWorktree(p, 'a');
    const fifo = join(p.dir, 'config.fifo');
    spawnSync('mkfifo', [fifo]);
    gitIn(p.repo, 'config', 'include.path', fifo);
    const rec = writeRecord(p, 'a', runRecord());
    const r = collect(p, rec, { collector: { git_timeout_seconds: 2 } });
    expect(r.code).toBe(0);
    // Every git call ends at its 2 s timeout: a git that waited on the FIFO would run until the test's own timeout.
    expect(r.seconds).toBeLessThan(60);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-1.json'));
    expect(fb.outcome).toBe('infra_failure');
    expect(fb.outcome_reason).toMatch(/timed out after 2 s/);
    expect(running(fifo)).toEqual([]);
    unlinkSync(fifo);
    expect(existsSync(wt)).toBe(true);
  });

  it('a FIFO in place of a tracked file: collect and race finish, the FIFO is measured as deleted and never opened', () => {
    const p = makeProject({ ...PROJECT, 'src/other.mjs': 'export const o = 1;\n' });
    temps.push(p.repo, p.dir);
    for (const name of ['a', 'b']) {
      const wt = agentWorktree(p, name, {
        uncommitted: { 'src/add.mjs': 'export function add(a, b) {\n  return b + a;\n}\n' },
      });
      const tracked = join(wt, 'tools', 'lint.mjs');
      unlinkSync(tracked);
      spawnSync('mkfifo', [tracked]);
      // The agent's tests plant more after the snapshot: a FIFO and a symlink out of the tree in place of
      // unchanged files the race reads for context.
      const test = `node --test test/ && rm -f test/add.test.mjs && mkfifo test/add.test.mjs && ln -sf /etc/passwd src/other.mjs`;
      writeRecord(
        p,
        name,
        runRecord({
          bead: `bd-${name}`,
          worktree: `wt-${name}`,
          race_id: 'race-f',
          commands: { build: 'node --check src/add.mjs', test, lint: null, typecheck: null },
        }),
      );
    }
    const r = spawnSync(join(ROOT, 'bin', 'race'), ['--json', '--quiet', 'a.json', 'b.json'], {
      cwd: p.dir,
      encoding: 'utf8',
      timeout: 90_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state },
    });
    // A read of a FIFO would block the race until spawnSync's 90 s timeout kills it (status null).
    expect(r.status).toBe(0);
    const fb = readJson<Feedback>(join(p.state, 'feedback', 'bd-a.json'));
    expect(fb.diff!.files.find((f) => f.path === 'tools/lint.mjs')).toMatchObject({
      removed: expect.any(Number),
      added: 0,
    });
    expect(r.stdout).not.toContain('root:x:0');
  });
});
