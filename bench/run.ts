// npm run bench: every area's benchmark in one run, each printing its figures beside the baseline its issue names.
// `npm run bench -- parse collect` runs only those.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const all = ['parse', 'collect', 'judge', 'templates', 'race'];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : all;

for (const name of wanted) {
  const file = join(here, `${name}.ts`);
  if (!existsSync(file)) {
    console.log(`\n== ${name}: no benchmark (bench/${name}.ts missing)`);
    continue;
  }
  console.log(`\n== ${name}`);
  const mod = (await import(file)) as { main?: () => Promise<void> | void };
  if (typeof mod.main !== 'function') throw new Error(`bench/${name}.ts must export main()`);
  await mod.main();
}
