// Complexity and function length for other languages than TS/JS (token heuristics). The samples in
// test/fixtures/lang-metrics/ are real code: the Go, Rust, Java, C, C++ and Python ones were compiled or parsed by
// their toolchains (go vet, rustc, javac, gcc, g++ -fsyntax-only, python3 ast) when written; no Kotlin, Swift, C#,
// PHP, Scala or Dart toolchain is installed here, so those were written to their grammars and not compiled.
// Expected counts follow the documented rule: 1 + the language's branch tokens; a function starts at its name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { langFunctionMetrics, langMetricsKnown } from '../../lib/change/lang-metrics.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'lang-metrics');
const metrics = (file: string) =>
  langFunctionMetrics(file, readFileSync(join(dir, file), 'utf8'))!.map(
    ({ name, startLine, endLine, lines, complexity }) => ({ name, startLine, endLine, lines, complexity }),
  );

describe('function metrics beyond TS/JS', () => {
  it('Python: def to its last indented line; nested functions apart; docstrings and strings ignored; case _ is no branch', () => {
    expect(metrics('m.py')).toEqual([
      { name: 'simple', startLine: 1, endLine: 2, lines: 2, complexity: 1 },
      // if, and, elif, for, while, except, and the comprehension's for, if and the trailing or.
      { name: 'branches', startLine: 5, endLine: 18, lines: 14, complexity: 10 },
      { name: 'outer', startLine: 21, endLine: 28, lines: 8, complexity: 2 },
      { name: 'inner', startLine: 22, endLine: 25, lines: 4, complexity: 2 },
      { name: 'matcher', startLine: 31, endLine: 38, lines: 8, complexity: 3 },
    ]);
  });

  it('Go: methods by name after the receiver; a func literal is part of its function; braces in strings ignored', () => {
    // if, &&, for, the literal's if, two non-default cases.
    expect(metrics('m.go')).toEqual([
      { name: 'Add', startLine: 8, endLine: 29, lines: 22, complexity: 7 },
      { name: 'Plain', startLine: 31, endLine: 31, lines: 1, complexity: 1 },
    ]);
  });

  it('Rust: match arms count, the `_ =>` arm does not; lifetimes and braces in strings and comments are no trouble', () => {
    expect(metrics('m.rs')).toEqual([
      { name: 'pick', startLine: 1, endLine: 11, lines: 11, complexity: 5 },
      { name: 'plain', startLine: 13, endLine: 13, lines: 1, complexity: 1 },
      { name: 'main', startLine: 15, endLine: 18, lines: 4, complexity: 1 },
    ]);
  });

  it('Java: annotations, throws and constructors; a lambda body and an array initializer are not functions', () => {
    // for, if, &&, else-if, ?:, catch.
    expect(metrics('M.java')).toEqual([
      { name: 'count', startLine: 5, endLine: 22, lines: 18, complexity: 7 },
      { name: 'M', startLine: 24, endLine: 26, lines: 3, complexity: 1 },
    ]);
  });

  it('C: preprocessor lines end a header; keywords inside strings and comments do not count', () => {
    expect(metrics('m.c')).toEqual([
      { name: 'clamp', startLine: 3, endLine: 8, lines: 6, complexity: 3 },
      { name: 'main', startLine: 10, endLine: 18, lines: 9, complexity: 3 },
    ]);
  });

  it('C++: an access label and an initializer list before the body; a lambda belongs to its function', () => {
    // sum: for, if, ||, ?: — the lambda [](int v) { … } is part of sum.
    expect(metrics('m.cpp')).toEqual([
      { name: 'Acc', startLine: 8, endLine: 8, lines: 1, complexity: 1 },
      { name: 'sum', startLine: 10, endLine: 17, lines: 8, complexity: 5 },
      { name: 'main', startLine: 25, endLine: 28, lines: 4, complexity: 2 },
    ]);
  });

  it('Kotlin: ?: and when branches count, `else ->` and a lambda arrow do not', () => {
    expect(metrics('m.kt')).toEqual([
      { name: 'classify', startLine: 5, endLine: 12, lines: 8, complexity: 5 },
      { name: 'each', startLine: 14, endLine: 16, lines: 3, complexity: 1 },
    ]);
  });

  it('Swift: init and func (no semicolons before them); guard, ||, ?: and ??', () => {
    expect(metrics('m.swift')).toEqual([
      { name: 'init', startLine: 4, endLine: 6, lines: 3, complexity: 1 },
      { name: 'pick', startLine: 8, endLine: 14, lines: 7, complexity: 6 },
    ]);
  });

  it('C#: attributes, a constructor chaining to base, a property and a lambda block are told apart', () => {
    expect(metrics('M.cs')).toEqual([
      { name: 'Add', startLine: 8, endLine: 13, lines: 6, complexity: 5 },
      { name: 'Calc', startLine: 17, endLine: 20, lines: 4, complexity: 2 },
    ]);
  });

  it('PHP: elseif and ?? count, a ?int return type and a # comment do not', () => {
    expect(metrics('m.php')).toEqual([
      { name: 'pick', startLine: 3, endLine: 13, lines: 11, complexity: 6 },
      { name: 'size', startLine: 17, endLine: 20, lines: 4, complexity: 2 },
    ]);
  });

  it('Scala and Dart: def … = { and a Dart closure inside its method', () => {
    expect(metrics('m.scala')).toEqual([{ name: 'pick', startLine: 2, endLine: 10, lines: 9, complexity: 6 }]);
    expect(metrics('m.dart')).toEqual([{ name: 'pick', startLine: 5, endLine: 15, lines: 11, complexity: 6 }]);
    // `case _ =>` is the default of a match: one decision for `case 1`, none for it.
    const scala =
      'object A {\n  def f(x: Int): Int = {\n    x match {\n      case 1 => 1\n      case _ => 0\n    }\n  }\n}\n';
    expect(langFunctionMetrics('a.scala', scala)).toEqual([
      { name: 'f', startLine: 2, endLine: 7, lines: 6, complexity: 2 },
    ]);
  });

  it('knows which languages it measures', () => {
    for (const f of [
      'a.py',
      'a.go',
      'a.rs',
      'A.java',
      'a.c',
      'a.cpp',
      'a.cs',
      'a.kt',
      'a.swift',
      'a.php',
      'a.scala',
      'a.dart',
    ])
      expect(langMetricsKnown(f), f).toBe(true);
    for (const f of ['a.ts', 'a.rb', 'a.sh', 'a.zig']) expect(langMetricsKnown(f), f).toBe(false);
    expect(langFunctionMetrics('a.zig', 'fn f() void {}')).toBeNull();
  });

  it("Python: agrees with Python's own parser on the standard library (functions, their lines, their complexity)", () => {
    // Real code nobody wrote for this test: modules of the installed Python's standard library.
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
      execFileSync('python3', [join(import.meta.dirname, '..', 'helpers', 'python_functions.py'), ...files], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as Record<string, { name: string; startLine: number; endLine: number; complexity: number }[]>;
    let total = 0;
    let sameEnd = 0;
    let sameComplexity = 0;
    for (const file of files) {
      const ours = new Map(
        langFunctionMetrics(file, readFileSync(file, 'utf8'))!.map((f) => [`${f.startLine}:${f.name}`, f]),
      );
      for (const f of ref[file]!) {
        total++;
        const o = ours.get(`${f.startLine}:${f.name}`);
        expect(o, `${file}:${f.startLine} ${f.name}`).toBeDefined(); // every function found, at its line
        if (o!.endLine === f.endLine) sameEnd++;
        if (o!.complexity === f.complexity) sameComplexity++;
      }
      expect(ours.size, file).toBe(ref[file]!.length); // and nothing else taken for a function
    }
    expect(total).toBeGreaterThan(1000);
    // Measured on CPython 3.11's library: every end line the same; complexity the same but where a decision sits
    // inside an f-string's braces (strings are blanked), e.g. typing._check_generic.
    expect(sameEnd / total).toBeGreaterThanOrEqual(0.995);
    expect(sameComplexity / total).toBeGreaterThanOrEqual(0.99);
  });

  it("Go: agrees with go/ast on six files of Go's standard library (captured by dev/capture-lang-metrics)", () => {
    const goDir = join(dir, 'go');
    const ref = JSON.parse(readFileSync(join(goDir, 'expected.json'), 'utf8')) as Record<
      string,
      { name: string; startLine: number; endLine: number; complexity: number }[]
    >;
    let total = 0;
    for (const [file, fns] of Object.entries(ref)) {
      const ours = langFunctionMetrics(file, readFileSync(join(goDir, file), 'utf8'))!.map(
        ({ name, startLine, endLine, complexity }) => ({ name, startLine, endLine, complexity }),
      );
      // Every function and method, at its name's line, to its closing brace, with go/ast's count — and nothing else
      // (function literals belong to their function).
      expect(ours, file).toEqual(fns);
      total += fns.length;
    }
    expect(total).toBe(237);
  });
});
