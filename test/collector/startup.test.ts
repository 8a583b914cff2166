// The bin/ shims and the command bundles (dist/bundle/<command>.mjs, dev/build-bundles.mjs): every shim runs
// its bundle, which answers as the plain modules do, finds its checkout through symlinks and from a path with a
// space, and falls back to dist/scripts when the bundle is absent or older. Needs `npm run build` first, as `npm test` does.
import { COMMAND_NAMES } from '../../lib/cli/commands/names.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/repo.js';
import { indexFeedback } from '../../lib/store/feedback-index.js';
import { StateStore } from '../../lib/store/store.js';
import { makeFeedback } from '../templates/_fixtures.js';
import {
  agentWorktree,
  BIN,
  copyCheckout,
  makeProject,
  readJson,
  ROOT,
  runRecord,
  writeRecord,
  type Project,
} from './_project.js';

// Every bin/ shim: the commands and the dispatcher (package.json installs the dispatcher alone).
const COMMANDS = [...COMMAND_NAMES, 'judgeloop'];
const bundleOf = (root: string, command: string): string => join(root, 'dist', 'bundle', `${command}.mjs`);
const VERSION = readJson(join(ROOT, 'package.json')).version as string;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

function project(): Project {
  const p = makeProject();
  made.push(p.dir, p.repo);
  return p;
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), ...extra };
}

function run(
  bin: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(bin, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? env(), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A shim run under `sh -x`: the file its last `exec node FILE` ran (as traced) and what that command answered. The
 * trace ends at the exec, so the command's own stderr is what follows the traced exec line.
 */
function traced(
  shim: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv } = {},
): { file: string; code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-x', shim, ...args], { cwd: ROOT, env: opts.env ?? env(), encoding: 'utf8' });
  const at = r.stderr.lastIndexOf('+ exec node ');
  if (at < 0) throw new Error(`no exec traced for ${shim}: ${r.stderr}`);
  const end = r.stderr.indexOf('\n', at) + 1;
  // sh -x quotes a word with a space in it.
  const ran = r.stderr
    .slice(at + '+ exec node '.length, end - 1)
    .split(' ' + args[0])[0]!
    .replace(/^'(.*)'( [a-z-]+)?$/, '$1$2');
  // `load.cjs <command>` runs that command's bundle (dist/bundle/<command>.mjs's code).
  const viaLoader = /^(.*)\/load\.cjs ([a-z-]+)$/.exec(ran);
  const file = viaLoader ? `${viaLoader[1]}/${viaLoader[2]}.mjs` : ran;
  return { file, code: r.status, stdout: r.stdout, stderr: r.stderr.slice(end) };
}

let noNode: string | undefined;
/**
 * The file a shim chooses, traced by `sh -x` with a `node` on PATH that does nothing (`true`): only the choice is
 * made here; what the chosen file answers is asserted by the real runs of the same cases.
 */
function chosen(shim: string): string {
  if (noNode === undefined) {
    noNode = tempDir('judgeloop-no-node-');
    symlinkSync('/bin/true', join(noNode, 'node'));
  }
  return traced(shim, ['--help'], { env: { ...env(), PATH: `${noNode}:${process.env.PATH}` } }).file;
}

/**
 * What the plain modules (dist/scripts/<command>.js, run as bin/<command> runs them: lib/cli/cli.ts's execute) answer
 * to each argument list, every command in one node process: {command: [{code, stdout, stderr}, …]}.
 */
function modulesAnswer(commands: string[], argLists: string[][]): Record<string, Answer[]> {
  const script = `
const dist = ${JSON.stringify(join(ROOT, 'dist'))};
const { execute } = await import(dist + '/lib/cli/cli.js');
const { readEnv } = await import(dist + '/lib/base/env.js');
const out = {};
for (const c of ${JSON.stringify(commands)}) {
  const { run } = await import(dist + '/scripts/' + c + '.js');
  out[c] = [];
  for (const args of ${JSON.stringify(argLists)}) {
    const o = [], e = [];
    const io = { stdout: (t) => o.push(t), stderr: (t) => e.push(t), env: readEnv(process.env), processEnv: process.env, cwd: process.cwd(), color: false, tty: false };
    const code = await execute(run, args, io);
    out[c].push({ code, stdout: o.join(''), stderr: e.join('') });
  }
}
process.stdout.write(JSON.stringify(out));
`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: env(),
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Record<string, Answer[]>;
}

interface Answer {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Feedback without what differs between two collections of the same run: check durations, the captured output
 * (node --test prints timings; the counts parsed from it stay) and escaped_processes (the sandbox's process
 * sweep can, under load, catch a check's process still exiting: seen once in one of the two runs here), and the
 * steps' durations.
 */
const UNSTABLE = new Set(['duration_ms', 'output', 'escaped_processes', 'steps']);
function stable(fb: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(fb), (k, v: unknown) => (UNSTABLE.has(k) ? undefined : v));
}

describe('command bundles and bin/ shims', () => {
  // One node start per command (its shim, traced) and one for every module's answer: n+1 node starts, not 5n. Each
  // bundle's --help against the modules' is test/cli/bins.test.ts's (bin/<command> --help, once per command).
  it('npm run build bundles every command; each shim runs its bundle, which answers a bad flag as the modules do', {
    timeout: 180_000,
  }, () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(11);
    const BAD = ['--no-such-flag'];
    const modules = modulesAnswer(COMMANDS, [BAD]);
    for (const c of COMMANDS) {
      expect(
        existsSync(bundleOf(ROOT, c)),
        `npm run build made no dist/bundle/${c}.mjs (see its build-bundles message)`,
      ).toBe(true);
      const { file, ...viaShim } = traced(join(ROOT, 'bin', c), BAD);
      expect(file, `bin/${c} ran`).toBe(bundleOf(ROOT, c));
      expect(viaShim, `bin/${c} ${BAD[0]}`).toEqual(modules[c]![0]);
      expect(viaShim.code, `bin/${c} ${BAD[0]}: ${viaShim.stderr}`).toBe(2);
      expect(viaShim.stderr, `bin/${c} ${BAD[0]}`).toContain("'--no-such-flag'");
    }
    expect(run(BIN, ['--version']).stdout).toBe(`collect ${VERSION} (bundle ${bundleOf(ROOT, 'collect')})\n`);
    expect(run(process.execPath, [join(ROOT, 'dist', 'scripts', 'collect.js'), '--version']).stdout).toBe(
      `collect ${VERSION} (modules)\n`,
    );
  });

  it('writes to a file and reads a redirected stdin as well as through pipes', () => {
    const p = project();
    agentWorktree(p, 'a');
    writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = spawnSync('sh', ['-c', `"${BIN}" --json --quiet - < run.json > out.json 2> err.txt`], {
      cwd: p.dir,
      env: env({ JUDGELOOP_STATE_DIR: p.state }),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(readFileSync(join(p.dir, 'err.txt'), 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(join(p.dir, 'out.json'), 'utf8')).bead).toBe('bd-1');
  });

  it('found through PATH and through a symlink, the shim still finds its checkout', () => {
    const dir = temp('judgeloop-link-');
    symlinkSync(BIN, join(dir, 'collect'));
    expect(run(join(dir, 'collect'), ['--version']).stdout).toContain(`bundle ${bundleOf(ROOT, 'collect')}`);
    const viaPath = spawnSync('sh', ['-c', 'collect --version'], {
      cwd: dir,
      env: { ...env(), PATH: `${dir}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(viaPath.stdout).toContain(`bundle ${bundleOf(ROOT, 'collect')}`);
  });

  it('the same run collected by the bundle and by the plain modules gives the same feedback', () => {
    const p = project();
    agentWorktree(p, 'a', {
      commit: { 'src/add.mjs': 'export function add(a, b) {\n  console.log(a);\n  return a + b;\n}\n' },
    });
    const rec = writeRecord(p, 'run', runRecord());
    const both = [[BIN], [process.execPath, join(ROOT, 'dist', 'scripts', 'collect.js')]].map(([cmd, ...pre]) => {
      const r = run(cmd!, [...pre, '--json', '--quiet', rec], {
        cwd: p.dir,
        env: env({ JUDGELOOP_STATE_DIR: p.state, JUDGELOOP_NOW: '2026-02-01T00:00:00Z' }),
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    });
    expect((both[0] as { scores: { lint: number } }).scores.lint).toBeLessThan(1); // the run was really measured
    expect(stable(both[0]!)).toEqual(stable(both[1]!));
  });

  it('relative paths resolve against the directory it runs in; a judgeloop look-alike there (schemas, config, package.json) is not its checkout', () => {
    const p = project();
    agentWorktree(p, 'a');
    writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    writeFileSync(join(p.dir, 'cfg.json'), JSON.stringify({ collector: { time_budget_seconds: 777 } }));
    const r = run(BIN, ['--json', '--quiet', '--config', 'cfg.json', 'run.json'], {
      cwd: p.dir,
      env: env({ JUDGELOOP_STATE_DIR: 'state' }),
    });
    expect(r.stderr).toBe('');
    const fb = JSON.parse(r.stdout);
    expect(fb.run.record_path).toBe(join(p.dir, 'run.json'));
    expect(fb.run.worktree).toBe(join(p.dir, 'wt-a'));
    expect(fb.speed.reference_seconds).toBe(777);
    expect(existsSync(join(p.dir, 'state', 'feedback', 'bd-1.json'))).toBe(true);
    // A look-alike checkout in the working directory, with its own defaults: the bundle keeps to its own.
    for (const d of ['schemas', 'config']) mkdirSync(join(p.dir, d));
    writeFileSync(join(p.dir, 'package.json'), JSON.stringify({ name: 'judgeloop', version: '9.9.9' }));
    writeFileSync(join(p.dir, 'config', 'defaults.json'), JSON.stringify({ collector: { time_budget_seconds: 1 } }));
    const again = run(BIN, ['--json', '--quiet', 'run.json'], {
      cwd: p.dir,
      env: env({ JUDGELOOP_STATE_DIR: 'state' }),
    });
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout).speed.reference_seconds).toBe(
      readJson(join(ROOT, 'config', 'defaults.json')).collector.time_budget_seconds,
    );
    expect(run(BIN, ['--version'], { cwd: p.dir }).stdout).toBe(
      `collect ${VERSION} (bundle ${bundleOf(ROOT, 'collect')})\n`,
    );
  });

  it('a copied checkout runs from its own files (config, schemas), also through a symlinked bin directory', () => {
    const copy = copyCheckout();
    const bin = join(copy, 'bin', 'collect');
    expect(run(bin, ['--version']).stdout).toContain(`bundle ${bundleOf(copy, 'collect')}`);
    const defaults = readJson(join(copy, 'config', 'defaults.json'));
    defaults.collector.time_budget_seconds = 1234;
    writeFileSync(join(copy, 'config', 'defaults.json'), JSON.stringify(defaults));
    const p = project();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = run(bin, ['--json', '--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).speed.reference_seconds).toBe(1234);
    // Reached through a symlinked bin directory: `bin/..` is the checkout (the link's target's parent), not the link's.
    const links = temp('judgeloop-links-');
    symlinkSync(join(copy, 'bin'), join(links, 'tools'));
    expect(run(join(links, 'tools', 'collect'), ['--version']).stdout).toContain(`bundle ${bundleOf(copy, 'collect')}`);
    const viaLink = run(join(links, 'tools', 'collect'), ['--json', '--quiet', rec], {
      cwd: p.dir,
      env: env({ JUDGELOOP_STATE_DIR: p.state }),
    });
    expect(viaLink.stderr).toBe('');
    expect(JSON.parse(viaLink.stdout).speed.reference_seconds).toBe(1234);
  });

  it('with no bundle (built without esbuild) every shim runs the plain modules, through a symlinked bin directory too, and a run still works', () => {
    const copy = copyCheckout();
    rmSync(join(copy, 'dist', 'bundle'), { recursive: true });
    const links = temp('judgeloop-links-');
    symlinkSync(join(copy, 'bin'), join(links, 'tools'));
    for (const c of COMMANDS) expect(chosen(join(links, 'tools', c))).toBe(join(copy, 'dist', 'scripts', `${c}.js`));
    expect(run(join(copy, 'bin', 'collect'), ['--version']).stdout).toBe(`collect ${VERSION} (modules)\n`);
    // The dispatcher, itself the plain module, imports the command's plain module beside it.
    expect(run(join(links, 'tools', 'judgeloop'), ['collect', '--version']).stdout).toBe(
      `collect ${VERSION} (modules)\n`,
    );
    const p = project();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    expect(
      run(join(links, 'tools', 'collect'), ['--quiet', rec], { cwd: p.dir, env: env({ JUDGELOOP_STATE_DIR: p.state }) })
        .code,
    ).toBe(0);
    expect(readJson(join(p.state, 'feedback', 'bd-1.json')).bead).toBe('bd-1');
  });

  it('dist/scripts compiled again after the bundles were built (tsc alone): the plain modules, not the stale bundle', () => {
    const copy = copyCheckout();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy, 'dist', 'scripts', 'collect.js'), later, later);
    expect(run(join(copy, 'bin', 'collect'), ['--version']).stdout).toBe(`collect ${VERSION} (modules)\n`);
    expect(chosen(join(copy, 'bin', 'judge'))).toBe(bundleOf(copy, 'judge'));
  });

  it('the same mtime on the bundle and the modules (npm gives the files of a tarball one fixed time): the bundle', () => {
    const copy = copyCheckout();
    const npmTime = new Date('1985-10-26T08:15:00Z');
    for (const f of [bundleOf(copy, 'collect'), join(copy, 'dist', 'scripts', 'collect.js')])
      utimesSync(f, npmTime, npmTime);
    expect(run(join(copy, 'bin', 'collect'), ['--version']).stdout).toBe(
      `collect ${VERSION} (bundle ${bundleOf(copy, 'collect')})\n`,
    );
  });

  it('schemas changed since the build: the bundle validates with the current schemas (ajv at run time), not the precompiled validators', () => {
    const copy = copyCheckout();
    // Narrow one field of the run record: a record the build's validators accept must now be refused.
    const file = join(copy, 'schemas', 'run-record.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.properties.template.maxLength = 3;
    writeFileSync(file, JSON.stringify(schema, null, 2));
    const p = project();
    agentWorktree(p, 'a');
    const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true' } }));
    const r = run(join(copy, 'bin', 'collect'), ['--quiet', rec], {
      cwd: p.dir,
      env: env({ JUDGELOOP_STATE_DIR: p.state }),
    });
    expect(r.stderr).toMatch(/\/template: .*3/);
    expect(r.code).toBe(2);
  });

  it("schemas changed since the build: the index rows' shape check is compiled from the current schema too", async () => {
    const copy = copyCheckout();
    const file = join(copy, 'schemas', 'feedback-index.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.properties.template.maxLength = 3;
    writeFileSync(file, JSON.stringify(schema, null, 2));
    const state = join(tempDir('judgeloop-shape-'), 'state');
    const store = new StateStore(state);
    const fb = makeFeedback({ bead: 'bd-1', template: 'a-long-template', outcome: 'full_pass' });
    store.write('feedback', fb.bead, fb);
    await indexFeedback(store, fb);
    const r = run(join(copy, 'bin', 'score-templates'), ['--json'], { env: env({ JUDGELOOP_STATE_DIR: state }) });
    // The stored row no longer conforms: re-read from its file, whose row the current schema refuses.
    expect(r.stderr).toMatch(/1 unreadable line/);
    expect(r.stderr).toMatch(/its index row: \/template: .*3/);
  });
});
