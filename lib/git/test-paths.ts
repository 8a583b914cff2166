// Which paths are tests or test infrastructure, and the test part of mixed files (pure).

export type PathMatcher = (path: string) => boolean;

/** A glob as a RegExp over repository paths: `**\/` any folders (or none), `*` and `?` within one name. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function pathMatcher(globs: readonly string[]): PathMatcher {
  const res = globs.map(globRegExp);
  return (p) => res.some((r) => r.test(p));
}

/** package.json scripts that are the test run, and its top-level keys that configure a test runner. */
export const TEST_SCRIPT = /^(?:pre|post)?test(?:[:._-].*)?$/;
export const RUNNER_KEYS = ['jest', 'mocha', 'vitest', 'ava', 'c8', 'nyc', 'tap'];

/**
 * The candidate's package.json or pyproject.toml with its test part from the trusted version; null when the file
 * is neither, either side does not parse, or the test parts already agree.
 */
/** Files of which only a part (the test scripts and runner keys, the pytest tables) is test infrastructure. */
export const TEST_CONFIG_FILES = new Set(['package.json', 'pyproject.toml']);

/**
 * The candidate's config file with its test part as the trusted side has it (`trusted` null: the trusted side has no
 * such file, so no test part); null when the test parts already agree or the file is not one of these.
 */
export function spliceTestConfig(path: string, candidate: string, trusted: string | null): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'package.json') return splicePackageJson(candidate, trusted);
  if (name === 'pyproject.toml') return splicePyproject(candidate, trusted);
  return null;
}

function testPart(pkg: Record<string, unknown>): Record<string, unknown> {
  const scripts = (pkg.scripts ?? {}) as Record<string, unknown>;
  const part: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(scripts)) if (TEST_SCRIPT.test(k)) part[`scripts.${k}`] = v;
  for (const k of RUNNER_KEYS) if (k in pkg) part[k] = pkg[k];
  return part;
}

function splicePackageJson(candidate: string, trusted: string | null): string | null {
  let cand: Record<string, unknown>;
  let trust: Record<string, unknown>;
  try {
    cand = JSON.parse(candidate);
    trust = trusted === null ? {} : JSON.parse(trusted);
  } catch {
    return null;
  }
  if (!isObject(cand) || !isObject(trust)) return null;
  if (JSON.stringify(testPart(cand)) === JSON.stringify(testPart(trust))) return null;
  const scripts = { ...((isObject(cand.scripts) ? cand.scripts : {}) as Record<string, unknown>) };
  for (const k of Object.keys(scripts)) if (TEST_SCRIPT.test(k)) delete scripts[k];
  const trustScripts = (isObject(trust.scripts) ? trust.scripts : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(trustScripts)) if (TEST_SCRIPT.test(k)) scripts[k] = v;
  const out: Record<string, unknown> = { ...cand, scripts };
  for (const k of RUNNER_KEYS) {
    if (k in trust) out[k] = trust[k];
    else delete out[k];
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** TOML split at table headers: [preamble, ...tables], each with its header line. */
function tomlTables(text: string): string[] {
  const parts: string[] = [];
  let cur: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*\[/.test(line) && cur.length) {
      parts.push(cur.join('\n'));
      cur = [];
    }
    cur.push(line);
  }
  parts.push(cur.join('\n'));
  return parts;
}

/**
 * A pyproject.toml table header of pytest's configuration, or of a pytest plugin the project registers (an entry point
 * in `pytest11`: installed by a setup command, pytest loads it into every run).
 */
export const PYTEST_TABLE =
  /^\s*\[\[?\s*(tool\.pytest\b|(project\.entry-points|tool\.poetry\.plugins)\.\s*["']?pytest11["']?\s*\])/;

function splicePyproject(candidate: string, trusted: string | null): string | null {
  const cand = tomlTables(candidate);
  const trust = tomlTables(trusted ?? '');
  const mine = cand.filter((t) => PYTEST_TABLE.test(t));
  const theirs = trust.filter((t) => PYTEST_TABLE.test(t));
  if (mine.join('\n').trim() === theirs.join('\n').trim()) return null;
  const kept = cand.filter((t) => !PYTEST_TABLE.test(t)).join('\n');
  return theirs.length ? `${kept.replace(/\n*$/, '\n\n')}${theirs.join('\n').replace(/\n*$/, '\n')}` : kept;
}

/** The first line (1-based) where two texts differ; null when equal. */
export function firstDifferentLine(a: string, b: string): number | null {
  if (a === b) return null;
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return i + 1;
  return null;
}
