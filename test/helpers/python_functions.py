# Reference for test/race/lang-metrics.test.ts: every function of the given files with its first and last line and
# its complexity, from Python's own parser (ast), counted by the rule lang-metrics.ts documents: 1 + if/elif/
# conditional expressions, for/while (comprehension for and if included), except, each and/or, and match cases other
# than the bare wildcard (a guard is one more); nested functions counted apart. Prints JSON {path: [functions]}.
# With --api first: the public names instead, as lang-api.ts reads them (module-level functions and classes whose
# names do not start with _, and the methods of those classes that do not either, plus __init__), {path: [names]}.
import ast, json, sys

def complexity(fn):
    c = 1
    def visit(node, top):
        nonlocal c
        if not top and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return  # nested functions counted apart (lang-metrics skips their lines)
        if isinstance(node, (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler)):
            c += 1
        elif isinstance(node, ast.BoolOp):
            c += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            c += 1 + len(node.ifs)
        elif isinstance(node, ast.match_case):
            if not (isinstance(node.pattern, ast.MatchAs) and node.pattern.pattern is None and node.pattern.name is None):
                c += 1
            if node.guard is not None:  # case x if cond: the guard is one more decision
                c += 1
        for ch in ast.iter_child_nodes(node):
            visit(ch, False)
    visit(fn, True)
    return c

def public(name):
    return not name.startswith('_') or name == '__init__'

def api(tree):
    names = []
    def top(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(node.name):
                names.append(node.name)
            elif isinstance(node, ast.ClassDef) and public(node.name):
                names.append(node.name)
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(m.name):
                        names.append(node.name + '.' + m.name)
            elif isinstance(node, (ast.If, ast.Try)):  # definitions under if/try at module level are module-level
                top(node.body)
                top(getattr(node, 'orelse', []))
                for h in getattr(node, 'handlers', []):
                    top(h.body)
                top(getattr(node, 'finalbody', []))
    top(tree.body)
    return sorted(set(names))

if sys.argv[1:2] == ['--api']:
    print(json.dumps({path: api(ast.parse(open(path, encoding='utf-8').read())) for path in sys.argv[2:]}))
    sys.exit(0)

out = {}
for path in sys.argv[1:]:
    tree = ast.parse(open(path, encoding='utf-8').read())
    fns = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fns.append({'name': node.name, 'startLine': node.lineno, 'endLine': node.end_lineno, 'complexity': complexity(node)})
    out[path] = sorted(fns, key=lambda f: (f['startLine'], f['name']))
print(json.dumps(out))
