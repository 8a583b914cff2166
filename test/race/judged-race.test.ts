// race with the judge enabled (bin/race, then its entry in this process): every solution is judged (the real SDK, a
// loopback Messages API) before its judge criteria are read, and --rate-agents rates each agent from its judgment.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as raceRun } from '../../scripts/race.js';
import { StateStore } from '../../lib/store/store.js';
import type { AgentRunRating, Judgment, Race } from '../../lib/schema/types.generated.js';
import { runHere } from '../helpers/in-process.js';
import { goodReply, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { addSolution, makeRaceProject, SOLUTIONS } from './_fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const NAMES = [
  'requirement_coverage',
  'edge_cases',
  'naming',
  'pattern_adherence',
  'error_handling',
  'security',
  'algorithmic_complexity',
];
const criteria = Object.fromEntries(NAMES.map((n) => [n, { score: 0.9, confidence: 0.8, reasoning: `${n}: fine` }]));

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply({ criteria }) });
  // The race's contrastive reward-hack question (one per solution): nothing found.
  server.route = (body) =>
    JSON.stringify(body.system).includes('reward hacking')
      ? {
          kind: 'reply',
          text: JSON.stringify({ special_cases_tests: false, edits_grader: false, does_less: false, reason: 'none' }),
        }
      : undefined;
});
const verdicts = () => server.requests.filter((q) => !JSON.stringify(q.body.system).includes('reward hacking'));
afterAll(() => server.close());

function race(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'bin', 'race'), args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same race through the entry bin/race calls, in this process (the CLI is the first race's subject). */
const raceHere = (args: string[], cwd: string, env: Record<string, string>) =>
  runHere(raceRun, args, { ...process.env, NO_COLOR: '1', ...env }, cwd);

describe('bin/race with JUDGE_ENABLED=true and --rate-agents', () => {
  it('judges each solution once, reads its criteria, and rates each agent from its judgment', async () => {
    const p = makeRaceProject();
    const task = {
      id: 'fix-clamp',
      prompt: 'clamp ignores the upper bound: fix it',
      complexity: 3,
      command: 'work-on-tasks',
    };
    addSolution(p, 'clean', SOLUTIONS.clean!, { task });
    addSolution(p, 'nobuild', SOLUTIONS.nobuild!, { task });
    const env = {
      JUDGELOOP_STATE_DIR: p.state,
      JUDGE_ENABLED: 'true',
      JUDGE_PHASE: '2',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
    };
    const r = await race(['--json', '--quiet', '--rate-agents', 'clean.json', 'nobuild.json'], p.dir, env);
    expect(r.code).toBe(0);
    const store = new StateStore(p.state);
    // Two verdicts and two contrastive questions (each solution against the other).
    expect(verdicts().length).toBe(2);
    expect(server.requests.length).toBe(4);
    for (const bead of ['bd-clean', 'bd-nobuild'])
      expect(store.read<Judgment>('judgments', bead)?.status).toBe('judged');
    const result = JSON.parse(r.stdout) as Race;
    expect(result.judge_review?.contrastive.map((c) => [c.id, c.agreement])).toEqual([
      ['bd-clean', 'neither'],
      ['bd-nobuild', 'neither'],
    ]);
    const clean = result.solutions.find((s) => s.id === 'bd-clean')!;
    const fromJudge = clean
      .evaluation!.categories.correctness.criteria.filter((c) => c.source === 'judge')
      .map((c) => c.name);
    expect(fromJudge).toEqual(expect.arrayContaining(['requirement_coverage', 'edge_cases']));
    for (const slug of ['clean', 'nobuild']) {
      const rows = store.readLines<AgentRunRating>('ratings', slug).rows;
      expect(rows).toHaveLength(1);
    }
    expect(r.stderr).toMatch(/bd-clean: rated clean: quality \d/);

    // A second race of the same runs re-runs the checks (new timings in the test output) yet pays for no judge
    // call: timings are masked out of the context, so the content-keyed cache holds.
    const again = await raceHere(['--json', '--quiet', '--rate-agents', 'clean.json', 'nobuild.json'], p.dir, env);
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(4);
    expect(JSON.parse(again.stdout).judge_review.contrastive.every((c: { cached: boolean }) => c.cached)).toBe(true);
    for (const slug of ['clean', 'nobuild']) expect(store.readLines('ratings', slug).rows).toHaveLength(1);
    expect(JSON.parse(again.stdout).judge).toMatchObject({ judged: 0, cached: 2, deferred: 0, without: [] });

    // Over the hourly limit a new solution's judgment is deferred (queued): the ranking's stdout says how many,
    // why, and which runs were ranked without the judge.
    addSolution(p, 'stub', SOLUTIONS.stub!, { task });
    const limited = await raceHere(['--quiet', 'clean.json', 'nobuild.json', 'stub.json'], p.dir, {
      ...env,
      JUDGE_MAX_PER_HOUR: '4',
    });
    expect(limited.code).toBe(0);
    expect(server.requests.length).toBe(4);
    expect(limited.stdout).toContain(
      'Judge: 0 judged, 2 reused from the cache (no call), 1 deferred (the hourly limit, judge.max_per_hour: 4 of 4 judge calls used in the last hour; queued).',
    );
    expect(limited.stdout).toContain("Ranked without the judge's criteria: bd-stub; `judgeloop judge --drain`");
    // The text shows the judge's questions too: over the limit, each new question unanswered with the reason.
    expect(limited.stdout).toContain("Judge's reward-hack question (each solution against the others' diffs):");
    expect(limited.stdout).toMatch(/\n {2}bd-stub: no answer \(4 of 4 judge calls used in the hour\)/);
    expect(store.list('queue')).toEqual(['bd-stub']);
  }, 240_000);
});
