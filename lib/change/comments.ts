// Seed 001's comment coverage (pure): comments found by a lexer of the file's language (TypeScript's for TS/JS,
// a string-aware scanner for the others), each added line counted as comment, code, both or neither.
import type TS from 'typescript';
import { ts } from './typescript.js';
import { TS_JS_FILE } from './ts-metrics.js';

/** A language's comment syntax and the string quotes that can hide a comment marker. */
interface Syntax {
  line: string[];
  block: [string, string][];
  /** Quotes of strings that end at the end of the line at the latest. */
  quotes: string[];
  /** Quotes of strings that may span lines (and, when `docAtLineStart`, count as comments when they open a line). */
  multiline: string[];
  docAtLineStart?: boolean;
}

const C_LIKE: Syntax = { line: ['//'], block: [['/*', '*/']], quotes: ['"', "'"], multiline: [] };
const HASH: Syntax = { line: ['#'], block: [], quotes: ['"', "'"], multiline: [] };

const LANGUAGES: [RegExp, Syntax][] = [
  [/\.py$/, { line: ['#'], block: [], quotes: ['"', "'"], multiline: ['"""', "'''"], docAtLineStart: true }],
  [/\.go$/, { ...C_LIKE, multiline: ['`'] }],
  // Rust: ' also opens lifetimes ('a), so only " strings are skipped.
  [/\.rs$/, { ...C_LIKE, quotes: ['"'] }],
  [/\.(java|kt|kts|swift|c|cc|cpp|cxx|h|hpp|cs|scala|dart)$/, C_LIKE],
  [/\.php$/, { ...C_LIKE, line: ['//', '#'] }],
  [/\.(rb|sh|bash|zsh|ex|exs|pl|r|R)$/, HASH],
  [/\.sql$/, { line: ['--'], block: [['/*', '*/']], quotes: ["'", '"'], multiline: [] }],
  [/\.lua$/, { line: ['--'], block: [['--[[', ']]']], quotes: ['"', "'"], multiline: [] }],
];

/** True when comment coverage can be measured for this file. */
export function commentsKnown(path: string): boolean {
  return TS_JS_FILE.test(path) || LANGUAGES.some(([re]) => re.test(path));
}

/** [start, end) character ranges of the comments in `text`; null when the language is not known. */
export function commentRanges(path: string, text: string): [number, number][] | null {
  if (TS_JS_FILE.test(path)) return tsCommentRanges(path, text);
  const syntax = LANGUAGES.find(([re]) => re.test(path))?.[1];
  return syntax ? scanComments(text, syntax) : null;
}

function tsCommentRanges(path: string, text: string): [number, number][] {
  const kind = /\.tsx$/.test(path)
    ? ts.ScriptKind.TSX
    : /\.jsx$/.test(path)
      ? ts.ScriptKind.JSX
      : /\.(js|mjs|cjs)$/.test(path)
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map<number, number>();
  const add = (ranges: TS.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  // Comments are trivia before (leading) or after (trailing) a node; every node boundary is asked once.
  const visit = (node: TS.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(sf);
  add(ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos));
  return [...seen].sort((a, b) => a[0] - b[0]);
}

/** A scanner for the other languages: comment markers outside strings; strings skipped with backslash escapes. */
function scanComments(text: string, syntax: Syntax): [number, number][] {
  return scanLexical(text, syntax).comments;
}

/** Comment and string ranges ([start, end) characters) of a text in one of the scanned languages. */
function scanLexical(text: string, syntax: Syntax): { comments: [number, number][]; strings: [number, number][] } {
  const comments: [number, number][] = [];
  const strings: [number, number][] = [];
  let i = 0;
  let lineStart = true;
  const at = (s: string) => text.startsWith(s, i);
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    const block = syntax.block.find(([open]) => at(open));
    if (block) {
      const end = text.indexOf(block[1], i + block[0].length);
      const stop = end === -1 ? text.length : end + block[1].length;
      comments.push([i, stop]);
      i = stop;
      lineStart = false;
      continue;
    }
    if (syntax.line.some((m) => at(m))) {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      comments.push([i, stop]);
      i = stop;
      continue;
    }
    const multi = syntax.multiline.find((q) => at(q));
    if (multi) {
      const end = text.indexOf(multi, i + multi.length);
      const stop = end === -1 ? text.length : end + multi.length;
      (syntax.docAtLineStart && lineStart ? comments : strings).push([i, stop]);
      i = stop;
      lineStart = false;
      continue;
    }
    if (syntax.quotes.includes(ch)) {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      strings.push([i, Math.min(j + 1, text.length)]);
      i = j + 1;
      lineStart = false;
      continue;
    }
    i++;
    lineStart = false;
  }
  return { comments, strings };
}

/**
 * The text with comments and string contents replaced by spaces (newlines kept, so line numbers hold; a string
 * keeps its quotes' places as spaces too): keywords and braces left are code. Null when the language is not known
 * to the scanner (TS/JS have the compiler instead).
 */
export function codeOnly(path: string, text: string): string | null {
  return lexical(path, text)?.code ?? null;
}

/** `text` with the given ranges replaced by spaces, newlines kept. */
function blankRanges(text: string, ranges: [number, number][]): string {
  const chars = text.split('');
  for (const [a, b] of ranges) for (let k = a; k < b; k++) if (chars[k] !== '\n') chars[k] = ' ';
  return chars.join('');
}

/** The scanned ranges and the text blanked two ways: `code` (comments and strings) and `noComments` (comments only). */
export function lexical(
  path: string,
  text: string,
): { comments: [number, number][]; strings: [number, number][]; code: string; noComments: string } | null {
  const syntax = LANGUAGES.find(([re]) => re.test(path))?.[1];
  if (!syntax) return null;
  const { comments, strings } = scanLexical(text, syntax);
  // A docstring is a comment range when it opens a line, yet a statement for the code's shape: only # comments go.
  const hashComments = comments.filter(([a]) => text[a] === '#' || !/^['"]/.test(text[a]!));
  return {
    comments,
    strings,
    code: blankRanges(text, [...comments, ...strings]),
    noComments: blankRanges(text, hashComments),
  };
}

export interface LineKind {
  /** The line holds comment text. */
  comment: boolean;
  /** The line holds something other than whitespace outside comments. */
  code: boolean;
}

/** Per line (index 0 = line 1): whether it holds comment text and whether it holds code. */
export function classifyLines(text: string, ranges: [number, number][]): LineKind[] {
  const kinds: LineKind[] = [];
  let r = 0;
  let line: LineKind = { comment: false, code: false };
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === '\n') {
      kinds.push(line);
      line = { comment: false, code: false };
      continue;
    }
    while (r < ranges.length && ranges[r]![1] <= i) r++;
    const inComment = r < ranges.length && ranges[r]![0] <= i && i < ranges[r]![1];
    if (inComment) line.comment = true;
    else if (!/\s/.test(text[i]!)) line.code = true;
  }
  return kinds;
}

export interface CommentFigures {
  /** Added lines holding comment text. */
  commentLines: number;
  /** Added lines holding code. */
  codeLines: number;
  /** Files counted (language known). */
  files: number;
  /** Changed files whose language this does not know. */
  unknown: string[];
}

/** Comment and code lines among the added lines of the given files (the head text, lines 1-based). */
export function commentFigures(
  files: { path: string; text: string; addedLines: ReadonlySet<number> }[],
): CommentFigures {
  const figs: CommentFigures = { commentLines: 0, codeLines: 0, files: 0, unknown: [] };
  for (const f of files) {
    if (!f.addedLines.size) continue;
    const ranges = commentRanges(f.path, f.text);
    if (ranges === null) {
      figs.unknown.push(f.path);
      continue;
    }
    figs.files++;
    const kinds = classifyLines(f.text, ranges);
    for (const n of f.addedLines) {
      const k = kinds[n - 1];
      if (!k) continue;
      if (k.comment) figs.commentLines++;
      if (k.code) figs.codeLines++;
    }
  }
  return figs;
}

/** Fewer added code lines than this make no ratio worth scoring (one uncommented line would score 0). */
export const MIN_CODE_LINES = 10;

/** Comment lines per code line against a target ratio: 1 at or above it, proportionally less below. */
export function commentScore(commentLines: number, codeLines: number, target: number): number {
  if (codeLines <= 0) throw new Error('commentScore needs code lines');
  if (target <= 0) return 1;
  return Math.min(1, commentLines / codeLines / target);
}
