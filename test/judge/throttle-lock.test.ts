// The throttle lock is what holds the hourly limit: two real processes whose ledger append is held 400 ms after they
// read the ledger (both read before either writes, without the lock) take one slot between them, not two.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateStore } from '../../lib/store/store.js';
import type { JudgeLedgerRow } from '../../lib/schema/types.generated.js';
import { tempDir } from '../helpers/repo.js';

// dist/ (built from lib/, fresh: the global setup checks): plain node, no compile per process.
const lib = (p: string) => JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'lib', p));

/** A process that waits for `go`, then asks for one slot of a limit of 1; prints whether it got it. */
function reserver(root: string, bead: string): { ready: Promise<void>; done: Promise<string> } {
  const script = `
    import { existsSync, writeSync } from 'node:fs';
    import { StateStore } from ${lib('store/store.js')};
    import { reserveOrQueue } from ${lib('judge/throttle.js')};
    const hold = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    class SlowAppend extends StateStore {
      appendLine(kind, id, row) {
        hold(400);
        super.appendLine(kind, id, row);
      }
    }
    const store = new SlowAppend(${JSON.stringify(root)});
    writeSync(1, 'ready\\n');
    while (!existsSync(${JSON.stringify(join(root, 'go'))})) hold(5);
    const now = () => new Date('2026-01-01T00:00:00Z');
    const r = await reserveOrQueue({ store, limit: 1, now, lockWaitSeconds: 30 }, ${JSON.stringify(bead)}, 1, '/x/run.json', false);
    writeSync(1, r.ok ? 'slot\\n' : 'full\\n');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let onReady = () => {};
  const ready = new Promise<void>((r) => (onReady = r));
  child.stdout.on('data', (d: Buffer) => {
    out += d;
    if (out.includes('ready')) onReady();
  });
  const done = new Promise<string>((r) => child.on('close', () => r(out.replace('ready\n', '').trim())));
  return { ready, done };
}

describe('the throttle lock', () => {
  it('two processes racing for the last slot: one takes it, the other finds the hour full', async () => {
    const root = tempDir('judgeloop-throttle-lock-');
    const [a, b] = [reserver(root, 'bd-a'), reserver(root, 'bd-b')];
    await Promise.all([a.ready, b.ready]);
    writeFileSync(join(root, 'go'), '');
    expect((await Promise.all([a.done, b.done])).sort()).toEqual(['full', 'slot']);
    const rows = new StateStore(root).readLines<JudgeLedgerRow>('judge-ledger', 'judge').rows;
    expect(rows.filter((r) => r.type === 'slot')).toHaveLength(1);
  }, 60_000);
});
