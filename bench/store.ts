// bench: what durable state writes cost, and how long a lock of a SIGKILLed holder stops the next run.
// Prints figures; asserts nothing.
//   npm run build && node --import tsx bench/store.ts [--writes 300] [--dir /path/on/the/disk/to/measure]
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendLineDurable, writeFileAtomic } from '../lib/store/state-write.js';
import { STALE_MS } from '../lib/store/lock.js';

const args = process.argv.slice(2);
const n = Number(args.includes('--writes') ? args[args.indexOf('--writes') + 1] : 300);
const base = args.includes('--dir') ? args[args.indexOf('--dir') + 1]! : tmpdir();
const dir = mkdtempSync(join(base, 'judgeloop-bench-store-'));
const child = join(import.meta.dirname, '..', 'test', 'lib', '_lock-child.mjs');

// A feedback record's size (a collected run with three checks' output kept: ~6 KB).
const record = JSON.stringify({ bead: 'bd-1', text: 'x'.repeat(6000) }, null, 2);
const row = JSON.stringify({ bead: 'bd-1', template: 't', outcome: 'full_pass', pad: 'y'.repeat(450) }) + '\n';

function time(label: string, fn: (i: number) => void): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  const per = (performance.now() - t0) / n;
  console.log(`${label.padEnd(58)} ${per.toFixed(3)} ms per write`);
  return per;
}

function plainAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  writeSync(fd, text);
  closeSync(fd);
  renameSync(tmp, file);
}

try {
  console.log(`${n} writes each, in ${dir}`);
  const plain = time('feedback record: write + rename (no fsync; before)', () =>
    plainAtomic(join(dir, 'a.json'), record),
  );
  const durable = time('feedback record: writeFileAtomic (write all, fsync, rename, fsync dir)', () =>
    writeFileAtomic(join(dir, 'b.json'), record, { tmpDir: join(dir, '.tmp') }),
  );
  time('index row: appendLineDurable (O_APPEND, fdatasync)', () => appendLineDurable(join(dir, 'c.jsonl'), row));
  console.log(
    `fsync cost per feedback write (record + its index row): ~${(durable - plain).toFixed(2)} ms for the record, plus the row's fdatasync above`,
  );

  // A real process holds a lock and is SIGKILLed; another process then takes it.
  const state = join(dir, 'state');
  const holder = spawn(process.execPath, [child, 'hold-lock', state, 'bench'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((r) => holder.stdout!.on('data', () => r()));
  await new Promise<void>((r) => (holder.once('exit', () => r()), holder.kill('SIGKILL')));
  const t = spawnSync(process.execPath, [child, 'take-lock', state, 'bench', '60'], {
    encoding: 'utf8',
  });
  console.log(
    `lock of a SIGKILLed holder taken over after ${t.stdout.trim()} ms (owner file; before: the stale time, ${STALE_MS} ms, measured 20,662 ms)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
