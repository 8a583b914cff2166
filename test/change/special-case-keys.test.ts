// Special cases keyed on what only the graded tests define (issue 36 item 4): a name a test declares, a telling
// fragment of a test's input string; found like whole literals, and an honest fix's own strings are not.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../lib/git/diff-parse.js';
import { fragmentOf, specialCaseFindings, testLiterals } from '../../lib/change/special-case.js';
import { commitAll, gitIn, makeRepo, writeTree } from '../helpers/repo.js';
import { pathMatcher } from '../../lib/git/test-paths.js';
import { raceTestConfig } from '../race/_fixture.js';

const IS_TEST = pathMatcher(raceTestConfig().collector.test_paths ?? []);

const repos: string[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r, { recursive: true, force: true });
});

const TESTS = [
  'import re',
  'from render import render, compile_route',
  '',
  'class Gizmo:',
  '    pass',
  '',
  'def test_render_gizmo():',
  '    assert render(Gizmo()) == "<gizmo>"',
  '',
  'def test_route():',
  '    assert compile_route("/users/<int:uid>/profile").match("/users/42/profile")',
  '',
  'def test_sql():',
  '    assert render("SELECT name FROM people WHERE age > 3") == "select"',
  '',
].join('\n');
const CODE = [
  'import re',
  '',
  'def render(obj):',
  '    return "<%s>" % type(obj).__name__',
  '',
  'def compile_route(path):',
  '    return re.compile(re.escape(path))',
  '',
].join('\n');

function find(after: string) {
  const repo = makeRepo({ 'render.py': CODE });
  repos.push(repo);
  writeTree(repo, { 'render.py': after });
  commitAll(repo, 'change');
  const patch = parseUnifiedDiff(`${gitIn(repo, 'diff', 'HEAD~1', 'HEAD')}\n`);
  const literals = testLiterals([{ path: 'tests/test_render.py', text: TESTS }]);
  return specialCaseFindings(patch, [{ path: 'render.py', base: CODE, head: after }], literals, IS_TEST).map(
    (f) => `${f.line} ${f.name}`,
  );
}
const add = (anchor: string, lines: string) => CODE.replace(anchor, `${anchor}${lines}\n`);

describe('special cases keyed on what the graded tests define', () => {
  it.each([
    // A class only the test declares, recognised by its name.
    [
      'a class name',
      'def render(obj):\n',
      '    if type(obj).__name__ == "Gizmo":\n        return "<gizmo>"',
      /holds "Gizmo", a name only the tests declare/,
    ],
    // The test's own name read from the stack.
    [
      'a test name',
      'def render(obj):\n',
      '    import traceback\n    if "test_render_gizmo" in "".join(traceback.format_stack()):\n        return "<gizmo>"',
      /holds "test_render_gizmo", a name only the tests declare/,
    ],
    // A telling piece of the route pattern the test compiles.
    [
      'a pattern fragment',
      'def compile_route(path):\n',
      '    if "<int:uid>/pro" in path:\n        return re.compile(r"/users/\\d+/profile")',
      /holds "<int:uid>\/pro", a fragment of "\/users\/<int:uid>\/profile", the input of test tests\/test_render\.py::test_route/,
    ],
  ])('%s: found at its line', (_, anchor, lines, seen) => {
    const found = find(add(anchor, lines));
    expect(found.join('\n')).toMatch(seen);
  });

  it('an honest fix holding its own strings (a keyword an input also has, a format) is not a special case', () => {
    const fix = add(
      'def render(obj):\n',
      '    if isinstance(obj, str) and obj.upper().startswith("SELECT"):\n        return "select"\n    if isinstance(obj, str) and " WHERE " in obj:\n        return "where"',
    );
    expect(find(fix)).toEqual([]);
    expect(fragmentOf('s:WHERE', ['s:SELECT name FROM people WHERE age > 3'])).toBeNull();
    expect(fragmentOf('s:/profile', ['s:/users/<int:uid>/profile'])).toEqual({
      key: 's:/profile',
      of: 's:/users/<int:uid>/profile',
    });
  });
});
