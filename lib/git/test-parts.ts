// The test part of a code or manifest file (pure): Rust `#[cfg(test)]` modules, Cargo.toml's dev tables, go.mod's
// replace directives, Python doctest examples. The graded run takes that part from the trusted revision.

/** `[start, end)` of each `#[cfg(test)] mod name { … }` in Rust source, by name; strings, chars, comments skipped. */
export function rustTestModules(text: string): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  const re = /#\[cfg\(\s*test\s*\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (inCommentOrString(text, m.index)) continue;
    const end = matchingBrace(text, m.index + m[0].length - 1);
    if (end < 0) break;
    out.push({ name: m[1]!, start: m.index, end: end + 1 });
    re.lastIndex = end + 1;
  }
  return out;
}

/** Skips one comment, string or char literal at `i`; the index after it, or `i` when there is none. */
function skipLiteral(text: string, i: number): number {
  const c = text[i];
  if (c === '/' && text[i + 1] === '/') {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? text.length : nl;
  }
  if (c === '/' && text[i + 1] === '*') {
    let depth = 0;
    for (let j = i; j < text.length - 1; j++) {
      if (text[j] === '/' && text[j + 1] === '*') {
        depth++;
        j++;
      } else if (text[j] === '*' && text[j + 1] === '/') {
        depth--;
        j++;
        if (!depth) return j + 1;
      }
    }
    return text.length;
  }
  const raw = /^b?r(#*)"/.exec(text.slice(i, i + 40));
  if (raw && (i === 0 || !/\w/.test(text[i - 1]!))) {
    const close = `"${raw[1]}`;
    const end = text.indexOf(close, i + raw[0].length);
    return end < 0 ? text.length : end + close.length;
  }
  if (c === '"') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
    return text.length;
  }
  // A char literal ('x', '\n', '\u{1F600}'); a lifetime ('a) is not one.
  if (c === "'") {
    const ch = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'/su.exec(text.slice(i, i + 14));
    if (ch) return i + ch[0].length;
  }
  return i;
}

function inCommentOrString(text: string, at: number): boolean {
  for (let i = 0; i < at; i++) {
    const j = skipLiteral(text, i);
    if (j > at) return true;
    if (j > i) i = j - 1;
  }
  return false;
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const j = skipLiteral(text, i);
    if (j > i) {
      i = j - 1;
      continue;
    }
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Rust source with its `#[cfg(test)]` modules as the trusted side has them: each one replaced by the trusted module of
 * its name, ones only the candidate has removed, the trusted side's others appended. null when they already agree.
 */
export function spliceRustTests(candidate: string, trusted: string | null): string | null {
  const mine = rustTestModules(candidate);
  const theirs = trusted === null ? [] : rustTestModules(trusted);
  const body = (t: string, m: { start: number; end: number }) => t.slice(m.start, m.end);
  const a = mine.map((m) => body(candidate, m)).join('\n');
  const b = theirs.map((m) => body(trusted!, m)).join('\n');
  if (a === b) return null;
  const byName = new Map(theirs.map((m) => [m.name, body(trusted!, m)]));
  let out = '';
  let at = 0;
  for (const m of mine) {
    out += candidate.slice(at, m.start) + (byName.get(m.name) ?? '');
    byName.delete(m.name);
    at = m.end;
  }
  out += candidate.slice(at);
  for (const rest of byName.values()) out = `${out.replace(/\n*$/, '\n\n')}${rest}\n`;
  return out;
}

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

/** Cargo.toml tables that decide the tests: dev-dependencies (any target), patches and replacements, test targets. */
export const CARGO_TEST_TABLE =
  /^\s*\[\[?\s*(dev[-_]dependencies\b|target\.[^\]]*\.dev[-_]dependencies\b|patch\b|replace\b|test\s*\]|bench\s*\]|profile\.(test|bench)\b)/;

/** A TOML file with the tables `table` matches taken from the trusted side; null when they already agree. */
export function spliceTomlTables(candidate: string, trusted: string | null, table: RegExp): string | null {
  const cand = tomlTables(candidate);
  const trust = tomlTables(trusted ?? '');
  const mine = cand.filter((t) => table.test(t));
  const theirs = trust.filter((t) => table.test(t));
  if (mine.join('\n').trim() === theirs.join('\n').trim()) return null;
  const kept = cand.filter((t) => !table.test(t)).join('\n');
  return theirs.length ? `${kept.replace(/\n*$/, '\n\n')}${theirs.join('\n').replace(/\n*$/, '\n')}` : kept;
}

/** go.mod's replace directives (one line each, or a block), as written. */
function goReplaces(text: string): string[] {
  return [...text.matchAll(/^replace\s*\([^)]*\)|^replace\s+.*$/gm)].map((m) => m[0].trim());
}

/** go.mod with the trusted side's replace directives (a replaced module is what the tests import); null when equal. */
export function spliceGoMod(candidate: string, trusted: string | null): string | null {
  const theirs = goReplaces(trusted ?? '');
  if (goReplaces(candidate).join('\n') === theirs.join('\n')) return null;
  const kept = candidate.replace(/^replace\s*\([^)]*\)\n?|^replace\s+.*\n?/gm, '');
  return theirs.length ? `${kept.replace(/\n*$/, '\n\n')}${theirs.join('\n')}\n` : kept;
}

/** Python doctest examples (`>>>`/`...` lines and the expected output after them): tests inside code files. */
export function doctestExamples(text: string): string[] {
  const out: string[] = [];
  let inExample = false;
  for (const line of text.split('\n')) {
    const s = line.trim();
    if (s.startsWith('>>>')) inExample = true;
    else if (!s || s === '"""' || s === "'''") inExample = false;
    if (inExample) out.push(s);
  }
  return out;
}
