// A real process taking the state lock as the commands do (dist/, built from lib/: plain node, no compile per process):
//   node test/lib/_lock-child.mjs hold-lock|increment|take-lock <state dir> <name> [args…]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execute } from '../../dist/lib/cli/cli.js';
import { StateStore } from '../../dist/lib/store/store.js';

const [scenario, root, name, ...args] = process.argv.slice(2);

async function run() {
  const store = new StateStore(root);
  switch (scenario) {
    case 'hold-lock':
      // Takes the lock, says so, and waits to be killed.
      await store.withLock(name, async () => {
        process.stdout.write('held\n');
        await new Promise((r) => setTimeout(r, 600_000));
      });
      return 0;
    case 'increment': {
      // increment <file>: read-modify-write of a counter under the lock, with a pause to invite a lost update.
      const file = args[0];
      await store.withLock(name, async () => {
        const n = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
        await new Promise((r) => setTimeout(r, 5));
        writeFileSync(file, String(n + 1));
      });
      return 0;
    }
    case 'take-lock': {
      // take-lock [wait seconds]: prints how long taking the lock took.
      const t0 = performance.now();
      await store.withLock(name, () => undefined, { waitSeconds: Number(args[0] ?? 60) });
      process.stdout.write(`${Math.round(performance.now() - t0)}\n`);
      return 0;
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

process.exitCode = await execute(run, []);
