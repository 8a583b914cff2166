// The base commit's own check results, computed in a temporary detached worktree (never the agent's),
// once per baselineKey, cached in state/baselines/<key>.json under a cross-process lock (never after a failed setup).
import { createHash } from 'node:crypto';
import { CHECK_NAMES, runChecks, skipped } from './checks.js';
import { depCacheOf, goCacheOf, runSetup, setupCommand, withCheckout } from './checkout.js';
import type { SandboxPolicy } from '../process/sandbox.js';
import type { StateStore } from '../store/store.js';
import { sweepBaselineCheckouts } from './checkout-sweep.js';
import type { Baseline, CommandsUsed, Config } from '../schema/types.generated.js';

/**
 * The cache key: every setting that changes what the base run produces — the commit, the commands and runners, the
 * fetch and setup (and whether the setup has network), the test report asked for, the timeouts of the checks that
 * run, the output cap and case limit, and the sandbox (mode, network, what it shows, the environment passed).
 */
export function baselineKey(commit: string, commands: CommandsUsed, c: Config['collector']): string {
  const setup = setupCommand(c);
  const timeouts = Object.fromEntries(
    CHECK_NAMES.filter((k) => commands[k] !== null).map((k) => [k, c.timeouts_seconds[k]]),
  );
  const material = JSON.stringify({
    commit,
    build: commands.build,
    test: commands.test,
    lint: commands.lint,
    typecheck: commands.typecheck,
    runners: { test: c.runners.test ?? null, lint: c.runners.lint ?? null },
    setup,
    ...(setup !== null
      ? { setup_network: c.setup_network ?? false, setup_timeout: c.setup_timeout_seconds ?? 600 }
      : {}),
    test_report: commands.test !== null ? (c.test_report ?? null) : null,
    timeouts,
    output_cap_bytes: c.output_cap_bytes,
    max_test_cases: c.max_test_cases ?? null,
    sandbox: c.sandbox ?? 'auto',
    sandbox_network: c.sandbox_network ?? false,
    sandbox_expose: c.sandbox_expose ?? [],
    sandbox_writable: c.sandbox_writable ?? [],
    check_env: c.check_env ?? [],
  });
  return createHash('sha256').update(material).digest('hex').slice(0, 32);
}

/** Whether the baseline's setup did not pass (its checks did not run): never cached. */
const setupFailed = (b: Baseline): boolean => b.setup !== undefined && b.setup.result.status !== 'passed';

export interface BaselineOptions {
  store: StateStore;
  /** Any directory inside the repository (the agent's worktree: only its git metadata is used). */
  repoDir: string;
  commit: string;
  commands: CommandsUsed;
  collector: Config['collector'];
  env: NodeJS.ProcessEnv;
  /** The checks' sandbox (the base commit's code is the agent's repository's too). */
  sandbox: SandboxPolicy;
  now: () => Date;
  log?: (msg: string) => void;
}

export interface BaselineResult {
  baseline: Baseline;
  /** True when this call ran the checks (false: read from the cache). */
  computed: boolean;
}

/** Runs the checks on a temporary detached checkout of `commit`, always removed afterwards. */
async function computeBaseline(o: BaselineOptions, key: string): Promise<Baseline> {
  const started = performance.now();
  return withCheckout(o.repoDir, o.commit, async (tree) => {
    const label = `baseline ${o.commit.slice(0, 12)}`;
    const setup = await runSetup(tree, { ...o, label, depCache: depCacheOf(o.store, o.collector) });
    let checks: Baseline['checks'];
    if (setup && setup.result.status !== 'passed') {
      // The base's checks would fail for want of what the setup installs, not for the base's own faults.
      const why = `the baseline setup ${setup.result.status === 'timeout' ? 'timed out' : 'failed'}`;
      o.log?.(`${label}: ${why}; checks not run`);
      checks = { build: null, test: null, lint: null, typecheck: null };
      for (const name of CHECK_NAMES) if (o.commands[name] !== null) checks[name] = skipped(why);
    } else {
      o.log?.(`${label}: running checks in a temporary checkout`);
      checks = await runChecks({
        cwd: tree,
        commands: o.commands,
        collector: o.collector,
        env: o.env,
        sandbox: o.sandbox,
        shortCircuit: false,
        // The base is the trusted revision: its checks' Go build cache is kept for every later checkout.
        goCache: goCacheOf(o.store, true),
        log: o.log,
      });
    }
    return {
      schema_version: '1.0.0',
      key,
      commit: o.commit,
      commands: o.commands,
      computed_at: o.now().toISOString(),
      duration_ms: Math.round(performance.now() - started),
      ...(setup ? { setup } : {}),
      checks,
    };
  });
}

/** The cached baseline, or computes it once: concurrent callers wait on the lock and then read the cache. */
export async function getBaseline(o: BaselineOptions): Promise<BaselineResult> {
  const key = baselineKey(o.commit, o.commands, o.collector);
  await sweepBaselineCheckouts(o.repoDir).catch((e: Error) =>
    o.log?.(`could not sweep old baseline checkouts: ${e.message}`),
  );
  const cached = o.store.read<Baseline>('baselines', key);
  if (cached) return { baseline: cached, computed: false };
  return o.store.withLock(
    `baseline-${key}`,
    async () => {
      const again = o.store.read<Baseline>('baselines', key);
      if (again) return { baseline: again, computed: false };
      const baseline = await computeBaseline(o, key);
      // A failed setup says nothing lasting about the base (a registry down, a tool missing): the next run retries.
      if (!setupFailed(baseline)) o.store.write('baselines', key, baseline);
      return { baseline, computed: true };
    },
    { waitSeconds: o.collector.baseline_lock_wait_seconds },
  );
}
