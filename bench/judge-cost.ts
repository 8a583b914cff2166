// bench/judge-cost.ts: the cost of one judgment on the demo's runs, with and without prompt caching, direct and
// through Message Batches, at config/'s prices. Run: npm run build && node --import tsx bench/judge-cost.ts
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../lib/config/config.js';
import { parseRunRecord } from '../lib/collector/run-record.js';
import { projectRoot } from '../lib/base/paths.js';
import { costUsd, resolveModel, usageWithCache } from '../lib/judge/cost.js';
import { judgeRun } from '../lib/judge/judge-run.js';
import { StateStore } from '../lib/store/store.js';
import { startMessagesServer } from '../test/judge/helpers/messages-server.js';

const root = projectRoot();
// The demo: a real repository, three agents' runs collected; its working folder is left for us.
const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'demo', 'demo.ts')], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { ...process.env, NO_COLOR: '1' },
});
const work = /Working folder: (\S+)/.exec(out)?.[1];
if (!work) throw new Error('the demo did not print its working folder');
const server = await startMessagesServer();
try {
  const config = loadConfig({ env: {}, configFile: join(work, 'judgeloop.json'), cwd: work });
  const cfg = { ...config, judge: { ...config.judge, enabled: true, phase: 1, max_per_hour: 1000 } };
  const deps = {
    store: new StateStore(join(work, 'state')),
    config: cfg,
    env: { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: server.url },
    processEnv: process.env,
    now: () => new Date(),
    log: () => undefined,
  };
  const runs = readdirSync(join(work, 'runs')).filter((f) => f.endsWith('.json'));
  for (const f of runs) {
    const file = join(work, 'runs', f);
    const o = await judgeRun(parseRunRecord(readFileSync(file, 'utf8'), file), deps);
    if (o.status !== 'judged') throw new Error(`${f}: ${o.status} ${o.message}`);
  }
  // Each request as sent: the system block (marked cache_control) is the prefix; the rest is the run's context.
  const cpt = cfg.judge.chars_per_token;
  const output = cfg.judge.expected_output_tokens;
  const sizes = server.requests.map((r) => {
    const b = r.body as { system: { text: string }[]; messages: unknown; output_config: unknown };
    const prefix = Math.ceil(b.system.map((s) => s.text).join('').length / cpt);
    const rest = Math.ceil((JSON.stringify(b.messages).length + JSON.stringify(b.output_config).length) / cpt);
    return { prefix, rest };
  });
  const model = resolveModel(cfg.judge);
  const batchJudge = { ...cfg.judge, prices_per_million: cfg.judge.batch_prices_per_million };
  const perJudgment = (j: typeof cfg.judge, cached: boolean): number => {
    let sum = 0;
    sizes.forEach((s, i) => {
      const mode = !cached ? 'none' : i === 0 ? 'write' : 'read';
      sum += costUsd(usageWithCache(s.prefix, s.rest, output, mode), model, j) ?? Number.NaN;
    });
    return sum / sizes.length;
  };
  const fmt = (x: number) => `$${x.toFixed(4)}`;
  console.log(
    `Cost per judgment on the demo's ${sizes.length} runs, ${model} at config/defaults.json's prices; tokens at ${cpt} chars/token:`,
  );
  console.log(
    `  system prefix ${sizes[0]!.prefix} tokens, context ${Math.min(...sizes.map((s) => s.rest))}–${Math.max(...sizes.map((s) => s.rest))} tokens, output ${output} tokens (judge.expected_output_tokens)`,
  );
  const rows: [string, number][] = [
    ['direct, no caching', perJudgment(cfg.judge, false)],
    ['direct, prefix cached (first writes, rest read)', perJudgment(cfg.judge, true)],
    ['batch, no caching', perJudgment(batchJudge, false)],
    ['batch, prefix cached (best effort in a batch)', perJudgment(batchJudge, true)],
  ];
  const base = rows[0]![1];
  for (const [what, usd] of rows)
    console.log(`  ${what.padEnd(50)} ${fmt(usd)}  (${((usd / base) * 100).toFixed(1)}% of direct uncached)`);
  const cachedOnly = (j: typeof cfg.judge) =>
    costUsd(usageWithCache(sizes[0]!.prefix, 0, 0, 'read'), model, j)! /
    costUsd(usageWithCache(sizes[0]!.prefix, 0, 0, 'none'), model, j)!;
  console.log(
    `  the prefix alone read from the cache costs ${(cachedOnly(cfg.judge) * 100).toFixed(0)}% of sending it; it is cached only at or over the model's minimum cacheable length`,
  );
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
