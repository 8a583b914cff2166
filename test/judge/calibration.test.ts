// judgeloop calibrate: the judge's verdicts (scripted replies through the real SDK) and races' winners against the
// user's recorded choices, with disagreements; the pure tables, kappa and warnings.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as judge } from '../../scripts/judge.js';
import { run as calibrateCmd } from '../../scripts/calibrate.js';
import { calibrate } from '../../lib/judge/calibration.js';
import { cohensKappa } from '../../lib/stats/kappa.js';
import { validate } from '../../lib/schema/schema.js';
import type { Judgment, Race, RaceChoice, UserVerdict } from '../../lib/schema/types.generated.js';
import { captureIo, feedbackFor, judgeConfigFile, runWithFeedback } from './helpers/feedback.js';
import { recordFor, removeRuns } from './helpers/fixtures.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

afterAll(removeRuns);

const dims = (c: number, o = c) => ({ correctness: c, scope_adherence: o, code_quality: o, completeness: o });
const judgment = (bead: string, verdict: 'pass' | 'partial' | 'fail', d = dims(0.9)) =>
  ({ bead, status: 'judged', verdict, dimensions: d }) as unknown as Judgment;
const uv = (bead: string, verdict: 'pass' | 'fail', dimension: UserVerdict['dimension'] = null): UserVerdict => ({
  schema_version: '1.0.0',
  bead,
  verdict,
  dimension,
  reviewer: null,
  recorded_at: '2026-01-01T00:00:00.000Z',
});
const race = (id: string, solutions: string[]) =>
  ({ race_id: id, solutions: solutions.map((s) => ({ id: s })) }) as Race;
const choice = (id: string, rec: string | null, chosen: string | null, user_choice: RaceChoice['user_choice']) =>
  ({ ranking_id: id, recommended_solution_id: rec, chosen_solution_id: chosen, user_choice }) as RaceChoice;

describe('calibrate (pure)', () => {
  it('verdict table (partial counts as fail), per-dimension table at 0.7, races per solution, warnings under the floor', () => {
    const c = calibrate({
      judgments: [
        judgment('a', 'pass'),
        judgment('b', 'pass'),
        judgment('c', 'partial'),
        judgment('d', 'fail', dims(0.2)),
        judgment('e', 'pass', dims(0.95, 0.75)),
        { ...judgment('f', 'pass'), status: 'failed', verdict: null } as unknown as Judgment,
      ],
      userVerdicts: [
        uv('a', 'pass'),
        uv('b', 'fail', 'correctness'), // judge pass, correctness 0.9 → pass: disagrees twice
        uv('c', 'fail'),
        uv('d', 'pass', 'correctness'), // judge fail, correctness 0.2 → fail: disagrees twice
        uv('e', 'pass', 'code_quality'), // 0.75 → pass: agrees
        uv('f', 'fail'),
        uv('g', 'pass'),
      ],
      races: [race('r1', ['s1', 's2', 's3']), race('r2', ['t1', 't2']), race('r3', ['u1', 'u2'])],
      choices: [
        choice('r1', 's1', 's1', 'accepted_winner'),
        choice('r2', 't1', 't2', 'chose_other'),
        choice('r3', 'u1', null, 'rejected_all'),
        choice('r4', 'v1', 'v1', 'accepted_winner'), // no race record
        choice('r5', 'w1', null, 'manual_edit'),
      ],
      floor: 0.7,
    });
    // rows judge pass/fail, columns user pass/fail: a (p,p), b (p,f), c (f,f), d (f,p), e (p,p)
    expect(c.verdicts.table).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect(c.verdicts.agreement).toBeCloseTo(3 / 5, 12);
    expect(c.verdicts.kappa).toEqual(cohensKappa(c.verdicts.table));
    expect(c.verdicts.below_floor).toBe(true);
    expect(c.unjudged).toEqual(['f', 'g']);
    expect(c.dimensions.map((t) => [t.what, t.table])).toEqual([
      [
        'dimension:code_quality',
        [
          [1, 0],
          [0, 0],
        ],
      ],
      [
        'dimension:correctness',
        [
          [0, 1],
          [1, 0],
        ],
      ],
    ]);
    expect(c.dimensions[1]!.kappa!.kappa).toBeCloseTo(-1, 12);
    // Races: r1 agrees, r2 and r3 do not; r4 (no record) and r5 (manual edit) left out.
    expect(c.races.agreement).toBeCloseTo(1 / 3, 12);
    expect(c.races.agreed_of).toBe(3);
    expect(c.races_left_out).toEqual(['r4', 'r5']);
    // Solutions: s1 (w, chosen), s2, s3 (not, not); t1 (w, not), t2 (not, chosen); u1 (w, not), u2 (not, not)
    expect(c.races.table).toEqual([
      [1, 2],
      [1, 3],
    ]);
    expect(c.warnings).toEqual([
      'the judge agrees with your verdicts on 3 of 5 (60%), below the floor 70% (judge.calibration_floor)',
      'the judge agrees with your correctness verdicts on 0 of 2 (0%), below the floor 70% (judge.calibration_floor)',
      "the races' winners agree with your races on 1 of 3 (33%), below the floor 70% (judge.calibration_floor)",
    ]);
    expect(calibrate({ judgments: [], userVerdicts: [], races: [], choices: [], floor: 0.7 })).toMatchObject({
      verdicts: { n: 0, agreement: null, kappa: null, below_floor: false },
      warnings: [],
    });
  });
});

describe('judgeloop calibrate', () => {
  let server: MessagesServer;
  beforeAll(async () => {
    server = await startMessagesServer();
  });
  afterAll(() => server.close());

  it('scripted judge replies that disagree with recorded user verdicts: tables, kappa, a warning, the text view', {
    timeout: 120_000,
  }, async () => {
    const { fx, store } = runWithFeedback();
    const config = judgeConfigFile({ max_per_hour: 100, phase: 2, calibration_floor: 0.8 });
    const env = {
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: fx.stateDir,
      JUDGELOOP_CONFIG: config,
      JUDGELOOP_NOW: '2026-03-01T10:00:00Z',
    };
    const dir = join(dirname(fx.recordPath), 'records');
    mkdirSync(dir, { recursive: true });
    const replies: Record<string, ReturnType<typeof dims>> = {
      'bd-1': dims(0.9),
      'bd-2': dims(0.2),
      'bd-3': dims(0.9),
      'bd-4': dims(0.6),
    };
    for (const [bead, d] of Object.entries(replies)) {
      const path = recordFor(fx, bead, dir, { task: { id: `t-${bead}`, prompt: `${fx.record.task.prompt} ${bead}` } });
      store.write('feedback', bead, feedbackFor({ ...fx.record, bead }));
      server.script.push({ kind: 'reply', text: goodReply({ dimensions: d }) });
      expect(await judge([path], captureIo(env))).toBe(0);
    }
    expect(Object.keys(replies).map((b) => store.read<Judgment>('judgments', b)!.verdict)).toEqual([
      'pass',
      'fail',
      'pass',
      'partial',
    ]);
    const record = async (...args: string[]) => {
      const io = captureIo(env);
      expect(await calibrateCmd(['--record', ...args], io)).toBe(0);
      return io.err.join('');
    };
    expect(await record('bd-1', '--verdict', 'pass')).toMatch(/bd-1: your verdict pass recorded; the judge said pass/);
    await record('bd-2', '--verdict', 'pass', '--reviewer', 'alice');
    await record('bd-3', '--verdict', 'fail', '--dimension', 'correctness', '--note', 'wrong on odd input');
    await record('bd-4', '--verdict', 'fail');
    expect(await record('bd-9', '--verdict', 'fail')).toMatch(/no judged verdict yet/);
    for (const b of ['bd-1', 'bd-2', 'bd-3', 'bd-4', 'bd-9'])
      expect(validate('user-verdict', store.read('user_verdicts', b)).ok).toBe(true);
    expect(store.read<UserVerdict>('user_verdicts', 'bd-3')).toMatchObject({
      dimension: 'correctness',
      note: 'wrong on odd input',
      recorded_at: '2026-03-01T10:00:00.000Z',
    });

    const io = captureIo(env);
    expect(await calibrateCmd(['--json'], io)).toBe(0);
    const c = JSON.parse(io.out.join(''));
    // judge pass/fail × user pass/fail: bd-1 (p,p), bd-2 (f,p), bd-3 (p,f), bd-4 partial→f (f,f)
    expect(c.verdicts.table).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(c.verdicts.agreement).toBe(0.5);
    expect(c.verdicts.kappa.kappa).toBeCloseTo(0, 12);
    expect(c.dimensions).toHaveLength(1);
    expect(c.dimensions[0]).toMatchObject({
      what: 'dimension:correctness',
      table: [
        [0, 1],
        [0, 0],
      ],
    });
    expect(c.unjudged).toEqual(['bd-9']);
    expect(c.state_dir).toBe(fx.stateDir);
    expect(io.err.join('')).toMatch(
      /warning: the judge agrees with your verdicts on 2 of 4 \(50%\), below the floor 80%/,
    );

    const text = captureIo(env);
    expect(await calibrateCmd([], text)).toBe(0);
    const out = text.out.join('');
    expect(out).toMatch(
      /^verdicts\s+4\s+50% \[\d+%, \d+%\]\s+0\.00 \[-0\.\d\d, 0\.\d\d\]\s+1 1 \/ 1 1\s+below floor$/m,
    );
    expect(out).toMatch(/bd-2: judge fail, you pass/);
    expect(out).toMatch(/bd-3 \(correctness\): judge 0\.90, you fail/);

    const bad = captureIo(env);
    await expect(calibrateCmd(['--verdict', 'pass'], bad)).rejects.toThrow(/--verdict goes with --record/);
    await expect(calibrateCmd(['--record', 'bd-1', '--verdict', 'maybe'], bad)).rejects.toThrow(/--verdict pass/);
  });
});
