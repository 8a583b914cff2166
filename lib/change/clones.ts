// Token-based clone detection (the method of jscpd and CPD): a run of at least `minTokens` identical tokens,
// whitespace and comments ignored, found at two places. Pure: file texts in, duplicated added tokens out.
import { ts } from './typescript.js';
import { TS_JS_FILE } from './ts-metrics.js';

export interface Token {
  text: string;
  line: number;
}

/** TS/JS through the compiler's scanner; other text through a generic word/punctuation split. */
export function tokenize(path: string, text: string): Token[] {
  const out: Token[] = [];
  if (TS_JS_FILE.test(path)) {
    const scanner = ts.createScanner(
      ts.ScriptTarget.Latest,
      true,
      /\.(tsx|jsx)$/.test(path) ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
      text,
    );
    let line = 1;
    let last = 0;
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      const start = scanner.getTokenStart();
      for (let i = last; i < start; i++) if (text.charCodeAt(i) === 10) line++;
      last = start;
      if (
        kind === ts.SyntaxKind.NewLineTrivia ||
        kind === ts.SyntaxKind.WhitespaceTrivia ||
        kind === ts.SyntaxKind.SingleLineCommentTrivia ||
        kind === ts.SyntaxKind.MultiLineCommentTrivia
      )
        continue;
      out.push({ text: scanner.getTokenText(), line });
    }
    return out;
  }
  const lines = text.split('\n');
  const commentOnly = /^\s*(#|\/\/|--|;)/;
  lines.forEach((l, i) => {
    if (commentOnly.test(l)) return;
    for (const m of l.matchAll(
      /[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\sA-Za-z0-9_]/g,
    ))
      out.push({ text: m[0], line: i + 1 });
  });
  return out;
}

export interface CloneInput {
  path: string;
  text: string;
  /** Line numbers (1-based) the solution added in this file; empty for context-only files. */
  addedLines: ReadonlySet<number>;
}

export interface CloneResult {
  addedTokens: number;
  duplicatedTokens: number;
  /** The clones found that involve added lines: where, and where the other copy is. */
  clones: { file: string; line: number; otherFile: string; otherLine: number; tokens: number }[];
}

/** Finds runs of `minTokens` identical tokens occurring twice (non-overlapping) and counts the added tokens inside one. */
export function detectClones(files: CloneInput[], minTokens: number): CloneResult {
  const toks = files.map((f) => tokenize(f.path, f.text));
  const seen = new Map<string, { file: number; index: number }[]>();
  const dup = toks.map((t) => new Uint8Array(t.length));
  for (let fi = 0; fi < toks.length; fi++) {
    const t = toks[fi]!;
    for (let i = 0; i + minTokens <= t.length; i++) {
      let key = '';
      for (let j = i; j < i + minTokens; j++) key += t[j]!.text + '\u0001';
      const list = seen.get(key);
      if (list) list.push({ file: fi, index: i });
      else seen.set(key, [{ file: fi, index: i }]);
    }
  }
  // prefix[fi][i]: added tokens among the first i tokens of file fi.
  const prefix = toks.map((t, fi) => {
    const out = new Uint32Array(t.length + 1);
    t.forEach((tok, i) => {
      out[i + 1] = out[i]! + (files[fi]!.addedLines.has(tok.line) ? 1 : 0);
    });
    return out;
  });
  const touchesAdded = (p: { file: number; index: number }) =>
    prefix[p.file]![p.index + minTokens]! > prefix[p.file]![p.index]!;
  const raw: { a: { file: number; index: number }; b: { file: number; index: number } }[] = [];
  for (const list of seen.values()) {
    if (list.length < 2) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const a = list[x]!;
        const b = list[y]!;
        if (a.file === b.file && Math.abs(a.index - b.index) < minTokens) continue;
        // Code that mirrors the unchanged code around it in the same file (a fix shaped like its neighbours) is not
        // a clone the solution made: only copies within added code, or across files, count.
        if (a.file === b.file && (!touchesAdded(a) || !touchesAdded(b))) continue;
        for (const p of [a, b]) dup[p.file]!.fill(1, p.index, p.index + minTokens);
        raw.push({ a, b });
        break;
      }
    }
  }
  let addedTokens = 0;
  let duplicatedTokens = 0;
  files.forEach((f, fi) => {
    toks[fi]!.forEach((tok, i) => {
      if (!f.addedLines.has(tok.line)) return;
      addedTokens++;
      if (dup[fi]![i]) duplicatedTokens++;
    });
  });
  // Report each clone once per starting line pair that touches added code (runs of windows collapse into one).
  const clones: CloneResult['clones'] = [];
  const reported = new Set<string>();
  for (const { a, b } of raw) {
    for (const [p, q] of [
      [a, b],
      [b, a],
    ] as const) {
      const f = files[p.file]!;
      const tok = toks[p.file]![p.index]!;
      if (!f.addedLines.has(tok.line)) continue;
      const other = toks[q.file]![q.index]!;
      const key = `${p.file}:${q.file}:${tok.line - other.line}`;
      if (reported.has(key)) continue;
      reported.add(key);
      clones.push({
        file: f.path,
        line: tok.line,
        otherFile: files[q.file]!.path,
        otherLine: other.line,
        tokens: minTokens,
      });
    }
  }
  return { addedTokens, duplicatedTokens, clones };
}
