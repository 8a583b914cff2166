// Installable: the `npm pack` tarball, installed with `npm install -g --prefix <tmp>`, puts judgeloop (and jl) on
// PATH and nothing else; `judgeloop <command> --help` answers from any folder; a record + collect from a folder below
// a judgeloop.json use that config and its state; from a folder with none, the per-user state folder, named on
// stderr, and nothing under the prefix. Needs `npm run build` first (packs dist/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { tempDir } from '../helpers/repo.js';
import { agentCommit, filesUnder, makeJudging, ROOT, runProc, type Judging } from './_setup.js';
import { COMMAND_NAMES } from '../../lib/cli/commands/names.js';

/** `judgeloop <name> --help` for every command through the installed entry's `run`: each one's code and stdout. */
const HELP_EACH = `
  const { run } = await import(process.env.ENTRY);
  const { COMMAND_NAMES } = ${JSON.stringify({ COMMAND_NAMES })};
  const answers = {};
  for (const name of COMMAND_NAMES) {
    let out = '';
    let err = '';
    const io = { stdout: (t) => (out += t), stderr: (t) => (err += t), env: {}, processEnv: process.env,
      cwd: process.cwd(), color: false };
    answers[name] = { code: await run([name, '--help'], io), out, err };
  }
  process.stdout.write(JSON.stringify(answers));
`;

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
  it('only judgeloop and jl are on PATH; help lists every command; each answers --help from an unrelated folder', async () => {
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    expect(readdirSync(join(prefix, 'bin')).sort()).toEqual(['jl', 'judgeloop']);
    const help = await runProc('judgeloop', ['help'], { cwd: elsewhere, env });
    expect(help.code, help.stderr).toBe(0);
    const listed = help.stdout
      .slice(help.stdout.indexOf('\nCommands:\n'))
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/)[0])
      .filter(Boolean);
    expect(listed).toEqual([...COMMAND_NAMES]);
    expect((await runProc('jl', ['help'], { cwd: elsewhere, env })).stdout).toBe(help.stdout);
    const r = await runProc('judgeloop', ['record', '--help'], { cwd: elsewhere, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: judgeloop record /);
    // The other commands through the installed dispatcher's `run` (what the shim execs), in one node: one start, not 19.
    const each = await runProc(process.execPath, ['--input-type=module', '-e', HELP_EACH], {
      cwd: elsewhere,
      env: { ...env, ENTRY: join(prefix, 'lib', 'node_modules', 'judgeloop', 'dist', 'bundle', 'judgeloop.mjs') },
    });
    expect(each.code, each.stderr).toBe(0);
    const answers = JSON.parse(each.stdout) as Record<string, { code: number; out: string; err: string }>;
    expect(Object.keys(answers)).toEqual([...COMMAND_NAMES]);
    for (const name of COMMAND_NAMES) {
      expect(answers[name]!.code, `${name}: ${answers[name]!.err}`).toBe(0);
      expect(answers[name]!.out, name).toMatch(new RegExp(`^usage: judgeloop ${name} `));
    }
  });

  it('record and collect from a folder below judgeloop.json: its config, its state, nothing in the install folder', async () => {
    agentCommit(judging.repo);
    const rec = await runProc('judgeloop', ['record', '--from-commit', '--bead', 'installed-1'], {
      cwd: judging.repo,
      env,
    });
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stdout.trim()).toBe(join(judging.state, 'runs', 'installed-1.json'));
    const sub = join(judging.top, 'logs', 'deeper');
    mkdirSync(sub, { recursive: true });
    const col = await runProc('judgeloop', ['collect', '--json', '../../state/runs/installed-1.json'], {
      cwd: sub,
      env,
    });
    expect(col.stderr).toContain(`judgeloop: state folder ${judging.state} (beside the config file)\n`);
    expect(col.code, col.stderr).toBe(0);
    const fb = JSON.parse(col.stdout);
    expect(fb.outcome).toBe('full_pass');
    expect(fb.commands.test).toBe('node --test test/');
    expect(existsSync(join(judging.state, 'feedback', 'installed-1.json'))).toBe(true);
    const pkgDir = join(prefix, 'lib', 'node_modules', 'judgeloop');
    expect(existsSync(join(pkgDir, 'package.json'))).toBe(true);
    expect(existsSync(join(pkgDir, 'state'))).toBe(false);
    // What README points at ships with it: the design pages, the map, the report's picture.
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    const pointed = [...new Set(readme.match(/\b(docs\/[\w./-]+\.(md|png)|AGENTS\.md)\b/g))];
    expect(pointed.length).toBeGreaterThan(0);
    expect(pointed.filter((f) => !existsSync(join(pkgDir, f)))).toEqual([]);
    const show = await runProc('jl', ['config', '--show'], { cwd: sub, env });
    expect(show.stdout).toContain(`# state dir:   ${judging.state} (beside the config file)`);
  });

  it('from a folder with no judgeloop.json: the per-user state folder, named once on stderr; nothing under the prefix', async () => {
    const run = join(judging.state, 'runs', 'installed-1.json');
    expect(existsSync(run)).toBe(true);
    const nowhere = join(tmp, 'no-config');
    mkdirSync(nowhere, { recursive: true });
    const before = filesUnder(prefix);
    const col = await runProc('judgeloop', ['collect', run], { cwd: nowhere, env });
    expect(col.code, col.stderr).toBe(0);
    const user = join(tmp, '.local', 'state', 'judgeloop');
    const line = `judgeloop: state folder ${user} (per-user: no judgeloop.json found)\n`;
    expect(col.stderr.split(line).length - 1).toBe(1);
    expect(existsSync(join(user, 'feedback', 'installed-1.json'))).toBe(true);
    expect(filesUnder(prefix)).toEqual(before);
    const quiet = await runProc('judgeloop', ['collect', '--quiet', run], { cwd: nowhere, env });
    expect(quiet.stderr).not.toContain('state folder');
    expect(quiet.code).toBe(0);
    // XDG_STATE_HOME moves it; JUDGELOOP_REQUIRE_CONFIG refuses it in one line, before anything is measured.
    const xdg = await runProc('judgeloop', ['config', '--state-dir'], {
      cwd: nowhere,
      env: { ...env, XDG_STATE_HOME: join(tmp, 'xdg') },
    });
    expect(xdg.stdout).toBe(`${join(tmp, 'xdg', 'judgeloop')}\n`);
    const refused = await runProc('judgeloop', ['collect', run], {
      cwd: nowhere,
      env: { ...env, JUDGELOOP_REQUIRE_CONFIG: '1' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^no judgeloop.json in .* JUDGELOOP_REQUIRE_CONFIG asks for one: run `judgeloop init` there\n$/,
    );
  });

  it('the package carries what the commands read at run time, and no tests or sources', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', 'judgeloop');
    for (const d of ['dist/scripts', 'dist/validators', 'config', 'schemas', 'examples/git/post-commit'])
      expect(existsSync(join(pkgDir, d)), d).toBe(true);
    for (const d of ['test', 'scripts', 'state', 'bench']) expect(existsSync(join(pkgDir, d)), d).toBe(false);
  });

  it('builds once: after the build npm test ran, the build that `npm pack` or `npm install` would run has nothing to do', () => {
    // dev/build.mjs --check: dist/'s content stamp matches these inputs (the prepare script would skip).
    const check = spawnSync(process.execPath, [join(ROOT, 'dev', 'build.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(check.stdout.trim()).toBe('dist/ is current');
    expect(check.status).toBe(0);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build).toBe('node dev/build.mjs');
  });
});
