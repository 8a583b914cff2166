// TypeScript/JavaScript measurements from the TypeScript compiler's parser (pure: source text in, figures out).
import type TS from 'typescript';
import { ts } from './typescript.js';

export const TS_JS_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function scriptKind(path: string): TS.ScriptKind {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  if (/\.(js|mjs|cjs)$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function parseSource(path: string, text: string): TS.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
}

export interface FunctionMetric {
  name: string;
  startLine: number;
  endLine: number;
  lines: number;
  /** McCabe: 1 + branches (if, ?:, loops, non-default case, catch, &&, ||, ??). */
  complexity: number;
}

function isFunctionLike(n: TS.Node): n is TS.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n)
  );
}

function functionName(n: TS.FunctionLikeDeclaration, sf: TS.SourceFile): string {
  if (n.name) return n.name.getText(sf);
  const p = n.parent;
  if (p && ts.isVariableDeclaration(p)) return p.name.getText(sf);
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  return '(anonymous)';
}

/** Cyclomatic complexity of one function body, not descending into nested functions (they are measured on their own). */
function complexityOf(fn: TS.FunctionLikeDeclaration): number {
  let c = 1;
  const visit = (n: TS.Node): void => {
    if (n !== fn && isFunctionLike(n)) return;
    switch (n.kind) {
      case ts.SyntaxKind.IfStatement:
      case ts.SyntaxKind.ConditionalExpression:
      case ts.SyntaxKind.ForStatement:
      case ts.SyntaxKind.ForInStatement:
      case ts.SyntaxKind.ForOfStatement:
      case ts.SyntaxKind.WhileStatement:
      case ts.SyntaxKind.DoStatement:
      case ts.SyntaxKind.CaseClause:
      case ts.SyntaxKind.CatchClause:
        c++;
        break;
      case ts.SyntaxKind.BinaryExpression: {
        const op = (n as TS.BinaryExpression).operatorToken.kind;
        if (
          op === ts.SyntaxKind.AmpersandAmpersandToken ||
          op === ts.SyntaxKind.BarBarToken ||
          op === ts.SyntaxKind.QuestionQuestionToken
        )
          c++;
        break;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return c;
}

/** Every function with a body in the file. */
export function functionMetrics(path: string, text: string): FunctionMetric[] {
  const sf = parseSource(path, text);
  const out: FunctionMetric[] = [];
  const visit = (n: TS.Node): void => {
    if (isFunctionLike(n) && n.body) {
      const startLine = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
      const endLine = sf.getLineAndCharacterOfPosition(n.getEnd()).line + 1;
      out.push({
        name: functionName(n, sf),
        startLine,
        endLine,
        lines: endLine - startLine + 1,
        complexity: complexityOf(n),
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

// ---- exported API surface -------------------------------------------------------------------

interface ApiParam {
  type: string | null;
  optional: boolean;
  rest: boolean;
}

type ApiEntry =
  | { kind: 'function'; params: ApiParam[]; returns: string | null }
  | { kind: 'class'; members: Record<string, ApiEntry | { kind: 'property'; type: string | null; optional: boolean }> }
  | { kind: 'type'; text: string }
  | { kind: 'value'; type: string | null }
  | { kind: 'reexport'; text: string };

const norm = (s: string | undefined | null): string | null =>
  s == null
    ? null
    : s
        .replace(/\s+/g, ' ')
        .replace(/\s*([,;:()<>{}[\]|&=])\s*/g, '$1')
        .trim();

function hasModifier(n: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(n) ? (ts.getModifiers(n) ?? []).some((m) => m.kind === kind) : false;
}

function fnEntry(n: TS.SignatureDeclarationBase, sf: TS.SourceFile): ApiEntry {
  return {
    kind: 'function',
    params: n.parameters.map((p) => ({
      type: norm(p.type?.getText(sf)),
      optional: Boolean(p.questionToken || p.initializer),
      rest: Boolean(p.dotDotDotToken),
    })),
    returns: norm(n.type?.getText(sf)),
  };
}

function classEntry(n: TS.ClassDeclaration, sf: TS.SourceFile): ApiEntry {
  const members: Record<string, ApiEntry | { kind: 'property'; type: string | null; optional: boolean }> = {};
  for (const m of n.members) {
    if (hasModifier(m, ts.SyntaxKind.PrivateKeyword) || hasModifier(m, ts.SyntaxKind.ProtectedKeyword)) continue;
    if (m.name && ts.isPrivateIdentifier(m.name)) continue;
    const name = ts.isConstructorDeclaration(m) ? 'constructor' : m.name?.getText(sf);
    if (!name) continue;
    if (ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m)) members[name] = fnEntry(m, sf);
    else if (ts.isPropertyDeclaration(m))
      members[name] = { kind: 'property', type: norm(m.type?.getText(sf)), optional: Boolean(m.questionToken) };
    else if (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m))
      members[name] = { kind: 'property', type: null, optional: false };
  }
  return { kind: 'class', members };
}

/** The exported names of a module and what they look like to a caller. */
function exportedApi(path: string, text: string): Map<string, ApiEntry> {
  const sf = parseSource(path, text);
  const api = new Map<string, ApiEntry>();
  const local = new Map<string, ApiEntry>();
  const commonJs = !/\.(ts|tsx|mts)$/.test(path);
  for (const st of sf.statements) {
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(st, ts.SyntaxKind.DefaultKeyword);
    const put = (name: string, e: ApiEntry) => {
      local.set(name, e);
      if (exported) api.set(isDefault ? 'default' : name, e);
    };
    if (ts.isFunctionDeclaration(st)) put(st.name?.text ?? 'default', fnEntry(st, sf));
    else if (ts.isClassDeclaration(st)) put(st.name?.text ?? 'default', classEntry(st, sf));
    else if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st))
      put(st.name.text, { kind: 'type', text: norm(st.getText(sf).replace(/^export\s+(default\s+)?/, ''))! });
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        const init = d.initializer;
        const e: ApiEntry =
          init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))
            ? fnEntry(init, sf)
            : { kind: 'value', type: norm(d.type?.getText(sf)) };
        put(d.name.text, e);
      }
    } else if (ts.isExportDeclaration(st)) {
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const from = (el.propertyName ?? el.name).text;
          api.set(
            el.name.text,
            st.moduleSpecifier
              ? { kind: 'reexport', text: `${from} from ${st.moduleSpecifier.getText(sf)}` }
              : (local.get(from) ?? { kind: 'value', type: null }),
          );
        }
      } else if (st.moduleSpecifier) {
        api.set(`* from ${st.moduleSpecifier.getText(sf)}`, { kind: 'reexport', text: st.moduleSpecifier.getText(sf) });
      }
    } else if (ts.isExportAssignment(st)) {
      const id = ts.isIdentifier(st.expression) ? local.get(st.expression.text) : undefined;
      api.set('default', id ?? { kind: 'value', type: null });
    } else if (
      commonJs &&
      ts.isExpressionStatement(st) &&
      ts.isBinaryExpression(st.expression) &&
      st.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken
    ) {
      // module.exports.x = …, exports.x = …, module.exports = { a, b }
      const left = st.expression.left.getText(sf);
      const right = st.expression.right;
      const m = /^(?:module\.)?exports\.(\w+)$/.exec(left);
      const entryOf = (r: TS.Expression): ApiEntry =>
        ts.isArrowFunction(r) || ts.isFunctionExpression(r)
          ? fnEntry(r, sf)
          : ts.isIdentifier(r)
            ? (local.get(r.text) ?? { kind: 'value', type: null })
            : { kind: 'value', type: null };
      if (m) api.set(m[1]!, entryOf(right));
      else if (left === 'module.exports' && ts.isObjectLiteralExpression(right)) {
        for (const p of right.properties) {
          if (ts.isShorthandPropertyAssignment(p))
            api.set(p.name.text, local.get(p.name.text) ?? { kind: 'value', type: null });
          else if (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) {
            const name = p.name.getText(sf);
            api.set(name, ts.isMethodDeclaration(p) ? fnEntry(p, sf) : entryOf(p.initializer));
          }
        }
      }
    }
  }
  return api;
}

/** Why calling code written against `before` might break against `after`, or null when it will not. */
function incompatibility(
  before: ApiEntry | { kind: 'property'; type: string | null; optional: boolean },
  after: ApiEntry | { kind: 'property'; type: string | null; optional: boolean },
): string | null {
  if (before.kind !== after.kind) return `was a ${before.kind}, now a ${after.kind}`;
  if (before.kind === 'function' && after.kind === 'function') {
    const b = before.params.filter((p) => !p.rest);
    const a = after.params;
    for (let i = 0; i < a.length; i++) {
      const bp = b[i];
      const ap = a[i]!;
      if (!bp) {
        if (!ap.optional && !ap.rest) return `new required parameter #${i + 1}`;
        continue;
      }
      if (bp.type !== null && ap.type !== null && bp.type !== ap.type)
        return `parameter #${i + 1} changed from ${bp.type} to ${ap.type}`;
      if (bp.optional && !ap.optional) return `parameter #${i + 1} became required`;
    }
    if (a.filter((p) => !p.rest).length < b.length && !a.some((p) => p.rest))
      return `parameters reduced from ${b.length} to ${a.length}`;
    if (before.returns !== null && after.returns !== null && before.returns !== after.returns)
      return `return type changed from ${before.returns} to ${after.returns}`;
    return null;
  }
  if (before.kind === 'class' && after.kind === 'class') {
    for (const [name, m] of Object.entries(before.members)) {
      const n = after.members[name];
      if (!n) return `member ${name} removed`;
      const why = incompatibility(m, n);
      if (why) return `member ${name}: ${why}`;
    }
    return null;
  }
  if (before.kind === 'type' && after.kind === 'type')
    return before.text === after.text ? null : 'type definition changed';
  if (before.kind === 'property' && after.kind === 'property')
    return before.type !== null && after.type !== null && before.type !== after.type
      ? `type changed from ${before.type} to ${after.type}`
      : null;
  if (before.kind === 'value' && after.kind === 'value')
    return before.type !== null && after.type !== null && before.type !== after.type
      ? `type changed from ${before.type} to ${after.type}`
      : null;
  if (before.kind === 'reexport' && after.kind === 'reexport')
    return before.text === after.text ? null : 're-export changed';
  return null;
}

export interface ApiChange {
  name: string;
  change: 'removed' | 'changed' | 'added';
  detail: string;
}

/**
 * The one API comparison (every language): names of `before` missing from `after` (removed), present in both but
 * incompatible (changed, with `incompatible`'s reason), and new in `after` (added). `label` leads each name in the
 * detail ("export " for TS/JS).
 */
export function diffApi<E>(
  path: string,
  before: Map<string, E>,
  after: Map<string, E>,
  incompatible: (was: E, now: E) => string | null,
  label = '',
): ApiChange[] {
  const out: ApiChange[] = [];
  for (const [name, e] of before) {
    const n = after.get(name);
    if (!n) out.push({ name, change: 'removed', detail: `${path}: ${label}${name} removed` });
    else {
      const why = incompatible(e, n);
      if (why) out.push({ name, change: 'changed', detail: `${path}: ${label}${name}: ${why}` });
    }
  }
  for (const name of after.keys())
    if (!before.has(name)) out.push({ name, change: 'added', detail: `${path}: ${label}${name} added` });
  return out;
}

/** Exported names removed or changed incompatibly, and names added, between two versions of one module. */
export function compareApi(path: string, before: string | null, after: string | null): ApiChange[] {
  const b = before === null ? new Map<string, ApiEntry>() : exportedApi(path, before);
  const a = after === null ? new Map<string, ApiEntry>() : exportedApi(path, after);
  return diffApi(path, b, a, incompatibility, 'export ');
}
