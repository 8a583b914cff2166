// bench/judge.ts: on this repository's own history, the judge's assembled context vs seed 003's naive
// assembly (whole diff + 2000 lines of test output), and the judge's own overhead per call against a
// loopback Messages API that answers at once.  Run: npm run build && node --import tsx bench/judge.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../lib/config/config.js';
import { diffPatch, workingDiff } from '../lib/git/snapshot.js';
import { assembleContext } from '../lib/judge/context.js';
import { loadSecretTable } from '../lib/secrets/load.js';
import { redactSecrets } from '../lib/secrets/match.js';
import { scrubEnv } from '../lib/process/env-scrub.js';
import { contextBudget } from '../lib/judge/gather.js';
import { judgeRun } from '../lib/judge/judge-run.js';
import { maskTimings, normalizeOutput } from '../lib/judge/output-lines.js';
import { collectRun } from '../lib/collector/collect.js';
import type { Feedback } from '../lib/schema/types.generated.js';
import { projectRoot } from '../lib/base/paths.js';
import { parseRunRecord } from '../lib/collector/run-record.js';
import { StateStore } from '../lib/store/store.js';
import { median as statsMedian } from '../lib/stats/stats.js';
import { startMessagesServer } from '../test/judge/helpers/messages-server.js';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
const median = (xs: number[]): number => statsMedian(xs) ?? Number.NaN;

const root = projectRoot();
const clone = mkdtempSync(join(tmpdir(), 'judgeloop-bench-'));
git(tmpdir(), 'clone', '-q', '--no-local', root, clone);
const commits = git(clone, 'log', '--format=%H', '--first-parent', '-n', '8')
  .split('\n')
  .filter((c) => git(clone, 'rev-list', '--parents', '-n', '1', c).split(' ').length === 2);

// Real test output, once: vitest's verbose report of the judge's pure tests.
let testOutput: string;
try {
  testOutput = execFileSync(
    'npx',
    ['vitest', 'run', 'test/judge/verdict-reply.test.ts', 'test/judge/context.test.ts', '--reporter=verbose'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
} catch (e) {
  testOutput = String((e as { stdout?: string }).stdout ?? '');
}
const config = loadConfig({ env: {} });
const budget = contextBudget(config);

console.log('Assembled context vs naive (whole diff + 2000 lines of test output), estimated tokens at 4 chars/token');
console.log(
  [
    'commit',
    'files',
    'naive_tokens',
    'judge_tokens',
    'ratio',
    'left_out',
    'shortened',
    'secrets',
    'assemble_ms',
    'redact_MB/s',
  ]
    .map((h) => h.padEnd(12))
    .join(' '),
);
const secretTable = loadSecretTable();
for (const c of commits) {
  git(clone, 'checkout', '-q', c);
  const wd = await workingDiff(clone, `${c}^`);
  const diff = await diffPatch(clone, wd.mergeBase, wd.tree);
  const naive = diff.length + testOutput.split('\n').slice(0, 2000).join('\n').length + 300;
  const t0 = performance.now();
  const ctx = assembleContext(
    {
      prompt: git(clone, 'log', '-1', '--format=%B', c),
      diff,
      testOutput,
      lintOutput: null,
      metadata: { commit: c },
      sources: [],
    },
    budget,
    loadSecretTable(),
  );
  const ms = performance.now() - t0;
  // The one matcher over the whole raw diff (the judge runs it over every part, then the final request).
  const r0 = performance.now();
  redactSecrets(diff, secretTable);
  const mbps = diff.length / 1e6 / ((performance.now() - r0) / 1000);
  const nt = Math.ceil(naive / 4);
  console.log(
    [
      c.slice(0, 10),
      String(wd.files.length),
      String(nt),
      String(ctx.stats.tokens_est),
      (ctx.stats.tokens_est / nt).toFixed(2),
      String(ctx.stats.left_out.length),
      String(ctx.stats.shrunk.length),
      String(ctx.stats.secrets_redacted.count),
      ms.toFixed(1),
      mbps.toFixed(1),
    ]
      .map((v) => v.padEnd(12))
      .join(' '),
  );
}

// The collector's env scrub runs once per check: this process's environment through the table.
{
  const n = 200;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) scrubEnv(process.env, config.collector.secret_env_patterns);
  console.log(
    `\nscrubEnv over ${Object.keys(process.env).length} variables: ${((performance.now() - t0) / n).toFixed(2)} ms per call`,
  );
}

// Overhead per call: bin/judge's whole path in-process (git diff, assembly, cache check, throttle lock, ledger,
// SDK call, validation, writes) with the server answering at once, next to the bare SDK round trip.
const server = await startMessagesServer();
git(clone, 'checkout', '-q', commits[0]!);
const stateDir = mkdtempSync(join(tmpdir(), 'judgeloop-bench-state-'));
const store = new StateStore(stateDir);
const cfg = { ...config, judge: { ...config.judge, enabled: true, max_per_hour: 100000 } };
const env = { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: server.url };
const deps = { store, config: cfg, env, processEnv: process.env, now: () => new Date(), log: () => undefined };
const rounds = 30;
const whole: number[] = [];
for (let i = 0; i < rounds; i++) {
  const rec = {
    schema_version: '1.0.0',
    bead: `bench-${i}`,
    task: { id: 't', prompt: `bench run ${i}: ${git(clone, 'log', '-1', '--format=%s')}` },
    agent: { slug: 'bench' },
    template: 'bench',
    worktree: clone,
    base_ref: `${commits[0]}^`,
    started_at: '2025-06-01T10:00:00Z',
    completed_at: '2025-06-01T10:01:00Z',
    exit_code: 0,
    status: 'completed',
    checks: { test: { exit_code: 0, output: testOutput } },
  };
  const file = join(stateDir, `bench-${i}.json`);
  writeFileSync(file, JSON.stringify(rec));
  const t0 = performance.now();
  const o = await judgeRun(parseRunRecord(JSON.stringify(rec), file), deps);
  whole.push(performance.now() - t0);
  if (o.status !== 'judged') throw new Error(`bench run ${i}: ${o.status} ${o.message}`);
}
const { default: Anthropic } = await import('@anthropic-ai/sdk');
const client = new Anthropic({ apiKey: 'sk-bench', baseURL: server.url, maxRetries: 0 });
const bare: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
  bare.push(performance.now() - t0);
}
await server.close();
console.log(`\nPer call, median of ${rounds} (loopback server answering at once)`);
console.log(
  `  judge path (collect skipped, git diff + assembly + cache + throttle + SDK + validate + write): ${median(whole).toFixed(1)} ms`,
);
console.log(
  `  bare SDK round trip (baseline):                                                        ${median(bare).toFixed(1)} ms`,
);
console.log(
  `  judge overhead over the bare call:                                                     ${(median(whole) - median(bare)).toFixed(1)} ms`,
);

// Issue 35: a re-collect of unchanged work (a vitest project printing colours, checked in sealed checkouts at random
// temporary paths) judged again. The previous release masked timings only: its context is maskTimings(raw).
{
  const srv = await startMessagesServer();
  const nodeModules = realpathSync(join(root, 'node_modules'));
  const repo = mkdtempSync(join(tmpdir(), 'judgeloop-bench-recollect-'));
  const files: Record<string, string> = {
    '.gitignore': 'node_modules\n',
    'src/add.mjs': 'export const add = (a, b) => a + b;\n',
    'test/add.test.mjs':
      "import { test, expect } from 'vitest';\nimport { add } from '../src/add.mjs';\ntest('adds', () => expect(add(1, 2)).toBe(3));\n",
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(repo, f, '..'), { recursive: true });
    writeFileSync(join(repo, f), text);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'add', '-A');
  git(repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'base');
  writeFileSync(join(repo, 'src/sub.mjs'), 'export const sub = (a, b) => a - b;\n');
  const state = mkdtempSync(join(tmpdir(), 'judgeloop-bench-recollect-state-'));
  const rcfg = loadConfig({
    env: {},
    overrides: {
      collector: {
        setup_command: `mkdir -p node_modules && ln -s ${join(nodeModules, 'vitest')} node_modules/vitest`,
        sandbox_expose: [nodeModules],
        commands: {
          build: null,
          test: 'FORCE_COLOR=1 node node_modules/vitest/vitest.mjs run',
          lint: null,
          typecheck: null,
        },
      },
      judge: { enabled: true, phase: 2, max_per_hour: 1000 },
    },
  });
  const rec = {
    schema_version: '1.0.0',
    bead: 'recollect',
    task: { id: 't', prompt: 'add sub(a, b)' },
    agent: { slug: 'bench' },
    template: 'bench',
    worktree: repo,
    base_ref: 'main',
    started_at: '2025-06-01T10:00:00Z',
    completed_at: '2025-06-01T10:01:00Z',
    exit_code: 0,
    status: 'completed',
  };
  const file = join(state, 'recollect.json');
  writeFileSync(file, JSON.stringify(rec));
  const loaded = parseRunRecord(JSON.stringify(rec), file);
  const rstore = new StateStore(state);
  const rdeps = {
    store: rstore,
    config: rcfg,
    env: { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: srv.url },
    processEnv: process.env,
    now: () => new Date(),
    log: () => undefined,
  };
  const first = await judgeRun(loaded, rdeps); // collects, then judges: one call
  const raw1 = rstore.read<Feedback>('feedback', 'recollect')!.checks.test!.output!.text;
  const calls = srv.requests.length;
  await collectRun(loaded, { store: rstore, config: rcfg, processEnv: process.env, now: () => new Date() });
  const raw2 = rstore.read<Feedback>('feedback', 'recollect')!.checks.test!.output!.text;
  const again = await judgeRun(loaded, rdeps);
  await srv.close();
  const previous = maskTimings(raw1) === maskTimings(raw2) ? 0 : 1;
  console.log(
    `\nJudge calls for a re-collect of unchanged work (vitest with colours, a new sealed checkout): ${srv.requests.length - calls} (${first.status}, then ${again.status}); previous release: ${previous}`,
  );
  console.log(
    `  test output the judge reads: ${normalizeOutput(raw1, [tmpdir()]).length} characters of ${raw1.length} raw (colours stripped)`,
  );
}
