// doctor's base check: the setup and the checks run once on the base commit as the collector runs them (or the
// cached baseline read), and what fails named with its fix (`baseAdvice`, pure).
import { errorMessage } from '../base/errors.js';
import { git } from '../git/git.js';
import { collectorSandbox } from '../process/sandbox.js';
import type { StateStore } from '../store/store.js';
import type { Baseline, Config } from '../schema/types.generated.js';
import { causeLine, describeSetup, environmentFailure } from '../collector/blame.js';
import { CHECK_NAMES } from '../collector/checks.js';
import type { Detected } from './detect.js';
import { fail, ok, warn, type Finding } from './doctor.js';

const quoted = (s: string) => JSON.stringify(s);

/** The fetch and setup detection would write, as advice (`collector.setup_command "…"`, …). */
function recipe(d: Detected | null): string {
  if (!d || (!d.setup && !d.fetch)) return 'e.g. "npm rebuild" after collector.fetch_command "npm ci --ignore-scripts"';
  const parts = [
    ...(d.fetch ? [`collector.fetch_command ${quoted(d.fetch)}`] : []),
    ...(d.setup ? [`collector.setup_command ${quoted(d.setup)}`] : []),
  ];
  return `for this ${d.kind} project: ${parts.join(', ')} (judgeloop init --force writes them)`;
}

/** What the base's run says about the set-up: the setup's result, then each check's, a fix beside each failure. */
function baseAdvice(b: Baseline, c: Config['collector'], d: Detected | null, cached: boolean): Finding[] {
  const at = `on the base ${b.commit.slice(0, 12)}${cached ? ' (cached baseline)' : ''}`;
  const out: Finding[] = [];
  if (c.setup_network) {
    out.push(
      warn(
        'setup',
        'collector.setup_network is true: the install scripts a candidate writes run with network',
        'download in collector.fetch_command (network, no project code) and set collector.setup_network false',
      ),
    );
  }
  const s = b.setup;
  if (s && s.result.status !== 'passed') {
    const env = environmentFailure(s.result);
    const missing = env === 'not_found' ? /([^\s:]+): (?:command )?not found/.exec(s.result.output?.text ?? '') : null;
    const fix =
      env === 'unreachable' && s.result.isolation?.network === false
        ? `collector.setup_command runs without network: download in collector.fetch_command, build in the setup; ${recipe(d)}`
        : env === 'unreachable'
          ? 'the registry is out of reach from here: check the network or a proxy (collector.check_env passes HTTPS_PROXY)'
          : missing
            ? `install ${missing[1]} on this machine (on PATH: the sandbox shows PATH's folders)`
            : `fix the command or the project; ${recipe(d)}`;
    out.push(fail('setup', `${describeSetup(s)} ${at}`, fix));
    return out;
  }
  if (s) out.push(ok('setup', `${s.fetch ? `${s.fetch.command} → ` : ''}${s.command} passed ${at}`));
  for (const name of CHECK_NAMES) {
    const r = b.checks[name];
    if (!r) continue;
    if (r.status === 'passed') {
      out.push(ok(name, `${b.commands[name]} passed ${at}`));
      continue;
    }
    const line = causeLine(r.output?.text ?? '') ?? r.skipped_reason ?? `exit ${r.exit_code}`;
    const detail = `${b.commands[name]} ${r.status === 'timeout' ? 'timed out' : `exit ${r.exit_code ?? r.status}`} ${at}: ${line}`;
    const env = environmentFailure(r);
    if (env === 'not_found' && !s) out.push(fail(name, detail, `set collector.setup_command, ${recipe(d)}`));
    else if (env === 'not_found')
      out.push(fail(name, detail, 'the setup does not install it: add it to the project, or fix the command'));
    else if (env === 'unreachable')
      out.push(fail(name, detail, 'checks run without network: fetch what they need in collector.fetch_command'));
    else if (r.status === 'timeout')
      out.push(fail(name, detail, `raise collector.timeouts_seconds.${name} (${c.timeouts_seconds[name]} s)`));
    else
      out.push(
        warn(
          name,
          detail,
          'the base itself fails: runs are measured against it (a fixed failure is credit, not a pass)',
        ),
      );
  }
  return out;
}

export interface BaseProbe {
  store: StateStore;
  config: Config;
  /** The project (any folder of its repository). */
  dir: string;
  env: NodeJS.ProcessEnv;
  detected: Detected | null;
  log?: (m: string) => void;
}

/** Runs (or reads) the baseline of record.base_ref (else HEAD) in `dir` and advises on it. */
export async function baseFindings(p: BaseProbe): Promise<Finding[]> {
  const c = p.config.collector;
  const commands = { build: null, test: null, lint: null, typecheck: null, ...c.commands };
  if (CHECK_NAMES.every((k) => commands[k] === null)) return [];
  const ref = p.config.record?.base_ref ?? 'HEAD';
  let commit: string;
  try {
    commit = (await git(p.dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
  } catch (e) {
    return [
      warn('base', `${ref} in ${p.dir}: ${errorMessage(e).split('\n')[0]}`, 'doctor --project DIR (the repository)'),
    ];
  }
  const { getBaseline } = await import('../collector/baseline.js');
  const res = await getBaseline({
    store: p.store,
    repoDir: p.dir,
    commit,
    commands,
    collector: c,
    env: p.env,
    sandbox: collectorSandbox(c, p.env, p.store.root),
    now: () => new Date(),
    log: p.log,
  });
  return [
    ok('base', `${ref} = ${commit.slice(0, 12)} in ${p.dir}`),
    ...baseAdvice(res.baseline, c, p.detected, !res.computed),
  ];
}
