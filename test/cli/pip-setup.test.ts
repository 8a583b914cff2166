// init's pip setup as written, run offline for real: the venv borrows the machine's pip (no ensurepip), and a python3
// whose site-packages are gone (the machine's interpreter, copied, its standard library linked) gets pip from ensurepip.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectProject, readProject } from '../../lib/cli/detect.js';
import { tempDir } from '../helpers/temp.js';
import { writeTree } from '../helpers/repo.js';

const run = (cwd: string, cmd: string, path = process.env.PATH ?? '') =>
  spawnSync('sh', ['-c', cmd], { cwd, encoding: 'utf8', env: { ...process.env, PATH: path } });

/** `python3 <code>`'s stdout, failing with the command that installs python3 when it cannot run. */
function py(code: string, cwd = '.'): string {
  const r = spawnSync('python3', ['-c', code], { cwd, encoding: 'utf8' });
  expect(r.status, `python3 failed (apt-get install python3 python3-venv): ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}

/** A python3 with no site-packages: the machine's interpreter copied to `dir/bin`, its standard library linked. */
function piplessPython(dir: string): string {
  const [exe, stdlib] = py(
    'import os, sys, sysconfig; print(os.path.realpath(sys.executable)); print(sysconfig.get_paths()["stdlib"])',
  ).split('\n') as [string, string];
  const lib = join(dir, 'lib', stdlib.split('/').pop()!);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(lib, { recursive: true });
  copyFileSync(exe, join(dir, 'bin', 'python3'));
  chmodSync(join(dir, 'bin', 'python3'), 0o755);
  for (const e of readdirSync(stdlib))
    if (e !== 'site-packages' && e !== 'dist-packages') symlinkSync(join(stdlib, e), join(lib, e));
  return join(dir, 'bin');
}

/** A real wheel of one module, as the fetch's `pip download` would leave it in the wheels folder. */
function tinyWheel(dir: string): void {
  py(
    `import zipfile
with zipfile.ZipFile("tinydep-1.0-py3-none-any.whl", "w") as z:
    z.writestr("tinydep.py", "ANSWER = 42\\n")
    z.writestr("tinydep-1.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: tinydep\\nVersion: 1.0\\n")
    z.writestr("tinydep-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr("tinydep-1.0.dist-info/RECORD", "")`,
    dir,
  );
}

/** What init detects in `dir`. */
function detected(dir: string) {
  const d = detectProject(readProject(dir));
  expect(d?.kind).toBe('pip (requirements.txt)');
  return d!;
}

/** A clean checkout with the fetched wheel, the setup run in a namespace with no network; what the venv then holds. */
function setUp(path: string, files: Record<string, string> = {}) {
  const dir = tempDir('judgeloop-pip-setup-');
  writeTree(dir, { 'requirements.txt': 'tinydep==1.0\n', ...files });
  const setup = detected(dir).setup!;
  mkdirSync(join(dir, '.judgeloop-deps', 'wheels'), { recursive: true });
  tinyWheel(join(dir, '.judgeloop-deps', 'wheels'));
  const r = run(dir, `exec bwrap --dev-bind / / --unshare-net sh -c '${setup.replace(/'/g, `'\\''`)}'`, path);
  expect(r.status, `${setup}\n${r.stderr}\n${r.stdout} (apt-get install bubblewrap python3-venv)`).toBe(0);
  const where = run(
    dir,
    '.venv/bin/python -I -c "import os, pip, tinydep; print(os.path.realpath(pip.__file__)); print(os.path.realpath(tinydep.__file__)); print(tinydep.ANSWER)"',
  );
  expect(where.status, where.stderr).toBe(0);
  const [pip, dep, answer] = where.stdout.trim().split('\n');
  return { dir: realpathSync(dir), out: r.stdout + r.stderr, pip: pip!, dep: dep!, answer };
}

describe("init's setup for a pip project (requirements.txt)", () => {
  it('makes the venv without pip and installs with `.venv/bin/python -I -m pip`, from the fetched wheels only', () => {
    const dir = tempDir('judgeloop-pip-detect-');
    writeTree(dir, { 'requirements.txt': 'tinydep==1.0\n' });
    const { setup } = detected(dir);
    expect(setup).toMatch(/^python3 -m venv --system-site-packages --without-pip \.venv && /);
    expect(setup).toContain('.venv/bin/python -I -m pip install -q --no-index --find-links .judgeloop-deps/wheels');
    expect(setup).not.toContain('.venv/bin/pip ');
  });

  it("with the machine's pip: the venv has no pip of its own, the wheel is installed into the venv, offline", () => {
    const has = run('.', 'python3 -m pip --version');
    expect(has.status, `the machine's python3 has no pip (apt-get install python3-pip): ${has.stderr}`).toBe(0);
    const s = setUp(process.env.PATH ?? '');
    expect(s.pip.startsWith(`${s.dir}/`), s.pip).toBe(false);
    expect(s.dep).toMatch(new RegExp(`^${s.dir}/\\.venv/lib/python[\\d.]+/site-packages/tinydep\\.py$`));
    expect(s.answer).toBe('42');
    expect(s.out).not.toMatch(/ensurepip|Installing collected packages: .*pip/);
  });

  it('with a python3 that has no pip module: ensurepip puts one in the venv, offline, and the wheel is installed', () => {
    const bin = piplessPython(tempDir('judgeloop-pipless-'));
    const path = `${bin}:${process.env.PATH ?? ''}`;
    const control = run('.', 'python3 -m pip --version', path);
    expect(control.stderr).toContain('No module named pip');
    expect(control.status).not.toBe(0);
    const s = setUp(path);
    expect(s.pip).toMatch(new RegExp(`^${s.dir}/\\.venv/lib/python[\\d.]+/site-packages/pip/__init__\\.py$`));
    expect(s.dep).toMatch(new RegExp(`^${s.dir}/\\.venv/lib/python[\\d.]+/site-packages/tinydep\\.py$`));
    expect(s.answer).toBe('42');
    expect(existsSync(join(s.dir, '.venv', 'pyvenv.cfg'))).toBe(true);
  });

  it("a candidate's own `pip` package at its root never runs in the setup: the machine's pip installs the wheel", () => {
    const marks = tempDir('judgeloop-pip-shadow-');
    const plant = (name: string) =>
      `import pathlib\npathlib.Path(${JSON.stringify(join(marks, name))}).write_text("ran")\nraise SystemExit(0)\n`;
    const s = setUp(process.env.PATH ?? '', {
      'pip/__init__.py': plant('pip-package'),
      'pip/__main__.py': plant('pip-main'),
      'ensurepip.py': plant('ensurepip'),
    });
    expect(readdirSync(marks)).toEqual([]);
    expect(s.pip.startsWith(`${s.dir}/`), s.pip).toBe(false);
    expect(s.answer).toBe('42');
  });
});
