// The view model → one self-contained HTML page; every text from state escaped, and a CSP that allows only the
// page's own two scripts (by hash) and no fetch, in case a text escaped escaping. Pure.
import { createHash } from 'node:crypto';
import type { Block, Cell, Chart, ReportModel, Section, Table } from './model.js';

export interface ChartAssets {
  /** uPlot's IIFE build (defines the global uPlot). */
  js: string;
  css: string;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML content or a quoted attribute. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

/** JSON safe inside a <script> element: no '<' (no </script>, no <!--), no line separators. */
export const scriptJson = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f'];
/** Long tables of a chart's numbers fold away (still in the page, one click open). */
const FOLD_ROWS = 31;

const cell = (c: Cell): string => (c === null ? '—' : typeof c === 'number' ? String(c) : esc(c));

function table(t: Table): string {
  const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = t.rows
    .map((r) => `<tr>${r.map((c) => `<td${typeof c === 'number' ? ' class="n"' : ''}>${cell(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table class="numbers"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Grouped bars over labels, drawn here as SVG (no script). */
function barsSvg(c: Chart): string {
  const w = 760;
  const h = 260;
  const pad = { l: 44, r: 10, t: 10, b: 60 };
  const max = Math.max(1, ...c.series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const gw = (w - pad.l - pad.r) / Math.max(1, c.x.length);
  const bw = (gw * 0.8) / Math.max(1, c.series.length);
  const y = (v: number) => pad.t + (h - pad.t - pad.b) * (1 - v / max);
  const parts: string[] = [];
  for (const t of [0, 0.5, 1]) {
    const v = Math.round(max * t * 100) / 100;
    parts.push(
      `<line x1="${pad.l}" x2="${w - pad.r}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${pad.l - 4}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
    );
  }
  c.x.forEach((label, i) => {
    const gx = pad.l + i * gw + gw * 0.1;
    c.series.forEach((s, k) => {
      const v = s.values[i];
      if (v === null || v === undefined) return;
      const top = y(v);
      parts.push(
        `<rect x="${(gx + k * bw).toFixed(1)}" y="${top.toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${Math.max(0.5, h - pad.b - top).toFixed(1)}" fill="${PALETTE[k % PALETTE.length]}"><title>${esc(`${s.label} · ${label}: ${v}`)}</title></rect>`,
      );
    });
    const short = label.length > 22 ? `${label.slice(0, 21)}…` : label;
    parts.push(
      `<text x="${(pad.l + i * gw + gw / 2).toFixed(1)}" y="${h - pad.b + 14}" text-anchor="middle">${esc(short)}</text>`,
    );
  });
  const legend = c.series
    .map((s, k) => `<span class="key"><i style="background:${PALETTE[k % PALETTE.length]}"></i>${esc(s.label)}</span>`)
    .join(' ');
  return `<svg class="bars" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"><text x="4" y="${pad.t + 4}" class="axis">${esc(c.y)}</text>${parts.join('')}</svg><div class="legend">${legend}</div>`;
}

function blockHtml(b: Block, id: string, lines: Record<string, Chart>): string {
  let chart = '';
  if (b.chart?.kind === 'line') {
    lines[id] = b.chart;
    chart = `<div class="chart" id="${id}"></div>`;
  } else if (b.chart) chart = `<div class="chart">${barsSvg(b.chart)}</div>`;
  const note = b.note ? `<p class="note">${esc(b.note)}</p>` : '';
  const t = b.table.rows.length ? table(b.table) : '';
  const numbers =
    b.chart && b.table.rows.length > FOLD_ROWS
      ? `<details><summary>the ${b.table.rows.length} rows of this chart</summary>${t}</details>`
      : t;
  return `<figure data-block="${id}"><h3>${esc(b.title)}</h3>${note}${chart}${numbers}</figure>`;
}

function sectionHtml(s: Section, lines: Record<string, Chart>): string {
  const missing = s.missing.length
    ? `<ul class="missing">${s.missing.map((m) => `<li>${esc(m)}</li>`).join('')}</ul>`
    : '';
  const blocks = s.blocks.map((b, i) => blockHtml(b, `${s.id}-${i}`, lines)).join('\n');
  return `<section id="${s.id}"><h2>${esc(s.title)}</h2>${missing}${blocks}</section>`;
}

/** Draws every line chart with uPlot; marks the body with the count, the drawing time and the time since navigation. */
const DRAW = `(function(){
var t0=performance.now();var charts=JSON.parse(document.getElementById('report-data').textContent);
var P=${JSON.stringify(PALETTE)};var n=0;
Object.keys(charts).forEach(function(id){var c=charts[id];var el=document.getElementById(id);
var xs=c.x.map(function(d){return Date.parse(d+'T00:00:00Z')/1000;});
var lo=Math.min.apply(null,xs),hi=Math.max.apply(null,xs);
var right=c.series.some(function(s){return s.right;});
var series=[{}].concat(c.series.map(function(s,i){return {label:s.label,stroke:P[i%P.length],width:s.dash?1:2,
dash:s.dash?[5,4]:undefined,scale:s.right?'y2':'y',points:{show:xs.length<40},
paths:s.step?uPlot.paths.stepped({align:1}):undefined};}));
var axes=[{},{scale:'y',label:c.y}];if(right)axes.push({scale:'y2',side:1,label:c.y2,grid:{show:false}});
new uPlot({width:Math.min(900,Math.max(320,el.clientWidth||900)),height:260,series:series,axes:axes,padding:[18,null,null,null],
hooks:{setScale:[function(u,k){if(k==='x')el.setAttribute('data-x-range',u.scales.x.min+','+u.scales.x.max);}]},
scales:{x:{time:true,range:function(){return lo===hi?[lo-43200,hi+43200]:[lo,hi];}},y:{auto:true},y2:{auto:true}},tzDate:function(ts){return uPlot.tzDate(new Date(ts*1e3),'Etc/UTC');}},
[xs].concat(c.series.map(function(s){return s.values;})),el);n++;
el.setAttribute('data-x-data',lo+','+hi);});
document.body.setAttribute('data-charts-drawn',String(n));
document.body.setAttribute('data-render-ms',(performance.now()-t0).toFixed(1));
document.body.setAttribute('data-done-ms',performance.now().toFixed(1));})();`;

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em;color:#222}
nav a{margin-right:1em}h2{border-bottom:2px solid #444;margin-top:2em}figure{margin:1.5em 0}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}.missing li{color:#8a4b00}.note{color:#444}
svg.bars text{font-size:11px;fill:#333}.legend .key{margin-right:1em}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
.meta{color:#555}`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

export function renderHtml(m: ReportModel, assets: ChartAssets): string {
  const lines: Record<string, Chart> = {};
  const body = m.sections.map((s) => sectionHtml(s, lines)).join('\n');
  const csp = `default-src 'none'; script-src ${hash(assets.js)} ${hash(DRAW)}; style-src 'unsafe-inline'; img-src data:`;
  const nav = m.sections.map((s) => `<a href="#${s.id}">${esc(s.title)}</a>`).join('');
  const problems = m.problems.length
    ? `<ul class="missing">${m.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${esc(m.title)}</title>
<style>${assets.css}</style><style>${CSS}</style></head>
<body><h1>${esc(m.title)}</h1>
<p class="meta">Generated ${esc(m.generatedAt)} from ${esc(m.stateDir)}${m.filters.length ? `; ${esc(m.filters.join(', '))}` : ''}.</p>
<nav>${nav}</nav>${problems}
${body}
<script type="application/json" id="report-data">${scriptJson(lines)}</script>
<script>${assets.js}</script>
<script>${DRAW}</script>
</body></html>
`;
}
