// Every command of lib/cli/commands/names.ts through its real bin/ shim and bin/judgeloop (after `npm run build`), its
// aliases and flag errors in-process; the completion script (printed once per shell) sourced in a real bash and zsh.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { readEnv } from '../../lib/base/env.js';
import { execute, type CommandRun } from '../../lib/cli/cli.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { COMMAND_NAMES } from '../../lib/cli/commands/names.js';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const NAMES: readonly string[] = COMMAND_NAMES;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };

function run(cmd: string, args: string[]) {
  const r = spawnSync(join(ROOT, 'bin', cmd), args, { cwd: ROOT, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const viaJudgeloop = (cmd: string, args: string[]) => run('judgeloop', [cmd, ...args]);

const PREFIX = Symbol.for('judgeloop.command-prefix'); // set by bin/judgeloop's dispatch (lib/cli/command.ts)
/**
 * scripts/<cmd>.ts's run in this process through lib/cli/cli.ts's execute (what bin/<cmd> runs): the exit code and
 * output. The dispatcher's prefix it may set is undone after, as each bin/ process starts without one.
 */
async function inProcess(cmd: string, args: string[]) {
  const mod = (await import(`../../scripts/${cmd}.ts`)) as { run: CommandRun };
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (t: string) => out.push(t),
    stderr: (t: string) => err.push(t),
    env: readEnv(env),
    processEnv: env,
    cwd: ROOT,
    color: false,
  };
  const g = globalThis as Record<symbol, unknown>;
  const had = g[PREFIX];
  try {
    const code = await execute(mod.run, args, io);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    if (had === undefined) delete g[PREFIX];
    else g[PREFIX] = had;
  }
}

/** The definition's longest flag with two neighbouring letters swapped: a typo one edit away. */
function typo(flag: string): string {
  const i = Math.floor(flag.length / 2);
  return flag.slice(0, i - 1) + flag[i] + flag[i - 1] + flag.slice(i + 1);
}

describe('every command answers --help, --version and a misspelt flag', () => {
  it('the definitions, scripts/ and bin/ hold the commands of names.ts; package.json installs judgeloop and jl only', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(NAMES);
    const scripts = readdirSync(join(ROOT, 'scripts')).map((f) => f.replace(/\.ts$/, ''));
    expect(scripts.sort()).toEqual([...NAMES, 'judgeloop'].sort());
    expect(readdirSync(join(ROOT, 'bin')).sort()).toEqual([...NAMES, 'judgeloop'].sort());
    expect(pkg.bin).toEqual({ judgeloop: 'bin/judgeloop', jl: 'bin/judgeloop' });
  });

  it.each(NAMES)('%s', async (name) => {
    const def = COMMANDS.find((c) => c.name === name)!;
    // The real bin/ shim and the dispatcher, once each for what only they show (the bundle run, its version line).
    const help = run(name, ['--help']);
    expect(help, `${name} --help`).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(new RegExp(`^usage: ${name} `));
    await expect(help.stdout).toMatchFileSnapshot(`./__snapshots__/help/${name}.txt`);
    // The aliases and flag errors are parse()'s (lib/cli/command.ts), the same in every bundle: in-process here.
    expect(await inProcess(name, ['--help'])).toEqual(help);
    expect(await inProcess(name, ['-h'])).toEqual(help);

    const version = run(name, ['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toBe(`${name} ${pkg.version} (bundle ${join(ROOT, 'dist', 'bundle', `${name}.mjs`)})\n`);
    const modules = { code: 0, stdout: `${name} ${pkg.version} (modules)\n`, stderr: '' };
    expect(await inProcess(name, ['--version'])).toEqual(modules);
    expect(await inProcess(name, ['-V'])).toEqual(modules);
    // Through the dispatcher: the same answers as typed there (`judgeloop <command>` in usage and examples, nothing
    // else changed), the same bundle's version line, errors included.
    const via = viaJudgeloop(name, ['--help']);
    expect(via).toMatchObject({ code: 0, stderr: '' });
    expect(via.stdout).toMatch(new RegExp(`^usage: judgeloop ${name} `));
    const plain = (t: string) => t.replaceAll('judgeloop ', '').replace(/ +/g, ' '); // usage lines indent further
    expect(plain(via.stdout)).toBe(plain(help.stdout));
    const examples = via.stdout.slice(via.stdout.indexOf('\nExamples:\n')).split('\n').slice(2);
    const bare = new RegExp(`(^ {2}(\\S+=\\S+ )?|\\| |<\\()(${NAMES.join('|')})( |$)`);
    for (const e of examples) expect(e, `${name} example`).not.toMatch(bare);
    expect(examples.join('\n')).toContain(`judgeloop ${name} `);
    expect(await inProcess('judgeloop', ['help', name])).toEqual(via);
    // The dispatcher's own answers: in-process (the real ones, the bundle's version line, in the judgeloop case below).
    expect(await inProcess('judgeloop', [name, '--version'])).toEqual(modules);

    const flag = Object.keys(def.flags).sort((a, b) => b.length - a.length)[0]!;
    const bad = typo(flag);
    expect(bad).not.toBe(flag);
    expect(await inProcess(name, ['--' + bad])).toEqual({
      code: 2,
      stdout: '',
      stderr: `${name}: unknown option '--${bad}' (did you mean '--${flag}'?); see '${name} --help'\n`,
    });
    expect(await inProcess('judgeloop', [name, '--' + bad])).toEqual({
      code: 2,
      stdout: '',
      stderr: `${name}: unknown option '--${bad}' (did you mean '--${flag}'?); see 'judgeloop ${name} --help'\n`,
    });
    const jsonn = await inProcess(name, ['--jsonn']);
    expect(jsonn).toMatchObject({ code: 2, stdout: '' });
    expect(jsonn.stderr).toBe(
      `${name}: unknown option '--jsonn'${'json' in def.flags ? " (did you mean '--json'?)" : ''}; see '${name} --help'\n`,
    );
  });
});

/** What the completion function offers for the words typed (the last one being completed), in `shell`. */
function complete(shell: 'bash' | 'zsh', words: string[]): string[] {
  const script = `source "${completionScript(shell)}"
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()
_judgeloop_complete
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync(shell, shell === 'zsh' ? ['-f', '-c', script] : ['-c', script], {
    env: shellEnv,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

// zsh's compinit writes ~/.zcompdump: a home of its own.
const home = mkdtempSync(join(tmpdir(), 'judgeloop-completion-'));
const shellEnv = { ...env, HOME: home };
afterAll(() => rmSync(home, { recursive: true, force: true }));

const printed = new Map<string, string>();
/** What the real `bin/config --completion <shell>` prints, in a file: printed once per shell, sourced by every case. */
function completionScript(shell: 'bash' | 'zsh'): string {
  let file = printed.get(shell);
  if (file === undefined) {
    const r = run('config', ['--completion', shell]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    file = join(home, `completion.${shell}`);
    writeFileSync(file, r.stdout);
    printed.set(shell, file);
  }
  return file;
}

describe('config --completion', () => {
  it("bash: flags, a subcommand, a flag's choices, files after a flag that takes one; every command registered", () => {
    expect(complete('bash', ['rate', '--qua'])).toEqual(['--quality']);
    expect(complete('bash', ['/some/where/bin/record', '--st'])).toEqual(['--started-at', '--status']);
    expect(complete('bash', ['agents', 'di'])).toEqual(['disable']);
    expect(complete('bash', ['agents', '--config', 'x.json', ''])).toEqual(
      COMMANDS.find((c) => c.name === 'agents')!.subcommands!.map((s) => s.name),
    );
    expect(complete('bash', ['agents', 'add', 'a1', ''])).toEqual([]);
    expect(complete('bash', ['parse-output', '--format', 'j'])).toEqual(['junit', 'jest-json']);
    expect(complete('bash', ['collect', '--config', ''])).toEqual([]);
    expect(complete('bash', ['judge', '-'])).toEqual([
      ...Object.keys(COMMANDS.find((c) => c.name === 'judge')!.flags).map((f) => `--${f}`),
      '--help',
      '-h',
      '--version',
      '-V',
    ]);
    const r = spawnSync('bash', ['-c', `source "${completionScript('bash')}"; complete -p`], {
      env,
      encoding: 'utf8',
    });
    for (const name of ['judgeloop', 'jl', ...NAMES])
      expect(r.stdout).toContain(`complete -o default -F _judgeloop_complete ${name}\n`);
  });

  it('bash: judgeloop <command> completes the command, then its words one further on', () => {
    expect(complete('bash', ['judgeloop', 'ra'])).toEqual(['race', 'rate', 'ratings']);
    expect(complete('bash', ['/usr/local/bin/jl', 'help', 'sc'])).toEqual(['score-templates']);
    expect(complete('bash', ['judgeloop', 'help', 'rate', ''])).toEqual([]);
    expect(complete('bash', ['judgeloop', 'rate', '--qua'])).toEqual(['--quality']);
    expect(complete('bash', ['jl', 'agents', '--config', 'x.json', 'di'])).toEqual(['disable']);
    expect(complete('bash', ['judgeloop', 'agents', 'add', ''])).toEqual([]);
    expect(complete('bash', ['judgeloop', 'parse-output', '--format', 'j'])).toEqual(['junit', 'jest-json']);
    expect(complete('bash', ['judgeloop', ''])).toEqual(['help', ...NAMES, '--help', '--version']);
  });

  it('judgeloop: help lists every command; an unknown command names the closest; no command is a usage error', () => {
    const help = run('judgeloop', ['help']);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toContain(`\n  ${c.name.padEnd(15)}  ${c.summary}\n`);
    expect(run('judgeloop', ['--help'])).toEqual(help);
    expect(run('judgeloop', [])).toEqual({ code: 2, stdout: '', stderr: help.stdout });
    expect(run('judgeloop', ['colect'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "judgeloop: unknown command 'colect' (did you mean 'collect'?); see 'judgeloop help'\n",
    });
    expect(run('judgeloop', ['help', 'nope']).code).toBe(2);
    expect(run('judgeloop', ['--json']).stderr).toBe(
      "judgeloop: expected a command before '--json'; see 'judgeloop help'\n",
    );
    expect(run('judgeloop', ['--hepl'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "judgeloop: expected a command before '--hepl' (did you mean '--help'?); see 'judgeloop help'\n",
    });
    expect(run('judgeloop', ['--version']).stdout).toBe(
      `judgeloop ${pkg.version} (bundle ${join(ROOT, 'dist', 'bundle', 'judgeloop.mjs')})\n`,
    );
    // A command through the real dispatcher: its own bundle's version line, its flag errors with the prefix, exit 2.
    expect(viaJudgeloop('rate', ['--version'])).toEqual(run('rate', ['--version']));
    expect(viaJudgeloop('rate', ['--qaulity'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "rate: unknown option '--qaulity' (did you mean '--quality'?); see 'judgeloop rate --help'\n",
    });
  });

  it('zsh (installed by .ci/run; fails without it rather than skip): the same function through bashcompinit (zsh filters the words itself)', () => {
    expect(complete('zsh', ['rate', '--qua'])).toContain('--quality');
    expect(complete('zsh', ['agents', '--json', ''])).toEqual(['add', 'set', 'enable', 'disable', 'list', 'rebuild']);
    expect(complete('zsh', ['agents', 'add', 'a1', ''])).toEqual([]);
    const r = spawnSync('zsh', ['-f', '-c', `source "${completionScript('zsh')}"; print -r -- $_comps[race]`], {
      env: shellEnv,
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('_bash_complete -o default -F _judgeloop_complete\n');
  });

  it('an unknown shell is a usage error', () => {
    expect(run('config', ['--completion', 'fish'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'config: --completion "fish": expected bash or zsh\n',
    });
  });
});
