// A real process that writes state as the commands do, for the full-file-system and kill tests:
//   node --import tsx test/lib/_store-child.ts <scenario> <state dir> [args…]
// Exit codes as the commands': a StateWriteError is one line on stderr and exit 1.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
    case 'hold-lock':
      // hold-lock <name>: takes the lock, says so, and waits to be killed.
      await store.withLock(args[0]!, async () => {
        process.stdout.write('held\n');
        await new Promise((r) => setTimeout(r, 600_000));
      });
      return 0;
    case 'increment': {
      // increment <name> <file>: read-modify-write of a counter under the lock, with a pause to invite a lost update.
      const file = args[1]!;
      await store.withLock(args[0]!, async () => {
        const n = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
        await new Promise((r) => setTimeout(r, 5));
        writeFileSync(file, String(n + 1));
      });
      return 0;
    }
    case 'take-lock': {
      const t0 = performance.now();
      await store.withLock(args[0]!, () => undefined, { waitSeconds: Number(args[1] ?? 60) });
      process.stdout.write(`${Math.round(performance.now() - t0)}\n`);
      return 0;
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

process.exitCode = await execute(run, []);
