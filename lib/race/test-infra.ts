// Test infrastructure a solution changed (pure): conftest.py, pytest/tox/setup.cfg/pyproject pytest sections,
// package.json test scripts and runner keys, runner configs, interpreter start-up hooks, testdata/. Each change is a
// test_infra_changed finding; a deselecting option or narrowing setting added there is also test_skipped.
import type { FilePatch } from '../git/diff-parse.js';
import type { ScanFinding } from './scan.js';

/** Files that are test infrastructure as a whole. */
const WHOLE =
  /(^|\/)(conftest\.py|pytest\.ini|sitecustomize\.py|usercustomize\.py|\.mocharc(\.\w+)?|(vitest|vite|jest|playwright|karma)\.conf(ig)?\.[cm]?[jt]s(on)?|vitest\.workspace\.[cm]?[jt]s)$|\.pth$|(^|\/)testdata\//;
/** Files of which one section is test infrastructure: the section header that starts it. */
const SECTIONED: [RegExp, RegExp][] = [
  [/(^|\/)(setup\.cfg|tox\.ini)$/, /^\s*\[(tool:pytest|pytest)\]/],
  [/(^|\/)pyproject\.toml$/, /^\s*\[tool\.pytest[^\]]*\]/],
];
const PACKAGE_JSON = /(^|\/)package\.json$/;
const PACKAGE_KEYS = ['jest', 'mocha', 'ava', 'vitest', 'c8', 'nyc', 'tap'];

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

function packageInfra(text: string, line: number): boolean {
  const path = packageKeyOf(text, line);
  // ["name"] at the top (indent 2) is path[0]; scripts' own entries are path[1].
  const top = path[0] ?? '';
  if (PACKAGE_KEYS.includes(top)) return true;
  return top === 'scripts' && /^(pre|post)?test/.test(path[1] ?? '');
}

/** The changed lines of a file that belong to its test infrastructure (all of them for a whole-file kind). */
export function infraLines(p: FilePatch, head: string | null, base: string | null): Line[] {
  const path = p.path;
  const all: Line[] = [
    ...p.added.map((a) => ({ line: a.line, text: a.text, removed: false })),
    ...p.removedLines.map((r) => ({ line: r.line, text: r.text, removed: true })),
  ];
  if (WHOLE.test(path) || WHOLE.test(p.oldPath ?? ''))
    return all.length ? all : [{ line: 1, text: '', removed: false }];
  const sectioned = SECTIONED.find(([f]) => f.test(path));
  const textOf = (l: Line) => (l.removed ? base : head) ?? '';
  if (sectioned) return all.filter((l) => sectioned[1].test(sectionOf(textOf(l), l.line)));
  if (PACKAGE_JSON.test(path)) return all.filter((l) => packageInfra(textOf(l), l.line));
  return [];
}

/** test_infra_changed (one per file, at its first changed infra line) and test_skipped for deselecting lines. */
export function testInfraFindings(
  patch: FilePatch[],
  files: { path: string; head: string | null; base: string | null }[],
): ScanFinding[] {
  const out: ScanFinding[] = [];
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const p of patch) {
    if (p.binary && !WHOLE.test(p.path)) continue;
    const f = byPath.get(p.path);
    const lines = infraLines(p, f?.head ?? null, f?.base ?? null);
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
      if (l.removed) continue;
      const rule = /\.py$/.test(p.path) ? undefined : DESELECT.find((d) => d.re.test(l.text));
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
