// A real process that writes state as the commands do (dist/, built from lib/: plain node, no compile per process):
//   node test/lib/_store-child.mjs append-ledger|index|compact <state dir> [JSON]; exit 1 with one line as commands do.
import { execute } from '../../dist/lib/cli/cli.js';
import { compactIndex, indexFeedback } from '../../dist/lib/store/feedback-index.js';
import { StateStore } from '../../dist/lib/store/store.js';

const [scenario, root, ...args] = process.argv.slice(2);

async function run() {
  const store = new StateStore(root);
  switch (scenario) {
    case 'append-ledger':
      store.appendLine('judge-ledger', 'judge', JSON.parse(args[0]));
      return 0;
    case 'index':
      // index <feedback records, a JSON array> [tail max bytes]: each written, then indexed.
      for (const fb of JSON.parse(args[0])) {
        store.write('feedback', fb.bead, fb);
        await indexFeedback(store, fb, '2026-01-01T00:00:00Z', args[1] ? Number(args[1]) : undefined);
      }
      return 0;
    case 'compact':
      await compactIndex(store);
      return 0;
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

process.exitCode = await execute(run, []);
