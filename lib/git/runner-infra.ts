// What decides which tests exist and how they run, read by what each runner reads (pure; the trusted tree is read
// through a callback): runner configuration in every spelling, the test command's script chain, test libraries.
import { posix } from 'node:path';

/**
 * The runner (or interpreter) that reads `path` as its configuration or start-up by its name and place alone, else
 * null: a file of that name anywhere is obeyed (pytest finds a conftest.py in every folder it collects).
 */
export function runnerConfigOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (const [runner, re] of RUNNER_NAMES) if (re.test(name)) return runner;
  if (/(^|\/)\.cargo\/config(\.toml)?$/.test(path)) return 'cargo';
  return null;
}

const RUNNER_NAMES: [string, RegExp][] = [
  ['pytest', /^(conftest\.py|\.?pytest\.ini|tox\.ini|setup\.cfg|noxfile\.py)$/],
  ['python', /^(sitecustomize\.py|usercustomize\.py|.*\.pth)$/],
  ['vitest', /^(vitest|vite)\.(config|workspace|projects|setup)\b.*$/],
  ['jest', /^(jest\.(config|setup|preset)\b.*|jest-preset\.(js|json|cjs|mjs)|babel\.config\..*|\.babelrc.*)$/],
  ['mocha', /^(\.mocharc.*|mocha\.opts)$/],
  ['ava', /^ava\.config\..*$/],
  ['karma', /^karma\.conf.*$/],
  ['playwright', /^playwright\.config\..*$/],
  ['coverage', /^(\.nycrc.*|\.c8rc.*)$/],
  ['go', /^go\.work(\.sum)?$/],
  ['cargo', /^(build\.rs|rust-toolchain(\.toml)?)$/],
  ['rspec', /^\.rspec$/],
];

/** Folders of code the project did not write (vendored libraries): a solution's copy of one is never graded. */
const VENDOR_DIRS = new Set([
  'vendor',
  '_vendor',
  'vendored',
  'third_party',
  'third-party',
  'thirdparty',
  'node_modules',
  'site-packages',
]);
/** Test and assertion libraries by module name: a copy of one in the tree is what the tests would assert with. */
const TEST_LIBS = new Set(
  (
    'pytest _pytest py pluggy unittest doctest hypothesis mock ' +
    'chai jest vitest mocha expect should sinon assert power-assert uvu tap ava jasmine testify'
  ).split(' '),
);

/** A vendored library, or a copy of a test library (a folder or module named as one): the trusted revision's. */
export function testLibraryOf(path: string): string | null {
  const parts = path.split('/');
  const vendor = parts.slice(0, -1).find((p) => VENDOR_DIRS.has(p));
  if (vendor) return `${vendor}/`;
  for (let i = 0; i < parts.length; i++) {
    const stem = i === parts.length - 1 ? parts[i]!.replace(/\.(py|[cm]?[jt]s|go)$/, '') : parts[i]!;
    if (TEST_LIBS.has(stem) && (i < parts.length - 1 || stem !== parts[i])) return stem;
  }
  return null;
}

/** What the test command's chain runs: files taken whole, and per package.json the scripts it runs. */
export interface ScriptChain {
  files: Set<string>;
  scripts: Map<string, Set<string>>;
}

/**
 * What the graded run takes from the trusted revision, by meaning: the configured test globs, any runner's
 * configuration by name, vendored and test libraries, and every file the test command's chain runs.
 */
export function trustedPathRule(globs: (path: string) => boolean, chain: ScriptChain): (path: string) => boolean {
  return (p) => globs(p) || chain.files.has(p) || runnerConfigOf(p) !== null || testLibraryOf(p) !== null;
}

/** The trusted revision's text of a path (a blob), or null. */
export type TrustedRead = (path: string) => Promise<string | null>;

const SEPARATORS = /\s*(?:&&|\|\||;|\||\n)\s*/;
const WRAPPERS = new Set(['env', 'exec', 'command', 'nice', 'nohup', 'time', 'xvfb-run', 'npx', 'pnpx', 'bunx']);
const SCRIPT_EXT = /\.(sh|bash|py|[cm]?js|[cm]?ts|pl|rb|mk)$/;

/** Shell words of one simple command (quotes removed; no expansion). */
function words(segment: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(segment); m; m = re.exec(segment)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Dotted Python module names → the files that define them (a module, a package's __init__, under src/ too). */
function moduleFiles(mod: string): string[] {
  const p = mod.replace(/\./g, '/');
  return [`${p}.py`, `${p}/__init__.py`, `src/${p}.py`, `src/${p}/__init__.py`];
}

/** The pytest plugins a config text names (`-p name`, `pytest_plugins = [...]`), `no:` ones left out. */
function pytestPlugins(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s"'=,[])-p\s*=?\s*["']?([A-Za-z_][\w.]*)/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\bpytest_plugins\s*=\s*([[(]?[^\n\])]*[\])]?)/g))
    for (const s of m[1]!.matchAll(/["']([A-Za-z_][\w.]*)["']/g)) out.push(s[1]!);
  return out;
}

/**
 * Every file and npm script the test command runs on its way to the runner, read in the trusted revision: package.json
 * scripts (with their pre/post scripts, and the scripts they run), a make target's Makefile and what it includes, a
 * shell script it names (and what that names), node's --import/--require files, pytest's -p plugins and the plugins
 * its root configuration loads. Paths are relative to the repository root.
 */
export async function scriptChain(command: string, read: TrustedRead): Promise<ScriptChain> {
  const chain: ScriptChain = { files: new Set(), scripts: new Map() };
  const seen = new Set<string>();
  const addFile = async (p: string): Promise<string | null> => {
    const path = posix.normalize(p).replace(/^\.\//, '');
    if (path.startsWith('..') || path.startsWith('/') || chain.files.has(path)) return null;
    const text = await read(path);
    if (text === null) return null;
    chain.files.add(path);
    return text;
  };
  const runScript = async (dir: string, name: string, depth: number) => {
    const pkgPath = posix.join(dir, 'package.json');
    const text = await read(pkgPath);
    if (text === null) return;
    let scripts: Record<string, unknown> = {};
    try {
      scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {};
    } catch {
      return;
    }
    const names = chain.scripts.get(pkgPath) ?? new Set<string>();
    chain.scripts.set(pkgPath, names);
    for (const n of [`pre${name}`, name, `post${name}`]) {
      names.add(n);
      const body = scripts[n];
      if (typeof body === 'string') await commandChain(body, dir, depth + 1);
    }
  };
  const makefile = async (file: string, depth: number) => {
    const text = await addFile(file);
    if (text === null) return;
    const dir = posix.dirname(file);
    for (const line of text.split('\n')) {
      const inc = /^\s*-?s?include\s+(.+)$/.exec(line);
      if (inc) {
        for (const f of words(inc[1]!)) if (!f.includes('$')) await makefile(posix.join(dir, f), depth + 1);
      } else if (/^\t/.test(line)) await commandChain(line.replace(/^\t[@+-]*/, ''), dir, depth + 1);
    }
  };
  const commandChain = async (cmd: string, dir0: string, depth: number): Promise<void> => {
    if (depth > 8 || seen.has(`${dir0}\0${cmd}`)) return;
    seen.add(`${dir0}\0${cmd}`);
    let dir = dir0;
    for (const segment of cmd.split(SEPARATORS)) {
      let w = words(segment);
      while (w.length && (/^\w+=/.test(w[0]!) || WRAPPERS.has(w[0]!))) w = w.slice(1);
      if (w[0] === 'timeout') w = w.slice(2);
      const [head = '', ...rest] = w;
      if (head === 'cd' && rest[0]) {
        dir = posix.join(dir, rest[0]);
        continue;
      }
      const pm = /^(npm|yarn|pnpm|bun)$/.test(head);
      if (pm) {
        const args = rest.filter((a) => !a.startsWith('-'));
        const name = ['test', 't', 'tst'].includes(args[0] ?? '')
          ? 'test'
          : /^run(-script)?$/.test(args[0] ?? '')
            ? args[1]
            : head !== 'npm'
              ? args[0]
              : undefined;
        if (name) await runScript(dir, name, depth);
      }
      if (head === 'make' || head === 'gmake') {
        const c = rest.indexOf('-C');
        const mdir = c >= 0 && rest[c + 1] ? posix.join(dir, rest[c + 1]!) : dir;
        const f = rest.indexOf('-f');
        const files = f >= 0 && rest[f + 1] ? [rest[f + 1]!] : ['GNUmakefile', 'makefile', 'Makefile'];
        for (const m of files) await makefile(posix.join(mdir, m), depth);
      }
      for (let i = 0; i < w.length; i++) {
        const t = w[i]!;
        if (t === '-p' || t === '--import' || t === '--require' || t === '-r' || t === '--loader') {
          const v = w[i + 1] ?? '';
          if (t === '-p' && !v.startsWith('no:')) for (const f of moduleFiles(v)) await addFile(posix.join(dir, f));
          continue;
        }
        const v = t.replace(/^--?[\w-]+=/, '');
        if (!v.includes('/') && !SCRIPT_EXT.test(v)) continue;
        if (v.endsWith('.mk')) {
          await makefile(posix.join(dir, v), depth + 1);
          continue;
        }
        const text = await addFile(posix.join(dir, v));
        // A shell script (or one without an extension: its shebang says) is a chain of its own.
        if (text !== null && (/\.(sh|bash)$/.test(v) || (!/\.\w+$/.test(v) && text.startsWith('#!'))))
          await commandChain(text, dir, depth + 1);
      }
    }
  };
  await commandChain(command, '.', 0);
  // pytest plugins the root configuration loads (the config files themselves are runner configuration).
  for (const cfg of ['pytest.ini', '.pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml', 'conftest.py']) {
    const text = await read(cfg);
    if (text !== null) for (const p of pytestPlugins(text)) for (const f of moduleFiles(p)) await addFile(f);
  }
  return chain;
}
