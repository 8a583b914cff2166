// Running the checks: on the base (cached), on the graded commit (the verdict) and on the agent's own tests (evidence).
import { errorMessage } from '../base/errors.js';
import type { SandboxPolicy } from '../process/sandbox.js';
import type {
  Baseline,
  BaselineSummary,
  CommandsUsed,
  Config,
  Feedback,
  RunRecord,
} from '../schema/types.generated.js';
import type { Sealed } from './candidate.js';
import { CHECK_NAMES, emptyChecks, runChecks, skipped } from './checks.js';
import { describeSetup } from './blame.js';
import { depCacheOf, goCacheOf, runSetup, trustedChanges, trustedStamps, withCheckout } from './checkout.js';
import type { CollectContext } from './context.js';
import { summariseBaseline } from './feedback-parts.js';
import type { ChecksSet } from './outcome.js';

export interface MeasureOptions {
  wt: string;
  commands: CommandsUsed;
  reported: RunRecord['checks'];
  cfg: Config;
  ctx: CollectContext;
  sandbox: SandboxPolicy;
  keepCases: ReadonlySet<string>;
}

/** What blame (blame.ts) reads besides the checks: the base's full record and the graded checkout's setup. */
export interface Seen {
  baseline: Baseline | null;
  gradedSetup: Baseline['setup'] | null;
  /** Whether this collection computed the baseline (false: read from the cache); unset when there was none. */
  baselineComputed?: boolean;
}

const runsAny = (o: MeasureOptions, commands: CommandsUsed) =>
  CHECK_NAMES.some((k) => commands[k] !== null && o.reported?.[k] === undefined);

/** The checks in a fresh checkout of `commit` (setup first); checks the record reports are parsed, not run. */
async function checksAt(
  commit: string,
  o: MeasureOptions,
  commands: CommandsUsed,
  label: string,
  notes: string[],
  shortCircuit: boolean,
  graded = false,
  seen?: Seen,
): Promise<ChecksSet> {
  const base = {
    commands,
    reported: o.reported,
    collector: o.cfg.collector,
    env: o.ctx.processEnv,
    sandbox: o.sandbox,
    shortCircuit,
    keepCases: o.keepCases,
    log: o.ctx.log,
  };
  if (!runsAny(o, commands)) return runChecks({ ...base, cwd: o.wt });
  return withCheckout(
    o.wt,
    commit,
    async (dir) => {
      // Before the candidate's setup runs: what the trusted files were when checked out.
      const stamps = graded ? await trustedStamps(dir, { repo: o.wt, commit }) : null;
      const setup = await runSetup(dir, {
        collector: o.cfg.collector,
        env: o.ctx.processEnv,
        sandbox: o.sandbox,
        log: o.ctx.log,
        label,
        depCache: depCacheOf(o.ctx.store, o.cfg.collector),
      });
      if (seen) seen.gradedSetup = setup ?? null;
      if (setup && setup.result.status !== 'passed') {
        const why = `the setup ${describeSetup(setup)} in the sealed checkout`;
        notes.push(why);
        const out = emptyChecks();
        for (const k of CHECK_NAMES) if (commands[k] !== null) out[k] = { ...skipped(why), status: 'failed' };
        return out;
      }
      const guard = stamps ? { trustedChanges: () => trustedChanges(dir, o.cfg.collector, stamps) } : {};
      return runChecks({ ...base, cwd: dir, ...guard, goCache: goCacheOf(o.ctx.store, false) });
    },
    'sealed',
  );
}

/** The base commit's checks, from the cache or run once (baseline.ts); null, with a note, when they cannot be had. */
export async function measureBaseline(
  commit: string,
  o: Omit<MeasureOptions, 'keepCases' | 'reported'>,
  notes: string[],
  seen?: Seen,
): Promise<BaselineSummary | null> {
  if (CHECK_NAMES.every((k) => o.commands[k] === null)) return null;
  try {
    const { getBaseline } = await import('./baseline.js');
    const res = await getBaseline({
      store: o.ctx.store,
      repoDir: o.wt,
      commit,
      commands: o.commands,
      collector: o.cfg.collector,
      env: o.ctx.processEnv,
      sandbox: o.sandbox,
      now: o.ctx.now,
      log: o.ctx.log,
    });
    if (res.computed) o.ctx.log?.(`baseline ${res.baseline.key} computed`);
    if (seen) {
      seen.baseline = res.baseline;
      seen.baselineComputed = res.computed;
    }
    return summariseBaseline(res.baseline, notes);
  } catch (e) {
    notes.push(`no baseline: ${errorMessage(e)}`);
    return null;
  }
}

/** The graded run: the candidate's code with the trusted revision's tests. */
export function measureSealed(
  commit: string,
  o: MeasureOptions,
  label: string,
  notes: string[],
  seen?: Seen,
): Promise<ChecksSet> {
  return checksAt(commit, o, o.commands, label, notes, true, true, seen);
}

/** The agent's own tests (its added or edited test files, as it left them), when it changed any. */
export async function measureOwnTests(
  sealed: Sealed,
  o: MeasureOptions,
  label: string,
): Promise<NonNullable<Feedback['own_tests']> | null> {
  if (!sealed.ownFiles.length) return null;
  if (o.commands.test === null || o.reported?.test !== undefined) return { files: sealed.ownFiles, check: null };
  const commands: CommandsUsed = { build: null, test: o.commands.test, lint: null, typecheck: null };
  const checks = await checksAt(sealed.candidate.commit, o, commands, label, [], false);
  return { files: sealed.ownFiles, check: checks.test };
}
