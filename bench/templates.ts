// bench: bin/score-templates over 20,000 and 100,000 realistic feedback records, beside the jq pipeline a user
// would write and beside merely reading every file: the indexed read, the first read (no index: every file parsed),
// their ratio to jq and the peak memory of each, beside the figures before issue 27; then each optimisation the
// store keeps, with and without (docs/design/store.md). Prints figures; asserts nothing (targets: issue 15 item 7 —
// indexed ≥ 10× faster than jq, first read ≥ 3×, memory flat).
//   npm run build && node --import tsx bench/templates.ts [--sizes 20000,100000] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { orderFeedback } from '../lib/collector/record-order.js';
import { compactIndex, indexFeedback, parseRow, rowFromFile, summarizeFeedback } from '../lib/store/feedback-index.js';
import { feedbackNames, readFeedback } from '../lib/store/feedback-read.js';
import { validate } from '../lib/schema/schema.js';
import { assertSafeId } from '../lib/store/bead.js';
import { appendLineDurable } from '../lib/store/state-write.js';
import { StateStore } from '../lib/store/store.js';
import { createRng as seededRandom } from '../lib/stats/prng.js';
import type { Feedback, Outcome, RunRecord } from '../lib/schema/types.generated.js';
import { rowStaleness, runRecordHash } from '../lib/evidence/currency.js';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const sizes = (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1]! : '20000,100000').split(',').map(Number);
const keep = args.includes('--keep');

const rnd = seededRandom('bench-templates');
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const TEMPLATES = Array.from(
  { length: 12 },
  (_, i) => `prompts/${['fix', 'feature', 'refactor', 'test'][i % 4]}-v${Math.floor(i / 4) + 1}.md`,
);
const TASK_TYPES = ['bugfix', 'feature', 'refactor', 'tests'] as const;
const ISSUES = [
  { description: 'Changed files unrelated to the task (formatting in utils/)', category: 'scope_creep' },
  { description: 'Test asserts the mocked value it set up, not the behaviour', category: 'test_written_to_pass' },
  { description: 'Left a TODO stub in the error path', category: 'stub' },
  { description: 'Missing edge case for empty input' },
  { description: 'Duplicated helper instead of reusing the existing one', category: 'code_quality' },
];
const OUTPUT_LINE = ' ✓ src/module/feature.test.ts > handles the case correctly (3 ms)\n';

function record(i: number): Feedback {
  const template = pick(TEMPLATES);
  const quality = (TEMPLATES.indexOf(template) % 5) / 10 + 0.45; // each template has its own success rate
  const r = rnd();
  const outcome: Outcome =
    r < 0.04
      ? 'infra_failure'
      : r < 0.08
        ? 'timeout'
        : r < 0.08 + quality * 0.8
          ? 'full_pass'
          : r < 0.95
            ? 'partial_pass'
            : 'agent_failure';
  const completed = new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(rnd() * 90 * 86400_000));
  const scored = outcome !== 'infra_failure';
  const judged = scored && outcome !== 'timeout' && rnd() < 0.7;
  const passed = 20 + Math.floor(rnd() * 200);
  const failed = outcome === 'full_pass' ? 0 : Math.floor(rnd() * 5);
  const files = Array.from({ length: 2 + Math.floor(rnd() * 6) }, (_, k) => ({
    path: `src/module${k}/file${Math.floor(rnd() * 100)}.ts`,
    added: Math.floor(rnd() * 80),
    removed: Math.floor(rnd() * 30),
    binary: false,
  }));
  const check = (status: 'passed' | 'failed', text: string) => ({
    status,
    exit_code: status === 'passed' ? 0 : 1,
    duration_ms: Math.floor(rnd() * 30000),
    source: 'collector' as const,
    output: { text, bytes: text.length, truncated: false },
  });
  const bead = `bd-${((i * 2654435761) % 4294967296).toString(36)}-${i}`; // ids deliberately not chronological
  return {
    schema_version: '1.0.0',
    bead,
    run: {
      task_id: `task-${i % 5000}`,
      task_type: pick(TASK_TYPES),
      template,
      agent: pick(['claude', 'codex', 'gemini']),
      model: 'some-model',
      started_at: new Date(completed.getTime() - 600_000).toISOString(),
      completed_at: completed.toISOString(),
      status:
        outcome === 'infra_failure'
          ? 'infra_failure'
          : outcome === 'timeout'
            ? 'timeout'
            : outcome === 'agent_failure'
              ? 'failed'
              : 'completed',
      exit_code: scored ? 0 : null,
      iterations: rnd() < 0.7 ? 0 : 1 + Math.floor(rnd() * 3),
      usage: { input_tokens: 50000, output_tokens: 8000, total_tokens: 58000, cost_usd: 0.42 },
      worktree: `/work/trees/${bead}`,
    },
    collected_at: completed.toISOString(),
    commands: { build: 'npm run build', test: 'npm test', lint: 'npm run lint', typecheck: null },
    checks: scored
      ? {
          build: check('passed', '> build\n> tsc -p .\n'),
          test: {
            ...check(
              failed ? 'failed' : 'passed',
              OUTPUT_LINE.repeat(14) +
                `\n Test Files  12 passed (12)\n      Tests  ${failed} failed | ${passed} passed (${passed + failed})\n`,
            ),
            tests: { runner: 'vitest', passed, failed, skipped: 0, errors: 0, total: passed + failed },
          },
          lint: {
            ...check('passed', 'src/a.ts\n  3:7  warning  Unexpected any  @typescript-eslint/no-explicit-any\n'),
            lint: { linter: 'eslint', errors: 0, warnings: 1 },
          },
          typecheck: null,
        }
      : { build: null, test: null, lint: null, typecheck: null },
    baseline: null,
    diff: scored
      ? {
          merge_base: 'a'.repeat(40),
          files_changed: files.length,
          lines_added: files.reduce((t, f) => t + f.added, 0),
          lines_removed: files.reduce((t, f) => t + f.removed, 0),
          files,
        }
      : null,
    scores: {
      build: scored ? 1 : null,
      tests: scored ? passed / (passed + failed) : null,
      lint: scored ? 0.98 : null,
      diff_size: scored ? 0.8 : null,
      speed: scored ? 0.7 : null,
    },
    weights_used: scored ? { build: 0.3, tests: 0.3, lint: 0.15, diff_size: 0.15, speed: 0.1 } : {},
    composite: scored ? Math.round(rnd() * 1000) / 1000 : null,
    speed: { basis: 'budget', duration_seconds: 600, reference_seconds: 600 },
    outcome,
    outcome_reason: `The run ended as ${outcome}.`,
    integrity: {
      tests_not_run: false,
      exit_code_contradicts_counts: false,
      test_count_below_baseline: false,
      notes: [],
    },
    judgment: judged
      ? {
          verdict: 'partial',
          score: Math.round(Math.min(1, Math.max(0, quality + (rnd() - 0.5) * 0.4)) * 100) / 100,
          dimensions: { correctness: 0.8, scope_adherence: 0.7, code_quality: 0.75, completeness: 0.7 },
          issues: Array.from({ length: Math.floor(rnd() * 3) }, () => ({
            severity: pick(['major', 'minor'] as const),
            ...pick(ISSUES),
          })),
          model: 'claude-opus-4-1',
          judged_at: completed.toISOString(),
        }
      : null,
  };
}

/** The run record a feedback record was collected from (each read checks it is unchanged: one stat per row). */
function runRecordOf(fb: Feedback): RunRecord {
  const r = fb.run;
  return {
    schema_version: '1.0.0',
    bead: fb.bead,
    task: { id: r.task_id, type: r.task_type ?? undefined, prompt: 'do the task' },
    agent: { slug: r.agent, model: r.model ?? undefined },
    template: r.template,
    worktree: r.worktree ?? `/work/trees/${fb.bead}`,
    base_ref: 'main',
    started_at: r.started_at,
    completed_at: r.completed_at,
    exit_code: r.exit_code ?? null,
    status: r.status,
  } as RunRecord;
}

/** Writes records [from, to) as the collector would: the run records first, then each feedback file and its row. */
function generate(store: StateStore, from: number, to: number): number {
  mkdirSync(store.dir('feedback'), { recursive: true });
  mkdirSync(store.dir('feedback-index'), { recursive: true });
  const runs = join(store.root, '..', 'runs');
  mkdirSync(runs, { recursive: true });
  const records = Array.from({ length: to - from }, (_, k) => record(from + k));
  for (const fb of records) {
    const rec = runRecordOf(fb);
    fb.run.record_path = join(runs, `${fb.bead}.json`);
    fb.run.record_hash = runRecordHash(rec);
    writeFileSync(fb.run.record_path, JSON.stringify(rec, null, 2));
  }
  let bytes = 0;
  let rows = '';
  for (const rec of records) {
    const fb = orderFeedback(rec); // as the collector writes it: summary first, raw output last
    const v = validate('feedback', fb);
    if (!v.ok) throw new Error(`bench generated an invalid record: ${v.errors.join('; ')}`);
    const text = JSON.stringify(fb, null, 2) + '\n';
    const file = store.path('feedback', fb.bead);
    // Plain writes for speed here; the collector's path (store.write + indexFeedback) is timed separately below.
    writeFileSync(file, text);
    bytes += text.length;
    const st = statSync(file);
    rows +=
      JSON.stringify(summarizeFeedback(fb, { size: st.size, mtime_ms: st.mtimeMs }, new Date().toISOString())) + '\n';
    if (rows.length > 1 << 20) {
      appendFileSync(store.path('feedback-index', 'feedback'), rows);
      rows = '';
    }
  }
  appendFileSync(store.path('feedback-index', 'feedback'), rows);
  return bytes;
}

interface Timed {
  seconds: number;
  /** user + system CPU seconds (from GNU time): steadier than wall time on a shared machine. */
  cpu: number | null;
  maxRssKb: number | null;
  stdout: string;
}

/** Runs a shell command (best of `reps`), with peak memory from GNU time when available. */
function timeShell(cmd: string, env: NodeJS.ProcessEnv, reps = 2): Timed {
  let best: Timed | null = null;
  for (let k = 0; k < reps; k++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('/usr/bin/time', ['-f', 'bench-maxrss-kb %M cpu %U %S', 'sh', '-c', cmd], {
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr.slice(-500)}`);
    const m = /bench-maxrss-kb (\d+) cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
    const cur = {
      seconds,
      cpu: m ? Number(m[2]) + Number(m[3]) : null,
      maxRssKb: m ? Number(m[1]) : null,
      stdout: r.stdout,
    };
    if (!best || cur.seconds < best.seconds) best = cur;
  }
  return best!;
}

const hasTime = spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;
const hasJq = spawnSync('jq', ['--version']).status === 0;
const timeCmd = (cmd: string, env: NodeJS.ProcessEnv, reps = 2): Timed => {
  if (hasTime) return timeShell(cmd, env, reps);
  let best: Timed | null = null;
  for (let k = 0; k < reps; k++) {
    const t0 = process.hrtime.bigint();
    const out = execFileSync('sh', ['-c', cmd], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
    const cur = { seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu: null, maxRssKb: null, stdout: out };
    if (!best || cur.seconds < best.seconds) best = cur;
  }
  return best!;
};

const JQ = `group_by(.run.template) | map({template: .[0].run.template, runs: length,
  outcomes: (group_by(.outcome) | map({key: .[0].outcome, value: length}) | from_entries),
  scored: map(select(.outcome != "infra_failure")) | length,
  mean_composite: (map(.composite | select(. != null)) | if length > 0 then add / length else null end),
  judged: map(select(.judgment != null and .outcome != "infra_failure")) | length,
  judge_mean: (map(select(.outcome != "infra_failure") | .judgment.score | select(. != null)) | if length > 0 then add / length else null end)})`;

const fmt = (t: Timed) =>
  `${t.seconds.toFixed(2).padStart(7)} s wall${t.cpu !== null ? `  ${t.cpu.toFixed(2).padStart(6)} s cpu` : ''}${t.maxRssKb ? `  peak ${(t.maxRssKb / 1024).toFixed(0).padStart(5)} MB` : ''}`;
const ratio = (jq: Timed, us: Timed) =>
  `   ${(jq.seconds / us.seconds).toFixed(1)}x faster than jq (wall)${jq.cpu !== null && us.cpu ? `, ${(jq.cpu / us.cpu).toFixed(1)}x (cpu)` : ''}`;

/** Figures of bin/score-templates before issue 27 (external sort, fingerprint check), by this bench on this VM. */
const BEFORE_AT = 'commit 232b6f8, load average 4-19 on 2 cores';
const before: Record<number, string> = {
  20000:
    'indexed 0.38-0.58 s cpu, 72 MB; first read 1.46-1.86 s cpu, 96-98 MB; jq 4.27-4.72 s cpu, 359 MB; one unindexed file 0.66-0.78 s cpu',
  100000:
    'indexed 1.12 s cpu, 90 MB; first read 7.01 s cpu, 126 MB; jq 22.17 s cpu, 1785 MB; one unindexed file 2.69 s cpu',
};

const cpuMs = (fn: () => void): number => {
  const c = process.cpuUsage();
  fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

/** Each optimisation the store keeps, timed in this process with and without (the plain version it replaces). */
function withWithout(store: StateStore): void {
  const names = [...feedbackNames(store)];
  const now = new Date().toISOString();
  const head = cpuMs(() => names.forEach((b) => rowFromFile(store, b, now)));
  const whole = cpuMs(() =>
    names.forEach((b) => {
      const r = readFeedback(store, b);
      if (r.status === 'ok') summarizeFeedback(r.feedback, r.identity, now);
    }),
  );
  console.log(
    `  with/without: a row from a file's head ${(head / 1000).toFixed(2)} s cpu, from the whole file validated ${(whole / 1000).toFixed(2)} s (first read: every file)`,
  );
  const lines = readFileSync(store.path('feedback-index', 'feedback.compacted'), 'utf8').split('\n').filter(Boolean);
  const shape = cpuMs(() => lines.forEach((l) => parseRow(l)));
  const ajv = cpuMs(() => lines.forEach((l) => validate('feedback-index', JSON.parse(l))));
  console.log(
    `  with/without: index rows shape-checked ${shape.toFixed(0)} ms cpu, validated by the schema ${ajv.toFixed(0)} ms (indexed read: every row)`,
  );
  const rows = lines.map((l) => parseRow(l)!);
  const stale = cpuMs(() => rows.forEach((r) => rowStaleness(r)));
  console.log(
    `  cost: each row's run record checked unchanged (a stat each, issue 24) ${stale.toFixed(0)} ms cpu (indexed read: every row)`,
  );
  const built = cpuMs(() => names.forEach((b) => store.path('feedback', b)));
  const joined = cpuMs(() => names.forEach((b) => join(store.dir('feedback'), `${assertSafeId(b)}.json`)));
  console.log(
    `  with/without: state paths built ${built.toFixed(0)} ms cpu, by path.join ${joined.toFixed(0)} ms (first read: every file)`,
  );
  // A first read's new rows: 1,024 a batch, appended unsynced (a row a crash loses is read again) or fdatasynced.
  const batches = Array.from(
    { length: Math.ceil(lines.length / 1024) },
    (_, i) => lines.slice(i * 1024, (i + 1) * 1024).join('\n') + '\n',
  );
  const appendAll = (sync: boolean): number => {
    const file = join(store.root, `.bench-append-${sync}.jsonl`);
    const t0 = process.hrtime.bigint();
    for (const b of batches) appendLineDurable(file, b, sync);
    rmSync(file);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const [unsynced, synced] = [appendAll(false), appendAll(true)];
  console.log(
    `  with/without: a first read's ${batches.length} batches of new rows appended unsynced ${unsynced.toFixed(0)} ms wall, fdatasynced ${synced.toFixed(0)} ms`,
  );
  // The bounded tail: a reader holds only the tail; one file with duplicates would need every row in a Map.
  const map = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '-e',
      `gc();const a=process.memoryUsage().rss;const l=require('fs').readFileSync(process.argv[1],'utf8').split('\\n');const m=new Map();for(const x of l)m.set(x.slice(9,40),x);l.length=0;gc();console.log(((process.memoryUsage().rss-a)/1048576).toFixed(0))`,
      store.path('feedback-index', 'feedback.compacted'),
    ],
    { encoding: 'utf8' },
  );
  const set = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '-e',
      `gc();const a=process.memoryUsage().heapUsed;const s=new Set(require('fs').readdirSync(process.argv[1]));gc();console.log(((process.memoryUsage().heapUsed-a)/1048576).toFixed(1))`,
      store.dir('feedback'),
    ],
    { encoding: 'utf8' },
  );
  console.log(
    `  the index joined with the folder's names as a set: ${set.stdout.trim()} MB of heap (a fingerprint instead: none, and 30 more lines)`,
  );
  console.log(
    `  with/without: the bounded tail keeps a reader's memory flat; every row in a Map (one file, last row wins) would add ${map.stdout.trim()} MB`,
  );
}

mkdirSync(join(root, '.bench-tmp'), { recursive: true });
const work = mkdtempSync(join(root, '.bench-tmp', 'templates-'));
try {
  const store = new StateStore(join(work, 'state'));
  const env = {
    PATH: process.env.PATH,
    JUDGELOOP_STATE_DIR: store.root,
    JUDGE_ENABLED: 'true',
    JUDGE_PHASE: '3',
    NODE_OPTIONS: `--import=${join(root, 'bench', '_maxrss.mjs')}`,
  };
  const fbDir = store.dir('feedback');
  const find = `find ${fbDir} -name '*.json' -exec cat {} +`;
  const score = `${join(root, 'bin', 'score-templates')} --json`;
  console.log(
    `bench/templates: ${TEMPLATES.length} templates; ${hasJq ? 'jq found' : 'jq not installed: the jq figure is skipped (apt-get install -y jq)'}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  let done = 0;
  let bytes = 0;
  for (const size of sizes) {
    process.stderr.write(`generating ${size - done} records...\n`);
    bytes += generate(store, done, size);
    done = size;
    // generate() appends every row to the tail at once; the collector's indexFeedback compacts every ~4,000 rows.
    const c0 = process.hrtime.bigint();
    await compactIndex(store);
    const compactS = Number(process.hrtime.bigint() - c0) / 1e9;
    console.log(
      `\n${size.toLocaleString('en')} feedback records, ${(bytes / 1e6).toFixed(0)} MB (${(bytes / size / 1024).toFixed(1)} KB each)`,
    );
    const cat = timeCmd(`${find} > /dev/null`, env);
    console.log(`  find … -exec cat {} + > /dev/null        ${fmt(cat)}`);
    let jq: Timed | null = null;
    if (hasJq) {
      jq = timeCmd(`${find} | jq -s '${JQ}' > /dev/null`, env, 1);
      console.log(`  find … | jq -s 'group_by(.run.template)…' ${fmt(jq)}`);
    }
    const sc = timeCmd(score, env, 3);
    const data = JSON.parse(sc.stdout) as {
      templates: { template: string; runs: number }[];
      sources: { from_index: number; read_now: number };
    };
    if (data.templates.reduce((t, x) => t + x.runs, 0) !== size)
      throw new Error('score-templates counted a different number of runs');
    console.log(`  bin/score-templates (from the index)      ${fmt(sc)}${jq ? ratio(jq, sc) : ''}`);
    // The first read: no index yet (e.g. feedback copied in, or an older judgeloop): every file is read and parsed.
    rmSync(store.dir('feedback-index'), { recursive: true, force: true });
    const first = timeCmd(score, env, 1);
    if ((JSON.parse(first.stdout) as { sources: { read_now: number } }).sources.read_now !== size)
      throw new Error('the first read did not read every file');
    console.log(`  bin/score-templates (first read, no index) ${fmt(first)}${jq ? ratio(jq, first) : ''}`);
    console.log(
      `  compact ${(size - (sizes[sizes.indexOf(size) - 1] ?? 0)).toLocaleString('en')} generated rows into the index ${compactS.toFixed(2).padStart(5)} s (in the bench process)`,
    );
    // One new run, as the collector writes it (validated atomic write + index row), then a re-score.
    const fb = record(size + 1_000_000);
    const t0 = process.hrtime.bigint();
    store.write('feedback', fb.bead, fb);
    await indexFeedback(store, fb);
    const collectMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const one = timeCmd(score, env, 1);
    console.log(`  collector write + indexFeedback           ${collectMs.toFixed(1).padStart(7)} ms`);
    console.log(`  re-score after one new run                ${fmt(one)}`);
    const rebuild = timeCmd(`${score} --rebuild`, env, 1);
    console.log(`  bin/score-templates --rebuild (all files) ${fmt(rebuild)}`);
    // A file written by something that does not index it: read now, its row appended.
    const stray = record(size + 2_000_000);
    store.write('feedback', stray.bead, stray);
    const rec = timeCmd(score, env, 1);
    console.log(`  re-score after one unindexed file         ${fmt(rec)}`);
    rmSync(store.path('feedback', fb.bead));
    rmSync(store.path('feedback', stray.bead));
    if (before[size]) console.log(`  before issue 27 (${BEFORE_AT}): ${before[size]}`);
    withWithout(store);
  }
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
