// The check sandbox (bubblewrap, installed by .ci/run): a check cannot read $HOME or judgeloop's state, cannot
// write outside its worktree or into the repository's metadata, cannot reach the network unless configured,
// and the record says how it ran. `required` without bubblewrap is a clear error. Needs `npm run build`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';
import { agentWorktree, makeProject, type Project, readJson, runRecord, writeRecord } from '../collector/_project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const temps: string[] = [];
let server: ChildProcess;
let port = 0;

beforeAll(async () => {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true']);
  if (probe.status !== 0)
    throw new Error('bubblewrap is needed for these tests (apt-get install -y bubblewrap; .ci/run installs it)');
  // In its own process: the tests below block this one's event loop in spawnSync.
  server = spawn(
    process.execPath,
    [
      '-e',
      "const s = require('net').createServer((c) => c.end('pong\\n')).listen(0, '127.0.0.1', () => console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  port = await new Promise<number>((res) =>
    server.stdout!.once('data', (d: Buffer) => res(Number(d.toString().trim()))),
  );
});
afterAll(() => {
  server?.kill();
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stderr: string;
  fb: Feedback | null;
}

function collectWith(
  p: Project,
  build: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
  cfgDir = p.dir,
): Run {
  const cfg = join(cfgDir, `cfg-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(cfg, JSON.stringify(config));
  const rec = writeRecord(p, 'a', runRecord({ commands: { build, test: null, lint: null, typecheck: null } }));
  rmSync(join(p.state, 'feedback'), { recursive: true, force: true });
  const r = spawnSync(join(ROOT, 'bin', 'collect'), ['--quiet', '--config', cfg, rec], {
    cwd: p.dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), JUDGELOOP_STATE_DIR: p.state, ...env },
  });
  const file = join(p.state, 'feedback', 'bd-1.json');
  return { code: r.status, stderr: r.stderr, fb: existsSync(file) ? readJson<Feedback>(file) : null };
}

describe('the bubblewrap sandbox', () => {
  let p: Project;
  let home: string;
  let outside: string;
  beforeAll(() => {
    p = makeProject();
    temps.push(p.repo, p.dir);
    agentWorktree(p, 'a');
    home = tempDir('judgeloop-home-');
    outside = tempDir('judgeloop-outside-');
    temps.push(home, outside);
    writeFileSync(join(home, '.secret-token'), 'home-secret-123\n');
  });

  it('$HOME and the state directory are invisible, the rest of the filesystem is read-only', () => {
    mkdirSync(join(p.state, 'feedback'), { recursive: true });
    writeFileSync(join(p.state, 'planted-by-user.json'), '{"state": "private"}');
    // The --config file sits where the check could otherwise read it (/run is neither $HOME nor a scratch tmpfs
    // in the sandbox; a config inside the measured tree is refused outright): hidden all the same.
    const cfgDir = mkdtempSync('/run/judgeloop-cfg-');
    temps.push(cfgDir);
    const build = [
      `cat "${home}/.secret-token" || echo HOME-UNREADABLE`,
      `cat "${p.state}/planted-by-user.json" || echo STATE-UNREADABLE`,
      `cat ${cfgDir}/cfg-*.json || echo CONFIG-UNREADABLE`,
      `touch "${outside}/marker" && echo WROTE-OUTSIDE`,
      `touch "${ROOT}/marker-in-judgeloop"`,
      'touch /usr/judgeloop-marker || echo FS-READONLY',
      `touch ./inside-marker && echo WROTE-INSIDE`,
    ].join('; ');
    const r = collectWith(p, build, { collector: { sandbox: 'auto' } }, { HOME: home }, cfgDir);
    expect(r.code).toBe(0);
    const out = r.fb!.checks.build!.output!.text;
    expect(out).not.toContain('home-secret-123');
    expect(out).toContain('HOME-UNREADABLE');
    expect(out).not.toContain('"state": "private"');
    expect(out).toContain('STATE-UNREADABLE');
    expect(out).not.toContain('"sandbox"');
    expect(out).toContain('CONFIG-UNREADABLE');
    expect(out).toContain('FS-READONLY');
    expect(out).toContain('WROTE-INSIDE');
    // Whatever the check believed, nothing reached the real folder outside its worktree.
    expect(existsSync(join(outside, 'marker'))).toBe(false);
    expect(existsSync(join(ROOT, 'marker-in-judgeloop'))).toBe(false);
    expect(existsSync('/usr/judgeloop-marker')).toBe(false);
    // Checks write in their checkout of the sealed candidate: the agent's worktree is never written.
    expect(existsSync(join(p.dir, 'wt-a', 'inside-marker'))).toBe(false);
    expect(r.fb!.checks.build!.isolation).toEqual({ sandbox: 'bubblewrap', network: false });
  });

  it('the repository metadata is read-only inside: a check cannot plant config or hooks for later git calls', () => {
    const r = collectWith(p, 'git config core.fsmonitor "touch /tmp/x" && echo CONFIG-WRITTEN; echo x > .git-probe', {
      collector: { sandbox: 'auto' },
    });
    expect(r.fb!.checks.build!.output!.text).not.toContain('CONFIG-WRITTEN');
    expect(readFileSync(join(p.repo, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
  });

  it('the network is off unless collector.sandbox_network says otherwise', () => {
    const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => { console.log('NET:' + d); process.exit(0) }).on('error', (e) => { console.log('NETERR:' + e.code); process.exit(1) })"`;
    const off = collectWith(p, probe, { collector: { sandbox: 'auto' } });
    expect(off.fb!.checks.build!.output!.text).toMatch(/NETERR:ECONNREFUSED/);
    expect(off.fb!.checks.build!.status).toBe('failed');
    const on = collectWith(p, probe, { collector: { sandbox: 'auto', sandbox_network: true } });
    expect(on.fb!.checks.build!.output!.text).toContain('NET:pong');
    expect(on.fb!.checks.build!.isolation).toEqual({ sandbox: 'bubblewrap', network: true });
  });

  it('sandbox off: the check runs as a plain process and the record says so', () => {
    const r = collectWith(p, 'echo plain', { collector: { sandbox: 'off' } });
    expect(r.fb!.checks.build!.isolation).toMatchObject({ sandbox: 'none', note: 'collector.sandbox is "off"' });
  });

  describe('without bubblewrap on PATH', () => {
    let bin: string;
    beforeAll(() => {
      // A PATH holding what judgeloop needs (node, git, sh and the tools the shims use) but not bwrap.
      bin = tempDir('judgeloop-nobwrap-');
      temps.push(bin);
      for (const tool of ['node', 'git', 'sh', 'dirname', 'readlink', 'env', 'cat', 'echo']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found.startsWith('/')) symlinkSync(found, join(bin, tool));
      }
    });

    it('auto runs the check without a sandbox and says why; required refuses with exit 2 and one line', () => {
      const auto = collectWith(p, 'echo ran', { collector: { sandbox: 'auto' } }, { PATH: bin });
      expect(auto.code).toBe(0);
      expect(auto.fb!.checks.build!.isolation).toMatchObject({
        sandbox: 'none',
        note: expect.stringMatching(/bubblewrap \(bwrap\) is not installed/),
      });
      const required = collectWith(p, 'echo ran', { collector: { sandbox: 'required' } }, { PATH: bin });
      expect(required.code).toBe(2);
      expect(required.stderr.trim().split('\n')).toHaveLength(1);
      expect(required.stderr).toMatch(/collector.sandbox is "required" but bubblewrap \(bwrap\) is not installed/);
      expect(required.fb).toBeNull();
    });
  });
});
