// `npm run lint`: the rules AGENTS.md states ("only through", "the only reader of"), file-opening comments that
// name files which exist, and tests that can fail (an assertion each, no `>= 0` length, no silent skip).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const ts = createRequire(import.meta.url)('typescript');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'state', 'fixtures', '.bench-tmp', 'coverage']);

function walk(dir, out = []) {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(rel, out);
    } else out.push(rel);
  }
  return out;
}
const ALL = walk('');
/** Every file under `dir`, fixtures included: a comment may name a fixture by its file name. */
const walkAll = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
const CODE = ALL.filter((f) => /^(lib|scripts|dev|bench|demo|test)\//.test(f) && /\.(ts|mjs|cjs)$/.test(f));
const text = (f) => readFileSync(join(ROOT, f), 'utf8');
const codeLines = (f) =>
  text(f)
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l));

/** The rules AGENTS.md states, each with the files allowed to break it and why. */
const ONLY = [
  {
    rule: '`process.env` is read in lib/base/env.ts',
    scope: /^lib\//,
    re: /\bprocess\.env\b/,
    allowed: {
      'lib/base/env.ts': "judgeloop's own variables",
      'lib/cli/cli.ts': 'hands the whole environment to the commands (scrubbed before any check runs)',
      'lib/git/git.ts': "PATH, the one variable git's environment keeps",
      'lib/process/sandbox.ts': 'PATH, to find bubblewrap',
      'lib/collector/parsers/node-witness.ts': 'the text of the witness module, run inside the checks',
      'lib/collector/parsers/js-witness.ts': 'the text of the observer module, run inside the checks',
    },
  },
  {
    rule: 'processes start through spawnGroup() (lib/process/process.ts)',
    scope: /^(lib|scripts)\//,
    re: /from ['"](node:)?child_process['"]/,
    allowed: {
      'lib/process/process.ts': 'spawnGroup itself',
      'lib/process/sandbox.ts': 'the synchronous probe of bubblewrap',
      'lib/record/hand-on.ts': 'the background hand-off, which must outlive this process',
    },
  },
  {
    rule: 'git runs through git() (lib/git/git.ts)',
    scope: /^(lib|scripts)\//,
    re: /spawn\w*\(\s*['"]git['"]/,
    allowed: { 'lib/git/git.ts': 'the recipe itself' },
  },
  {
    rule: 'state files are written through lib/store/state-write.ts',
    scope: /^lib\/store\//,
    re: /\b(writeFileSync|renameSync|appendFileSync)\b/,
    allowed: {
      'lib/store/state-write.ts': 'the writer',
      'lib/store/lock.ts': 'lock owner files (not state)',
    },
  },
];

const problems = [];
for (const o of ONLY)
  for (const f of CODE.filter((c) => o.scope.test(c) && !(c in o.allowed)))
    if (codeLines(f).some((l) => o.re.test(l))) problems.push(`${f}: breaks "${o.rule}" (AGENTS.md)`);

/** Names of files in other projects, not ours (a diagnostic's example file). */
const OTHERS = new Set(['f.ts']);
/** A file name in an opening comment: resolved beside the file, from the root, or by its name anywhere here. */
const byName = new Set([...ALL, ...walkAll('test/fixtures')].map((f) => basename(f)));
function exists(name, from) {
  // A built file (dist/) stands for its source: dist/bundle/<cmd>.mjs for scripts/<cmd>.ts, dist/x.js for x.ts,
  // dist/bundle/load.cjs for dev/bundle-loader.cjs.
  const source = name
    .replace(/^dist\/bundle\/load\.cjs$/, 'dev/bundle-loader.cjs')
    .replace(/^dist\/bundle\/([\w-]+)\.mjs$/, 'scripts/$1.ts')
    .replace(/^dist\//, '');
  const candidates = [source, source.replace(/\.js$/, '.ts')];
  for (const c of candidates) {
    if (existsSync(join(ROOT, c)) || existsSync(join(ROOT, dirname(from), c))) return true;
    if (!c.includes('/') && byName.has(c)) return true;
  }
  return false;
}
const FILE_NAME =
  /(?<![\w:@*<>$.-])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|cjs|js|json|md|py|go|sh))(?![\w/*-])/g;
for (const f of CODE) {
  const lines = text(f).split('\n');
  for (let i = 0; i < lines.length && /^\s*\/\//.test(lines[i]); i++)
    for (const m of lines[i].matchAll(FILE_NAME))
      if ((m[1].includes('/') || /\.(ts|mjs|cjs)$/.test(m[1])) && !OTHERS.has(m[1]) && !exists(m[1], f))
        problems.push(`${f}:${i + 1}: the opening comment names ${m[1]}, which does not exist`);
}

/** Calls of it/test (and .each, .concurrent …), their callee text and the test function. */
function testCalls(sf) {
  const out = [];
  const visit = (n) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression.getText(sf);
      const head = callee.split(/[.(]/)[0];
      if (head === 'it' || head === 'test') {
        const fn = n.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
        out.push({ callee, fn, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1 });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
/** Tests whose bound on elapsed time checks a timeout (ended at it, not after the child's 30 s), not speed. */
const TIMEOUT_TESTS = {
  'test/judge/cli-backend-process.test.ts': 'ends at the 0.5 s timeout, or when claude exits, not after its 30 s child',
  'test/trust/hang.test.ts': 'a hung check ends at its 2 s timeout',
};
const ASSERTS = /\b(expect\w*|assert\w*|check\w*|verify\w*|must\w*|drained|throws)\s*[(.<]/i;
const TOOL_GUARD = /\b(has|which|available|installed|exists|existsSync|toolOk|canRun)\w*\s*\(/i;
for (const f of CODE.filter((c) => /^test\/.*\.test\.ts$/.test(c))) {
  const src = text(f);
  const sf = ts.createSourceFile(f, src, ts.ScriptTarget.Latest, true);
  // Functions of the file that assert: a test calling one asserts through it.
  const helpers = new Set();
  const collect = (n) => {
    const name =
      (ts.isFunctionDeclaration(n) && n.name?.text) ||
      (ts.isVariableDeclaration(n) && n.initializer && ts.isArrowFunction(n.initializer) && n.name.getText(sf));
    if (name && ASSERTS.test(n.getText(sf))) helpers.add(name);
    ts.forEachChild(n, collect);
  };
  collect(sf);
  const helperCall = helpers.size ? new RegExp(`\\b(${[...helpers].join('|')})\\s*[(<]`) : null;
  for (const t of testCalls(sf)) {
    const where = `${f}:${t.line}`;
    if (/\.(skip|skipIf|runIf|todo)\b/.test(t.callee))
      problems.push(`${where}: ${t.callee.split('(')[0]} skips in silence`);
    if (!t.fn) continue;
    const body = t.fn.body.getText(sf);
    if (/\b(ctx|context|t)\.skip\s*\(/.test(body)) problems.push(`${where}: skips from inside the test`);
    if (!ASSERTS.test(body) && !helperCall?.test(body)) problems.push(`${where}: a test with no assertion`);
    if (/toBeGreaterThanOrEqual\(0\)|\.length\s*>=\s*0\b/.test(body)) problems.push(`${where}: asserts a length >= 0`);
    if (
      !(f in TIMEOUT_TESTS) &&
      /performance\.now\(\)|Date\.now\(\)/.test(body) &&
      /\.toBeLessThan(OrEqual)?\(/.test(body)
    )
      problems.push(`${where}: a timed check (speed is measured in npm run bench)`);
    if (ts.isBlock(t.fn.body))
      for (const s of t.fn.body.statements)
        if (
          ts.isIfStatement(s) &&
          TOOL_GUARD.test(s.expression.getText(sf)) &&
          /^\{?\s*return\b/.test(s.thenStatement.getText(sf))
        )
          problems.push(`${where}: returns early when a tool is missing (fail with the command that installs it)`);
  }
}

if (problems.length) {
  process.stderr.write(`${[...new Set(problems)].map((p) => `check-words: ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `check-words: ${ONLY.length} AGENTS.md rules, opening comments of ${CODE.length} files, tests: ok\n`,
);
