// bench: bin/report over 100,000 feedback records (12 templates over a year, as the collector writes them and
// indexes them), 10,000 judge calls and 2,000 judgments: how long writing the page takes (index present, and a first
// read without it), its size, and how long headless Chromium takes to open it and draw every chart. Prints figures;
// asserts nothing (target, issue 26: written in seconds, opened in under 2 s).
//   npm run build && node --import tsx bench/report.ts [--records 100000] [--keep]
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { orderFeedback } from '../lib/collector/record-order.js';
import { summarizeFeedback } from '../lib/store/feedback-index.js';
import { StateStore } from '../lib/store/store.js';
import { createRng } from '../lib/stats/prng.js';
import type { JudgeLedgerRow, Outcome } from '../lib/schema/types.generated.js';
import { judgmentFor } from '../test/helpers/judgment.js';
import { makeFeedback } from '../test/templates/_fixtures.js';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const N = args.includes('--records') ? Number(args[args.indexOf('--records') + 1]) : 100_000;
const rnd = createRng('bench-report');
const OUTCOMES: Outcome[] = ['full_pass', 'full_pass', 'partial_pass', 'agent_failure', 'timeout', 'infra_failure'];
const T0 = Date.parse('2025-01-01T00:00:00Z');
const YEAR = 365 * 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function generate(store: StateStore): void {
  mkdirSync(store.dir('feedback'), { recursive: true });
  mkdirSync(store.dir('feedback-index'), { recursive: true });
  let rows = '';
  for (let i = 0; i < N; i++) {
    const fb = orderFeedback(
      makeFeedback({
        bead: `bd-${i}`,
        template: `prompts/t${i % 12}.md`,
        outcome: OUTCOMES[Math.floor(rnd() * OUTCOMES.length)]!,
        completed_at: iso(T0 + Math.floor((i / N) * YEAR)),
        iterations: rnd() < 0.2 ? 1 : 0,
        judge: rnd() < 0.5 ? Math.round(rnd() * 100) / 100 : null,
      }),
    );
    const file = store.path('feedback', fb.bead);
    writeFileSync(file, JSON.stringify(fb, null, 2) + '\n'); // plain writes: the collector's path is benched elsewhere
    const st = statSync(file);
    rows += JSON.stringify(summarizeFeedback(fb, { size: st.size, mtime_ms: st.mtimeMs }, iso(Date.now()))) + '\n';
    if (rows.length > 1 << 20) {
      appendFileSync(store.path('feedback-index', 'feedback'), rows);
      rows = '';
    }
  }
  appendFileSync(store.path('feedback-index', 'feedback'), rows);
  const calls: JudgeLedgerRow[] = Array.from({ length: 10_000 }, (_, i) => ({
    type: 'call',
    at: iso(T0 + Math.floor((i / 10_000) * YEAR)),
    bead: `bd-${i}`,
    model: 'claude-opus-4',
    backend: 'sdk',
    cost_usd: 0.02,
    latency_ms: 800,
    outcome: i % 50 === 0 ? 'overloaded' : 'ok',
  }));
  store.appendLines('judge-ledger', 'judge', calls);
  for (let i = 0; i < 2000; i++)
    store.write('judgments', `bd-${i}`, {
      ...judgmentFor(`bd-${i}`),
      judged_at: iso(T0 + i * 3_600_000),
      ...(i % 10 === 0 ? { cached_from: 'bd-0' } : {}),
    });
}

/** Wall and CPU (user + system, from GNU time when installed: steadier on a shared machine) seconds of one run. */
function timeReport(env: NodeJS.ProcessEnv, out: string): { wall: number; cpu: number | null } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'bench-cpu %U %S', join(root, 'bin', 'report'), '--out', out], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bin/report exited ${r.status}: ${r.stderr.slice(-500)}`);
  const m = /bench-cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall: Number(process.hrtime.bigint() - t0) / 1e9, cpu: m ? Number(m[1]) + Number(m[2]) : null };
}
const fmt = (t: { wall: number; cpu: number | null }) =>
  `${t.wall.toFixed(2)} s wall${t.cpu === null ? '' : `, ${t.cpu.toFixed(2)} s cpu`}`;

async function timeOpen(file: string): Promise<{ wall: number; open: number; draw: number; charts: number }[]> {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(work, 'profile-')), {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const out = [];
  for (let k = 0; k < 5; k++) {
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(`file://${file}`);
    await page.waitForSelector('body[data-charts-drawn]');
    const wall = (Date.now() - t0) / 1000;
    const open = Number(await page.getAttribute('body', 'data-done-ms')) / 1000;
    const draw = Number(await page.getAttribute('body', 'data-render-ms')) / 1000;
    out.push({ wall, open, draw, charts: Number(await page.getAttribute('body', 'data-charts-drawn')) });
    await page.close();
  }
  await context.close();
  return out;
}

mkdirSync(join(root, '.bench-tmp'), { recursive: true });
const work = mkdtempSync(join(root, '.bench-tmp', 'report-'));
try {
  const store = new StateStore(join(work, 'state'));
  const t = Date.now();
  generate(store);
  console.log(
    `bench/report: ${N} feedback records (12 templates, one year), 10,000 judge calls, 2,000 judgments generated in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );
  const env = { PATH: process.env.PATH, JUDGELOOP_STATE_DIR: store.root, JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' };
  const out = join(work, 'report.html');
  const runs = [timeReport(env, out), timeReport(env, out)].sort((a, b) => a.wall - b.wall);
  console.log(
    `  bin/report, index present: ${fmt(runs[0]!)} (best of 2); ${(statSync(out).size / 1024).toFixed(0)} KB; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  rmSync(store.dir('feedback-index'), { recursive: true, force: true });
  console.log(`  bin/report, first read (no index: every file read, index written): ${fmt(timeReport(env, out))}`);
  const opens = (await timeOpen(out)).sort((a, b) => a.open - b.open);
  const med = opens[Math.floor(opens.length / 2)]!;
  console.log(
    `  Chromium (headless, file://): navigation start to ${med.charts} uPlot charts drawn ${med.open.toFixed(2)} s (median of 5; best ${opens[0]!.open.toFixed(2)} s), of which drawing ${med.draw.toFixed(3)} s; page.goto to drawn as playwright sees it ${med.wall.toFixed(2)} s`,
  );
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
