// Literals of source text by meaning (pure): strings, numbers, lists/tuples/dicts normalised to one key whatever
// the spelling; one small tokenizer for Python, JS/TS, Go and the C family.

export interface Token {
  kind: 'str' | 'num' | 'id' | 'punct' | 'fstr';
  text: string;
  /** Decoded value of a string or regex; a number's normalised value. */
  value?: string;
  line: number;
  regex?: boolean;
}

const HASH_COMMENT = /\.(py|pyi|rb|sh|bash|ex|exs|pl|r|toml|ya?ml|cfg|ini)$/i;
const SLASH_COMMENT = /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts|go|rs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|scala|dart)$/i;
const REGEX_LITERALS = /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/i;

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', v: '\v' };
function decodeEscapes(s: string, raw: boolean): string {
  if (raw) return s;
  return s.replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|\n|.)/g, (_, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return String.fromCodePoint(Number.parseInt(e.replace(/[xu{}]/g, ''), 16));
    if (e === '\n') return '';
    return ESC[e] ?? e;
  });
}

/** A regex's text as the plain string it matches when it has no operators beyond anchors and escapes. */
function regexPlain(src: string): string | null {
  const body = src.replace(/^(\^|\\A)/, '').replace(/(\$|\\Z|\\z)$/, '');
  const plain = body.replace(/\\b/g, '');
  if (/(?<!\\)[.*+?()[\]{}|^$]/.test(plain)) return null;
  return plain.replace(/\\(.)/g, '$1');
}

const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?/;
const ID = /^[A-Za-z_$][\w$]*/;

/** Tokens of a text; comments are dropped by the file's language (by extension). */
export function tokenize(path: string, text: string): Token[] {
  const out: Token[] = [];
  const hash = HASH_COMMENT.test(path);
  const slash = SLASH_COMMENT.test(path) || !hash;
  const regexOk = REGEX_LITERALS.test(path);
  const py = /\.pyi?$/i.test(path);
  let i = 0;
  let line = 1;
  const push = (t: Omit<Token, 'line'>, startLine: number) => out.push({ ...t, line: startLine });
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const rest = text.slice(i, i + 4);
    if ((hash && c === '#') || (slash && rest.startsWith('//'))) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (slash && rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    // Python string prefixes (r, b, u, f and pairs) before a quote.
    const pre = py ? /^([rRbBuUfF]{1,2})(?=['"])/.exec(text.slice(i, i + 3)) : null;
    const q = pre ? text[i + pre[1]!.length]! : c;
    if (q === '"' || q === "'" || q === '`') {
      const prefix = pre?.[1]?.toLowerCase() ?? '';
      const start = i + prefix.length;
      const triple = py && text.startsWith(q.repeat(3), start);
      const open = triple ? 3 : 1;
      let k = start + open;
      let body = '';
      let interp = prefix.includes('f');
      const startLine = line;
      while (k < text.length) {
        const ch = text[k]!;
        if (ch === '\\') {
          body += text.slice(k, k + 2);
          if (text[k + 1] === '\n') line++;
          k += 2;
          continue;
        }
        if (triple ? text.startsWith(q.repeat(3), k) : ch === q) break;
        if (ch === '\n') {
          line++;
          if (!triple && q !== '`') break; // an unterminated string ends at the line
        }
        if (q === '`' && ch === '$' && text[k + 1] === '{') interp = true;
        body += ch;
        k++;
      }
      i = k + open;
      const raw = prefix.includes('r') || (q === '`' && !py && /\.go$/.test(path));
      push(
        interp ? { kind: 'fstr', text: body } : { kind: 'str', text: body, value: decodeEscapes(body, raw) },
        startLine,
      );
      continue;
    }
    if (regexOk && c === '/' && regexMayStart(out[out.length - 1])) {
      let k = i + 1;
      let cls = false;
      while (k < text.length && text[k] !== '\n') {
        const ch = text[k]!;
        if (ch === '\\') k++;
        else if (ch === '[') cls = true;
        else if (ch === ']') cls = false;
        else if (ch === '/' && !cls) break;
        k++;
      }
      if (text[k] === '/') {
        const src = text.slice(i + 1, k);
        k++;
        while (/[a-z]/.test(text[k] ?? '')) k++;
        const plain = regexPlain(src);
        push(
          plain === null ? { kind: 'fstr', text: src } : { kind: 'str', text: src, value: plain, regex: true },
          line,
        );
        i = k;
        continue;
      }
    }
    const num = /\d/.test(c) || (c === '.' && /\d/.test(text[i + 1] ?? '')) ? NUMBER.exec(text.slice(i, i + 64)) : null;
    if (num) {
      const t = num[0];
      const n = Number(t.replace(/_/g, '').replace(/n$/, ''));
      push({ kind: 'num', text: t, value: Number.isFinite(n) ? String(n) : t }, line);
      i += t.length;
      continue;
    }
    const id = ID.exec(text.slice(i, i + 256));
    if (id) {
      push({ kind: 'id', text: id[0] }, line);
      i += id[0].length;
      continue;
    }
    const op = /^(===|!==|==|!=|<=|>=|=>|->|::|\*\*|&&|\|\||\?\?|:=|\.\.\.)/.exec(rest);
    push({ kind: 'punct', text: op ? op[0] : c }, line);
    i += op ? op[0].length : 1;
  }
  return out;
}

function regexMayStart(prev: Token | undefined): boolean {
  if (!prev) return true;
  if (prev.kind === 'punct') return !/^[)\]}]$/.test(prev.text);
  return prev.kind === 'id' && /^(return|typeof|case|in|of|delete|void|throw|new|yield|await)$/.test(prev.text);
}

/** Literal atoms that may sit inside a composite but are never a literal alone. */
const ATOMS: Record<string, string> = {
  True: 'true',
  False: 'false',
  true: 'true',
  false: 'false',
  None: 'null',
  null: 'null',
  nil: 'null',
  undefined: 'null',
};

export interface Literal {
  /** `s:<string>`, `n:<number>`, `c:<canonical composite>`. */
  key: string;
  line: number;
  /** Index of its first token. */
  at: number;
  /** Index after its last token. */
  end: number;
  /** For a regex or a string that reads as one: the plain text it matches. */
  alt?: string;
  /** Number of elements (composites). */
  size?: number;
}

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

function scalarAt(ts: Token[], i: number): { key: string; end: number; alt?: string } | null {
  const t = ts[i];
  if (!t) return null;
  if (t.kind === 'str') {
    const alt = t.regex ? undefined : (regexPlain(t.value!) ?? undefined);
    return { key: `s:${t.value}`, end: i + 1, ...(alt !== undefined && alt !== t.value ? { alt: `s:${alt}` } : {}) };
  }
  if (t.kind === 'num') return { key: `n:${t.value}`, end: i + 1 };
  if (t.kind === 'punct' && t.text === '-' && ts[i + 1]?.kind === 'num') {
    const prev = ts[i - 1];
    if (!prev || prev.kind === 'punct' || prev.kind === 'id')
      return { key: `n:${String(-Number(ts[i + 1]!.value))}`, end: i + 2 };
  }
  if (t.kind === 'id' && ATOMS[t.text] !== undefined) return { key: `a:${ATOMS[t.text]}`, end: i + 1 };
  return null;
}

/**
 * The composite literal opening at token i (a list, tuple, set or dict whose elements are all literals), or null.
 * A parenthesis right after a name or a closing bracket is a call, not a tuple.
 */
function compositeAt(ts: Token[], i: number): { key: string; end: number; size: number } | null {
  const open = ts[i];
  if (open?.kind !== 'punct' || !(open.text in CLOSE)) return null;
  const prev = ts[i - 1];
  const called = prev?.kind === 'id' || /^[)\]]$/.test(prev?.text ?? '');
  if (open.text === '(' && called && ATOMS[prev?.text ?? ''] === undefined) return null;
  const close = CLOSE[open.text]!;
  const items: string[] = [];
  let dict = false;
  let k = i + 1;
  while (k < ts.length) {
    if (ts[k]!.text === close) break;
    // A dict key may be a bare name in JS ({ s: 1 }).
    let key: { key: string; end: number } | null =
      open.text === '{' && ts[k]!.kind === 'id' && ts[k + 1]?.text === ':'
        ? { key: `s:${ts[k]!.text}`, end: k + 1 }
        : null;
    key ??= element(ts, k);
    if (!key) return null;
    k = key.end;
    if (open.text === '{' && (ts[k]?.text === ':' || ts[k]?.text === '=>')) {
      const v = element(ts, k + 1);
      if (!v) return null;
      dict = true;
      items.push(`${key.key}=${v.key}`);
      k = v.end;
    } else items.push(key.key);
    if (ts[k]?.text === ',') k++;
    else if (ts[k]?.text !== close) return null;
  }
  if (ts[k]?.text !== close || items.length < 2) return null;
  const key = dict
    ? `{${[...items].sort().join(',')}}`
    : open.text === '{'
      ? `{${[...items].sort().join(',')}}`
      : `[${items.join(',')}]`;
  return { key, end: k + 1, size: items.length };
}

function element(ts: Token[], k: number): { key: string; end: number } | null {
  const c = compositeAt(ts, k);
  if (c) return { key: `c:${c.key}`, end: c.end };
  return scalarAt(ts, k);
}

/** Every literal of a token list: scalars (strings, numbers) and maximal composites, with their lines. */
export function literalsOf(ts: Token[]): Literal[] {
  const out: Literal[] = [];
  for (let i = 0; i < ts.length; i++) {
    const c = compositeAt(ts, i);
    if (c) out.push({ key: `c:${c.key}`, line: ts[i]!.line, at: i, end: c.end, size: c.size });
    const s = scalarAt(ts, i);
    if (s && !s.key.startsWith('a:'))
      out.push({ key: s.key, line: ts[i]!.line, at: i, end: s.end, ...(s.alt ? { alt: s.alt } : {}) });
  }
  return out;
}
