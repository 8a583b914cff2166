// API compatibility for Python and Go: the public surface read from the text, and what a caller of the old version
// loses. The surface is checked against the languages' own parsers on real code (the standard libraries); the rules
// on small before/after pairs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareLangApi, langApi } from '../../lib/change/lang-api.js';

const breaks = (path: string, before: string, after: string) =>
  compareLangApi(path, before, after)!
    .filter((c) => c.change !== 'added')
    .map((c) => c.detail);

describe('Python API', () => {
  it('reads the same public names as ast on 16 modules of the standard library', () => {
    const stdlib = execFileSync(
      'python3',
      ['-c', 'import json, os; print(os.path.dirname(os.path.dirname(json.__file__)))'],
      { encoding: 'utf8' },
    ).trim();
    const modules = [
      'argparse',
      'ast',
      'calendar',
      'configparser',
      'dataclasses',
      'difflib',
      'enum',
      'fractions',
      'functools',
      'inspect',
      'pydoc',
      'shutil',
      'tarfile',
      'textwrap',
      'typing',
      'zipfile',
    ];
    const files = modules.map((m) => join(stdlib, `${m}.py`));
    const ref = JSON.parse(
      execFileSync('python3', [join(import.meta.dirname, '..', 'helpers', 'python_functions.py'), '--api', ...files], {
        encoding: 'utf8',
      }),
    ) as Record<string, string[]>;
    let total = 0;
    for (const f of files) {
      expect([...langApi(f, readFileSync(f, 'utf8'))!.keys()].sort(), f).toEqual(ref[f]);
      total += ref[f]!.length;
    }
    expect(total).toBeGreaterThan(500);
  });

  const base = [
    'class Store:',
    '    def __init__(self, root, *, strict=False):',
    '        self.root = root',
    '    def get(self, key, default=None):',
    '        return default',
    '    def _cache(self):',
    '        pass',
    '',
    'def load(path, mode="r", *args, **kwargs):',
    '    """Loads: def fake(x) is not a function."""',
    '    return open(path, mode)',
    '',
    'def _helper(x):',
    '    return x',
    '',
  ].join('\n');

  it('compatible changes: new optional parameters, private names, bodies, added functions', () => {
    const after = base
      .replace('def get(self, key, default=None):', 'def get(self, key, default=None, *, copy=False):')
      .replace('def _helper(x):', 'def _helper(x, y):')
      .replace('return open(path, mode)', 'return open(path, mode, encoding="utf-8")')
      .concat('def save(path, data):\n    pass\n');
    expect(breaks('m.py', base, after)).toEqual([]);
    expect(
      compareLangApi('m.py', base, after)!
        .filter((c) => c.change === 'added')
        .map((c) => c.name),
    ).toEqual(['save']);
  });

  it('breaking changes, each named', () => {
    expect(
      breaks(
        'm.py',
        base,
        base.replace('def load(path, mode="r", *args, **kwargs):', 'def load(path, mode, *args, **kwargs):'),
      ),
    ).toEqual(['m.py: load: parameter mode lost its default']);
    expect(
      breaks(
        'm.py',
        base,
        base.replace(
          'def load(path, mode="r", *args, **kwargs):',
          'def load(path, encoding, mode="r", *args, **kwargs):',
        ),
      ),
    ).toEqual(['m.py: load: parameter mode moved']);
    expect(
      breaks(
        'm.py',
        base,
        base.replace('def load(path, mode="r", *args, **kwargs):', 'def load(path, mode="r", **kwargs):'),
      ),
    ).toEqual(['m.py: load: *args removed']);
    expect(
      breaks(
        'm.py',
        base,
        base.replace('    def get(self, key, default=None):', '    def get(self, key, default=None, *, version):'),
      ),
    ).toEqual(['m.py: Store.get: new required parameter version']);
    expect(breaks('m.py', base, base.replace('(self, root, *, strict=False)', '(self, root)'))).toEqual([
      'm.py: Store.__init__: parameter strict removed',
    ]);
    expect(breaks('m.py', base, base.replace('def load(', 'def read('))).toEqual(['m.py: load removed']);
    expect(breaks('m.py', base, null as unknown as string)).toEqual([
      'm.py: Store removed',
      'm.py: Store.__init__ removed',
      'm.py: Store.get removed',
      'm.py: load removed',
    ]);
  });
});

describe('Go API', () => {
  it('finds every exported function and method of go/ast reference files (methods of unexported types left out)', () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'lang-metrics', 'go');
    const ref = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, { name: string }[]>;
    for (const file of Object.keys(ref)) {
      const api = langApi(file, readFileSync(join(dir, file), 'utf8'))!;
      const funcs = new Set([...api].filter(([, e]) => e.kind === 'go-func').map(([n]) => n.split('.').pop()));
      const exported = ref[file]!.map((f) => f.name).filter(
        (n) => /^[A-Z]/.test(n) && !(file === 'sort.go' && n === 'Next'),
      );
      for (const n of exported) expect(funcs.has(n), `${file} ${n}`).toBe(true);
    }
    expect(langApi('sort.go', readFileSync(join(dir, 'sort.go'), 'utf8'))!.has('xorshift.Next')).toBe(false);
  });

  const base = [
    'package store',
    '',
    '// Get reads a key: func Fake(x int) is in a comment.',
    'func Get(key string, n int) (value []byte, err error) {',
    '\treturn nil, nil',
    '}',
    '',
    'type Store struct{ root string }',
    '',
    'func (s *Store) Put(key, value string) error { return nil }',
    '',
    'func helper(x int) int { return x }',
    '',
  ].join('\n');

  it('signatures compare by types: renamed parameters and private changes are compatible', () => {
    const after = base
      .replace('func Get(key string, n int)', 'func Get(k string, count int)')
      .replace('func helper(x int) int', 'func helper(x, y int) int');
    expect(breaks('s.go', base, after)).toEqual([]);
    expect(langApi('s.go', base)!.get('Get')).toEqual({ kind: 'go-func', signature: '(string, int) ([]byte, error)' });
    expect(langApi('s.go', base)!.get('Store.Put')).toEqual({ kind: 'go-func', signature: '(string, string) (error)' });
  });

  it('a changed parameter or result type, a removed method or type breaks', () => {
    expect(breaks('s.go', base, base.replace('n int)', 'n int64)'))).toEqual([
      's.go: Get: signature (string, int) ([]byte, error) → (string, int64) ([]byte, error)',
    ]);
    expect(breaks('s.go', base, base.replace('(key, value string) error', '(key, value string)'))).toEqual([
      's.go: Store.Put: signature (string, string) (error) → (string, string) ()',
    ]);
    expect(
      breaks('s.go', base, base.replace('type Store struct', 'type store struct').replace('(s *Store)', '(s *store)')),
    ).toEqual(['s.go: Store.Put removed', 's.go: Store removed']);
  });
});
