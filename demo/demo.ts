// npm run demo: a real temporary git repo, three agent branches, their run records, bin/collect on each, a table.
// Processes through zx's `$` (a dev dependency: the demo runs from a checkout, never from the package).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { $ } from 'zx';
import { projectRoot } from '../lib/base/paths.js';
import { Progress, progressMode } from '../lib/report/progress.js';
import { textTable } from '../lib/report/table.js';
import type { Feedback } from '../lib/schema/types.generated.js';
import { readFeedback } from '../lib/store/feedback-read.js';
import { StateStore } from '../lib/store/store.js';

const root = projectRoot();
const work = mkdtempSync(join(tmpdir(), 'judgeloop-demo-'));
const repo = join(work, 'repo');
const state = join(work, 'state');
// Steps on stderr: live on a terminal, one labelled line per step elsewhere; the table alone goes to stdout.
const progress = new Progress('demo', (t) => process.stderr.write(t), {
  mode: progressMode({ tty: Boolean(process.stderr.isTTY), processEnv: process.env }),
  columns: process.stderr.columns,
});

/** git in `cwd` (the demo's own repository), quiet; a failure throws with git's stderr. */
async function git(cwd: string, ...args: string[]): Promise<void> {
  // Fixed dates: the same commits (and sealed candidates) on every run, so the printed hashes are too.
  const date = '2026-11-21T08:00:00Z';
  await $({ cwd, quiet: true, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } })`git ${args}`;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

// The project: a tiny library whose `median` is wrong for even-length input (the task).
const base = {
  'package.json': JSON.stringify({ name: 'stats', type: 'module', private: true }, null, 2) + '\n',
  'src/stats.js': [
    '// @ts-check',
    '/** @param {number[]} xs */',
    'export function mean(xs) {',
    '  return xs.reduce((a, b) => a + b, 0) / xs.length;',
    '}',
    '',
    '/** @param {number[]} xs */',
    'export function median(xs) {',
    '  const s = [...xs].sort((a, b) => a - b);',
    '  return s[Math.floor(s.length / 2)];',
    '}',
    '',
  ].join('\n'),
  'build.mjs': "// The build: every module must load.\nimport('./src/stats.js').then(() => console.log('build ok'));\n",
  'test/stats.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { mean, median } from '../src/stats.js';",
    '',
    "test('mean', () => assert.equal(mean([1, 2, 3]), 2));",
    "test('median odd', () => assert.equal(median([3, 1, 2]), 2));",
    "test('median single', () => assert.equal(median([5]), 5));",
    '',
  ].join('\n'),
};

const fixedMedian = [
  '/** @param {number[]} xs */',
  'export function median(xs) {',
  '  const s = [...xs].sort((a, b) => a - b);',
  '  const mid = Math.floor(s.length / 2);',
  '  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;',
  '}',
  '',
].join('\n');

const agents: {
  slug: string;
  model: string;
  bead: string;
  seconds: number;
  files: Record<string, string>;
  note: string;
}[] = [
  {
    slug: 'claude-code',
    model: 'claude-opus-4-1',
    bead: 'demo-clean-fix',
    seconds: 45,
    note: 'fixes median and adds a test',
    files: {
      'src/stats.js': base['src/stats.js'].replace(
        /\/\*\* @param \{number\[\]\} xs \*\/\nexport function median[\s\S]*$/,
        fixedMedian,
      ),
      'test/stats.test.js':
        base['test/stats.test.js'] + "test('median even', () => assert.equal(median([4, 1, 3, 2]), 2.5));\n",
    },
  },
  {
    slug: 'codex-cli',
    model: 'gpt-5-codex',
    bead: 'demo-breaks-test',
    seconds: 36,
    note: 'changes mean by mistake: a test fails',
    files: {
      'src/stats.js': base['src/stats.js']
        .replace('/ xs.length', '/ (xs.length + 1)')
        .replace(/\/\*\* @param \{number\[\]\} xs \*\/\nexport function median[\s\S]*$/, fixedMedian),
    },
  },
  {
    slug: 'cursor-cli',
    model: 'cursor-large',
    bead: 'demo-no-build',
    seconds: 51,
    note: 'leaves a syntax error: does not build',
    files: {
      'src/stats.js': base['src/stats.js'].replace('export function median(xs) {', 'export function median(xs) {{'),
    },
  },
];

progress.update('setup', 'repository');
mkdirSync(repo, { recursive: true });
await git(repo, 'init', '-q', '-b', 'main');
await git(repo, 'config', 'user.email', 'demo@judgeloop.invalid');
await git(repo, 'config', 'user.name', 'judgeloop demo');
write(repo, base);
await git(repo, 'add', '-A');
await git(repo, 'commit', '-q', '-m', 'stats library');

const tsc = join(realpathSync(join(root, 'node_modules')), '.bin', 'tsc'); // the exposed path (a worktree links it)
const config = {
  collector: {
    commands: {
      build: 'node build.mjs',
      test: 'node --test test/',
      lint: `${tsc} --noEmit --allowJs --checkJs --strict --target es2022 --module nodenext src/*.js`,
    },
    // The lint borrows judgeloop's own TypeScript; the sandbox hides judgeloop's checkout from checks, so its
    // node_modules is shown again, read-only.
    sandbox_expose: [realpathSync(join(root, 'node_modules'))],
  },
};
writeFileSync(join(work, 'judgeloop.json'), JSON.stringify(config, null, 2));

const t0 = Date.parse('2026-11-21T09:00:00Z');
const records: string[] = [];
for (const a of agents) {
  progress.update('setup', `worktree ${a.bead}`, { done: records.length + 1, total: agents.length });
  const wt = join(work, 'worktrees', a.bead);
  await git(repo, 'worktree', 'add', '-q', '-b', `agent/${a.bead}`, wt, 'main');
  write(wt, a.files);
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', a.note);
  const record = {
    schema_version: '1.0.0',
    bead: a.bead,
    task: {
      id: 'task-median',
      prompt: 'Fix median() for even-length input and add a test.',
      complexity: 3,
      command: 'work-on-tasks',
      discipline: 'backend',
      type: 'bugfix',
    },
    agent: { slug: a.slug, model: a.model },
    template: a.slug === 'codex-cli' ? 'bugfix-terse-v1' : 'bugfix-v2',
    race_id: 'demo-race',
    job_id: `job-${a.bead}`,
    worktree: wt,
    base_ref: 'main',
    head_ref: `agent/${a.bead}`,
    started_at: new Date(t0).toISOString(),
    completed_at: new Date(t0 + a.seconds * 1000).toISOString(),
    exit_code: 0,
    status: 'completed',
    usage: {
      input_tokens: 20_000 + a.seconds * 100,
      output_tokens: 3_000,
      total_tokens: 23_000 + a.seconds * 100,
      cost_usd: 0.05,
    },
    iterations: 0,
  };
  const file = join(work, 'runs', `${a.bead}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  records.push(file);
}

progress.finish('setup', `repository ${repo}, state ${state}`);
progress.update('collect', `bin/collect on ${records.length} runs (build, tests, lint each)`);
const collect = $({
  env: { ...process.env, JUDGELOOP_STATE_DIR: state, JUDGELOOP_CONFIG: join(work, 'judgeloop.json') },
  stdio: ['ignore', 'ignore', 'pipe'],
  nothrow: true,
})`${join(root, 'bin', 'collect')} ${records}`;
collect.stderr.setEncoding('utf8').on('data', (t: string) => progress.message(t));
const done = await collect;
progress.finish('collect', done.exitCode === 0 ? 'done' : `bin/collect exited ${done.exitCode ?? done.signal}`);
progress.end();
if (done.exitCode !== 0) process.exitCode = 1;

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '--' : (x * 100).toFixed(1));
const store = new StateStore(state);
const rows = agents.map((a): Feedback => {
  const r = readFeedback(store, a.bead);
  if (r.status !== 'ok') throw new Error(`demo: no feedback for ${a.bead} (${r.status})`);
  return r.feedback;
});
const header = ['bead', 'agent', 'outcome', 'build', 'tests', 'lint', 'diff', 'speed', 'score /100'];
const table = rows.map((f) => {
  const t = f.checks.test?.tests;
  return [
    f.bead,
    f.run.agent,
    f.outcome,
    f.checks.build?.status === 'passed' ? '✓' : '✗',
    t ? `${t.passed ?? '?'}/${t.total ?? '?'} ${pct(f.scores.tests)}` : pct(f.scores.tests),
    pct(f.scores.lint),
    `${f.diff ? `+${f.diff.lines_added}/-${f.diff.lines_removed}` : '--'} ${pct(f.scores.diff_size)}`,
    pct(f.scores.speed),
    pct(f.composite),
  ];
});
console.log(
  `\nTask: "Fix median() for even-length input and add a test."  (race demo-race, baseline: 3 tests on main)\n`,
);
process.stdout.write(textTable(header, table, { rule: true }));
console.log(
  `\nWorking folder: ${work}  (judgeloop.json, runs/, state/; try: cd ${work} && cat state/feedback/*.json | jq '{bead, outcome, composite}')`,
);

// Then the rest of the pipeline on the same state, as a user types it: each command printed with its output
// (stdout; README's worked examples are these blocks, compared by test/docs/readme-examples.test.ts).
const shellEnv = {
  ...process.env,
  PATH: `${join(root, 'bin')}:${process.env.PATH ?? ''}`,
  JUDGELOOP_NOW: '2026-11-21T10:00:00Z',
  JUDGELOOP_STATE_DIR: '',
  JUDGELOOP_CONFIG: '',
  JUDGE_ENABLED: '',
};
async function section(title: string, commands: string[]): Promise<void> {
  console.log(`\n# ${title}\n`);
  for (const cmd of commands) {
    progress.update(title, cmd);
    const r = await $({ cwd: work, env: shellEnv, nothrow: true, quiet: true })`sh -c ${`${cmd} 2>&1`}`;
    // Progress lines (they end in elapsed seconds) and the state folder (said above) are left out.
    const lines = r.stdout.split('\n').filter((l) => !/^[a-z-]+: .*\(\d+\.\d s\)$|^judgeloop: state folder /.test(l));
    console.log(`$ ${cmd}\n${lines.join('\n').trimEnd()}`);
    if (r.exitCode !== 0) console.log(`(exit ${r.exitCode})`);
  }
  progress.finish(title, 'done');
}

const runs = agents.map((a) => `runs/${a.bead}.json`).join(' ');
await section('race', [
  `judgeloop race ${runs}`,
  'judgeloop accept demo-race --solution demo-clean-fix --merge --dry-run',
]);
await section('templates', ['judgeloop score-templates']);
await section('ratings', [
  'judgeloop agents add claude-code --cost-per-million 15 --max-complexity 6',
  'judgeloop agents add codex-cli --cost-per-million 10 --max-complexity 5',
  'judgeloop agents add cursor-cli --cost-per-million 5 --max-complexity 3',
  'judgeloop rate demo-clean-fix',
  'judgeloop rate demo-clean-fix --quality 9 --reviewer alice',
  'judgeloop rate demo-breaks-test --quality 5 --reviewer alice',
  'judgeloop rate demo-no-build --quality 1 --reviewer alice',
  'judgeloop ratings',
  'judgeloop route --command work-on-tasks --complexity 3 --seed 1',
  'judgeloop route --command work-on-tasks --complexity 7 --seed 3',
  'judgeloop route --command work-on-tasks --complexity 2 --seed 4',
]);

// The demo ends as a user's week would: one HTML page of everything above, opened from file:// with no server.
const report = await $({ cwd: work, env: shellEnv, nothrow: true })`${join(root, 'bin', 'report')} --out report.html`;
if (report.exitCode === 0)
  console.log(`\nReport: ${join(work, 'report.html')}  (open it in a browser; judgeloop report --help)`);
else {
  console.error(`demo: bin/report exited ${report.exitCode}: ${report.stderr.trim()}`);
  process.exitCode = 1;
}
