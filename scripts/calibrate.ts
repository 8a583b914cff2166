// bin/calibrate: the judge's verdicts and the races' winners against the user's recorded choices; --record stores one.
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { nowIso } from '../lib/base/clock.js';
import { parse } from '../lib/cli/command.js';
import { CALIBRATE } from '../lib/cli/commands/calibrate.js';
import { openState, withStateDir } from '../lib/cli/command-helpers.js';
import { calibrationOf } from '../lib/judge/calibration-read.js';
import { calibrationText } from '../lib/judge/calibration.js';
import { assertSafeId } from '../lib/store/bead.js';
import type { UserVerdict } from '../lib/schema/types.generated.js';

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(CALIBRATE, argv);
  if (values.record === undefined) {
    for (const f of ['verdict', 'dimension', 'reviewer', 'note'] as const)
      if (values[f] !== undefined) throw new UserError(`--${f} goes with --record BEAD`);
    const { store, config } = openState(io, values.config);
    const c = calibrationOf(store, config);
    for (const w of c.warnings) io.stderr(`warning: ${w}\n`);
    if (values.json) io.stdout(JSON.stringify(withStateDir(store, c), null, 2) + '\n');
    else io.stdout(calibrationText(c));
    return 0;
  }
  assertSafeId(values.record);
  const verdict = values.verdict;
  if (verdict !== 'pass' && verdict !== 'fail') throw new UserError('--record needs --verdict pass or --verdict fail');
  const dimension = values.dimension ?? null;
  if (dimension !== null && !(CALIBRATE.flags.dimension.choices as readonly string[]).includes(dimension))
    throw new UserError(`--dimension: one of ${CALIBRATE.flags.dimension.choices.join(', ')}, not ${dimension}`);
  const { store } = openState(io, values.config, { quiet: values.quiet });
  const uv: UserVerdict = {
    schema_version: '1.0.0',
    bead: values.record,
    verdict,
    dimension: dimension as UserVerdict['dimension'],
    reviewer: values.reviewer ?? null,
    ...(values.note !== undefined ? { note: values.note } : {}),
    recorded_at: nowIso(io.env),
  };
  store.write('user_verdicts', uv.bead, uv);
  const judged = store.read<{ verdict: string | null }>('judgments', uv.bead);
  io.stderr(
    `${uv.bead}: your verdict ${verdict}${dimension ? ` (${dimension})` : ''} recorded; ` +
      (judged?.verdict ? `the judge said ${judged.verdict}\n` : 'no judged verdict yet to compare with\n'),
  );
  if (values.json) io.stdout(JSON.stringify(withStateDir(store, uv), null, 2) + '\n');
  return 0;
}

main(import.meta.url, run);
