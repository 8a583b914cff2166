// bin/accept <race> --solution ID | --reject-all | --manual-edit [--merge [--force] [--dry-run]]: records the
// user's choice (seed 001's EvaluationFeedback) in state/race-choices/<race>.json and optionally merges.
import { withStateDir, storeFromEnv } from '../lib/cli/command-helpers.js';
import { main, type Io } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { ACCEPT } from '../lib/cli/commands/accept.js';
import { nowIso } from '../lib/base/clock.js';
import { loadConfig } from '../lib/config/config.js';
import { UserError } from '../lib/base/errors.js';
import { CATEGORIES } from '../lib/race/categories.js';
import { failedConditions } from '../lib/race/gate.js';
import { applyAdjustments } from '../lib/race/learning.js';
import { identityDir, mergeBranch, mergeSource, recordedMerge } from '../lib/race/merge.js';
import { commitIdentity } from '../lib/git/git.js';
import { pruneRunCandidates } from '../lib/git/candidate-refs.js';
import { categoryScores, learnedAdjustments, raceConfig } from '../lib/race/settings.js';
import { loadRunRecord } from '../lib/collector/run-record.js';
import type { Feedback, Race, RaceChoice } from '../lib/schema/types.generated.js';

const USAGE = usage(ACCEPT);

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(ACCEPT, argv);
  const config = loadConfig({ env: io.env, configFile: values.config, cwd: io.cwd });
  const rc = raceConfig(config);
  const store = storeFromEnv(io.env, io.cwd, values.config);
  if (values['show-learning']) {
    const l = learnedAdjustments(store, rc);
    const weights = applyAdjustments(rc.weights, l.adjustments, rc.learning.min_weight);
    if (values.json)
      io.stdout(
        `${JSON.stringify({ based_on: l.basedOn, adjustments: l.adjustments, weights, applied: rc.learning.apply })}\n`,
      );
    else {
      io.stdout(
        `Learned from ${l.basedOn} choices that overrode the winner (${rc.learning.apply ? 'applied to new races' : 'not applied: race.learning.apply is false'}):\n`,
      );
      for (const c of CATEGORIES)
        io.stdout(
          `  ${c.padEnd(13)} ${rc.weights[c].toFixed(3)} ${l.adjustments[c] >= 0 ? '+' : '-'} ${Math.abs(l.adjustments[c]).toFixed(3)} → ${weights[c].toFixed(3)}\n`,
        );
    }
    return 0;
  }
  if (positionals.length !== 1) throw new UserError(`give exactly one race id\n${USAGE}`);
  const raceId = positionals[0]!;
  const modes = [
    values.solution !== undefined && !values['manual-edit'],
    Boolean(values['reject-all']),
    Boolean(values['manual-edit']),
  ].filter(Boolean).length;
  if (modes !== 1) throw new UserError(`choose one of --solution ID, --reject-all, --manual-edit\n${USAGE}`);
  if ((values.force || values['dry-run'] || values.into) && !values.merge)
    throw new UserError('--force, --dry-run and --into go with --merge');
  const race = store.read<Race>('races', raceId);
  if (!race) throw new UserError(`race ${raceId}: no state/races/${raceId}.json (run judgeloop race first)`);
  const chosen = values.solution !== undefined ? race.solutions.find((s) => s.id === values.solution) : undefined;
  if (values.solution !== undefined && !chosen)
    throw new UserError(
      `--solution ${values.solution}: not a solution of race ${raceId} (${race.solutions.map((s) => s.id).join(', ')})`,
    );
  if (values.merge && !chosen) throw new UserError('--merge needs a chosen solution (--solution ID)');

  const recommendedId = race.ranking.winner ?? race.ranking.order[0] ?? null;
  const recommended = recommendedId ? race.solutions.find((s) => s.id === recommendedId) : undefined;
  const userChoice: RaceChoice['user_choice'] = values['reject-all']
    ? 'rejected_all'
    : values['manual-edit']
      ? 'manual_edit'
      : chosen!.id === recommendedId
        ? 'accepted_winner'
        : 'chose_other';
  const choice: RaceChoice = {
    schema_version: '1.0.0',
    ranking_id: raceId,
    user_choice: userChoice,
    recommended_solution_id: recommendedId,
    chosen_solution_id: values['reject-all'] ? null : (chosen?.id ?? null),
    timestamp: nowIso(io.env),
    categories:
      chosen?.evaluation && recommended?.evaluation
        ? { chosen: categoryScores(chosen.evaluation), recommended: categoryScores(recommended.evaluation) }
        : null,
  };
  if (values.notes !== undefined) choice.feedback_notes = values.notes;

  let code = 0;
  if (values.merge && chosen) {
    const record = loadRunRecord(chosen.run_record, io.cwd).record;
    const into = values.into ?? record.base_ref;
    const fb = store.read<Feedback>('feedback', chosen.id);
    const branch = chosen.branch ?? `refs/judgeloop/candidates/${chosen.id}`;
    const refused = (detail: string): NonNullable<RaceChoice['merge']> => ({
      status: 'refused',
      branch,
      into,
      forced: false,
      detail,
    });
    // Merged by an earlier accept and still in the base: said, nothing done (the gate is not asked again).
    const prior = store.read<RaceChoice>('race_choices', raceId);
    const earlier =
      prior?.chosen_solution_id === chosen.id && prior.merge?.into === into
        ? await recordedMerge(chosen.worktree, prior.merge)
        : null;
    if (earlier && prior?.merge) {
      choice.merge = {
        ...prior.merge,
        status: 'already_merged',
        commit: earlier,
        detail: `${chosen.id} is already merged into ${into} (${earlier.slice(0, 12)}); nothing changed`,
      };
    } else if (!chosen.gates.mergeable && !values.force) {
      const why = failedConditions(chosen.gates) || chosen.failure || chosen.gates.reasons.join('; ');
      choice.merge = refused(`${chosen.id} fails the mergeable gate: ${why}; --force merges anyway`);
    } else if (!fb?.candidate) {
      choice.merge = refused(
        `${chosen.id}: state/feedback/${chosen.id}.json holds no sealed candidate (collected before sealing): re-run the race to measure it`,
      );
    } else {
      const who = await commitIdentity(await identityDir(chosen.worktree, into), io.processEnv);
      const work = { candidate: fb.candidate, head: fb.head?.commit ?? null, record };
      const source = await mergeSource(
        chosen.worktree,
        chosen.branch ?? null,
        work,
        who?.committer ?? null,
        Boolean(values.force),
      );
      choice.merge =
        'refused' in source
          ? refused(source.refused)
          : await mergeBranch({
              repoDir: chosen.worktree,
              branch,
              source,
              into,
              dryRun: Boolean(values['dry-run']),
              forced: Boolean(values.force) && (!chosen.gates.mergeable || source.kind === 'branch'),
              who,
            });
    }
    if (choice.merge.status === 'refused' || choice.merge.status === 'conflict') code = 1;
  }
  const pruned = values['dry-run'] ? 0 : await pruneMerged(race, choice);
  // A dry run changes nothing, the recorded choices (which the weight learning reads) included.
  const dryRun = Boolean(values['dry-run']);
  if (!dryRun) store.write('race_choices', raceId, choice);
  if (values.json) io.stdout(`${JSON.stringify(withStateDir(store, choice))}\n`);
  else {
    io.stdout(
      `${raceId}: ${dryRun ? 'would record' : 'recorded'} ${userChoice}${choice.chosen_solution_id ? ` (${choice.chosen_solution_id})` : ''}${recommendedId ? `; recommended was ${recommendedId}` : ''}\n`,
    );
    if (choice.merge) io.stdout(`merge: ${choice.merge.status}: ${choice.merge.detail}\n`);
  }
  if (pruned) io.stderr(`accept: pruned ${pruned} candidate ref(s) of race ${raceId}\n`);
  if (code) io.stderr(`accept: ${choice.merge!.detail}\n`);
  return code;
}

/**
 * Once a solution is in its base branch the race's sealed candidates have served: their refs go (the objects stay
 * until git's own gc; the merge holds what was chosen). A refusal or a conflict keeps them. Returns how many went.
 */
async function pruneMerged(race: Race, choice: RaceChoice): Promise<number> {
  if (choice.merge?.status !== 'merged' && choice.merge?.status !== 'already_merged') return 0;
  return (await pruneRunCandidates(race.solutions.map((s) => ({ repo: s.worktree, bead: s.id })))).pruned.length;
}

main(import.meta.url, run);
