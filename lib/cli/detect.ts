// The project in a folder, as its CI would set it up: the lockfile says the package manager, the manifest the checks;
// the fetch downloads (network, no project code), the setup builds (no network). Pure but for `readProject`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Detected {
  /** What was recognised, e.g. `npm (package-lock.json)`. */
  kind: string;
  fetch: string | null;
  setup: string | null;
  commands: { build: string | null; test: string | null; lint: string | null; typecheck: string | null };
}

/** The manifest files detection reads: name → text (null: absent). */
export type ProjectFiles = Record<string, string | null>;

const FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'pyproject.toml',
  'requirements.txt',
  'setup.py',
  'uv.lock',
  'go.mod',
  'Cargo.toml',
  'Cargo.lock',
] as const;

/** Downloads and caches kept inside the checkout (each command's $HOME is empty): dot-named, so `./...` skips it. */
const DEPS = '.judgeloop-deps';

/** The npm default `test` script, which only fails. */
const NO_TEST = /no test specified/;

function scripts(pkg: string | null): Record<string, string> {
  if (!pkg) return {};
  try {
    const s = (JSON.parse(pkg) as { scripts?: unknown }).scripts;
    return s && typeof s === 'object' ? (s as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function node(f: ProjectFiles): Detected | null {
  const lock = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml'].find((n) => f[n] != null);
  if (f['package.json'] == null && !lock) return null;
  const s = scripts(f['package.json'] ?? null);
  const pm = lock === 'yarn.lock' ? 'yarn' : lock === 'pnpm-lock.yaml' ? 'pnpm' : 'npm';
  const fetch = {
    npm: lock ? 'npm ci --ignore-scripts --no-audit --no-fund' : 'npm install --ignore-scripts --no-audit --no-fund',
    yarn: 'yarn install --frozen-lockfile --ignore-scripts',
    pnpm: 'pnpm install --frozen-lockfile --ignore-scripts',
  }[pm];
  // The lifecycle scripts the fetch skipped, run offline: the dependencies' (rebuild), then the project's own (a
  // candidate may add one).
  const setup =
    pm === 'pnpm'
      ? 'pnpm rebuild && pnpm run --if-present postinstall && pnpm run --if-present prepare'
      : 'npm rebuild --foreground-scripts && npm run postinstall --if-present && npm run prepare --if-present';
  const run = (name: string) => (pm === 'npm' ? `npm run ${name}` : `${pm} run ${name}`);
  const has = (name: string) => typeof s[name] === 'string' && s[name]!.trim() !== '';
  return {
    kind: `${pm} (${lock ?? 'package.json, no lockfile'})`,
    fetch,
    setup,
    commands: {
      build: has('build') ? run('build') : null,
      test: has('test') && !NO_TEST.test(s.test!) ? (pm === 'npm' ? 'npm test' : `${pm} test`) : null,
      lint: has('lint') ? run('lint') : null,
      typecheck: has('typecheck') ? run('typecheck') : null,
    },
  };
}

/** `[build-system] requires = ["setuptools>=61", "wheel"]` → the requirement strings. */
function buildRequires(pyproject: string | null): string[] {
  const m = pyproject && /\[build-system\][^[]*?requires\s*=\s*\[([^\]]*)\]/s.exec(pyproject);
  return m ? [...m[1]!.matchAll(/["']([^"']+)["']/g)].map((x) => x[1]!) : [];
}

function python(f: ProjectFiles): Detected | null {
  const pyproject = f['pyproject.toml'] ?? null;
  if (f['uv.lock'] != null)
    return {
      kind: 'uv (uv.lock)',
      fetch: `UV_CACHE_DIR=${DEPS}/uv uv sync --frozen --no-install-project --no-build`,
      setup: `UV_CACHE_DIR=${DEPS}/uv uv sync --frozen --offline`,
      commands: { build: null, test: `uv run --frozen --offline pytest`, lint: null, typecheck: null },
    };
  const reqs = f['requirements.txt'] != null;
  const installable = pyproject != null || f['setup.py'] != null;
  if (!reqs && !installable) return null;
  const wheels = `${DEPS}/wheels`;
  const q = (r: string) => `'${r.replace(/'/g, `'\\''`)}'`;
  const build = buildRequires(pyproject);
  const fetch = [
    ...(reqs ? [`python3 -m pip download -q -d ${wheels} -r requirements.txt`] : []),
    ...(build.length ? [`python3 -m pip download -q -d ${wheels} ${build.map(q).join(' ')}`] : []),
  ];
  // The venv sees the machine's packages (pytest, a build backend, pip itself, so no ensurepip: 6.2 s → 0.3 s of CPU a
  // checkout) besides what was downloaded; a python without pip gets one from ensurepip, offline. -I: the checkout's
  // folder is not on sys.path, so a candidate's `pip/` or `pip.py` at its root is never what runs.
  const pip = `.venv/bin/python -I -m pip install -q --no-index --find-links ${wheels}`;
  const setup = [
    'python3 -m venv --system-site-packages --without-pip .venv',
    '{ .venv/bin/python -I -c "import pip" 2>/dev/null || .venv/bin/python -I -m ensurepip; }',
    ...(reqs ? [`${pip} -r requirements.txt`] : []),
    ...(installable ? [`${pip} --no-build-isolation --no-deps -e .`] : []),
  ];
  return {
    kind: `pip (${[reqs ? 'requirements.txt' : '', pyproject != null ? 'pyproject.toml' : f['setup.py'] != null ? 'setup.py' : ''].filter(Boolean).join(', ')})`,
    fetch: fetch.length ? `mkdir -p ${wheels} && ${fetch.join(' && ')}` : null,
    setup: setup.join(' && '),
    commands: { build: null, test: '.venv/bin/python -m pytest', lint: null, typecheck: null },
  };
}

function go(f: ProjectFiles): Detected | null {
  if (f['go.mod'] == null) return null;
  const env = `GOMODCACHE="$(pwd)/${DEPS}/gomod" GOFLAGS="-mod=readonly -modcacherw"`;
  return {
    kind: 'go (go.mod)',
    fetch: `${env} go mod download`,
    setup: null,
    commands: { build: `${env} go build ./...`, test: `${env} go test ./...`, lint: null, typecheck: null },
  };
}

function cargo(f: ProjectFiles): Detected | null {
  if (f['Cargo.toml'] == null) return null;
  const env = `CARGO_HOME="$(pwd)/${DEPS}/cargo"`;
  const locked = f['Cargo.lock'] != null ? ' --locked' : '';
  return {
    kind: `cargo (${f['Cargo.lock'] != null ? 'Cargo.lock' : 'Cargo.toml, no lockfile'})`,
    fetch: `${env} cargo fetch${locked}`,
    setup: null,
    commands: {
      build: `${env} cargo build --offline${locked}`,
      test: `${env} cargo test --offline${locked}`,
      lint: null,
      typecheck: null,
    },
  };
}

/** The project the files describe (the first of node, python, go, cargo found), or null. */
export function detectProject(f: ProjectFiles): Detected | null {
  return node(f) ?? python(f) ?? go(f) ?? cargo(f);
}

/** The manifest files of the folder `dir`, for detectProject. */
export function readProject(dir: string): ProjectFiles {
  const out: ProjectFiles = {};
  for (const n of FILES) {
    const p = join(dir, n);
    out[n] = existsSync(p) ? readFileSync(p, 'utf8') : null;
  }
  return out;
}
