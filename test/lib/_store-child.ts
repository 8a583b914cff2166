// A real process that writes state as the commands do, for the full-file-system tests (locks: _lock-child.mjs):
//   node --import tsx test/lib/_store-child.ts <scenario> <state dir> [args…]
// Exit codes as the commands': a StateWriteError is one line on stderr and exit 1.
import { execute } from '../../lib/cli/cli.js';
import { compactIndex, indexFeedback } from '../../lib/store/feedback-index.js';
import { StateStore } from '../../lib/store/store.js';
import { makeFeedback } from '../templates/_fixtures.js';

const [scenario, root, ...args] = process.argv.slice(2);

async function run(): Promise<number> {
  const store = new StateStore(root!);
  switch (scenario) {
    case 'append-ledger':
      store.appendLine('judge-ledger', 'judge', JSON.parse(args[0]!));
      return 0;
    case 'index': {
      // index <first bead number> <count> [tail max bytes]
      const [from, n, tailMax] = args.map(Number);
      for (let i = from!; i < from! + n!; i++) {
        const fb = makeFeedback({
          bead: `bd-${String(i).padStart(4, '0')}`,
          template: 't1',
          outcome: 'full_pass',
          judge: 0.8,
          issues: [{ description: 'x'.repeat(150) }],
        });
        store.write('feedback', fb.bead, fb);
        await indexFeedback(store, fb, '2026-01-01T00:00:00Z', tailMax ?? undefined);
      }
      return 0;
    }
    case 'compact':
      await compactIndex(store);
      return 0;
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

process.exitCode = await execute(run, []);
