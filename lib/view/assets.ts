// The chart library as built into dist/assets/ (dev/build-assets.mjs copies it from node_modules at build time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../base/paths.js';
import { WorkError } from '../base/errors.js';
import type { ChartAssets } from './html.js';

export function chartAssets(): ChartAssets {
  const dir = join(projectRoot(), 'dist', 'assets');
  try {
    return {
      js: readFileSync(join(dir, 'uPlot.iife.min.js'), 'utf8'),
      css: readFileSync(join(dir, 'uPlot.min.css'), 'utf8'),
    };
  } catch (e) {
    throw new WorkError(
      `cannot read the chart library in ${dir} (${(e as NodeJS.ErrnoException).code}): run npm run build`,
    );
  }
}
