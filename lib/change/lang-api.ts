// Seed 001's API compatibility for Python and Go (pure): the public surface read from the text (comments and
// strings blanked), and what a caller of the old version loses in the new one.
import { codeOnly } from './comments.js';
import { pythonLines } from './lang-metrics.js';
import { diffApi, type ApiChange } from './ts-metrics.js';

export const API_FILE = /\.(py|go)$/;

interface PyParam {
  name: string;
  kind: 'positional' | 'keyword' | 'varargs' | 'varkw';
  hasDefault: boolean;
}

type Entry =
  | { kind: 'function'; params: PyParam[] }
  | { kind: 'class' }
  | { kind: 'go-func'; signature: string }
  | { kind: 'go-type' };

/** The public API of a module, by name (`Class.method` for methods); null when the language is not read. */
export function langApi(path: string, text: string): Map<string, Entry> | null {
  if (/\.py$/.test(path)) return pythonApi(text);
  if (/\.go$/.test(path)) {
    const code = codeOnly(path, text);
    return code === null ? null : goApi(code);
  }
  return null;
}

/** The text between the bracket at `open` and its match (brackets inside strings are blank already). */
function bracketed(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const ch = code[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return code.slice(open + 1, i);
    }
  }
  return code.slice(open + 1);
}

/** Splits on commas outside brackets. */
function topLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

function pythonParams(list: string): PyParam[] {
  const params: PyParam[] = [];
  let keywordOnly = false;
  for (const p of topLevel(list)) {
    if (p === '/') continue; // the ones before were positional-only: still positional for callers
    if (p === '*') {
      keywordOnly = true;
      continue;
    }
    const name = /^\**\s*([A-Za-z_]\w*)/.exec(p)?.[1];
    if (!name) continue;
    if (p.startsWith('**')) params.push({ name, kind: 'varkw', hasDefault: true });
    else if (p.startsWith('*')) {
      params.push({ name, kind: 'varargs', hasDefault: true });
      keywordOnly = true;
    } else
      params.push({
        name,
        kind: keywordOnly ? 'keyword' : 'positional',
        hasDefault: /=/.test(p.replace(/[<>!=]=/g, '')),
      });
  }
  return params;
}

function pythonApi(text: string): Map<string, Entry> {
  const { lines, continues } = pythonLines(text);
  const code = lines.join('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const l of lines) {
    offsets.push(at);
    at += l.length + 1;
  }
  const api = new Map<string, Entry>();
  // The blocks open around the current line: a def or class at some indentation, by name.
  const stack: { indent: number; kind: 'def' | 'class'; name: string }[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.trim() === '' || continues[k]) continue;
    const indent = line.length - line.trimStart().length;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const m = /^\s*(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/.exec(line);
    if (!m) continue;
    const kind = m[1] as 'def' | 'class';
    const name = m[2]!;
    const outer = stack[stack.length - 1];
    const isPublic = (n: string) => !n.startsWith('_') || n === '__init__';
    if (!outer && isPublic(name)) {
      if (kind === 'class') api.set(name, { kind: 'class' });
      else api.set(name, { kind: 'function', params: pythonParams(bracketed(code, code.indexOf('(', offsets[k]!))) });
    } else if (
      outer &&
      stack.length === 1 &&
      outer.kind === 'class' &&
      kind === 'def' &&
      isPublic(outer.name) &&
      isPublic(name)
    ) {
      api.set(`${outer.name}.${name}`, {
        kind: 'function',
        params: pythonParams(bracketed(code, code.indexOf('(', offsets[k]!))),
      });
    }
    stack.push({ indent, kind, name });
  }
  return api;
}

/** Go parameter or result list → the types only (names do not matter to callers). */
function goTypes(list: string): string[] {
  const items = topLevel(list).map((p) => p.replace(/\s+/g, ' '));
  const named = items.some((p) => /^[A-Za-z_]\w* \S/.test(p) && !/^(func|chan|map|struct|interface)\b/.test(p));
  if (!named) return items;
  // `a, b int, c string`: bare names take the type of the next typed item.
  const types: string[] = [];
  let pending = 0;
  for (const p of items) {
    const m = /^[A-Za-z_]\w* (.+)$/.exec(p);
    if (!m) {
      pending++;
      continue;
    }
    for (; pending > 0; pending--) types.push(m[1]!);
    types.push(m[1]!);
  }
  return types;
}

function goApi(code: string): Map<string, Entry> {
  const api = new Map<string, Entry>();
  for (const m of code.matchAll(/^func\s*(\([^)]*\))?\s*([A-Z]\w*)\s*(\[[^\]]*\])?\s*\(/gm)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const params = bracketed(code, open);
    // The results: what follows the parameters up to the body's brace (or the line's end for a declaration).
    const afterParams = open + params.length + 2;
    const rest = code
      .slice(afterParams, code.indexOf('\n', afterParams) === -1 ? code.length : code.indexOf('\n', afterParams))
      .replace(/\{\s*$/, '')
      .replace(/\{.*$/, '')
      .trim();
    const results = rest.startsWith('(')
      ? goTypes(rest.slice(1, rest.lastIndexOf(')')))
      : rest
        ? [rest.replace(/\s+/g, ' ')]
        : [];
    const receiver = m[1] ? /([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*\)$/.exec(m[1])?.[1] : undefined;
    if (receiver && !/^[A-Z]/.test(receiver)) continue; // a method of an unexported type is not reachable
    const name = receiver ? `${receiver}.${m[2]}` : m[2]!;
    api.set(name, {
      kind: 'go-func',
      signature: `(${goTypes(params).join(', ')}) (${results.join(', ')})${m[3] ? ` ${m[3].replace(/\s+/g, ' ')}` : ''}`,
    });
  }
  for (const m of code.matchAll(/^type\s+([A-Z]\w*)\b/gm)) api.set(m[1]!, { kind: 'go-type' });
  // Grouped declarations: type ( A struct{…}; B int ).
  for (const m of code.matchAll(/^type\s*\(/gm)) {
    const block = bracketed(code, (m.index ?? 0) + m[0].length - 1);
    for (const t of block.matchAll(/^\s*([A-Z]\w*)\b/gm)) api.set(t[1]!, { kind: 'go-type' });
  }
  return api;
}

/** Why a caller of `before` breaks against `after`, or null. */
function pythonIncompatibility(before: PyParam[], after: PyParam[]): string | null {
  const byName = new Map(after.map((p) => [p.name, p]));
  const kinds = (ps: PyParam[], k: PyParam['kind']) => ps.some((p) => p.kind === k);
  if (kinds(before, 'varargs') && !kinds(after, 'varargs')) return '*args removed';
  if (kinds(before, 'varkw') && !kinds(after, 'varkw')) return '**kwargs removed';
  const posBefore = before.filter((p) => p.kind === 'positional');
  const posAfter = after.filter((p) => p.kind === 'positional');
  for (let i = 0; i < posBefore.length; i++) {
    if (posAfter[i]?.name !== posBefore[i]!.name)
      return byName.has(posBefore[i]!.name)
        ? `parameter ${posBefore[i]!.name} moved`
        : `parameter ${posBefore[i]!.name} removed`;
  }
  for (const p of before) {
    if (p.kind === 'varargs' || p.kind === 'varkw') continue;
    const now = byName.get(p.name);
    if (!now) return `parameter ${p.name} removed`;
    if (p.hasDefault && !now.hasDefault) return `parameter ${p.name} lost its default`;
  }
  const known = new Set(before.map((p) => p.name));
  for (const p of after) if (!known.has(p.name) && !p.hasDefault) return `new required parameter ${p.name}`;
  return null;
}

/** Public names removed or changed incompatibly, and names added, between two versions of a Python or Go file. */
export function compareLangApi(path: string, before: string | null, after: string | null): ApiChange[] | null {
  if (!API_FILE.test(path)) return null;
  const b = before === null ? new Map<string, Entry>() : langApi(path, before)!;
  const a = after === null ? new Map<string, Entry>() : langApi(path, after)!;
  return diffApi(path, b, a, (e, n) => {
    if (e.kind === 'function' && n.kind === 'function') return pythonIncompatibility(e.params, n.params);
    if (e.kind === 'go-func' && n.kind === 'go-func')
      return e.signature !== n.signature ? `signature ${e.signature} → ${n.signature}` : null;
    return e.kind !== n.kind ? `was a ${e.kind}, now a ${n.kind}` : null;
  });
}
