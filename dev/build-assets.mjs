// Copies the report's chart library (uPlot's IIFE build and its CSS) from node_modules into dist/assets/, where
// bin/report reads it to inline it in the page: the page never fetches it. Run by `npm run build`, after tsc.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'assets');
const uplot = dirname(createRequire(import.meta.url).resolve('uplot/package.json'));
mkdirSync(out, { recursive: true });
for (const f of ['uPlot.iife.min.js', 'uPlot.min.css']) copyFileSync(join(uplot, 'dist', f), join(out, f));
console.log('build-assets: dist/assets/uPlot.iife.min.js, uPlot.min.css');
