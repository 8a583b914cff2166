// The bubblewrap probe's success is kept in the state folder (issue 35, start-up): a later collect starts no probe
// process, a changed binary probes again, a failed probe is never kept. Needs `npm run build` and bubblewrap.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeKey, type ProbeFacts } from '../../lib/process/probe-cache.js';
import { findOnPath } from '../../lib/process/sandbox.js';
import { tempDir } from '../helpers/repo.js';
import { agentWorktree, BIN, makeProject, readJson, runRecord, writeRecord } from './_project.js';

const FACTS: ProbeFacts = {
  bwrap: '/usr/bin/bwrap 1 2 3 4 5 6',
  kernel: '6.1.0 #1 SMP',
  boot: 'b00t',
  uid: 1000,
  namespaces: 'user:[1] pid:[2] net:[3] mnt:[4]',
  settings: '1 - 65536',
};

describe('probeKey', () => {
  it('is the same for the same facts and changes with each one', () => {
    expect(probeKey({ ...FACTS })).toBe(probeKey(FACTS));
    const changed: ProbeFacts[] = [
      { ...FACTS, bwrap: '/usr/bin/bwrap 1 2 3 4 5 7' },
      { ...FACTS, kernel: '6.2.0 #1 SMP' },
      { ...FACTS, boot: 'other' },
      { ...FACTS, uid: 0 },
      { ...FACTS, namespaces: 'user:[9] pid:[2] net:[3] mnt:[4]' },
      { ...FACTS, settings: '0 - 65536' },
    ];
    const keys = new Set([probeKey(FACTS), ...changed.map(probeKey)]);
    expect(keys.size).toBe(changed.length + 1);
  });
});

describe('a collect keeps the probe', () => {
  it('probes once, then reads the kept success; a changed binary probes again; a failure is not kept', () => {
    const real = findOnPath('bwrap');
    if (!real) throw new Error('bubblewrap is not installed: apt-get install bubblewrap');
    const p = makeProject();
    agentWorktree(p, 'a');
    const rec = writeRecord(
      p,
      'bd-p',
      runRecord({ bead: 'bd-p', commands: { build: 'true', test: null, lint: null, typecheck: null } }),
    );
    const shim = tempDir('judgeloop-bwrap-shim-');
    const log = join(shim, 'bwrap.log');
    const writeShim = (fail: boolean) => {
      // The probe is the only bwrap call whose last word is `true` after `--ro-bind / /`.
      const probeFails = fail ? `case "$*" in "--ro-bind / / "*" true") exit 1;; esac\n` : '';
      writeFileSync(join(shim, 'bwrap'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\n${probeFails}exec ${real} "$@"\n`);
      chmodSync(join(shim, 'bwrap'), 0o755);
    };
    const kept = join(p.state, 'cache', 'sandbox-probe.json');
    const collect = () => {
      writeFileSync(log, '');
      const r = spawnSync(BIN, ['--quiet', rec], {
        cwd: p.dir,
        env: { ...process.env, PATH: `${shim}:${process.env.PATH}`, JUDGELOOP_STATE_DIR: p.state },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const fb = readJson(join(p.state, 'feedback', 'bd-p.json'));
      return {
        probes: lines.filter((l) => l.startsWith('--ro-bind / / ') && l.endsWith(' true')).length,
        checks: lines.filter((l) => l.endsWith(' sh -c true')).length,
        isolation: fb.checks.build.isolation,
      };
    };
    writeShim(false);
    const first = collect();
    expect(first.probes).toBe(1);
    expect(existsSync(kept)).toBe(true);
    const second = collect();
    // The first also ran the base's build for the baseline; now only the graded build runs, in the sandbox.
    expect(second).toEqual({ probes: 0, checks: 1, isolation: { sandbox: 'bubblewrap', network: false } });
    // Another binary at the same path (its size and times differ) is probed again; this one's probe fails.
    writeShim(true);
    const third = collect();
    expect(third.probes).toBe(1);
    expect(third.checks).toBe(0);
    expect(third.isolation).toMatchObject({ sandbox: 'none' });
    // The failure was not kept: the key on file is still the old binary's, so the next collect probes again.
    const fourth = collect();
    expect(fourth.probes).toBe(1);
  }, 120_000);
});
