// npm run bench: every area's benchmark in one run, each printing its figures beside the baseline its issue names.
// `npm run bench -- parse collect` runs only those. Each runs in its own process so one's memory never skews another's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const all = [
  'parse',
  'collect',
  'judge',
  'judge-cost',
  'templates',
  'drift',
  'race',
  'store',
  'git',
  'report',
  'sandbox',
  'cli',
  'sealed',
  'deps',
  'go-cache',
];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = 0;

for (const name of wanted) {
  const file = join(here, `${name}.ts`);
  console.log(`\n== ${name} (bench/${name}.ts)`);
  if (!existsSync(file)) {
    console.log('no such benchmark');
    failed++;
    continue;
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.log(`bench/${name}.ts exited ${r.status ?? r.signal}`);
    failed++;
  }
}
process.exitCode = failed ? 1 : 0;
