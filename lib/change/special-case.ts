// Special-casing found by meaning (pure): literals of the graded tests that turn up in code a solution added,
// whatever the syntax around them. The rule and its trivial literals: docs/design/race.md.
import type { FilePatch } from '../git/diff-parse.js';
import { SOURCE_FILE } from './files.js';
import { literalsOf, tokenize, type Literal, type Token } from './literals.js';
import type { ScanFinding } from './scan.js';
import { type IsTest, testName } from './test-findings.js';

/** `name`: a class, function or constant a test file declares (and the tests' own names), as a string in code. */
type LiteralRole = 'input' | 'expected' | 'name';
export interface TestLiteral {
  role: LiteralRole;
  /** `path::test` of the first test that holds it. */
  test: string;
}

/** Calls whose arguments are expectations. */
const ASSERT_CALL =
  /^(assert\w*|expect|equal|strictEqual|deepEqual|deepStrictEqual|notEqual|notStrictEqual|toBe|toEqual|toStrictEqual|toMatch\w*|toContain\w*|toHave\w*|ok|is|eq|check|fail|Equal|Equals|same|Error|Errorf|Fatal|Fatalf|assert_eq|assert_ne|raises)$/;
/** Calls whose arguments are labels, paths or plumbing, neither inputs nor expectations. */
const LABEL_CALL =
  /^(it|test|describe|specify|suite|context|xit|fit|xdescribe|skip|only|todo|subTest|skipTest|skipIf|skipUnless|mark|reason|print|log|info|warn|debug|require|import|join|resolve|open|Path|readFile\w*|getenv|fixture|Run|Skip|Skipf|Log|Logf|format|f)$/;
const KEYWORD =
  /^(if|elif|else|for|while|return|switch|case|in|of|not|and|or|with|await|yield|lambda|def|function|new|typeof|catch|match|when|range|len)$/;

interface Frame {
  callee: string;
  commas: number;
  close: string;
}

/** Per line of a test file, the test it belongs to (Python decorators belong to the def below them). */
function enclosingTests(text: string): (string | null)[] {
  const lines = text.split('\n');
  const out: (string | null)[] = new Array(lines.length + 1).fill(null);
  let current: string | null = null;
  let pending = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const name = testName(l);
    if (name) {
      if (pending >= 0) for (let k = pending; k < i; k++) out[k + 1] = name;
      current = name;
      pending = -1;
    } else if (/^\s*@/.test(l) && pending < 0) pending = i;
    else if (/^\s*(class|def|async def)\s/.test(l)) pending = -1;
    out[i + 1] = current;
  }
  return out;
}

function frameOpen(ts: Token[], i: number): Frame {
  const t = ts[i]!;
  const prev = ts[i - 1];
  const close = t.text === '(' ? ')' : t.text === '[' ? ']' : '}';
  const callee = t.text === '(' && prev?.kind === 'id' && !KEYWORD.test(prev.text) ? prev.text : '';
  return { callee, commas: 0, close };
}

/** The role of a literal starting at token i, given the open brackets; null when it is neither. */
function roleOf(
  ts: Token[],
  lit: Literal,
  stack: Frame[],
  inAssert: boolean,
  helpers: Set<string>,
): LiteralRole | null {
  const named = [...stack].reverse().find((f) => f.callee !== '');
  const top = stack[stack.length - 1];
  if (named) {
    // A helper the test file defines (`check(t, "1h", 3600)`) takes a row: inputs first, the expectation last.
    if (helpers.has(named.callee) && named === top) return rowRole(ts, lit, top);
    if (LABEL_CALL.test(named.callee)) return null;
    if (ASSERT_CALL.test(named.callee)) return 'expected';
    if (!/^(parametrize|each|cases)$/.test(named.callee) || stack[stack.length - 1] === named) return 'input';
  } else if (inAssert) return 'expected';
  if (!top) {
    const prev = ts[lit.at - 1]?.text;
    return prev === '=' || prev === ':=' ? 'input' : null;
  }
  if (lit.key.startsWith('c:')) return 'input'; // a row of a table is its inputs and expectation together
  return rowRole(ts, lit, top);
}

/** A row of a table ((input, …, expected) in parametrize or a list of cases): its last element is the expectation. */
function rowRole(ts: Token[], lit: Literal, top: Frame): LiteralRole {
  const last = ts[lit.end]?.text === top.close || (ts[lit.end]?.text === ',' && ts[lit.end + 1]?.text === top.close);
  return last && top.commas > 0 ? 'expected' : 'input';
}

/** Functions a test file defines that are not tests themselves (Python def, Go func, JS function or arrow const). */
const HELPER_DEF =
  /^\s*(?:def|func|(?:export\s+)?(?:async\s+)?function)\s+(\w+)\s*\(|^\s*(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>/gm;
function testHelpers(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(HELPER_DEF)) {
    const name = m[1] ?? m[2]!;
    if (!/^(test|Test)/.test(name) && !/^(setUp|tearDown|setup|teardown)\w*$/.test(name)) out.add(name);
  }
  return out;
}

/** Classes, functions and constants a test file declares (tests included): names only the tests define. */
const DECLARED =
  /^\s*(?:class|def|async\s+def|func(?:\s+\([^)]*\))?|(?:export\s+)?(?:async\s+)?function\*?)\s+(\w+)|^(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Z][A-Z0-9_]{3,})\s*(?::[^=]+)?=(?!=)/gm;
function declaredNames(text: string): string[] {
  return [...text.matchAll(DECLARED)].map((m) => (m[1] ?? m[2])!).filter((n) => n.length >= 4);
}

/** The literals of test files by key, with their role and the first test that holds each. */
export function testLiterals(files: { path: string; text: string }[]): Map<string, TestLiteral> {
  const out = new Map<string, TestLiteral>();
  for (const f of files) {
    const ts = tokenize(f.path, f.text);
    const lits = literalsOf(ts);
    const tests = enclosingTests(f.text);
    const helpers = testHelpers(f.text);
    let li = 0;
    const stack: Frame[] = [];
    let assertLine = -1;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i]!;
      if (assertLine >= 0 && stack.length === 0 && t.line !== assertLine) assertLine = -1;
      if (t.kind === 'id' && t.text === 'assert' && stack.length === 0) assertLine = t.line;
      while (li < lits.length && lits[li]!.at === i) {
        const lit = lits[li++]!;
        // Numbers inside a list literal count only as the list.
        const inComposite = stack.length > 0 && stack[stack.length - 1]!.callee === '' && lit.key.startsWith('n:');
        const role = roleOf(ts, lit, stack, assertLine >= 0, helpers);
        if (!role || (inComposite && isComposite(ts, stack))) continue;
        const name = tests[lit.line];
        const prevRole = out.get(lit.key);
        if (!prevRole || (prevRole.role === 'expected' && role === 'input'))
          out.set(lit.key, { role, test: name ? `${f.path}::${name}` : f.path });
      }
      if (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) stack.push(frameOpen(ts, i));
      else if (t.kind === 'punct' && stack.length && t.text === stack[stack.length - 1]!.close) stack.pop();
      else if (t.text === ',' && stack.length) stack[stack.length - 1]!.commas++;
    }
    // After the literals: a name the file declares is a lookup key only when no test spells it as a literal.
    for (const name of declaredNames(f.text))
      if (!out.has(`s:${name}`)) out.set(`s:${name}`, { role: 'name', test: f.path });
  }
  return out;
}

/** Whether the innermost open bracket is a list/tuple literal (not a call's argument list). */
function isComposite(_ts: Token[], stack: Frame[]): boolean {
  const top = stack[stack.length - 1];
  return top !== undefined && top.callee === '';
}

/** Numbers a fix holds for their own sake: small integers, powers of ten and two, time and size units. */
const ROUND = new Set([12, 24, 60, 100, 128, 255, 256, 365, 512, 1000, 1024, 3600, 86400, 0.5, 0.25, 0.1, 0.01]);
const COMMON_STRINGS = new Set(['utf-8', 'utf8', 'ascii', 'latin-1', 'true', 'false', 'none', 'null', 'id', 'name']);

/** The stated rule: literals too common to tell special-casing from ordinary code. */
export function trivialLiteral(key: string, size = 0): boolean {
  if (key.startsWith('n:')) {
    const n = Math.abs(Number(key.slice(2)));
    return (Number.isInteger(n) && n < 10) || ROUND.has(n) || (Number.isInteger(n) && Number.isInteger(Math.log10(n)));
  }
  if (key.startsWith('s:')) {
    const s = key.slice(2);
    return s.trim().length < 2 || COMMON_STRINGS.has(s.toLowerCase());
  }
  // A list of two trivial values ([0, 1], ("a", "b")) is no evidence; three or more elements, or one telling value, are.
  if (size >= 3) return false;
  const parts = key.slice(2).match(/[sn]:[^,\]}=]+/g) ?? [];
  return parts.every((p) => trivialLiteral(p));
}

const PY_IMPORT = /^\s*(?:from\s+([.\w]+)\s+import\s+([\w\s,()*]+)|import\s+([\w.,\s]+))/gm;
const JS_IMPORT = /(?:from\s+|require\s*\(\s*|import\s*\(\s*|import\s+)(['"])([^'"]+)\1/g;

/** Module names a file imports (Python dotted parts and imported names, JS specifier basenames without extension). */
function importedNames(path: string, text: string): Set<string> {
  const out = new Set<string>();
  if (/\.pyi?$/.test(path)) {
    for (const m of text.matchAll(PY_IMPORT))
      for (const part of `${m[1] ?? ''} ${m[2] ?? ''} ${m[3] ?? ''}`.split(/[\s,.()]+/)) if (part) out.add(part);
    return out;
  }
  for (const m of text.matchAll(JS_IMPORT))
    out.add(
      m[2]!
        .split('/')
        .pop()!
        .replace(/\.(m?[jt]s|cjs|cts|jsx|tsx|json)$/, ''),
    );
  return out;
}

const stem = (p: string) =>
  p
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '');
const DATA_FILE = /\.(json|ya?ml|toml|csv|tsv|ini|cfg|txt)$/i;

/**
 * The changed files that are code for this purpose: source files that are not tests, plus any changed file (test
 * helper or data) that such code imports or names — no path is exempt once code depends on it.
 */
function codeFiles(files: { path: string; head: string | null }[], isTest: (path: string) => boolean): string[] {
  const code = files.filter((f) => f.head !== null && SOURCE_FILE.test(f.path) && !isTest(f.path));
  const names = new Set<string>();
  for (const f of code) for (const n of importedNames(f.path, f.head!)) names.add(n);
  const mentioned = (p: string) => code.some((f) => f.head!.includes(p.split('/').pop()!));
  const extra = files.filter(
    (f) =>
      f.head !== null &&
      !code.includes(f) &&
      ((SOURCE_FILE.test(f.path) && names.has(stem(f.path)) && !/(^|\/)conftest\.py$/.test(f.path)) ||
        (DATA_FILE.test(f.path) && mentioned(f.path))),
  );
  return [...code, ...extra].map((f) => f.path);
}

function identifiers(ts: Token[]): Set<string> {
  return new Set(ts.filter((t) => t.kind === 'id').map((t) => t.text));
}

/**
 * Added code that holds a literal of the graded tests: an input (or an expected list/dict) that is not trivial, not
 * already in the base version of the file, and, for a name-like string, not a name the file's code already uses.
 */
export function specialCaseFindings(
  patch: FilePatch[],
  files: { path: string; head: string | null; base: string | null }[],
  literals: Map<string, TestLiteral>,
  isTest: IsTest,
): ScanFinding[] {
  const out: ScanFinding[] = [];
  if (!literals.size) return out;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const inputs = [...literals].filter(([k, t]) => k.startsWith('s:') && t.role === 'input').map(([k]) => k);
  for (const path of codeFiles(files, isTest)) {
    const f = byPath.get(path)!;
    const p = patch.find((x) => x.path === path);
    if (!p || p.binary) continue;
    const added = new Set(p.added.map((a) => a.line));
    const ts = tokenize(path, f.head!);
    const baseTs = f.base === null ? [] : tokenize(path, f.base);
    const inBase = new Set(literalsOf(baseTs).flatMap((l) => (l.alt ? [l.key, l.alt] : [l.key])));
    const names = identifiers(ts);
    const lines = new Set<number>();
    for (const lit of literalsOf(ts)) {
      const spanAdded = ts.slice(lit.at, lit.end).some((t) => added.has(t.line));
      if (!spanAdded || lines.has(lit.line)) continue;
      const usable = (k: string | undefined): k is string =>
        !!k && !inBase.has(k) && !trivialLiteral(k, lit.size) && !(k.startsWith('s:') && names.has(k.slice(2)));
      const hit = [lit.key, lit.alt].find((k): k is string => {
        const t = usable(k) ? literals.get(k) : undefined;
        return !!t && (t.role !== 'expected' || k!.startsWith('c:'));
      });
      const part = hit
        ? null
        : [lit.key, lit.alt]
            .filter(usable)
            .map((k) => fragmentOf(k, inputs))
            .find(Boolean);
      if (!hit && !part) continue;
      lines.add(lit.line);
      const text = (f.head!.split('\n')[lit.line - 1] ?? '').trim().slice(0, 160);
      const t = literals.get(hit ?? part!.of)!;
      const what = part
        ? `a fragment of ${show(part.of)}, the input of test ${t.test}`
        : t.role === 'name'
          ? `a name only the tests declare (${t.test})`
          : `the ${t.role === 'input' ? 'input' : 'expected value'} of test ${t.test}`;
      out.push({
        kind: 'special_case',
        name: `holds ${show(part?.key ?? hit!)}, ${what}`,
        file: path,
        line: lit.line,
        text,
      });
    }
  }
  return out;
}

/**
 * A string in code that is a telling part of a test's input string: at least 5 characters and a third of it (a
 * pattern's distinctive piece, a key inside the input), not the whole (that is the literal rule's).
 */
export function fragmentOf(key: string, inputs: readonly string[]): { key: string; of: string } | null {
  if (!key.startsWith('s:')) return null;
  const s = key.slice(2);
  if (s.trim().length < 5) return null;
  const of = inputs.find((k) => k !== key && k.length > key.length && k.includes(s) && s.length * 3 >= k.length - 2);
  return of ? { key, of } : null;
}

function show(key: string): string {
  const v = key.slice(2);
  return key.startsWith('s:') ? JSON.stringify(v) : v;
}
