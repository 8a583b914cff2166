// bin/rate: rates agent runs from their feedback records (seed 002), with a reviewer's quality or the judge's.
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { assertSafeId } from '../lib/store/bead.js';
import { parse, usage } from '../lib/cli/command.js';
import { RATE } from '../lib/cli/commands/rate.js';
import { openState, parseNumber, withStateDir } from '../lib/cli/command-helpers.js';
import { nowIso } from '../lib/base/clock.js';
import { rateBead, type QualityInput, type RateResult } from '../lib/ratings/rate-run.js';
import { describe, storedQuality } from '../lib/ratings/rate-stored.js';

const USAGE = usage(RATE);

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(RATE, argv);
  if (positionals.length === 0) throw new UserError(`no bead given\n${USAGE}`);
  for (const b of positionals) assertSafeId(b);
  const q = parseNumber('quality', values.quality, 0, 10);
  const complexity = parseNumber('complexity', values.complexity, 1, 10, true);
  const { store, config } = openState(io, values.config, { quiet: values.quiet });
  const results: RateResult[] = [];
  for (const bead of positionals) {
    const quality: QualityInput | null =
      q !== undefined
        ? { score0to10: q, source: 'reviewer', raw: { quality_score: q }, reviewer: values.reviewer ?? null }
        : storedQuality(store, bead, (m) => io.stderr(`warning: ${m}\n`));
    const r = await rateBead({
      store,
      config,
      bead,
      quality,
      strict: values.strict || values['rating-strict'],
      complexity,
      now: () => nowIso(io.env),
    });
    for (const p of r.problems) io.stderr(`warning: ${p}\n`);
    io.stderr(describe(r) + '\n');
    results.push(r);
  }
  if (values.json)
    io.stdout(
      JSON.stringify(
        results.map((r) => withStateDir(store, r)),
        null,
        2,
      ) + '\n',
    );
  return 0;
}

main(import.meta.url, run);
