// Dev only (npm run build first): which lib/ files one collectRun enters, in order, and how often it comes back to a
// file or area it had left. Every function of dist/lib is instrumented (hook.mjs); a call counts when its caller
// (from the stack) is in another file. Usage: node dev/trace/collect.mjs [--path] [--race]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

register('./hook.mjs', import.meta.url);
// JL_DIST: another build (e.g. of an older commit) to trace.
const DIST = process.env.JL_DIST ?? join(import.meta.dirname, '..', '..', 'dist');
const STEP = /at (?:async )?(readInputs|measure|assemble|write) \(.*\/dist\/lib\/collector\/collect\.js/;

const calls = []; // [callee, caller, step]
let on = false;
let step = '-';
Error.stackTraceLimit = 80;
globalThis.__jlTrace = (file) => {
  if (!on) return;
  const lines = new Error().stack.split('\n').slice(3);
  let caller = 'other';
  for (const l of lines) {
    if (/\((<anonymous>|native)\)$|at (async )?Promise\.|at new Promise/.test(l)) continue;
    const m = /\/dist\/(lib\/.*?)\.js:\d+:\d+\)?$/.exec(l);
    caller = m ? `${m[1]}.ts` : 'other';
    break;
  }
  // The step on the stack; a callback that lost its async stack belongs to the step running (they run one by one).
  step = lines.map((l) => STEP.exec(l)?.[1]).find(Boolean) ?? step;
  calls.push([file, caller, step]);
};

const sh = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
function writeTree(root, files) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

// The collector tests' small project: node:test tests, an eslint-style lint script; the agent adds a line of code.
const dir = mkdtempSync(join(tmpdir(), 'jl-trace-'));
const repo = join(dir, 'repo');
mkdirSync(repo);
const t = (name, expr) => `test(${JSON.stringify(name)}, () => assert.ok(${expr}));\n`;
writeTree(repo, {
  'src/add.mjs': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/add.test.mjs': `import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/add.mjs';\n${t('adds', 'add(1, 2) === 3')}${t('adds zero', 'add(0, 0) === 0')}`,
  'tools/lint.mjs': "console.log('\\n\\u2716 1 problems (0 errors, 1 warnings)\\n');\n",
});
for (const a of [
  ['init', '-q', '-b', 'main'],
  ['config', 'user.email', 't@e.x'],
  ['config', 'user.name', 'T'],
  ['add', '-A'],
  ['commit', '-q', '-m', 'base'],
])
  sh(repo, ...a);
const wt = join(dir, 'wt');
sh(repo, 'worktree', 'add', '-q', '-b', 'agent/a', wt);
writeTree(wt, { 'src/add.mjs': 'export function add(a, b) {\n  return a + b; // checked\n}\nexport const two = 2;\n' });
sh(wt, 'commit', '-qam', 'agent');
const record = {
  schema_version: '1.0.0',
  bead: 'bd-1',
  task: { id: 'task-1', prompt: 'make add() work', complexity: 3 },
  agent: { slug: 'claude', model: 'claude-sonnet' },
  template: 'bugfix-v1',
  worktree: wt,
  base_ref: 'main',
  started_at: '2026-01-01T00:00:00Z',
  completed_at: '2026-01-01T00:01:00Z',
  exit_code: 0,
  status: 'completed',
  commands: {
    build: 'node --check src/add.mjs',
    test: 'node --test test/',
    lint: 'node tools/lint.mjs',
    typecheck: null,
  },
  ...(process.argv.includes('--race') ? { race_id: 'race-1' } : {}),
};
writeFileSync(join(dir, 'run.json'), JSON.stringify(record));

const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TMPDIR: tmpdir(),
  JUDGELOOP_STATE_DIR: join(dir, 'state'),
};
const { loadConfig } = await import(`${DIST}/lib/config/config.js`);
const { readEnv } = await import(`${DIST}/lib/base/env.js`);
const { StateStore } = await import(`${DIST}/lib/store/store.js`);
const { loadRunRecord } = await import(`${DIST}/lib/collector/run-record.js`);
const { collectRun } = await import(`${DIST}/lib/collector/collect.js`);
const e = readEnv(env);
const ctx = {
  store: StateStore.fromEnv(e, dir),
  config: loadConfig({ env: e, cwd: dir }),
  processEnv: env,
  now: () => new Date(),
};
const loaded = loadRunRecord(join(dir, 'run.json'), dir);
on = true;
const fb = await collectRun(loaded, ctx);
on = false;

/** Places in order of entry (consecutive repeats merged), and how many entries go back to a place already left. */
function walk(names) {
  const path = names.filter((n, i) => i === 0 || n !== names[i - 1]);
  const seen = new Set();
  const back = new Map();
  for (const n of path) {
    if (seen.has(n)) back.set(n, (back.get(n) ?? 0) + 1);
    seen.add(n);
  }
  return { path, places: seen.size, returns: [...back.values()].reduce((s, x) => s + x, 0), back };
}
const cross = calls.filter(([callee, caller]) => callee !== caller);
const area = (f) => f.split('/').slice(0, 2).join('/');
const top = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
const show = (label, w) =>
  console.log(
    `${label}: ${w.places} entered, ${w.returns} returns to one already left${w.returns ? ` (${top(w.back)})` : ''}`,
  );
console.log(
  `outcome ${fb.outcome}, composite ${fb.composite}; ${calls.length} function entries, ${cross.length} from another file`,
);
// 1. What collect.ts itself calls: the path a reader of collectRun follows.
const fromTop = walk(cross.filter(([, caller]) => caller === 'lib/collector/collect.ts').map(([callee]) => callee));
show('files collect.ts calls', fromTop);
// 2. The collector's calls into other areas (store, git, process, ...).
const out = walk(
  cross.filter(([a, b]) => area(b) === 'lib/collector' && area(a) !== 'lib/collector').map(([a]) => area(a)),
);
show('areas the collector calls', out);
// 3. Every call across files, at any depth (loops over checks and child-process events included).
show('files, any depth', walk(cross.map(([callee]) => callee)));
show('areas, any depth', walk(cross.filter(([a, b]) => area(a) !== area(b)).map(([callee]) => area(callee))));
// 4. Per step of collectRun, when it has steps.
const steps = [...new Set(calls.map(([, , st]) => st))];
if (steps.length > 1) {
  const inStep = new Map();
  for (const st of steps) {
    const w = walk(
      cross
        .filter(([a, b, x]) => x === st && area(b) === 'lib/collector' && area(a) !== 'lib/collector')
        .map(([a]) => area(a)),
    );
    for (const a of new Set(w.path)) inStep.set(a, [...(inStep.get(a) ?? []), st]);
    console.log(`  ${st}: ${w.path.join(' > ') || '(no other area)'}`);
  }
  const again = [...inStep].filter(([, s]) => s.length > 1);
  console.log(
    `areas the collector calls in more than one step: ${again.map(([a, s]) => `${a} (${s.join(', ')})`).join('; ') || 'none'}`,
  );
}
if (process.argv.includes('--path')) console.log(`\n${fromTop.path.join('\n')}\n\n${out.path.join(' > ')}`);
