// Installable: the `npm pack` tarball, installed with `npm install -g --prefix <tmp>`, puts every command of
// package.json on PATH; each answers --help from any folder, and a record + collect from a folder below a
// judgeloop.json use that config and its state, not the install folder. Needs `npm run build` first (packs dist/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { tempDir } from '../helpers/repo.js';
import { agentCommit, makeJudging, ROOT, runProc, type Judging } from './_setup.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
};
let tmp: string;
let prefix: string;
let judging: Judging;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  tmp = tempDir('judgeloop-install-');
  prefix = join(tmp, 'prefix');
  const npmEnv = {
    ...process.env,
    npm_config_loglevel: 'error',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
    cwd: ROOT,
    encoding: 'utf8',
    env: npmEnv,
  });
  const tarball = join(tmp, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  execFileSync('npm', ['install', '-g', '--prefix', prefix, tarball], {
    cwd: tmp,
    encoding: 'utf8',
    env: npmEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  judging = makeJudging();
  // Only the installed commands and node: nothing of the checkout is on PATH.
  env = {
    PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: tmp,
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
  };
}, 300_000);
afterAll(() => {
  judging?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack → npm install -g', () => {
  it('every bin of package.json is on PATH and answers --help from an unrelated folder', async () => {
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const installed = readdirSync(join(prefix, 'bin')).sort();
    expect(installed).toEqual(Object.keys(pkg.bin).sort());
    for (const name of Object.keys(pkg.bin)) {
      const r = await runProc(name, ['--help'], { cwd: elsewhere, env });
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stdout, name).toMatch(/usage/);
    }
  });

  it('record and collect from a folder below judgeloop.json: its config, its state, nothing in the install folder', async () => {
    agentCommit(judging.repo);
    const rec = await runProc('record', ['--from-commit', '--bead', 'installed-1'], { cwd: judging.repo, env });
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stdout.trim()).toBe(join(judging.state, 'runs', 'installed-1.json'));
    const sub = join(judging.top, 'logs', 'deeper');
    mkdirSync(sub, { recursive: true });
    const col = await runProc('collect', ['--json', '../../state/runs/installed-1.json'], { cwd: sub, env });
    expect(col.code, col.stderr).toBe(0);
    const fb = JSON.parse(col.stdout);
    expect(fb.outcome).toBe('full_pass');
    expect(fb.commands.test).toBe('node --test test/');
    expect(existsSync(join(judging.state, 'feedback', 'installed-1.json'))).toBe(true);
    const pkgDir = join(prefix, 'lib', 'node_modules', 'judgeloop');
    expect(existsSync(join(pkgDir, 'package.json'))).toBe(true);
    expect(existsSync(join(pkgDir, 'state'))).toBe(false);
    const show = await runProc('config', ['--show'], { cwd: sub, env });
    expect(show.stdout).toContain(`# state dir:   ${judging.state} (beside the config file)`);
  });

  it('the package carries what the commands read at run time, and no tests or sources', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', 'judgeloop');
    for (const d of ['dist/scripts', 'dist/validators', 'config', 'schemas', 'examples/git/post-commit'])
      expect(existsSync(join(pkgDir, d)), d).toBe(true);
    for (const d of ['test', 'scripts', 'state', 'bench']) expect(existsSync(join(pkgDir, d)), d).toBe(false);
  });
});
