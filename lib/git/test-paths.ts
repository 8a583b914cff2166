// Which paths are tests or test infrastructure, and the test part of mixed files (pure).
import { CARGO_TEST_TABLE, spliceGoMod, spliceRustTests, spliceTomlTables } from './test-parts.js';

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

/** Files of which only a part is test infrastructure: manifests' test parts, Rust sources' `#[cfg(test)]` modules. */
const TEST_CONFIG_FILES = new Set(['package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod']);

/** Whether a path may hold a test part (a manifest above, or Rust source whose test modules the trusted side owns). */
export function hasTestPart(path: string): boolean {
  return TEST_CONFIG_FILES.has(path.slice(path.lastIndexOf('/') + 1)) || path.endsWith('.rs');
}

/**
 * The candidate's file with its test part as the trusted side has it (`trusted` null: the trusted side has no such
 * file, so no test part); null when the test parts already agree or the file has none. `scripts`: per package.json
 * path, the scripts the test command's chain runs (runner-infra.ts), test parts beside the `test*` ones.
 */
export function spliceTestConfig(
  path: string,
  candidate: string,
  trusted: string | null,
  scripts: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'package.json') return splicePackageJson(candidate, trusted, scripts.get(path) ?? new Set());
  if (name === 'pyproject.toml') return spliceTomlTables(candidate, trusted, PYTEST_TABLE);
  if (name === 'Cargo.toml') return spliceTomlTables(candidate, trusted, CARGO_TEST_TABLE);
  if (name === 'go.mod') return spliceGoMod(candidate, trusted);
  if (path.endsWith('.rs')) return spliceRustTests(candidate, trusted);
  return null;
}

function testPart(pkg: Record<string, unknown>, isTest: (k: string) => boolean): Record<string, unknown> {
  const scripts = (isObject(pkg.scripts) ? pkg.scripts : {}) as Record<string, unknown>;
  const part: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(scripts)) if (isTest(k)) part[`scripts.${k}`] = v;
  for (const k of RUNNER_KEYS) if (k in pkg) part[k] = pkg[k];
  return part;
}

function splicePackageJson(candidate: string, trusted: string | null, chain: ReadonlySet<string>): string | null {
  const isTest = (k: string) => TEST_SCRIPT.test(k) || chain.has(k);
  let cand: Record<string, unknown>;
  let trust: Record<string, unknown>;
  try {
    cand = JSON.parse(candidate);
    trust = trusted === null ? {} : JSON.parse(trusted);
  } catch {
    return null;
  }
  if (!isObject(cand) || !isObject(trust)) return null;
  if (JSON.stringify(testPart(cand, isTest)) === JSON.stringify(testPart(trust, isTest))) return null;
  const scripts = { ...((isObject(cand.scripts) ? cand.scripts : {}) as Record<string, unknown>) };
  for (const k of Object.keys(scripts)) if (isTest(k)) delete scripts[k];
  const trustScripts = (isObject(trust.scripts) ? trust.scripts : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(trustScripts)) if (isTest(k)) scripts[k] = v;
  const out: Record<string, unknown> = { ...cand, scripts };
  for (const k of RUNNER_KEYS) {
    if (k in trust) out[k] = trust[k];
    else delete out[k];
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A pyproject.toml table header of pytest's configuration, or of a pytest plugin the project registers (an entry point
 * in `pytest11`: installed by a setup command, pytest loads it into every run).
 */
export const PYTEST_TABLE =
  /^\s*\[\[?\s*(tool\.pytest\b|(project\.entry-points|tool\.poetry\.plugins)\.\s*["']?pytest11["']?\s*\])/;

/** The first line (1-based) where two texts differ; null when equal. */
export function firstDifferentLine(a: string, b: string): number | null {
  if (a === b) return null;
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) return i + 1;
  return null;
}
