// bin/baselines: the cached baselines, one line each (key, base commit, setup, each check), and --clear.
import { main, type Io } from '../lib/cli/cli.js';
import { UserError } from '../lib/base/errors.js';
import { parse } from '../lib/cli/command.js';
import { BASELINES } from '../lib/cli/commands/baselines.js';
import { openState, withStateDir } from '../lib/cli/command-helpers.js';
import { CHECK_NAMES } from '../lib/collector/checks.js';
import type { Baseline } from '../lib/schema/types.generated.js';

/** `3f2a… 1a2b3c4d5e6f 2026-11-27T10:00:00Z  setup passed  build passed  test failed (3/4)`. */
function line(b: Baseline): string {
  const checks = CHECK_NAMES.filter((k) => b.checks[k]).map((k) => {
    const c = b.checks[k]!;
    const t = k === 'test' && c.tests ? ` (${c.tests.passed ?? '?'}/${c.tests.total ?? '?'})` : '';
    return `${k} ${c.status}${t}`;
  });
  const setup = b.setup ? [`setup ${b.setup.result.status}`] : [];
  return [b.key, b.commit.slice(0, 12), b.computed_at, ...setup, ...checks].join('  ');
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(BASELINES, argv);
  const { store } = openState(io, values.config, values.clear ? { quiet: false } : undefined);
  const all = store.list('baselines');
  const missing = positionals.filter((k) => !all.includes(k));
  if (missing.length) throw new UserError(`no baseline ${missing.join(', ')} in ${store.dir('baselines')}`);
  const keys = positionals.length ? positionals : all;
  if (values.clear) {
    // Under each baseline's own lock: never under a collector that is computing it.
    for (const k of keys) await store.withLock(`baseline-${k}`, () => store.remove('baselines', k));
    if (values.json) io.stdout(`${JSON.stringify(withStateDir(store, { cleared: keys }))}\n`);
    else io.stderr(`baselines: cleared ${keys.length}\n`);
    return 0;
  }
  const rows = keys.map((k) => store.read<Baseline>('baselines', k)).filter((b): b is Baseline => b !== null);
  if (values.json) io.stdout(`${JSON.stringify({ baselines: rows })}\n`);
  else io.stdout(rows.map((b) => `${line(b)}\n`).join(''));
  return 0;
}

main(import.meta.url, run);
