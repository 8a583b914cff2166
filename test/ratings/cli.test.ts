// The bins end to end: exit codes, stdout/stderr split, the routing log.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../scripts/lib/ratings/store-io.js';
import type { RoutingDecision } from '../../scripts/lib/types.generated.js';
import { bin, feedback, ROOT, tempStore } from './helpers.js';

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'scripts', 'route.js'))) throw new Error('run `npm run build` first');
});

describe('bin/agents, bin/rate, bin/ratings, bin/route', () => {
  it('registers agents, rates runs, shows them and routes a task, logging the decision', () => {
    const s = tempStore();
    expect(bin('agents', ['add', 'fast', '--cost-per-million', '3', '--max-complexity', '6'], s).code).toBe(0);
    expect(bin('agents', ['add', 'fast'], s)).toMatchObject({ code: 2, stderr: expect.stringMatching(/already registered/) });
    expect(bin('agents', ['add', 'slow', '--max-complexity', '4', '--rating', '6'], s).code).toBe(0);
    s.write('feedback', 'bd-1', feedback('bd-1', { agent: 'fast', tokens: 100_000, complexity: 6, judgeScore: 0.9 }));
    s.write('feedback', 'bd-2', feedback('bd-2', { agent: 'slow', complexity: 3 }));
    const r1 = bin('rate', ['bd-1', '--json'], s, { JUDGELOOP_NOW: '2026-03-01T10:00:00Z' });
    expect(r1.code).toBe(0);
    expect(JSON.parse(r1.stdout)[0]).toMatchObject({ status: 'rated', agent: 'fast', summary: { quality_source: 'judge', quality_score: 9, max_complexity_after: 7 } });
    expect(bin('rate', ['bd-2', '--rating-strict'], s)).toMatchObject({ code: 1, stderr: expect.stringMatching(/bd-2: not rated: no judgment and no reviewer quality/) });
    expect(bin('rate', ['bd-2'], s)).toMatchObject({ code: 0, stderr: expect.stringMatching(/not rated/) });
    expect(bin('rate', ['bd-2', '--quality', '12'], s)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--quality "12": expected a number from 0 to 10/) });
    expect(bin('rate', ['bd-2', '--quality', '3', '--reviewer', 'human'], s, { JUDGELOOP_NOW: '2026-03-01T11:00:00Z' }).code).toBe(0);
    expect(readLog(s, 'slow').rows[0]!.row).toMatchObject({ quality_source: 'reviewer', reviewer: 'human' });

    const table = bin('ratings', [], s);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Agents\nagent +rating +n +moved\(last\)/);
    expect(table.stdout).toMatch(/\nfast +\d+\.\d\d +1 /);
    expect(table.stdout).toMatch(/2026-03-01T10:00:00.000Z +fast +bd-1 +work-on-tasks +6 +9\.0 judge/);
    const json = JSON.parse(bin('ratings', ['--agent', 'slow', '--json'], s).stdout);
    expect(json.profiles).toHaveLength(1);
    expect(json.runs.map((r: { bead: string }) => r.bead)).toEqual(['bd-2']);
    expect(bin('ratings', ['--agent', 'ghost'], s).code).toBe(2);

    const route = bin('route', ['--command', 'work-on-tasks', '--complexity', '7', '--seed', 'demo', '--json'], s);
    expect(route.code).toBe(0);
    const d = JSON.parse(route.stdout) as RoutingDecision;
    expect(d).toMatchObject({ agent: 'fast', seed: 'demo', fallback: false });
    const fb = bin('route', ['--command', 'work-on-tasks', '--complexity', '8', '--seed', 'x'], s);
    expect(fb).toMatchObject({ code: 0, stdout: 'fast\n', stderr: expect.stringMatching(/warning: no agent has max_complexity >= 8; falling back to agents at 7/) });
    expect(bin('route', ['--command', 'work-on-tasks', '--complexity', '10'], s)).toMatchObject({ code: 1, stdout: '' });
    expect(bin('route', ['--complexity', '3'], s).code).toBe(2);
    const { rows, bad } = s.readLines<RoutingDecision>('routing', 'decisions');
    expect(bad).toEqual([]);
    expect(rows.map((r) => [r.mode, r.agent, r.fallback])).toEqual([[d.mode, 'fast', false], [expect.any(String), 'fast', true], ['none', null, true]]);
  });
});
