// End to end: the real bin shims over a hand-built state directory. Needs `npm run build` first, as `npm test`
// does (test/global-setup.ts checks dist/ is fresh; rebuilding here would rewrite dist/ under the other files' processes).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelectionLogRow, TemplateScores } from '../../lib/schema/types.generated.js';
import { at, tempState, writeRuns, type RunSpec, type TempState } from './_fixtures.js';
import { captureIo } from './_io.js';
import { run as selectTemplate } from '../../scripts/select-template.js';

const root = join(import.meta.dirname, '..', '..');
let st: TempState;

beforeAll(async () => {
  st = tempState();
  const runs: RunSpec[] = [];
  for (let i = 0; i < 12; i++) {
    runs.push({
      bead: `g${i}`,
      template: 'good',
      task_type: 'bugfix',
      outcome: 'full_pass',
      iterations: 0,
      judge: 0.85,
      completed_at: at(i),
    });
    runs.push({
      bead: `m${i}`,
      template: 'meh',
      task_type: 'bugfix',
      outcome: i % 2 ? 'full_pass' : 'agent_failure',
      iterations: 1,
      judge: i % 3 ? 0.5 : null,
      completed_at: at(i),
    });
    runs.push({
      bead: `f${i}`,
      template: 'feature-only',
      task_type: 'feature',
      outcome: 'partial_pass',
      completed_at: at(i),
    });
  }
  runs.push({ bead: 'infra', template: 'meh', task_type: 'bugfix', outcome: 'infra_failure' });
  await writeRuns(st.store, runs.slice(0, 20));
  await writeRuns(st.store, runs.slice(20), false); // the rest as if written before the index existed
});
afterAll(() => st.cleanup());

function bin(cmd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(join(root, 'bin', cmd), args, {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      TMPDIR: tmpdir(),
      JUDGELOOP_STATE_DIR: st.root,
      JUDGE_ENABLED: 'true',
      JUDGE_PHASE: '4',
      ...env,
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('bin/score-templates', () => {
  it('scores a mixed state directory, writes the scores file, prints JSON with --json', () => {
    const r = bin('score-templates', ['--json']);
    // The fixture's feature-only template has 12 scored runs and no full pass: the level trigger fires, nothing else.
    expect(r.err).toMatch(
      /^score-templates: trigger \S+feature-only-low_full_pass-\S+: feature-only: full-pass rate 0\.000 over 12 scored runs .* is below 0\.5/,
    );
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out) as TemplateScores;
    expect(data.templates.map((t) => t.template)).toEqual(['good', 'feature-only', 'meh']);
    expect(data.templates.map((t) => t.basis)).toEqual(['blended', 'mechanical', 'blended']);
    expect(data.sources.feedback_files).toBe(37);
    expect(data.sources.from_index + data.sources.read_now).toBe(37);
    const file = JSON.parse(readFileSync(join(st.root, 'scores', 'templates.json'), 'utf8')) as TemplateScores;
    expect(file.templates).toEqual(data.templates);
    expect(data.ab!.templates).toBe(3);
  });

  it('works with the judge disabled; --task-type narrows the runs', () => {
    const r = bin('score-templates', ['--task-type', 'feature'], { JUDGE_ENABLED: 'false' });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/judge disabled, mechanical only, task type feature/);
    expect(r.out).toMatch(/\nfeature-only +12 +0 +100% +0%/);
    expect(r.out).not.toMatch(/\ngood /);
  });

  it('exits 1 naming a corrupt file and still scores the rest; exits 2 on bad usage', () => {
    writeFileSync(join(st.root, 'feedback', 'zz-corrupt.json'), 'not json');
    const r = bin('score-templates', ['--json']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^score-templates: skipped .*zz-corrupt\.json: not valid JSON/);
    expect((JSON.parse(r.out) as TemplateScores).templates).toHaveLength(3);
    const u = bin('score-templates', ['--bogus']);
    expect(u.code).toBe(2);
    expect(u.err).toBe("score-templates: unknown option '--bogus'; see 'score-templates --help'\n");
  });
});

describe('bin/select-template', () => {
  it('is reproducible with --seed and logs every decision with its reason', () => {
    const a = bin('select-template', ['--task-type', 'bugfix', '--seed', '7', '--json']);
    const b = bin('select-template', ['--task-type', 'bugfix', '--seed', '7', '--json']);
    expect(a.code).toBe(0);
    const ra = JSON.parse(a.out) as SelectionLogRow;
    const rb = JSON.parse(b.out) as SelectionLogRow;
    // The second decision has the first as its incumbent; the draw and the choice are the same.
    const same = (r: typeof ra) => ({ ...r, at: '', incumbent: null, margin: null, reason: '' });
    expect(same(rb)).toEqual(same(ra));
    expect(rb.incumbent).toBe(ra.chosen);
    expect(ra.candidates.map((c) => c.template).sort()).toEqual(['good', 'meh']);
    expect(ra.basis).toBe('blended');
    const log = readFileSync(join(st.root, 'selections', 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SelectionLogRow);
    expect(log.slice(-2).map((x) => x.seed)).toEqual(['7', '7']);
    expect(log.at(-1)!.reason.length).toBeGreaterThan(10);
  });

  it('explores and exploits across seeds, a new template among the candidates', async () => {
    let explored = 0;
    const n = 10;
    for (let i = 0; i < n; i++) {
      const args = ['--task-type', 'bugfix', '--candidates', 'good,meh,brand-new', '--seed', `s${i}`];
      args.push('--exploration-share', '0.5', '--dry-run');
      // The first pick through the real bin; the other nine call the command's entry in this process (a spawn
      // each cost ~0.4 s of CPU).
      let r = { code: 0 as number | null, out: '' };
      if (i === 0) r = bin('select-template', args);
      else {
        const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGE_ENABLED: 'true', JUDGE_PHASE: '4' });
        r = { code: await selectTemplate(args, io), out: io.out() };
      }
      expect(r.code).toBe(0);
      expect(['good', 'meh', 'brand-new']).toContain(r.out.trim());
      if (r.out.trim() !== 'good') explored++;
    }
    // The share itself is measured over 20,000 draws in select.test.ts; here both modes show up through the CLI.
    expect(explored).toBeGreaterThan(0);
    expect(explored).toBeLessThan(n);
  });

  it('exits 2 when no template is known for the task type', () => {
    const r = bin('select-template', ['--task-type', 'nothing']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no template has runs of task type "nothing": name the candidates with --candidates/);
  });
});
