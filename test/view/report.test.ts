// bin/report over a state built by the real commands (race, accept, agents, rate, route, select-template, score-templates:
// their bins' entries, in this process), opened in headless Chromium: no console error, no request, every chart drawn,
// text from state shown as text (never run), and the tables' numbers equal to what score-templates, race and ratings print.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext as Browser } from 'playwright-core';
import { readEnv } from '../../lib/base/env.js';
import type { Io } from '../../lib/cli/cli.js';
import { StateStore } from '../../lib/store/store.js';
import { run as accept } from '../../scripts/accept.js';
import { run as agents } from '../../scripts/agents.js';
import { run as raceCmd } from '../../scripts/race.js';
import { run as rate } from '../../scripts/rate.js';
import { run as ratings } from '../../scripts/ratings.js';
import { run as report } from '../../scripts/report.js';
import { run as route } from '../../scripts/route.js';
import { run as scoreTemplates } from '../../scripts/score-templates.js';
import { run as selectTemplate } from '../../scripts/select-template.js';
import type { JudgeLedgerRow } from '../../lib/schema/types.generated.js';
import { judgmentFor, writeJudgmentFile } from '../helpers/judgment.js';
import { tempDir } from '../helpers/temp.js';
import { addSolution, makeRaceProject, SOLUTIONS, type RaceProject } from '../race/_fixture.js';
import { at, writeRuns, type RunSpec } from '../templates/_fixtures.js';
import { launch, openReport, type Opened } from './_browser.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EVIL = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const DAY = 24 * 60;

function bin(name: string, args: string[], state: string, env: Record<string, string> = {}) {
  const r = spawnSync(join(ROOT, 'bin', name), args, {
    cwd: join(state, '..'),
    encoding: 'utf8',
    env: { ...process.env, JUDGELOOP_STATE_DIR: state, NO_COLOR: '1', JUDGE_ENABLED: 'false', ...env },
  });
  if (r.status !== 0) throw new Error(`bin/${name} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

const COMMANDS: Record<string, (argv: string[], io: Io) => Promise<number>> = {
  accept,
  agents,
  race: raceCmd,
  rate,
  ratings,
  report,
  route,
  'score-templates': scoreTemplates,
  'select-template': selectTemplate,
};

/** A command run in this process through the entry its bin calls (`run` of scripts/<name>.ts): its stdout. */
async function cmd(name: string, args: string[], state: string, env: Record<string, string> = {}): Promise<string> {
  const run = COMMANDS[name]!;
  const all = { ...process.env, JUDGELOOP_STATE_DIR: state, NO_COLOR: '1', JUDGE_ENABLED: 'false', ...env };
  let out = '';
  let err = '';
  const io: Io = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: readEnv(all),
    processEnv: all,
    cwd: join(state, '..'),
    color: false,
  };
  const code = await run(args, io);
  if (code !== 0) throw new Error(`${name} ${args.join(' ')}: exit ${code}\n${err}`);
  return out;
}

/** Runs of three templates over ten days; the hostile one always fails (a trigger fires on it). */
function templateRuns(): RunSpec[] {
  const runs: RunSpec[] = [];
  for (let d = 0; d < 10; d++)
    for (let k = 0; k < 3; k++) {
      const i = d * 3 + k;
      runs.push({
        bead: `bd-a${i}`,
        template: 'bugfix-v1',
        outcome: k === 0 ? 'partial_pass' : 'full_pass',
        completed_at: at(d * DAY + k * 60),
        iterations: k === 2 ? 1 : 0,
        judge: 0.6 + 0.03 * k,
      });
      runs.push({
        bead: `bd-b${i}`,
        template: 'bugfix-v2',
        outcome: k === 1 ? 'timeout' : 'full_pass',
        completed_at: at(d * DAY + k * 60 + 5),
        iterations: 0,
        judge: d % 2 ? 0.9 : null,
      });
      runs.push({
        bead: `bd-e${i}`,
        template: EVIL,
        outcome: 'agent_failure',
        completed_at: at(d * DAY + k * 60 + 9),
        iterations: 0,
        judge: 0.2,
        issues: [{ description: `${EVIL} breaks the build`, category: 'correctness' }],
      });
    }
  return runs;
}

const ledgerRow = (i: number, outcome: string): JudgeLedgerRow => ({
  type: 'call',
  at: at(i * DAY + 30),
  bead: `bd-a${i}`,
  pid: 1,
  model: 'claude-opus-4',
  backend: 'sdk',
  cache_key: `k${i}`,
  input_tokens: 1000,
  output_tokens: 200,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0.0123 * (i + 1),
  latency_ms: 900,
  outcome,
  ...(outcome === 'ok' ? {} : { cause: `HTTP 529 ${EVIL}` }),
  retries: 0,
});

const JUDGED = { JUDGE_ENABLED: 'true', JUDGE_PHASE: '4' };

/** A table's rows as objects keyed by its header. */
function rowsOf(t: string[][] | undefined): Record<string, string>[] {
  expect(t, 'table present').toBeDefined();
  const [head, ...rows] = t!;
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!])));
}
const shown = (x: number | null) => (x === null ? '—' : String(Math.round(x * 1000) / 10));
const rating = (x: number | null) => (x === null ? '—' : String(Math.round(x * 100) / 100));

describe('bin/report over a full state, in Chromium', () => {
  let p: RaceProject;
  let browser: Browser;
  let page: Opened;
  let html: string;
  beforeAll(async () => {
    p = makeRaceProject();
    const store = new StateStore(p.state);
    await writeRuns(store, templateRuns());
    addSolution(p, 'clean', SOLUTIONS.clean!);
    addSolution(p, 'stub', SOLUTIONS.stub!);
    await cmd('race', ['--quiet', 'clean.json', 'stub.json'], p.state);
    writeJudgmentFile(p.state, judgmentFor('bd-clean', { score: 0.9, judged_at: at(2 * DAY) }));
    writeJudgmentFile(p.state, judgmentFor('bd-stub', { score: 0.3, judged_at: at(2 * DAY), cached_from: 'bd-a1' }));
    await cmd('accept', ['race-clamp', '--solution', 'bd-clean', '--notes', EVIL], p.state);
    for (let i = 0; i < 4; i++) store.appendLine('judge-ledger', 'judge', ledgerRow(i, i === 2 ? 'overloaded' : 'ok'));
    await cmd('agents', ['add', 'claude', '--max-complexity', '4', '--rating', '6'], p.state);
    for (let d = 0; d < 6; d++)
      await cmd('rate', [`bd-a${d * 3 + 1}`, '--quality', String(6 + (d % 3))], p.state, {
        JUDGELOOP_NOW: at(d * DAY + 120),
      });
    await cmd('agents', ['set', 'claude', '--max-complexity', '6', '--reason', `review ${EVIL}`], p.state, {
      JUDGELOOP_NOW: at(7 * DAY),
    });
    for (let s = 0; s < 5; s++) {
      await cmd('route', ['--command', 'fix', '--complexity', '3', '--seed', `s${s}`], p.state);
      await cmd('select-template', ['--seed', `t${s}`], p.state, JUDGED);
    }
    await cmd('score-templates', [], p.state, JUDGED); // fires the triggers (phase 4)
    const out = join(p.dir, 'report.html');
    expect(bin('report', ['--out', out], p.state, JUDGED)).toBe(`${out}\n`);
    html = readFileSync(out, 'utf8');
    browser = await launch();
    page = await openReport(browser, out);
    if (process.env.UPDATE_REPORT_PNG) {
      const png = join(tempDir('jl-png-'), 'report.png');
      await page.page.screenshot({ path: png, fullPage: false });
      copyFileSync(png, join(ROOT, 'docs', 'report.png'));
    }
  }, 240_000);
  afterAll(async () => browser?.close());

  it('opens with no console error and asks the network for nothing', () => {
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([]);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });

  it('draws every chart: painted canvas pixels for uPlot, bars for SVG', () => {
    expect(page.charts.length).toBeGreaterThanOrEqual(8);
    expect(page.drawn).toBe(page.charts.filter((c) => c.kind === 'canvas').length);
    for (const c of page.charts) expect(c.painted, c.id).toBeGreaterThan(c.kind === 'canvas' ? 500 : 0);
  });

  it("spans each per-day chart's x-axis over its data's days, half a day either side at most", () => {
    const lines = page.charts.filter((c) => c.kind === 'canvas');
    expect(lines.length).toBeGreaterThan(0);
    for (const c of lines) {
      const [lo, hi] = c.range!;
      const [first, last] = c.days!;
      expect(lo, c.id).toBeGreaterThanOrEqual(first - 43_200);
      expect(hi, c.id).toBeLessThanOrEqual(last + 43_200);
      expect(hi - lo, c.id).toBeGreaterThan(0);
    }
  });

  it('shows text from state as text: the hostile template, finding and notes never run', async () => {
    expect(await page.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.page.locator('img').count()).toBe(0);
    const templates = rowsOf(page.tables['Templates (as judgeloop score-templates scores them)']);
    expect(templates.map((r) => r.template)).toContain(EVIL);
    expect(html).not.toContain(EVIL);
    // The trigger fired on the hostile template by score-templates (phase 4), its evidence quoting the judge issue.
    const triggers = rowsOf(page.tables['Refinement triggers']);
    expect(triggers.map((t) => t.template)).toContain(EVIL);
    expect(triggers.some((t) => t.evidence!.includes(`${EVIL} breaks the build`))).toBe(true);
  });

  it('prints the numbers bin/score-templates --json prints', async () => {
    const json = JSON.parse(await cmd('score-templates', ['--json'], p.state, JUDGED)) as {
      templates: {
        template: string;
        runs: number;
        scored_runs: number;
        score: number | null;
        mechanical: { value: number | null; interval: { low: number; high: number } | null };
        judge: { value: number | null; n: number };
      }[];
    };
    const rows = rowsOf(page.tables['Templates (as judgeloop score-templates scores them)']);
    expect(rows.map((r) => r.template)).toEqual(json.templates.map((t) => t.template));
    json.templates.forEach((t, i) => {
      expect(rows[i]).toMatchObject({
        runs: String(t.runs),
        'scored runs': String(t.scored_runs),
        score: shown(t.score),
        mechanical: shown(t.mechanical.value),
        'mechanical low': shown(t.mechanical.interval?.low ?? null),
        'mechanical high': shown(t.mechanical.interval?.high ?? null),
        judge: shown(t.judge.value),
        'judged runs': String(t.judge.n),
      });
    });
    // The per-day table of a template sums to its runs.
    const days = rowsOf(page.tables['bugfix-v1: score per day']);
    expect(days.reduce((s, r) => s + Number(r.runs), 0)).toBe(
      json.templates.find((t) => t.template === 'bugfix-v1')!.runs,
    );
  });

  it('prints the numbers bin/race --json prints, the gate, the findings with file:line and the choice', async () => {
    const race = JSON.parse(await cmd('race', ['--race', 'race-clamp', '--json'], p.state)) as {
      ranking: { winner: string | null; confidence: number };
      solutions: {
        id: string;
        rank: number | null;
        score: number | null;
        composite: number | null;
        flags: { file?: string; line?: number }[];
      }[];
    };
    const rows = rowsOf(page.tables['Race race-clamp: ranking and the mergeable gate']);
    expect(rows.map((r) => [r.solution, r.rank, r.score, r.composite])).toEqual(
      race.solutions.map((s) => [s.id, String(s.rank), shown(s.score), shown(s.composite)]),
    );
    expect(html).toContain(`confidence ${shown(race.ranking.confidence)}%`);
    expect(html).toContain(`winner ${race.ranking.winner}`);
    expect(html).toContain('user&#39;s choice: chose_other bd-clean'.replace('chose_other', 'accepted_winner'));
    const flagged = race.solutions.flatMap((s) =>
      s.flags.filter((f) => f.file && f.line).map((f) => `${f.file}:${f.line}`),
    );
    expect(flagged.length).toBeGreaterThan(0);
    const where = rowsOf(page.tables['Race race-clamp: findings']).map((r) => r.where);
    for (const w of flagged) expect(where).toContain(w);
  });

  it('prints the numbers bin/ratings --json prints, and the set with its reason', async () => {
    const json = JSON.parse(await cmd('ratings', ['--json'], p.state)) as {
      profiles: { slug: string; rating: number | null; rating_samples: number; max_complexity: number }[];
    };
    const rows = rowsOf(page.tables['Agents (as judgeloop ratings shows them)']);
    expect(rows.map((r) => [r.agent, r.rating, r['rated runs'], r.max_complexity])).toEqual(
      json.profiles.map((a) => [a.slug, rating(a.rating), String(a.rating_samples), String(a.max_complexity)]),
    );
    const moves = rowsOf(page.tables['Promotions, demotions and cooldowns']);
    expect(moves.at(-1)).toMatchObject({
      agent: 'claude',
      action: 'set',
      max_complexity: '4→6',
      evidence: `review ${EVIL}`,
    });
  });

  it('counts the judge calls, cost, cache hits and failures per day, and the agreement with the choice', () => {
    const days = rowsOf(page.tables['Judge calls, cost and cache hits per day']);
    expect(days.map((d) => [d.day, d.calls, d['failed calls'], d['cost USD']])).toEqual(
      [0, 1, 2, 3].map((i) => [at(i * DAY).slice(0, 10), '1', i === 2 ? '1' : '0', String(0.0123 * (i + 1))]),
    );
    expect(days.find((d) => d.day === at(2 * DAY).slice(0, 10))!['cache hits']).toBe('1');
    expect(rowsOf(page.tables['Failures by cause'])).toEqual([{ cause: 'overloaded', failures: '1' }]);
    expect(Object.keys(page.tables)).toContain("Agreement with the user's recorded choices: judge 1 of 1 (100%)");
  });
});

describe('bin/report over a thin state', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());

  it('says what is missing instead of drawing empty charts: nothing at all, then one template only', async () => {
    const dir = tempDir('jl-report-');
    const state = join(dir, 'state');
    const out = join(dir, 'r.html');
    await cmd('report', ['--out', out], state);
    let opened = await openReport(browser, out);
    expect(opened.errors).toEqual([]);
    expect(opened.charts).toEqual([]);
    const text = await opened.page.textContent('body');
    for (const m of ['No feedback records', 'No races in state/races', 'No agents', 'No judge calls', 'No judgments'])
      expect(text).toContain(m);
    await writeRuns(new StateStore(state), [
      { bead: 'bd-1', template: 'only', outcome: 'full_pass', completed_at: at(0) },
      { bead: 'bd-2', template: 'only', outcome: 'partial_pass', completed_at: at(DAY) },
    ]);
    await cmd('report', ['--out', out, '--since', at(DAY).slice(0, 10)], state);
    opened = await openReport(browser, out);
    expect(opened.errors).toEqual([]);
    expect(await opened.page.textContent('body')).toContain('Only one template has runs');
    expect(rowsOf(opened.tables['Templates (as judgeloop score-templates scores them)'])[0]).toMatchObject({
      runs: '1',
    });
    expect(opened.charts.map((c) => c.painted > 500)).toEqual([true]);
  });

  it('refuses a bad --since in one line (exit 2)', () => {
    const r = spawnSync(join(ROOT, 'bin', 'report'), ['--since', 'last week'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('--since "last week": expected a date (2026-01-31) or an ISO time\n');
  });
});
