// Whose failure it is: the environment's (the base fails the same way, a command not found, a registry out of
// reach) is infra_failure with the cause's first line; the rest stays the agent's. Pure.
import type { Baseline, Check } from '../schema/types.generated.js';
import { CHECK_NAMES } from './checks.js';
import type { ChecksSet } from './outcome.js';

type SetupRun = NonNullable<Baseline['setup']>;

/** Output that says a host or registry could not be reached (npm, pip, go, cargo, curl, git). */
const UNREACHABLE =
  /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b|getaddrinfo|Could not resolve host|Temporary failure in name resolution|[Nn]etwork is unreachable|Failed to establish a new connection|dial tcp|Couldn't connect to server|network request to \S+ failed|request to https?:\/\/\S+ failed/;

/** A shell that could not find the command (`sh: 1: tsc: not found`, `bash: tsc: command not found`). */
const NOT_FOUND = /(?:^|\n)[^\n]*?:\s*([^\s:]+): (?:command )?not found\b/;

/** The line of `text` that says what went wrong: a missing command, a network error, else the last error-ish line. */
export function causeLine(text: string): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const pick =
    lines.find((l) => NOT_FOUND.test(`\n${l}`)) ??
    lines.find((l) => UNREACHABLE.test(l)) ??
    lines.find((l) => /\b(?:error|ERR!|fatal|failed)\b/i.test(l)) ??
    lines.find((l) => l.length > 0);
  if (!pick) return null;
  return pick.length > 200 ? `${pick.slice(0, 199)}…` : pick;
}

/** What kind of environment failure a failed command shows; null when it looks like the code's own. */
export function environmentFailure(c: Check): 'not_found' | 'unreachable' | 'not_started' | null {
  if (c.status === 'error') return 'not_started';
  if (c.status !== 'failed') return null;
  const text = c.output?.text ?? '';
  if (c.exit_code === 127 || NOT_FOUND.test(`\n${text}`)) return 'not_found';
  if (UNREACHABLE.test(text)) return 'unreachable';
  return null;
}

const failed = (c: Check | null | undefined): c is Check => !!c && c.status !== 'passed' && c.status !== 'skipped';

/** How a setup step ended, in words: "timed out", "could not start (…)", "failed (exit 1)". */
export function setupHow(r: SetupRun['result']): string {
  if (r.status === 'timeout') return 'timed out';
  if (r.status === 'error') return `could not start (${r.skipped_reason ?? 'spawn error'})`;
  return `failed (exit ${r.exit_code ?? `signal ${r.signal}`})`;
}

/** `npm ci --ignore-scripts` failed (exit 1): npm error code ENOTFOUND… — the setup step that decided, in one line. */
export function describeSetup(s: SetupRun): string {
  const r = s.result;
  const how = setupHow(r);
  const line = causeLine(r.output?.text ?? '');
  const offline =
    environmentFailure(r) === 'unreachable' && r.isolation?.network === false
      ? ' (collector.setup_command runs without network: download in collector.fetch_command)'
      : '';
  return `\`${s.command}\` ${how}${line ? `: ${line}` : ''}${offline}`;
}

export interface BlameInput {
  /** The base's full record (cached or just computed); null when there is none. */
  baseline: Baseline | null;
  /** The fetch and setup of the graded checkout; null when none is configured or none ran. */
  gradedSetup: SetupRun | null;
  checks: ChecksSet;
}

/**
 * Why the run is an infrastructure failure, or null when what failed is the agent's: the graded setup failed and the
 * base's failed too, or it failed for want of a command or a network; a check failed for want of a command or a
 * network exactly as the same check on the base did.
 */
export function infraCause(i: BlameInput): string | null {
  const g = i.gradedSetup;
  if (g && g.result.status !== 'passed') {
    const base = i.baseline?.setup;
    if (base && base.result.status !== 'passed') return `the setup fails on the base too: ${describeSetup(base)}`;
    const env = environmentFailure(g.result);
    if (env) return `the setup could not run here: ${describeSetup(g)}`;
    return null;
  }
  for (const name of CHECK_NAMES) {
    const c = i.checks[name];
    const b = i.baseline?.checks[name];
    if (!failed(c) || !failed(b)) continue;
    const env = environmentFailure(c);
    if (env === null || env !== environmentFailure(b)) continue;
    const line = causeLine(b.output?.text ?? '') ?? `exit ${b.exit_code}`;
    const what = env === 'not_found' ? 'a command is not found' : env === 'unreachable' ? 'the network' : 'not started';
    return `the ${name} check fails the same way on the base (${what}): ${line}`;
  }
  return null;
}
