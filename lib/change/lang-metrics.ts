// Complexity and function length for languages other than TS/JS, from tokens as lizard does (headers, then
// indentation or brace matching on text with comments and strings blanked). Pure. TS/JS: ts-metrics.ts.
import { codeOnly, lexical } from './comments.js';
import type { FunctionMetric } from './ts-metrics.js';

const PYTHON_FILE = /\.py$/;
/** Brace languages and what introduces a function in each (null: a `name(...) … {` header that is not a statement). */
const BRACE_LANGUAGES: [RegExp, { fn: RegExp | null; branches: RegExp }][] = [
  [/\.go$/, { fn: /^func\b/, branches: /\b(if|for|case)\b|&&|\|\|/g }],
  [/\.rs$/, { fn: /(^|\s)fn\s/, branches: /\b(if|for|while)\b|&&|\|\||=>/g }],
  [/\.(kt|kts)$/, { fn: /(^|\s)fun\s/, branches: /\b(if|for|while|catch)\b|&&|\|\||->|\?:/g }],
  [/\.swift$/, { fn: /(^|\s)(func\s|init\s*\()/, branches: /\b(if|guard|for|while|case|catch)\b|&&|\|\||\?\?| \? /g }],
  [/\.scala$/, { fn: /(^|\s)def\s/, branches: /\b(if|for|while|case|catch)\b|&&|\|\|/g }],
  [/\.php$/, { fn: /(^|\s)function\s/, branches: /\b(if|elseif|for|foreach|while|case|catch)\b|&&|\|\||\?\?| \? /g }],
  [
    /\.(java|c|cc|cpp|cxx|h|hpp|cs|dart)$/,
    { fn: null, branches: /\b(if|for|foreach|while|case|catch)\b|&&|\|\||\?\?| \? /g },
  ],
];

const PREPROCESSOR = /[ \t]*#[^\n]*/y;
const PARAMS_AFTER_NAME = /\s*(<[^(){}]*>)?\s*\(/y;

const STATEMENT =
  /^(if|else|for|foreach|while|do|switch|catch|try|finally|synchronized|using|lock|return|new|match|loop|unsafe|when|select|defer|go|class|struct|interface|enum|impl|trait|namespace|object|extension|union|record|module|package)\b/;

/** True when function metrics can be computed for this file (TS/JS excepted: see ts-metrics.ts). */
export function langMetricsKnown(path: string): boolean {
  return PYTHON_FILE.test(path) || BRACE_LANGUAGES.some(([re]) => re.test(path));
}

/** Every function in the file with its lines and complexity; null when the language is not known. */
export function langFunctionMetrics(path: string, text: string): FunctionMetric[] | null {
  if (PYTHON_FILE.test(path)) return pythonFunctions(pythonLines(text));
  const code = codeOnly(path, text);
  if (code === null) return null;
  const lang = BRACE_LANGUAGES.find(([re]) => re.test(path))?.[1];
  return lang ? braceFunctions(code, lang) : null;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

export interface PythonLines {
  /** Lines with comments and strings blanked (keywords and brackets left are code). */
  lines: string[];
  /** Lines with only # comments blanked (docstrings kept: they are statements). */
  shape: string[];
  /** The line continues a statement begun above (inside brackets, after a backslash, inside a multi-line string). */
  continues: boolean[];
}

/** A Python file's lines as the function finder and the API reader see them. */
export function pythonLines(text: string): PythonLines {
  const lex = lexical('x.py', text)!;
  // Strings and docstrings: a line starting inside one continues the statement above.
  const quoted = [...lex.strings, ...lex.comments.filter(([a]) => text[a] !== '#')].sort((x, y) => x[0] - y[0]);
  const lines = lex.code.split('\n');
  // Lines that continue a statement begun above belong to that statement whatever their indentation; lines holding
  // only a comment belong to nothing.
  const shape = lex.noComments.split('\n');
  const continues: boolean[] = [];
  let depth = 0;
  let offset = 0;
  let q = 0; // quoted ranges are sorted and do not overlap: one pointer walks them with the lines
  for (let k = 0; k < lines.length; k++) {
    const prev = k > 0 ? lines[k - 1]! : '';
    while (q < quoted.length && quoted[q]![1] <= offset) q++;
    const inString = q < quoted.length && quoted[q]![0] < offset;
    continues.push(k > 0 && (depth > 0 || /\\\s*$/.test(prev) || inString));
    for (const ch of lines[k]!)
      depth = Math.max(
        0,
        depth + (ch === '(' || ch === '[' || ch === '{' ? 1 : ch === ')' || ch === ']' || ch === '}' ? -1 : 0),
      );
    offset += lines[k]!.length + 1;
  }
  return { lines, shape, continues };
}

/**
 * Python: `def` (or `async def`) to the last line indented deeper than it. Complexity: 1 + if/elif/for/while/
 * except/and/or/case (not `case _`), conditional expressions and comprehension `if`s included; nested functions
 * and classes inside are measured on their own and left out of their parent's count.
 */
function pythonFunctions({ lines, shape, continues }: PythonLines): FunctionMetric[] {
  const found: { name: string; start: number; end: number; indent: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    // The signature may span lines: the body starts after the line where brackets close.
    let depth = 0;
    let j = i;
    for (; j < lines.length; j++) {
      for (const ch of lines[j]!)
        depth += ch === '(' || ch === '[' || ch === '{' ? 1 : ch === ')' || ch === ']' || ch === '}' ? -1 : 0;
      if (depth <= 0 && /:\s*(\S.*)?$/.test(lines[j]!)) break;
    }
    let end = j;
    for (let k = j + 1; k < lines.length; k++) {
      const l = shape[k]!;
      if (l.trim() === '') continue;
      if (!continues[k] && indentOf(l) <= indent) break;
      end = k;
    }
    found.push({ name: m[2]!, start: i, end, indent });
  }
  // `found` is in order of start line; the functions nested in found[i] follow it directly.
  return found.map((f, i) => {
    let c = 1;
    let j = i + 1;
    for (let k = f.start; k <= f.end; k++) {
      // Lines of a function nested in this one count for the nested one only.
      if (j < found.length && found[j]!.start === k && k > f.start) {
        const skipTo = found[j]!.end;
        while (j < found.length && found[j]!.start <= skipTo) j++;
        k = skipTo;
        continue;
      }
      const l = lines[k]!;
      for (const m of l.matchAll(/\b(if|elif|for|while|except|and|or)\b/g)) if (m[1]) c++;
      if (/^\s*case\b/.test(l) && !/^\s*case\s+_\s*:/.test(l)) c++;
    }
    return { name: f.name, startLine: f.start + 1, endLine: f.end + 1, lines: f.end - f.start + 1, complexity: c };
  });
}

/**
 * Brace languages: a `{` opens a function when the code since the last `;`, `{` or `}` is a header (a keyword such as
 * `func`/`fn`/`def`, or a Java/C-family `name(…)` that starts no statement); it ends at the matching `}`. Complexity:
 * 1 + the body's branch tokens (if/for/while/case/catch, &&, ||, ?:, ??, match arms), nested functions apart.
 */
function braceFunctions(code: string, lang: { fn: RegExp | null; branches: RegExp }): FunctionMetric[] {
  const lineAt: number[] = [];
  let line = 1;
  for (let i = 0; i < code.length; i++) {
    lineAt.push(line);
    if (code[i] === '\n') line++;
  }
  lineAt.push(line);
  const found: { name: string; open: number; close: number; header: number }[] = [];
  const stack: { pos: number; fn: string | null; header: number }[] = [];
  let headerStart = 0;
  for (let i = 0; i < code.length; i++) {
    if (i === 0 || code[i - 1] === '\n') {
      // A preprocessor line (#include, #define) or a Rust attribute line (#[test]) ends any header before it.
      PREPROCESSOR.lastIndex = i;
      const pre = PREPROCESSOR.exec(code);
      if (pre) {
        i += pre[0].length;
        headerStart = i;
        continue;
      }
    }
    const ch = code[i];
    if (ch === '{') {
      let raw = code.slice(headerStart, i);
      if (lang.fn) {
        // Without semicolons (Go, Kotlin, Swift, Scala) the text since the last brace also holds the declarations
        // before this one (`type T string` then `func (t T) Error() string`): the header starts on the last line
        // that holds the keyword.
        const lines = raw.split('\n');
        const k = lines.map((l) => lang.fn!.test(l.trim())).lastIndexOf(true);
        if (k > 0) raw = lines.slice(k).join('\n');
      }
      const header = raw.replace(/\s+/g, ' ').trim();
      stack.push({ pos: i, fn: functionName(header, lang.fn), header: headerStart });
      headerStart = i + 1;
    } else if (ch === '}') {
      const open = stack.pop();
      if (open?.fn) found.push({ name: open.fn, open: open.pos, close: i, header: open.header });
      headerStart = i + 1;
    } else if (ch === ';') headerStart = i + 1;
  }
  found.sort((a, b) => a.open - b.open);
  return found.map((f, i) => {
    // The body without the functions nested in it (they follow f directly in order of position).
    let body = '';
    let k = f.open + 1;
    for (let j = i + 1; j < found.length && found[j]!.open < f.close; j++) {
      const g = found[j]!;
      if (g.open < k) continue; // inside a nested function already cut out
      body += code.slice(k, g.open);
      k = g.close + 1;
    }
    body += code.slice(k, f.close);
    let c = 1;
    for (const m of body.matchAll(lang.branches)) {
      const at = m.index ?? 0;
      // A Rust `_ =>` arm, a Kotlin `else ->` branch and a `case _` are the default: no decision.
      if ((m[0] === '=>' || m[0] === '->') && /(\b_|\belse)\s*$/.test(body.slice(Math.max(0, at - 8), at))) continue;
      if (m[0] === 'case' && /^case\s+_\s*(=>|:)/.test(body.slice(at, at + 16))) continue;
      // Kotlin: `->` is a when branch only when no `{` opens a lambda before it on its line (`{ x -> …}`).
      if (m[0] === '->' && body.slice(body.lastIndexOf('\n', at) + 1, at).includes('{')) continue;
      c++;
    }
    const startLine = lineAt[namePosition(code, f.header, f.open, f.name)]!;
    const endLine = lineAt[f.close]!;
    return { name: f.name, startLine, endLine, lines: endLine - startLine + 1, complexity: c };
  });
}

/** The function's name when `header` (the code before a `{`) declares one, else null. */
function functionName(rawHeader: string, keyword: RegExp | null): string | null {
  // Annotations (@Override, @Test(timeout = 5)) and C# attributes ([Fact]) are not part of the signature.
  const header = rawHeader
    .replace(/@[\w.]+(\s*\([^)]*\))?/g, ' ')
    .replace(/^(\s*\[[^\]]*\])+/, ' ')
    .trim();
  if (!header.includes('(') || STATEMENT.test(header)) return null;
  const beforeParen = header.slice(0, header.indexOf('('));
  if (keyword) {
    if (!keyword.test(header)) return null;
    // Go: func Name(…) or, for a method, func (r T) Name(…); a literal func(r rune) rune { … } has no name.
    if (/^func\b/.test(header)) {
      const go = /^func\s*(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[([]/.exec(header);
      return go ? go[1]! : null;
    }
    const m =
      /(?:fn|fun|func|def|function)\s+(?:<[^>]*>\s*)?(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)/.exec(header) ??
      /(init)\s*\(/.exec(header);
    return m ? m[1]! : null;
  }
  // Java/C/C++/C#/Dart: `… name(params) [const|noexcept|override|throws …|: initialisers] {` — not a lambda
  // (`x -> {`, `() async {`) or an initializer (`= {`).
  if (/=|->/.test(beforeParen) || !/\)\s*(const|noexcept|override|final|throws\s+[\w.,\s]+|:\s*.*)?$/.test(header))
    return null;
  const m = /([A-Za-z_~][\w:~]*)\s*$/.exec(beforeParen.trim());
  if (!m || STATEMENT.test(m[1]!)) return null;
  return m[1]!;
}

/**
 * Where the function starts: its name before the parameter list (a header in a language without semicolons also
 * holds the statements before it, and C++ access labels or Java annotations come before the signature).
 */
function namePosition(code: string, from: number, open: number, name: string): number {
  const header = code.slice(from, open);
  // The last occurrence of the name that is a whole word followed by its (generic) parameter list.
  for (let at = header.lastIndexOf(name); at >= 0; at = at > 0 ? header.lastIndexOf(name, at - 1) : -1) {
    if (at > 0 && /[\w$]/.test(header[at - 1]!)) continue;
    PARAMS_AFTER_NAME.lastIndex = at + name.length;
    if (PARAMS_AFTER_NAME.test(header)) return from + at;
  }
  let h = from;
  while (h < open && /\s/.test(code[h]!)) h++;
  return h;
}
