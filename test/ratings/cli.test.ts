// The bins end to end: exit codes, stdout/stderr split, the routing log.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../lib/ratings/agent-log.js';
import type { RoutingDecision } from '../../lib/schema/types.generated.js';
import { bin, feedback, here, ROOT, tempStore } from './helpers.js';
import { captureIo } from '../templates/_io.js';
import { run as route } from '../../scripts/route.js';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'route.js'))) throw new Error('run `npm run build` first');
});

describe('bin/agents, bin/rate, bin/ratings, bin/route', () => {
  // Each bin as a process once per behaviour (exit 0, 1 and 2, stdout and stderr apart); the other calls run the
  // same entries in this process.
  it('registers agents, rates runs, shows them and routes a task, logging the decision', async () => {
    const s = tempStore();
    expect(bin('agents', ['add', 'fast', '--cost-per-million', '3', '--max-complexity', '6'], s).code).toBe(0);
    expect(await here('agents', ['add', 'fast'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/already registered/),
    });
    expect((await here('agents', ['add', 'slow', '--max-complexity', '4', '--rating', '6'], s)).code).toBe(0);
    s.write('feedback', 'bd-1', feedback('bd-1', { agent: 'fast', tokens: 100_000, complexity: 6, judgeScore: 0.9 }));
    s.write('feedback', 'bd-2', feedback('bd-2', { agent: 'slow', complexity: 3 }));
    const r1 = bin('rate', ['bd-1', '--json'], s, { JUDGELOOP_NOW: '2026-03-01T10:00:00Z' });
    expect(r1.code).toBe(0);
    expect(JSON.parse(r1.stdout)[0]).toMatchObject({
      status: 'rated',
      agent: 'fast',
      summary: { quality_source: 'judge', quality_score: 9, max_complexity_after: 7 },
    });
    expect(bin('rate', ['bd-2', '--rating-strict'], s)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/bd-2: not rated: no judgment and no reviewer quality/),
    });
    expect(await here('rate', ['bd-2'], s)).toMatchObject({ code: 0, stderr: expect.stringMatching(/not rated/) });
    expect(await here('rate', ['bd-2', '--quality', '12'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--quality "12": expected a number from 0 to 10/),
    });
    expect(
      (
        await here('rate', ['bd-2', '--quality', '3', '--reviewer', 'human'], s, {
          JUDGELOOP_NOW: '2026-03-01T11:00:00Z',
        })
      ).code,
    ).toBe(0);
    expect(readLog(s, 'slow').rows[0]!.row).toMatchObject({ quality_source: 'reviewer', reviewer: 'human' });

    const table = bin('ratings', [], s);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Agents\nagent +rating +n +moved\(last\)/);
    expect(table.stdout).toMatch(/\nfast +\d+\.\d\d +1 /);
    expect(table.stdout).toMatch(/2026-03-01T10:00:00.000Z +fast +bd-1 +work-on-tasks +6 +9\.0 judge/);
    const json = JSON.parse((await here('ratings', ['--agent', 'slow', '--json'], s)).stdout);
    expect(json.profiles).toHaveLength(1);
    expect(json.runs.map((r: { bead: string }) => r.bead)).toEqual(['bd-2']);
    expect((await here('ratings', ['--agent', 'ghost'], s)).code).toBe(2);

    const route = bin('route', ['--command', 'work-on-tasks', '--complexity', '7', '--seed', 'demo', '--json'], s);
    expect(route.code).toBe(0);
    const d = JSON.parse(route.stdout) as RoutingDecision;
    expect(d).toMatchObject({ agent: 'fast', seed: 'demo', fallback: false });
    const fb = bin('route', ['--command', 'work-on-tasks', '--complexity', '8', '--seed', 'x'], s);
    expect(fb).toMatchObject({
      code: 0,
      stdout: 'fast\n',
      stderr: expect.stringMatching(/warning: no agent has max_complexity >= 8; falling back to agents at 7/),
    });
    expect(await here('route', ['--command', 'work-on-tasks', '--complexity', '10'], s)).toMatchObject({
      code: 1,
      stdout: '',
    });
    expect((await here('route', ['--complexity', '3'], s)).code).toBe(2);
    const { rows, bad } = s.readLines<RoutingDecision>('routing', 'decisions');
    expect(bad).toEqual([]);
    expect(rows.map((r) => [r.mode, r.agent, r.fallback])).toEqual([
      [d.mode, 'fast', false],
      [expect.any(String), 'fast', true],
      ['none', null, true],
    ]);
  });
});

describe('issue 17: deliberate registration, one-line errors', () => {
  it('an agent first seen in a rated run (quality 9.5) is not routed until bin/agents enable', async () => {
    const s = tempStore();
    expect((await here('agents', ['add', 'known', '--rating', '6'], s)).code).toBe(0);
    s.write('feedback', 'u-1', feedback('u-1', { agent: 'stranger', complexity: 3, judgeScore: 0.95 }));
    const r = await here('rate', ['u-1'], s, { JUDGELOOP_NOW: '2026-03-01T10:00:00Z' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /agent stranger was not registered: added DISABLED for routing .*judgeloop agents enable stranger/,
    );
    const args = (i: number) => ['--command', 'work-on-tasks', '--complexity', '3', '--seed', `s${i}`];
    expect(await here('route', args(0), s)).toMatchObject({ code: 0, stdout: 'known\n' });
    // The other 49 picks call the command's entry in this process (a spawn each cost ~0.4 s of the suite's CPU).
    const picks = async (n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const io = captureIo({ JUDGELOOP_STATE_DIR: s.root, NO_COLOR: '1' });
        expect(await route(args(i), io)).toBe(0);
        out.push(io.out().trim());
      }
      return out;
    };
    expect((await picks(20)).filter((a) => a === 'stranger')).toEqual([]);
    expect(await here('agents', ['enable', 'stranger'], s)).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/stranger: enabled: routable/),
    });
    expect(await picks(20)).toContain('stranger');
    expect((await here('agents', ['disable', 'stranger'], s)).code).toBe(0);
    expect((await picks(10)).filter((a) => a === 'stranger')).toEqual([]);
  });

  it('completion before start: exit 2, one line, no stack trace; negative numbers get the range message', async () => {
    const s = tempStore();
    const fb = feedback('neg', { judgeScore: 0.8 });
    fb.run.completed_at = '2025-12-31T00:00:00.000Z';
    s.write('feedback', 'neg', fb);
    const r = bin('rate', ['neg'], s);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^neg: run\.completed_at .* is before run\.started_at/);
    s.write('feedback', 'ok', feedback('ok'));
    expect(await here('rate', ['ok', '--quality', '-1'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--quality "-1": expected a number from 0 to 10\n$/),
    });
    expect(await here('agents', ['add', 'a', '--rating', '-0.5'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--rating "-0\.5": expected a number from 0 to 10\n$/),
    });
    expect(await here('route', ['--command', 'c', '--complexity', '-3'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--complexity "-3": expected a whole number from 1 to 10\n$/),
    });
    expect(await here('select-template', ['--candidates', 'a,b', '--exploration-share', '-0.2'], s)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--exploration-share "-0\.2": expected a number from 0 to 1\n$/),
    });
  });
});
