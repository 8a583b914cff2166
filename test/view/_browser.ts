// A report opened in the real headless Chromium (Debian's /usr/bin/chromium) through playwright-core: what it
// logged, what it tried to fetch, whether every chart was drawn, and its tables as text. No chromium: the tests
// fail (.ci/run installs it), they do not skip.
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from '../helpers/temp.js';

export const CHROMIUM = '/usr/bin/chromium';

/** A fresh profile each launch (launchPersistentContext: playwright refuses --user-data-dir in args). */
export async function launch(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(tempDir('jl-chromium-'), 'profile'), {
    executablePath: CHROMIUM,
    viewport: { width: 1200, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Opened {
  page: Page;
  errors: string[];
  /** Every request but the page's own file:// load. */
  requests: string[];
  tables: Record<string, string[][]>;
  /** Per chart block: how many canvas pixels are painted (uPlot) or bars drawn (SVG). */
  charts: { id: string; kind: 'canvas' | 'svg'; painted: number; range?: [number, number]; days?: [number, number] }[];
  drawn: number;
}

export async function openReport(browser: BrowserContext, file: string): Promise<Opened> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  const url = `file://${file}`;
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-charts-drawn]', { timeout: 10_000 });
  const drawn = Number(await page.getAttribute('body', 'data-charts-drawn'));
  const tables = await page.evaluate(() => {
    const out: Record<string, string[][]> = {};
    for (const fig of document.querySelectorAll('figure')) {
      const title = fig.querySelector('h3')?.textContent ?? '';
      const t = fig.querySelector('table.numbers');
      if (!t) continue;
      out[title] = [...t.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? ''));
    }
    return out;
  });
  const charts = await page.evaluate(() =>
    [...document.querySelectorAll('figure .chart')].map((el) => {
      const id = el.closest('figure')!.getAttribute('data-block')!;
      const canvas = el.querySelector('canvas');
      if (!canvas) return { id, kind: 'svg' as const, painted: el.querySelectorAll('svg rect').length };
      const px = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) painted++;
      const pair = (a: string | null) => (a ?? '').split(',').map(Number) as [number, number];
      const range = pair(el.getAttribute('data-x-range'));
      const days = pair(el.getAttribute('data-x-data'));
      return { id, kind: 'canvas' as const, painted, range, days };
    }),
  );
  return { page, errors, requests, tables, charts, drawn };
}
