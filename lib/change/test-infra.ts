// Test infrastructure a solution changed (pure), by the collector's one list (`collector.test_infra_paths` and the
// test part of package.json/pyproject.toml): test_infra_changed, and test_skipped for an added deselecting option.
import type { FilePatch } from '../git/diff-parse.js';
import { PYTEST_TABLE, RUNNER_KEYS, TEST_SCRIPT, type PathMatcher } from '../git/test-paths.js';
import type { ScanFinding } from './scan.js';

const PACKAGE_JSON = /(^|\/)package\.json$/;
const PYPROJECT = /(^|\/)pyproject\.toml$/;
/** Files of INI or TOML sections: runner options count only inside a pytest section ([pytest], [tool:pytest], …). */
const SECTIONED = /\.(ini|cfg|toml)$/;
const PYTEST_SECTION = /^\s*\[\[?\s*(pytest|tool:pytest|tool\.pytest\b[^\]]*)\]/;

const DESELECT: { name: string; re: RegExp }[] = [
  {
    name: 'runner option that deselects tests (--deselect, -k, -m, --ignore, -x, name patterns)',
    re: /(^|[\s"'=[,])(--deselect|--ignore(-glob)?|-k|-m|-x|--exitfirst|--maxfail|--lf|--last-failed|--test-skip-pattern|--test-name-pattern|--testNamePattern|--testPathIgnorePatterns|-t|--grep|--exclude|-p\s*no:)(?![\w-])/,
  },
  {
    name: 'runner setting that narrows collection',
    re: /^\s*"?(testpaths|norecursedirs|python_files|python_classes|python_functions|testPathIgnorePatterns|modulePathIgnorePatterns|exclude|ignore|grep|testMatch|testRegex|include|spec)"?\s*[:=]/,
  },
];

interface Line {
  line: number;
  text: string;
  removed: boolean;
}

function sectionOf(text: string, line: number): string {
  const lines = text.split('\n');
  for (let i = line - 1; i >= 0; i--) if (/^\s*\[[^\]]+\]/.test(lines[i] ?? '')) return lines[i]!.trim();
  return '';
}

/** In a package.json, the key path a line sits under (a two-level scan of indentation is enough for the manifest). */
function packageKeyOf(text: string, line: number): string[] {
  const lines = text.split('\n');
  const path: string[] = [];
  let indent = Number.POSITIVE_INFINITY;
  for (let i = line - 1; i >= 0; i--) {
    const m = /^(\s*)"([^"]+)"\s*:/.exec(lines[i] ?? '');
    if (!m || m[1]!.length >= indent) continue;
    path.unshift(m[2]!);
    indent = m[1]!.length;
    if (indent === 0) break;
  }
  return path;
}

/** A package.json line inside a test script or a runner's key: the part the graded run takes from the trusted side. */
function packageInfra(text: string, line: number): boolean {
  const [top = '', key = ''] = packageKeyOf(text, line);
  return RUNNER_KEYS.includes(top) || (top === 'scripts' && TEST_SCRIPT.test(key));
}

/** The changed lines of a file that belong to its test infrastructure (all of them for a whole-file kind). */
function infraLines(p: FilePatch, head: string | null, base: string | null, isInfra: PathMatcher): Line[] {
  const path = p.path;
  const all: Line[] = [
    ...p.added.map((a) => ({ line: a.line, text: a.text, removed: false })),
    ...p.removedLines.map((r) => ({ line: r.line, text: r.text, removed: true })),
  ];
  if (isInfra(path) || (p.oldPath !== null && isInfra(p.oldPath)))
    return all.length ? all : [{ line: 1, text: '', removed: false }];
  const textOf = (l: Line) => (l.removed ? base : head) ?? '';
  if (PYPROJECT.test(path)) return all.filter((l) => PYTEST_TABLE.test(sectionOf(textOf(l), l.line)));
  if (PACKAGE_JSON.test(path)) return all.filter((l) => packageInfra(textOf(l), l.line));
  return [];
}

/** Whether an added infrastructure line deselects tests: in an INI/TOML file, only inside a pytest section. */
function deselects(path: string, head: string | null, l: Line): (typeof DESELECT)[number] | undefined {
  if (l.removed || /\.py$/.test(path)) return undefined;
  if (SECTIONED.test(path) && !PYTEST_SECTION.test(sectionOf(head ?? '', l.line))) return undefined;
  return DESELECT.find((d) => d.re.test(l.text));
}

/**
 * test_infra_changed (one per file, at its first changed infra line) and test_skipped for deselecting lines.
 * `isInfra`: the collector's test_infra_paths (pathMatcher), so findings and the graded tree agree.
 */
export function testInfraFindings(
  patch: FilePatch[],
  files: { path: string; head: string | null; base: string | null }[],
  isInfra: PathMatcher,
): ScanFinding[] {
  const out: ScanFinding[] = [];
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const p of patch) {
    if (p.binary && !isInfra(p.path)) continue;
    const f = byPath.get(p.path);
    const lines = infraLines(p, f?.head ?? null, f?.base ?? null, isInfra);
    if (!lines.length) continue;
    const first = lines.find((l) => !l.removed) ?? lines[0]!;
    out.push({
      kind: 'test_infra_changed',
      name: `test infrastructure changed (${lines.length} lines${p.created ? ', new file' : p.deleted ? ', file deleted' : ''}${first.removed ? `; line ${first.line} on the base` : ''})`,
      file: p.deleted ? (p.oldPath ?? p.path) : p.path,
      line: first.line,
      text: first.text.trim().slice(0, 160),
    });
    for (const l of lines) {
      const rule = deselects(p.path, f?.head ?? null, l);
      if (rule)
        out.push({
          kind: 'test_skipped',
          name: `test skipped (${rule.name})`,
          file: p.path,
          line: l.line,
          text: l.text.trim().slice(0, 160),
        });
    }
  }
  return out;
}
