// judgeloop refs list|prune: the sealed candidates (refs/judgeloop/candidates/<bead>) kept in an agent's repository,
// listed, and pruned by age, by race or all.
import { resolve } from 'node:path';
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { parseNumber, storeFromEnv } from '../lib/cli/command-helpers.js';
import { REFS } from '../lib/cli/commands/refs.js';
import { clockFromEnv } from '../lib/base/clock.js';
import { UserError } from '../lib/base/errors.js';
import { loadConfig } from '../lib/config/config.js';
import {
  type CandidateRef,
  listCandidateRefs,
  pruneCandidateRefs,
  pruneRunCandidates,
} from '../lib/git/candidate-refs.js';
import { worktreeProblem } from '../lib/git/worktree.js';
import { assertSafeId } from '../lib/store/bead.js';
import type { Race } from '../lib/schema/types.generated.js';
import { plural } from '../lib/base/plural.js';

const USAGE = usage(REFS);
const DAY_MS = 86_400_000;

const shown = (r: CandidateRef) => ({
  bead: r.bead,
  ref: r.ref,
  commit: r.commit,
  completed_at: new Date(r.sealedAt).toISOString(),
});

async function repoOf(io: Io, path: string | undefined): Promise<string> {
  const repo = resolve(io.cwd, path ?? '.');
  const problem = await worktreeProblem(repo);
  if (problem) throw new UserError(`${path === undefined ? 'the current folder' : `--repo ${path}`}: ${problem}`);
  return repo;
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(REFS, argv);
  const [sub, ...extra] = positionals;
  if (sub !== 'list' && sub !== 'prune') throw new UserError(`give list or prune\n${USAGE}`);
  if (extra.length) throw new UserError(`unexpected argument ${JSON.stringify(extra[0])}\n${USAGE}`);
  const rules = [values['older-than'] !== undefined, values.race !== undefined, Boolean(values.all)].filter(Boolean);
  const print = (refs: CandidateRef[], verb: string, extraJson: Record<string, unknown> = {}) => {
    if (values.json) io.stdout(`${JSON.stringify({ ...extraJson, [verb]: refs.map(shown) })}\n`);
    else for (const r of refs) io.stdout(`${r.bead}\t${r.commit.slice(0, 12)}\t${shown(r).completed_at}\n`);
  };

  if (sub === 'list') {
    if (rules.length || values['dry-run']) throw new UserError(`list takes --repo and --json only\n${USAGE}`);
    print(await listCandidateRefs(await repoOf(io, values.repo)), 'refs');
    return 0;
  }
  if (rules.length > 1) throw new UserError(`choose one of --older-than DAYS, --race ID, --all\n${USAGE}`);
  const dryRun = Boolean(values['dry-run']);
  const done = (n: number, where: string) =>
    io.stderr(`refs: ${dryRun ? 'would prune' : 'pruned'} ${plural(n, 'candidate ref')}${where}\n`);

  if (values.race !== undefined) {
    if (values.repo !== undefined) throw new UserError("--race prunes in each solution's repository: no --repo");
    assertSafeId(values.race, '--race');
    const race = storeFromEnv(io.env, io.cwd, values.config).read<Race>('races', values.race);
    if (!race) throw new UserError(`--race ${values.race}: no state/races/${values.race}.json`);
    const { pruned, missing } = await pruneRunCandidates(
      race.solutions.map((s) => ({ repo: s.worktree, bead: s.id })),
      { dryRun },
    );
    for (const m of missing) io.stderr(`refs: ${m}: gone; its refs are gone with it or left to the age rule\n`);
    print(pruned, 'pruned', { race: values.race, dry_run: dryRun });
    done(pruned.length, ` of race ${values.race}`);
    return 0;
  }
  const repo = await repoOf(io, values.repo);
  let rule: { all: true } | { before: number };
  if (values.all) rule = { all: true };
  else {
    const days =
      parseNumber('--older-than', values['older-than'], 0, 1e6) ??
      loadConfig({ env: io.env, configFile: values.config, cwd: io.cwd }).collector.candidate_ref_max_age_days ??
      null;
    if (days === null)
      throw new UserError('collector.candidate_ref_max_age_days is null: give --older-than DAYS, --race ID or --all');
    rule = { before: clockFromEnv(io.env)().getTime() - days * DAY_MS };
  }
  const pruned = await pruneCandidateRefs(repo, rule, { dryRun });
  print(pruned, 'pruned', { repo, dry_run: dryRun });
  done(pruned.length, ` in ${repo}`);
  return 0;
}

main(import.meta.url, run);
